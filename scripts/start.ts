/*
 * `npm start`: a supervisor that runs the wiki (scripts/serve.ts) in a child process and starts
 * it again when it dies, as a container runtime would. It says so in its log, waits
 * longer after each crash in a row (1 s doubling to 30 s, reset once the wiki has run a minute),
 * passes SIGTERM/SIGINT on and exits with the child's code, and gives up with exit code 1 on a
 * crash loop (more than SUPERVISOR_MAX_RESTARTS restarts within SUPERVISOR_RESTART_WINDOW_SECONDS).
 * A child that fails before it is ready (bad configuration, data folder locked) is not restarted:
 * starting it again would fail the same way.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
// kit's modules one by one, not its index: the supervisor stays a small process (no gRPC, pg,
// tracing or Redis client loaded in it: the memory of the whole process tree).
import { loadConfig, runMain, v } from '@quire/kit/config';
import type { Logger } from '@quire/kit/log';

const supervisorConfigSpec = {
  maxRestarts: v.int(['SUPERVISOR_MAX_RESTARTS'], { default: 5, min: 0 }),
  restartWindowSeconds: v.int(['SUPERVISOR_RESTART_WINDOW_SECONDS'], { default: 300, min: 1 }),
};

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A child that ran this long counts as healthy: the next crash starts the backoff again. */
const HEALTHY_AFTER_MS = 60_000;
export const CRASH_LOOP_EXIT_CODE = 1;

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15, SIGSEGV: 11, SIGABRT: 6 };

/** `<name>.bundle.mjs` beside this file if the build made it, else `<name>.js`. */
function bundledOr(name: string): string {
  return fs.existsSync(new URL(`${name}.bundle.mjs`, import.meta.url)) ? `${name}.bundle.mjs` : `${name}.js`;
}

await runMain(async () => {
  const cfg = loadConfig(supervisorConfigSpec);
  // The logger (pino) is loaded once the wiki process is forked: it is not on the way to the first
  // answer; what is logged waits for it.
  let logger: Promise<Logger> | undefined;
  const loggerLoaded = () => (logger ??= import('@quire/kit/log').then(({ createLogger }) => createLogger('supervisor', process.env.LOG_LEVEL ?? 'info')));
  // serve.ts beside this file under tsx; in the compiled build (npm start runs scripts/dist/) its
  // bundle (scripts/bundle.mjs) when the build made one, else serve.js.
  const entry = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './serve.ts' : bundledOr('./serve'), import.meta.url));
  const restarts: number[] = [];
  let child: ChildProcess | undefined;
  let stopping: NodeJS.Signals | undefined;
  let backoffTimer: NodeJS.Timeout | undefined;
  let consecutiveCrashes = 0;

  const run = () => {
    const startedAt = Date.now();
    let ready = false;
    // The same node flags as this process (--conditions=quire-dist for the build, --import tsx for the sources).
    // Two malloc arenas unless told otherwise: glibc gives each thread that allocates an arena of
    // its own (up to 8 a core), and the wiki's threads (gateway, database, render workers, libuv's
    // pool hashing passwords) left ~17 MB of the process's memory after start in theirs.
    const c = fork(entry, [], { execArgv: process.execArgv, env: { MALLOC_ARENA_MAX: '2', ...process.env }, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
    child = c;
    c.on('message', (m: { type?: string }) => {
      if (m?.type === 'ready') ready = true;
    });
    c.once(
      'exit',
      (code, signal) =>
        void loggerLoaded().then((log) => {
          child = undefined;
          const how = signal ? `signal ${signal}` : `exit code ${code}`;
          if (stopping) {
            log.info({ pid: c.pid, code, signal }, `wiki stopped (${how})`);
            process.exit(code ?? (signal ? 128 + (SIGNAL_NUMBERS[signal] ?? 0) : 0));
          }
          if (!ready) {
            log.fatal({ pid: c.pid, code, signal }, `wiki failed to start (${how}); not restarting`);
            process.exit(code || 1);
          }
          const now = Date.now();
          if (now - startedAt >= HEALTHY_AFTER_MS) consecutiveCrashes = 0;
          consecutiveCrashes++;
          while (restarts.length && restarts[0]! <= now - cfg.restartWindowSeconds * 1000) restarts.shift();
          if (restarts.length >= cfg.maxRestarts) {
            log.fatal(
              { pid: c.pid, code, signal, restarts: restarts.length },
              `wiki stopped unexpectedly (${how}) after ${restarts.length} restarts within ${cfg.restartWindowSeconds} s: crash loop, giving up`,
            );
            process.exit(CRASH_LOOP_EXIT_CODE);
          }
          restarts.push(now);
          const delay = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (consecutiveCrashes - 1));
          log.error({ pid: c.pid, code, signal, delayMs: delay }, `wiki stopped unexpectedly (${how}); restarting in ${delay / 1000} s`);
          backoffTimer = setTimeout(() => {
            backoffTimer = undefined;
            log.warn({ restart: restarts.length }, 'restarting the wiki');
            run();
          }, delay);
        }),
    );
  };

  const onSignal = (sig: NodeJS.Signals) => {
    if (stopping) return;
    stopping = sig;
    if (backoffTimer) {
      clearTimeout(backoffTimer);
      process.exit(0);
    }
    child?.kill(sig);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  run();
  void loggerLoaded();
});
