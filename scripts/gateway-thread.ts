/*
 * The gateway on its own thread of the `npm start` process: HTTP parsing, both API pipelines and
 * the gRPC clients get a core of their own while the services (and the embedded database) keep
 * the main thread. Started and stopped by scripts/stack.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger, installCrashPolicy } from '@quire/kit';
import { startGateway } from '@quire/gateway/server';

const port = parentPort!;
const env = (workerData as { env: NodeJS.ProcessEnv }).env;
try {
  const log = createLogger('gateway', env.LOG_LEVEL ?? 'info');
  const gw = await startGateway(env, log);
  // An uncaught exception ends this thread (exit code 1); the main thread sees it and stops the process.
  installCrashPolicy({ log, stop: () => gw.stop() });
  port.on('message', (m: unknown) => {
    if (m === 'stop') void gw.stop().then(() => port.close());
  });
  port.postMessage({ type: 'ready', url: gw.url, port: gw.port });
} catch (e) {
  const err = e as Error;
  port.postMessage({ type: 'error', name: err.name, message: err.message });
  port.close();
}
