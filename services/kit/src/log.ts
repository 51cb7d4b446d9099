import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './request.js';

export type { Logger };

/**
 * One JSON logger per process component; LOG_LEVEL picks the level (default info, "silent" in
 * tests). A line logged while a request is served carries its `requestId`.
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    base: { svc: name },
    mixin: (obj: object) => {
      const requestId = currentRequestId();
      return requestId && !('requestId' in obj) ? { requestId } : {};
    },
  };
  // A destination of its own: tests read the lines a request logged.
  return destination ? pino(options, destination) : pino(options);
}
