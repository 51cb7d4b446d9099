/*
 * The gateway on its own thread of the `npm start` process: HTTP parsing, both API pipelines and
 * the gRPC clients get a core of their own while the services (and the embedded database) keep
 * the main thread. Started and stopped by scripts/stack.ts.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { createLogger, initTracing, installCrashPolicy, metricsJson, routeOverPort, shutdownTracing } from '@quire/kit';
import { startGateway } from '@quire/gateway/server';

const port = parentPort!;
// The thread is created before the services start, to load these modules meanwhile; its
// configuration (with the services' addresses) comes once they listen (stack.ts).
const { env, calls } = await new Promise<{ env: NodeJS.ProcessEnv; calls?: { port: MessagePort; addresses: string[] } }>((resolve) => {
  const onStart = (m: { type?: string; env?: NodeJS.ProcessEnv; calls?: { port: MessagePort; addresses: string[] } }) => {
    if (m?.type !== 'start') return;
    port.off('message', onStart);
    resolve({ env: m.env ?? {}, calls: m.calls });
  };
  port.on('message', onStart);
});
// The services' calls go to the main thread through this port, not over loopback gRPC (stack.ts).
const unroute = calls ? routeOverPort(calls.port, calls.addresses) : () => undefined;
try {
  const log = createLogger('gateway', env.LOG_LEVEL ?? 'info');
  // This thread has its own tracer provider and metrics registry; the main thread's /metrics asks for the latter.
  await initTracing('quire-gateway', env);
  const gw = await startGateway(env, log);
  // An uncaught exception ends this thread (exit code 1); the main thread sees it and stops the process.
  installCrashPolicy({ log, stop: () => gw.stop() });
  port.on('message', (m: unknown) => {
    if (m === 'stop')
      void gw
        .stop()
        .then(() => shutdownTracing())
        .then(() => {
          unroute();
          calls?.port.close();
          port.close();
        });
    else if (typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'metrics') {
      const id = (m as { id: number }).id;
      metricsJson().then(
        (metrics) => port.postMessage({ type: 'metrics', id, metrics }),
        () => port.postMessage({ type: 'metrics', id, metrics: [] }),
      );
    }
  });
  port.postMessage({ type: 'ready', url: gw.url, port: gw.port });
} catch (e) {
  const err = e as Error;
  port.postMessage({ type: 'error', name: err.name, message: err.message });
  port.close();
}
