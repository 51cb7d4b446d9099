/*
 * The whole wiki in one process: the three services (each its own gRPC server on loopback) and
 * the gateway (on a worker thread), sharing the embedded PGlite of DATA_DIR when DATABASE_URL is
 * unset. This is what
 * `npm start` runs; deploy/ runs the same services as separate processes instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createLogger, initTracing, loadConfig, routeInThread, serveOverPort, serviceConfigSpec, startProcessMetrics, startService, type MetricsServer, type RunningService } from '@quire/kit';
import { MessageChannel } from 'node:worker_threads';
import { startEarly, type EarlyStart, type GatewayThread } from './stack-early.js';

export interface Stack {
  gateway: GatewayThread;
  services: RunningService[];
  url: string;
  /** GET /metrics of the whole process (services and gateway thread), when METRICS_PORT is set. */
  metrics: MetricsServer | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the wiki. `early` is what startEarly began (npm start calls it before loading this
 * module); without it, it begins here.
 */
export async function startStack(env: NodeJS.ProcessEnv = process.env, early?: EarlyStart): Promise<Stack> {
  const log = createLogger('quire', env.LOG_LEVEL ?? 'info');
  // Services bind ephemeral loopback ports unless told otherwise; the gateway is given them.
  const svcEnv: NodeJS.ProcessEnv = { AUTH_GRPC_PORT: '0', CONTENT_GRPC_PORT: '0', SEARCH_GRPC_PORT: '0', ...env };
  // The renderer's {{SERVER}} and {{fullurl:}} must name the URL the gateway serves.
  const port = env.PORT ?? '8080';
  if (!svcEnv.WIKI_SERVER && port !== '0') svcEnv.WIKI_SERVER = `http://localhost:${port}`;
  const services: RunningService[] = [];
  // The gateway's thread loads its modules meanwhile, on another core, and so does the embedded
  // database's thread open PGlite (content, the first service, takes it over; the others share it).
  const { gateway: gatewayLoading, releaseDb } = early ?? startEarly(svcEnv, log);
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
    await releaseDb().catch(() => undefined);
    for (const s of services.reverse()) await s.stop().catch(() => undefined);
    throw e;
  }
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
