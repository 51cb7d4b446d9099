/*
 * What `npm start`'s wiki process begins first, before it loads the services' modules
 * (scripts/stack.ts): the gateway's thread, which loads the gateway's modules, and the embedded
 * database's thread, which opens PGlite. They run on the other core while this thread loads the
 * services. Only node's and kit's small modules are loaded here (first start to first
 * answer; the database's opening is the longest chain of a start).
 */
import path from 'node:path';
import type { MessagePort, Worker } from 'node:worker_threads';
import { loadConfig } from '@quire/kit/config';
import { openEmbeddedThreadAhead } from '@quire/kit/embedded-thread';
import type { Logger } from '@quire/kit/log';
import type { MetricsJson } from '@quire/kit/metrics';
import { serviceConfigSpec } from '@quire/kit/service-config';
import { threadWorker } from '@quire/kit/thread-entry';

/** What startEarly began; startStack takes it over. */
export interface EarlyStart {
  gateway: GatewayLoader;
  /** Closes the embedded database opened ahead if no service took it (the start failed before). */
  releaseDb: () => Promise<void>;
}

/** Starts the gateway's thread and, without a database URL, opens the embedded database. */
export function startEarly(env: NodeJS.ProcessEnv, log: Logger): EarlyStart {
  const gateway = loadGatewayThread();
  let releaseDb: () => Promise<void> = async () => undefined;
  let cfg: { dataDir: string; databaseUrl?: string | undefined } | undefined;
  try {
    cfg = loadConfig(serviceConfigSpec('content'), env);
  } catch {
    // the content service reports its configuration's problems
  }
  // Content opens the embedded database for all; the others share it.
  if (cfg && !cfg.databaseUrl) releaseDb = openEmbeddedThreadAhead(path.resolve(cfg.dataDir), log.child({ svc: 'content' }));
  return { gateway, releaseDb };
}

/** The gateway running on its own thread (scripts/gateway-thread.ts). */
export interface GatewayThread {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Calls `listener` if the thread ends without being stopped (it died of an uncaught exception). */
  onUnexpectedExit(listener: (code: number) => void): void;
  /** The thread's metrics (its own prom-client registry), for the process's one /metrics. */
  metrics(): Promise<MetricsJson>;
}

/**
 * Starts the gateway on a worker thread, so that on a multi-core machine the HTTP side and the
 * services run in parallel inside the one process that owns the embedded database. The thread
 * is created at once and loads the gateway's modules while the services start (first
 * start to first answer); `start(env)` gives it its configuration (the services' addresses).
 */
/** The gateway's thread while it loads its modules. */
export interface GatewayLoader {
  start(env: NodeJS.ProcessEnv, calls?: LocalCalls): Promise<GatewayThread>;
  terminate(): Promise<void>;
}

export function loadGatewayThread(): GatewayLoader {
  const worker = threadWorker(import.meta.url, 'gateway-thread');
  const exited = new Promise<number>((resolve) => worker.once('exit', (code) => resolve(code)));
  let exitCode: number | undefined;
  void exited.then((code) => (exitCode = code));
  // Until started, an 'error' (its modules failed to load) is reported by start().
  const early: unknown[] = [];
  const onEarly = (e: unknown) => early.push(e);
  worker.on('error', onEarly);
  return {
    start(env, calls) {
      worker.off('error', onEarly);
      if (early.length) return Promise.reject(early[0]);
      if (exitCode !== undefined) return Promise.reject(new Error(`the gateway thread ended before it started (exit code ${exitCode})`));
      worker.postMessage({ type: 'start', env, calls }, calls ? [calls.port] : []);
      return gatewayThread(worker, exited);
    },
    async terminate() {
      await worker.terminate();
    },
  };
}

/** The services' addresses the gateway thread reaches through `port` rather than over loopback gRPC (kit's grpc-local.ts). */
export interface LocalCalls {
  port: MessagePort;
  addresses: string[];
}

/** The gateway thread's handle once it was told to start: resolves when it serves. */
function gatewayThread(worker: Worker, exited: Promise<number>): Promise<GatewayThread> {
  let stopping = false;
  // Once started, an 'error' (an exception the thread did not catch) must not throw in this thread too: the exit reports it.
  worker.on('error', () => undefined);
  const pendingMetrics = new Map<number, (m: MetricsJson) => void>();
  let nextMetricsId = 0;
  worker.on('message', (m: { type: string; id?: number; metrics?: MetricsJson }) => {
    if (m.type !== 'metrics' || m.id === undefined) return;
    pendingMetrics.get(m.id)?.(m.metrics ?? []);
    pendingMetrics.delete(m.id);
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    void exited.then((code) => reject(new Error(`the gateway thread ended while starting (exit code ${code})`)));
    worker.once('message', (m: { type: 'ready'; url: string; port: number } | { type: 'error'; name: string; message: string }) => {
      if (m.type === 'error') {
        reject(Object.assign(new Error(m.message), { name: m.name }));
        return;
      }
      resolve({
        metrics() {
          const id = nextMetricsId++;
          return new Promise<MetricsJson>((done) => {
            // A thread that does not answer within 5 s (stopping, stuck) adds nothing to this scrape.
            const timer = setTimeout(() => {
              pendingMetrics.delete(id);
              done([]);
            }, 5000);
            pendingMetrics.set(id, (metrics) => {
              clearTimeout(timer);
              done(metrics);
            });
            worker.postMessage({ type: 'metrics', id });
          });
        },
        url: m.url,
        port: m.port,
        onUnexpectedExit(listener) {
          void exited.then((code) => {
            if (!stopping) listener(code);
          });
        },
        async stop() {
          stopping = true;
          worker.postMessage('stop');
          // The thread ends once its server and clients are closed; a stuck one is terminated.
          const timer = setTimeout(() => void worker.terminate(), 15_000);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}
