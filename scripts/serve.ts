/*
 * The wiki process that `npm start`'s supervisor (scripts/start.ts) runs and restarts: the whole
 * stack (scripts/stack.ts). It tells the supervisor when it is ready (IPC), stops gracefully on
 * SIGTERM/SIGINT or when the supervisor goes away, and after an uncaught exception stops and
 * exits 1 (kit's crash policy) so that it is started again.
 */
// Only small modules here: the gateway's and the database's threads start (stack-early.ts)
// before this thread loads the services' modules (stack.ts, imported below).
import { runMain } from '@quire/kit/config';
import { createLogger } from '@quire/kit/log';
import { installCrashPolicy, UNCAUGHT_EXIT_CODE } from '@quire/kit/process';
import { startEarly } from './stack-early.js';

await runMain(async () => {
  const started = Date.now();
  const log = createLogger('quire', process.env.LOG_LEVEL ?? 'info');
  const early = startEarly(process.env, log);
  const { startStack } = await import('./stack.js');
  const stack = await startStack(process.env, early);
  installCrashPolicy({ log, stop: () => stack.stop() });
  stack.gateway.onUnexpectedExit((code) => {
    log.fatal({ code }, 'the gateway thread died; stopping so that the process is restarted');
    void stack.stop().finally(() => process.exit(UNCAUGHT_EXIT_CODE));
  });
  let stopping = false;
  const stop = (why: string) => {
    // A terminal's Ctrl-C reaches both this process and the supervisor, which passes it on: once is enough.
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${why}: stopping\n`);
    stack.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The supervisor died (even by SIGKILL): do not keep the data folder locked as an orphan.
  process.on('disconnect', () => stop('supervisor gone'));
  // Announced only now that the signals are handled: a SIGTERM sent on seeing this line (a test
  // on a loaded machine did) would otherwise end the process ungracefully (exit by signal).
  // Where it listens, said plainly: every interface unless HOST narrows it (as a web server's Listen).
  const host = process.env.HOST || '0.0.0.0';
  const where = host === '0.0.0.0' || host === '::' ? `listening on every interface (${host}); HOST=127.0.0.1 keeps it to this machine` : `listening on ${host}`;
  process.stdout.write(`Quire is ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${stack.url}/ ` + `(action API ${stack.url}/w/api.php, REST ${stack.url}/w/rest.php/v1/), ${where}\n`);
  process.send?.({ type: 'ready', url: stack.url });
});
