/*
 * What a process does with an error that no handler caught. MediaWiki's model is that
 * a request fails and the server lives on; handlers already get that from wrapService (gRPC) and
 * the API pipelines (HTTP). What escapes them is handled here:
 *
 * - unhandledRejection: a promise nobody awaited failed. Nothing is left half-done by the
 *   rejection itself (its request was answered or times out), so it is logged with the request id
 *   and the process serves on.
 * - uncaughtException: something threw out of a callback with no caller, and the process may be in
 *   any state (a socket mid-message, a lock held, a stream half-written). Serving on is not safe:
 *   it is logged with the request id, the process stops gracefully within a bound and exits 1, so
 *   the supervisor (`npm start`) or the container runtime starts it again.
 */
import { currentRequestId } from './request.js';
import type { Logger } from './log.js';

export interface CrashPolicyOptions {
  log: Logger;
  /** Graceful stop before exiting after an uncaught exception (drain, close the database). */
  stop(): Promise<void>;
  /** How long the stop may take before the process exits anyway. */
  graceMs?: number;
  /** Ends the process (or worker thread); process.exit by default. */
  exit?(code: number): void;
}

/** Exit code after an uncaught exception. */
export const UNCAUGHT_EXIT_CODE = 1;

/** Installs the policy on this process (or worker thread). Call once, at the entry point. */
export function installCrashPolicy(o: CrashPolicyOptions): void {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  process.on('unhandledRejection', (reason) => {
    o.log.error({ err: reason, requestId: currentRequestId() }, 'unhandled promise rejection; serving on');
  });
  let dying = false;
  process.on('uncaughtException', (err, origin) => {
    o.log.fatal({ err, origin, requestId: currentRequestId() }, 'uncaught exception; stopping so that the process is restarted');
    if (dying) return;
    dying = true;
    const timer = setTimeout(() => exit(UNCAUGHT_EXIT_CODE), o.graceMs ?? 10_000);
    timer.unref();
    o.stop().then(
      () => exit(UNCAUGHT_EXIT_CODE),
      () => exit(UNCAUGHT_EXIT_CODE),
    );
  });
}
