/*
 * Prometheus metrics (prom-client). Each thread has one registry (prom-client's global one): the
 * metrics every component shares are defined here (gRPC both sides, SQL, key-value store), the
 * others next to what they count, all through `counter`/`gauge`/`histogram`, which return the
 * metric already registered under a name (a module loaded twice, or two services of one process,
 * count into one metric). A process serves them on its own port (METRICS_PORT, never the public
 * one): `startMetricsServer`. Names are listed in services/kit/README.md "Metrics".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, Counter, Gauge, Histogram, collectDefaultMetrics, register, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Logger } from './log.js';

export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** This thread's registry (tests read single metrics from it). */
export { register as metricsRegistry };

/** Latency buckets (seconds) from a cached read (sub-millisecond) to a slow render or import. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return (register.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter<L>({ name, help, labelNames });
}

export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
  return (register.getSingleMetric(name) as Gauge<L> | undefined) ?? new Gauge<L>({ name, help, labelNames });
}

export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets = LATENCY_BUCKETS): Histogram<L> {
  return (register.getSingleMetric(name) as Histogram<L> | undefined) ?? new Histogram<L>({ name, help, labelNames, buckets });
}

/*
 * Values read when scraped (a queue's depth, a follower's lag): each owner registers a refresher,
 * run before every scrape, and removes it when it stops. A failing one leaves its gauges as they
 * were (the failure itself is what other metrics show).
 */
const refreshers = new Set<() => Promise<void> | void>();

export function onScrape(fn: () => Promise<void> | void): () => void {
  refreshers.add(fn);
  return () => refreshers.delete(fn);
}

async function refresh(): Promise<void> {
  await Promise.all([...refreshers].map(async (fn) => fn()).map((p) => p.catch(() => undefined)));
}

/** This thread's metrics as JSON (what another thread aggregates into its scrape). */
export async function metricsJson(): Promise<MetricsJson> {
  await refresh();
  return register.getMetricsAsJSON();
}

// gRPC, both sides (kit's wrapService and unary), labelled as grpc-ecosystem's go-grpc-prometheus does.
export const grpcServerHandled = counter('quire_grpc_server_handled_total', 'gRPC calls answered by a service, by method and status code', ['grpc_service', 'grpc_method', 'grpc_code']);
export const grpcServerSeconds = histogram('quire_grpc_server_handling_seconds', 'Time a service took to answer a gRPC call', ['grpc_service', 'grpc_method']);
export const grpcClientHandled = counter('quire_grpc_client_handled_total', 'gRPC calls made to a service, by method and the status received', ['grpc_service', 'grpc_method', 'grpc_code']);
export const grpcClientSeconds = histogram('quire_grpc_client_handling_seconds', 'Time a gRPC call took as its caller saw it', ['grpc_service', 'grpc_method']);

// SQL (kit's Db) and the key-value store (kit's KvStore).
export const dbQuerySeconds = histogram('quire_db_query_duration_seconds', 'SQL statement latency, by schema and statement kind', ['schema', 'op']);
export const dbQueryErrors = counter('quire_db_query_errors_total', 'SQL statements that failed, by schema', ['schema']);
export const dbPoolConnections = gauge('quire_db_pool_connections', 'Database pool connections by state (total, idle, waiting clients)', ['pool', 'state']);
export const kvSeconds = histogram('quire_kv_command_duration_seconds', 'Key-value store (Redis or in-process) command latency', ['backend', 'command']);
export const kvErrors = counter('quire_kv_command_errors_total', 'Key-value store commands that failed', ['backend', 'command']);

// Rate limits and throttles of every service (content's $wgRateLimits, auth's login and account-creation throttles).
export const rateLimitRefusals = counter('quire_rate_limit_refusals_total', 'Attempts refused by a rate limit or throttle, by action', ['action']);

/** gRPC's status names as Prometheus label values (OK, NOT_FOUND, …). */
const GRPC_CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

export function grpcCodeName(code: number | undefined): string {
  return GRPC_CODE_NAMES[code ?? 2] ?? 'UNKNOWN';
}

/** "/wiki.content.pages.v1.PageService/GetPage" → service and method labels. */
export function grpcPathLabels(path: string): { grpc_service: string; grpc_method: string } {
  const m = /^\/([^/]+)\/([^/]+)$/.exec(path);
  return m ? { grpc_service: m[1]!, grpc_method: m[2]! } : { grpc_service: 'unknown', grpc_method: path };
}

let defaultsCollected = false;

export interface MetricsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics on `port` (METRICS_PORT), with the process's default metrics (CPU, memory,
 * event loop lag, GC). `others` adds the metrics of other threads of the process (the gateway
 * thread of `npm start`): same-named series are summed, as prom-client's cluster aggregation does.
 */
export async function startMetricsServer(opts: { port: number; host?: string; log: Logger; others?: () => Promise<MetricsJson[]> }): Promise<MetricsServer> {
  if (!defaultsCollected) {
    defaultsCollected = true;
    collectDefaultMetrics();
  }
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    void (async () => {
      try {
        let body: string;
        if (opts.others) {
          const all = await Promise.all([metricsJson(), ...(await opts.others().catch(() => []))]);
          body = await AggregatorRegistry.aggregate(all).metrics();
        } else {
          await refresh();
          body = await register.metrics();
        }
        res.writeHead(200, { 'Content-Type': register.contentType }).end(body);
      } catch (err) {
        opts.log.error({ err }, 'could not collect the metrics');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('metrics unavailable\n');
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  opts.log.info({ port }, 'metrics served at /metrics');
  return {
    port,
    url: `http://127.0.0.1:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
