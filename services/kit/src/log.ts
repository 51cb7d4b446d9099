import { pino, type Logger } from 'pino';

export type { Logger };

/** One JSON logger per process component; LOG_LEVEL picks the level (default info, "silent" in tests). */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name, level, base: { svc: name } });
}
