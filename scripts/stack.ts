/*
 * The whole wiki in one process: the three services (each its own gRPC server on loopback) and
 * the gateway (on a worker thread), sharing the embedded PGlite of DATA_DIR when DATABASE_URL is
 * unset. This is what
 * `npm start` runs; deploy/ runs the same services as separate processes instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  createLogger,
  initTracing,
  loadConfig,
  routeInThread,
  serveOverPort,
  serviceConfigSpec,
  startProcessMetrics,
  startService,
  threadWorker,
  warmEmbeddedDb,
  type MetricsJson,
  type MetricsServer,
  type RunningService,
} from '@quire/kit';
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';

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
 * is created at once and loads the gateway's modules while the services start (issue 15: first
 * start to first answer); `start(env)` gives it its configuration (the services' addresses).
 */
export function loadGatewayThread(): { start(env: NodeJS.ProcessEnv, calls?: LocalCalls): Promise<GatewayThread>; terminate(): Promise<void> } {
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

export interface Stack {
  gateway: GatewayThread;
  services: RunningService[];
  url: string;
  /** GET /metrics of the whole process (services and gateway thread), when METRICS_PORT is set. */
  metrics: MetricsServer | undefined;
  stop(): Promise<void>;
}

export async function startStack(env: NodeJS.ProcessEnv = process.env): Promise<Stack> {
  const log = createLogger('quire', env.LOG_LEVEL ?? 'info');
  // Services bind ephemeral loopback ports unless told otherwise; the gateway is given them.
  const svcEnv: NodeJS.ProcessEnv = { AUTH_GRPC_PORT: '0', CONTENT_GRPC_PORT: '0', SEARCH_GRPC_PORT: '0', ...env };
  // The renderer's {{SERVER}} and {{fullurl:}} must name the URL the gateway serves.
  const port = env.PORT ?? '8080';
  if (!svcEnv.WIKI_SERVER && port !== '0') svcEnv.WIKI_SERVER = `http://localhost:${port}`;
  const services: RunningService[] = [];
  // The gateway's thread loads its modules meanwhile, on another core, and so does the embedded
  // database's thread open PGlite (content, the first service, opens it; the others share it).
  const gatewayLoading = loadGatewayThread();
  const releaseWarmDb = warmDb(svcEnv, log);
  try {
    // The services' modules are loaded here rather than imported by this file: `npm run admin`
    // uses serviceRegistryPath() only.
    const [{ contentService }, { authService }, { searchService }] = await Promise.all([import('@quire/content/server'), import('@quire/auth/server'), import('@quire/search/server')]);
    // Spans of the services (this thread) when OTEL_EXPORTER_OTLP_ENDPOINT is set; the gateway thread has its own.
    await initTracing('quire', env);
    // Content first: it owns the first start (Main Page) and, embedded, opens PGlite for all.
    for (const mod of [contentService, authService, searchService]) {
      // Auth delivers its log outbox to content and search consumes content's change feed: both
      // are given content's address like the gateway.
      const content = services.find((s) => s.name === 'content');
      const modEnv = content ? { ...svcEnv, CONTENT_GRPC_ADDR: content.address } : svcEnv;
      services.push(await startService(mod, modEnv, log.child({ svc: mod.name })));
    }
    const addr = (name: string) => services.find((s) => s.name === name)!.address;
    // The services and the gateway are threads of this process: their calls to each other skip
    // HTTP/2 and the loopback sockets (grpc-local.ts; ~1 ms of CPU per call on 2 cores). The
    // services still listen, for `npm run admin` and health checks.
    const addresses = services.map((s) => s.address);
    const unrouteHere = routeInThread(addresses);
    const calls = new MessageChannel();
    serveOverPort(calls.port1);
    const closeCalls = () => {
      unrouteHere();
      calls.port1.close();
    };
    const gateway = await gatewayLoading
      .start({ ...env, AUTH_GRPC_ADDR: addr('auth'), CONTENT_GRPC_ADDR: addr('content'), SEARCH_GRPC_ADDR: addr('search') }, { port: calls.port2, addresses })
      .catch((e: unknown) => {
        closeCalls();
        throw e;
      });
    const registry = writeServiceRegistry(env, services);
    // One /metrics for the process: this thread's registry plus the gateway thread's.
    const metrics = await startProcessMetrics(env, log, async () => [await gateway.metrics()]).catch(async (e: unknown) => {
      registry.remove();
      await gateway.stop();
      closeCalls();
      throw e;
    });
    let stopping: Promise<void> | undefined;
    return {
      gateway,
      services,
      url: gateway.url,
      metrics,
      stop() {
        stopping ??= (async () => {
          registry.remove();
          await metrics?.close();
          await gateway.stop();
          closeCalls();
          for (const s of [...services].reverse()) await s.stop();
        })();
        return stopping;
      },
    };
  } catch (e) {
    await gatewayLoading.terminate().catch(() => undefined);
    await releaseWarmDb().catch(() => undefined);
    for (const s of services.reverse()) await s.stop().catch(() => undefined);
    throw e;
  }
}

/** Opens the embedded database ahead of the services when content has no database URL. */
function warmDb(env: NodeJS.ProcessEnv, log: ReturnType<typeof createLogger>): () => Promise<void> {
  let cfg: { dataDir: string; databaseUrl?: string | undefined };
  try {
    cfg = loadConfig(serviceConfigSpec('content'), env);
  } catch {
    return async () => undefined; // the content service reports its configuration's problems
  }
  return cfg.databaseUrl ? async () => undefined : warmEmbeddedDb(path.resolve(cfg.dataDir), log.child({ svc: 'content' }));
}

/** Where a running stack lists its services' addresses, so tools (npm run admin) reach them. */
export function serviceRegistryPath(env: NodeJS.ProcessEnv): string {
  const { dataDir } = loadConfig(serviceConfigSpec('auth'), env);
  return path.join(path.resolve(dataDir), 'run', 'services.json');
}

export interface ServiceRegistryFile {
  pid: number;
  services: Record<string, string>;
}

/**
 * Writes DATA_DIR/run/services.json ({pid, services: {auth: "127.0.0.1:port", …}}): the embedded
 * database is owned by this process, so the admin CLI must go through its gRPC services.
 */
function writeServiceRegistry(env: NodeJS.ProcessEnv, services: RunningService[]): { remove(): void } {
  const file = serviceRegistryPath(env);
  const body: ServiceRegistryFile = { pid: process.pid, services: Object.fromEntries(services.map((s) => [s.name, s.address])) };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return { remove: () => fs.rmSync(file, { force: true }) };
}
