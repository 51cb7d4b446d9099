import path from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { loadConfig, v } from './config.js';
import { openDb, pingDb, type Db } from './db.js';
import { openKv, type KvStore } from './kv.js';
import { createLogger, type Logger } from './log.js';
import { startGrpcServer, wrapService, type AsyncHandlers, type RunningGrpcServer } from './grpc.js';
import { resolveSecretKey } from './datadir.js';
import { serviceConfigSpec, type ServiceName } from './service-config.js';
import { installCrashPolicy } from './process.js';
import { startMetricsServer, type MetricsServer } from './metrics.js';
import { initTracing, shutdownTracing } from './tracing.js';

export { DEFAULT_GRPC_PORTS, serviceConfigSpec, type ServiceName } from './service-config.js';

export interface ServiceRuntime {
  name: ServiceName;
  db: Db;
  kv: KvStore;
  log: Logger;
  dataDir: string;
  secretKey: string;
  env: NodeJS.ProcessEnv;
}

export interface ServiceBinding {
  name: string;
  definition: ServiceDefinition;
  handlers: object;
}

/** Captures a service's handler types against its generated definition. */
export function bind<D extends ServiceDefinition>(name: string, definition: D, handlers: AsyncHandlers<D>): ServiceBinding {
  return { name, definition, handlers };
}

export interface ServiceModule {
  name: ServiceName;
  /** Folder of the service's forward-only SQL migrations. */
  migrationsDir: string;
  create(rt: ServiceRuntime): Promise<{ bindings: ServiceBinding[]; close?: () => Promise<void> }>;
}

export interface RunningService {
  name: ServiceName;
  address: string;
  port: number;
  runtime: ServiceRuntime;
  stop(graceMs?: number): Promise<void>;
}

/** Starts one service: config, database (+ migrations), token store, gRPC server with health. */
export async function startService(mod: ServiceModule, env: NodeJS.ProcessEnv = process.env, log?: Logger): Promise<RunningService> {
  const cfg = loadConfig(serviceConfigSpec(mod.name), env);
  const logger = log ?? createLogger(mod.name, env.LOG_LEVEL ?? 'info');
  const dataDir = path.resolve(cfg.dataDir);
  const db = await openDb({ url: cfg.databaseUrl, dataDir, schema: mod.name, migrationsDir: mod.migrationsDir, log: logger, poolSize: cfg.dbPoolSize });
  let kv: KvStore | undefined;
  try {
    kv = await openKv({ url: cfg.redisUrl, prefix: `${cfg.kvPrefix}${mod.name}:` });
    const runtime: ServiceRuntime = { name: mod.name, db, kv, log: logger, dataDir, secretKey: resolveSecretKey(dataDir, cfg.secretKey), env };
    const created = await mod.create(runtime);
    const inflight = new Set<Promise<unknown>>();
    const deps = watchDependencies(db, kv, logger);
    const server: RunningGrpcServer = await startGrpcServer({
      host: cfg.grpcHost,
      port: cfg.grpcPort,
      log: logger,
      inflight,
      ready: () => deps.ready,
      secretKey: runtime.secretKey,
      services: created.bindings.map((b) => ({
        name: b.name,
        definition: b.definition,
        implementation: wrapService(b.definition, b.handlers as AsyncHandlers<ServiceDefinition>, logger, inflight),
      })),
    });
    logger.info({ address: server.address }, 'gRPC server listening');
    let stopped: Promise<void> | undefined;
    return {
      name: mod.name,
      address: server.address,
      port: server.port,
      runtime,
      stop(graceMs?: number) {
        stopped ??= (async () => {
          deps.stop();
          await server.shutdown(graceMs);
          await created.close?.();
          await kv?.close();
          await db.close();
        })();
        return stopped;
      },
    };
  } catch (e) {
    await kv?.close();
    await db.close();
    throw e;
  }
}

/**
 * Readiness of a service: its database and token store are asked every 5 s; while either fails,
 * the health name READINESS_SERVICE reports NOT_SERVING (logged once per outage). Migrations
 * run before the server listens, so a listening service has none pending.
 */
function watchDependencies(db: Db, kv: KvStore, log: Logger): { ready: boolean; stop(): void } {
  const state = { ready: true, stop: () => clearInterval(timer) };
  let checking = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    try {
      await pingDb(db);
      await kv.get('readiness-probe');
      if (!state.ready) log.info('dependencies answer again: ready');
      state.ready = true;
    } catch (err) {
      if (state.ready) log.warn({ err }, 'a dependency does not answer: not ready');
      state.ready = false;
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), 5000);
  timer.unref();
  return state;
}

/** Where a process serves its Prometheus metrics: METRICS_PORT (unset: not served), on its own port. */
export const metricsConfigSpec = {
  metricsPort: v.port(['METRICS_PORT'], { doc: 'port of GET /metrics (Prometheus); never the public HTTP port' }),
  metricsHost: v.string(['METRICS_HOST'], { default: '0.0.0.0' }),
};

/** Starts the metrics server of a process when METRICS_PORT is set. */
export async function startProcessMetrics(env: NodeJS.ProcessEnv, log: Logger, others?: Parameters<typeof startMetricsServer>[0]['others']): Promise<MetricsServer | undefined> {
  const cfg = loadConfig(metricsConfigSpec, env);
  if (cfg.metricsPort === undefined) return undefined;
  return startMetricsServer({ port: cfg.metricsPort, host: cfg.metricsHost, log, others });
}

/**
 * Entry point of a service run as its own process: traces (when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set) and metrics (METRICS_PORT) of its own; stops gracefully on SIGTERM/SIGINT.
 */
export async function runServiceProcess(mod: ServiceModule): Promise<void> {
  await initTracing(`quire-${mod.name}`);
  const svc = await startService(mod);
  const metrics = await startProcessMetrics(process.env, svc.runtime.log);
  installCrashPolicy({ log: svc.runtime.log, stop: () => svc.stop() });
  const onSignal = (sig: string) => {
    svc.runtime.log.info({ sig }, 'shutting down');
    svc
      .stop()
      .then(() => metrics?.close())
      .then(() => shutdownTracing())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
