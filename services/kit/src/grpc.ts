import {
  Server,
  ServerCredentials,
  credentials,
  Metadata,
  status as GrpcStatus,
  type Client,
  type ServiceDefinition,
  type ServerUnaryCall,
  type sendUnaryData,
  type UntypedServiceImplementation,
  type ServiceError as GrpcServiceError,
  type ServerWritableStream,
} from '@grpc/grpc-js';
import { HealthService, HealthCheckResponse_ServingStatus, type HealthCheckRequest, type HealthCheckResponse } from '@quire/proto/grpc/health/v1/health';
import { ServiceError } from './errors.js';
import { REQUEST_ID_KEY, acceptRequestId, currentRequestId, newRequestId, runWithRequestId } from './request.js';
import type { Logger } from './log.js';
import { grpcClientHandled, grpcClientSeconds, grpcCodeName, grpcPathLabels, grpcServerHandled, grpcServerSeconds } from './metrics.js';
import { localRouteFor, recordServedMethods } from './grpc-local.js';
import { SpanKind, extractTraceContext, injectTraceContext, markSpanError, withSpan } from './tracing.js';
import { serviceAuthClientInterceptor, serviceAuthServerInterceptor, serviceCallKey } from './service-auth.js';

/** Per-call context handed to handlers (metadata, a deadline-aware cancel flag and the request's id). */
export interface CallContext {
  metadata: Metadata;
  cancelled: () => boolean;
  /** The caller's `x-request-id`, or a fresh one; logs made while serving the call carry it. */
  requestId: string;
}

/** A service implementation written as async functions; `wrapService` adapts it to grpc-js. */
export type AsyncHandlers<D extends ServiceDefinition> = {
  [M in keyof D]: D[M] extends { requestStream: false; responseStream: false }
    ? (req: ReturnType<D[M]['requestDeserialize']>, ctx: CallContext) => Promise<Parameters<D[M]['responseSerialize']>[0]>
    : D[M] extends { requestStream: false; responseStream: true }
      ? (req: ReturnType<D[M]['requestDeserialize']>, stream: ServerWritableStream<ReturnType<D[M]['requestDeserialize']>, Parameters<D[M]['responseSerialize']>[0]>) => Promise<void>
      : never;
};

const INTERNAL: Partial<GrpcServiceError> = { code: GrpcStatus.INTERNAL, details: 'internal error' };

/** The status a failure is answered with: a ServiceError as it is, anything else logged and hidden. Never throws. */
function toGrpcError(err: unknown, log: Logger, method: string, requestId: string): Partial<GrpcServiceError> {
  try {
    if (err instanceof ServiceError) return err.toGrpc();
    log.error({ err, method, requestId }, 'unhandled error in handler');
    return new ServiceError(GrpcStatus.INTERNAL, 'internal_api_error', 'internal error').toGrpc();
  } catch (e) {
    log.error({ err: e, method, requestId }, 'could not build the error status');
    return INTERNAL;
  }
}

function requestIdOf(metadata: Metadata | undefined): string {
  return acceptRequestId(metadata?.get(REQUEST_ID_KEY)[0]) ?? newRequestId();
}

/**
 * Runs a handler whatever it does (a synchronous throw becomes a rejection, a rejection stays
 * one), under the caller's request id and in a server span whose parent is the caller's
 * `traceparent`.
 */
function invoke(requestId: string, path: string, metadata: Metadata | undefined, fn: () => Promise<unknown>): Promise<unknown> {
  const l = grpcPathLabels(path);
  const attributes = { 'rpc.system': 'grpc', 'rpc.service': l.grpc_service, 'rpc.method': l.grpc_method, 'quire.request_id': requestId };
  return runWithRequestId(requestId, () =>
    withSpan(`${l.grpc_service}/${l.grpc_method}`, { kind: SpanKind.SERVER, parent: extractTraceContext(metadata), attributes }, () => new Promise<unknown>((resolve) => resolve(fn()))),
  );
}

/** Counts an answered call (quire_grpc_server_*): `code` is the status sent. */
function observeServed(path: string, started: number, code: number | undefined): void {
  const l = grpcPathLabels(path);
  grpcServerHandled.inc({ ...l, grpc_code: grpcCodeName(code) });
  grpcServerSeconds.observe(l, (performance.now() - started) / 1000);
}

/**
 * Adapts async handlers to grpc-js. Whatever a handler does (throws synchronously, rejects, returns
 * something that cannot be sent, fails its stream), the call is answered (INTERNAL for anything
 * that is not a ServiceError), the failure is logged with the request id, and the server serves on.
 */
export function wrapService<D extends ServiceDefinition>(def: D, impl: AsyncHandlers<D>, log: Logger, inflight: Set<Promise<unknown>>): UntypedServiceImplementation {
  const out: UntypedServiceImplementation = {};
  const track = (p: Promise<unknown>) => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };
  for (const name of Object.keys(def) as (keyof D & string)[]) {
    const m = def[name]!;
    const fn = impl[name] as unknown as (req: unknown, arg: unknown) => Promise<unknown>;
    if (!m.responseStream) {
      out[name] = (call: ServerUnaryCall<unknown, unknown>, cb: sendUnaryData<unknown>) => {
        const requestId = requestIdOf(call.metadata);
        const started = performance.now();
        let answered = false;
        const answer = (err: Partial<GrpcServiceError> | null, res?: unknown) => {
          if (answered) return;
          answered = true;
          observeServed(m.path, started, err ? (err.code ?? GrpcStatus.UNKNOWN) : GrpcStatus.OK);
          try {
            if (err) cb(err);
            else cb(null, res);
          } catch (e) {
            // e.g. a status grpc-js cannot encode: answer the plainest one instead.
            log.error({ err: e, method: name, requestId }, 'could not send the answer');
            try {
              cb(INTERNAL);
            } catch {
              // the call is gone
            }
          }
        };
        const p = invoke(requestId, m.path, call.metadata, () => fn(call.request, { metadata: call.metadata, cancelled: () => call.cancelled, requestId }))
          .then(
            (res) => answer(null, res),
            (err: unknown) => answer(toGrpcError(err, log, name, requestId)),
          )
          .catch((e: unknown) => log.error({ err: e, method: name, requestId }, 'call failed'));
        track(p);
      };
    } else {
      out[name] = (call: ServerWritableStream<unknown, unknown>) => {
        const requestId = requestIdOf(call.metadata);
        const started = performance.now();
        // A write after the client went away, or a message that cannot be encoded, is an 'error'
        // event of the stream: without a listener it would be thrown out of the process.
        call.on('error', (e: unknown) => {
          if (!(e instanceof Error && e.message === 'call failed')) log.warn({ err: e, method: name, requestId }, 'stream error');
        });
        const fail = (err: unknown) => {
          observeServed(m.path, started, err instanceof ServiceError ? err.grpcCode : GrpcStatus.INTERNAL);
          try {
            // grpc-js turns a stream's 'error' event into the call's status and ends it; destroy()
            // would end the stream without sending any status, and the client would wait forever.
            call.emit('error', Object.assign(new Error('call failed'), toGrpcError(err, log, name, requestId)));
          } catch (e) {
            log.error({ err: e, method: name, requestId }, 'could not end the stream');
          }
        };
        const p = invoke(requestId, m.path, call.metadata, () => fn(call.request, call))
          .then(() => {
            try {
              observeServed(m.path, started, GrpcStatus.OK);
              call.end();
            } catch (e) {
              fail(e);
            }
          }, fail)
          .catch((e: unknown) => log.error({ err: e, method: name, requestId }, 'call failed'));
        track(p);
      };
    }
  }
  return out;
}

export interface GrpcServiceBinding {
  /** Fully qualified name for health checks, e.g. "wiki.content.pages.v1.PageService". */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

/**
 * The health name of readiness: SERVING while the server serves and the process's dependencies
 * (its database, its token store) answer. Service "" stays liveness (SERVING until shutdown), so
 * that a database outage takes replicas out of rotation without restarting them.
 */
export const READINESS_SERVICE = 'quire.readiness';

export interface RunningGrpcServer {
  port: number;
  address: string;
  /** Marks NOT_SERVING, stops accepting calls, lets in-flight calls finish (up to graceMs), then closes. */
  shutdown(graceMs?: number): Promise<void>;
  setServing(serving: boolean): void;
}

/**
 * Starts a gRPC server with the standard health service. Handlers must be wrapped with
 * wrapService, sharing the `inflight` set the server drains on shutdown.
 */
export async function startGrpcServer(opts: {
  host?: string;
  port: number;
  services: GrpcServiceBinding[];
  log: Logger;
  inflight: Set<Promise<unknown>>;
  /** Whether the dependencies answer (READINESS_SERVICE); always ready without it. */
  ready?: () => boolean;
  /** The wiki's secret: only callers that prove they hold it are answered (service-auth.ts; health checks are open). */
  secretKey?: string;
}): Promise<RunningGrpcServer> {
  const callerKey = opts.secretKey ? serviceCallKey(opts.secretKey) : undefined;
  const server = new Server({
    ...(callerKey ? { interceptors: [serviceAuthServerInterceptor(callerKey)] } : {}),
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.max_send_message_length': 64 * 1024 * 1024,
    // Clients re-resolve DNS only when a connection ends: ageing connections out lets replicas
    // added by scaling receive traffic.
    'grpc.max_connection_age_ms': 5 * 60_000,
    'grpc.max_connection_age_grace_ms': 30_000,
  });
  let serving = true;
  const statusOf = (svc: string): HealthCheckResponse_ServingStatus => {
    if (svc === READINESS_SERVICE) return serving && (opts.ready?.() ?? true) ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.NOT_SERVING;
    if (svc !== '' && !opts.services.some((s) => s.name === svc)) return HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN;
    return serving ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.NOT_SERVING;
  };
  const watchers = new Set<ServerWritableStream<HealthCheckRequest, HealthCheckResponse>>();
  const healthImpl: UntypedServiceImplementation = {
    check: (call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, cb: sendUnaryData<HealthCheckResponse>) => {
      const st = statusOf(call.request.service);
      if (st === HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN) cb({ code: GrpcStatus.NOT_FOUND, details: 'unknown service' });
      else cb(null, { status: st });
    },
    watch: (call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
      call.write({ status: statusOf(call.request.service) });
      watchers.add(call);
      call.on('cancelled', () => watchers.delete(call));
    },
  };
  server.addService(HealthService, healthImpl);
  for (const s of opts.services) server.addService(s.definition, s.implementation);
  const host = opts.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host.includes(':') ? `[${host}]` : host}:${opts.port}`, ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const address = `${host}:${port}`;
  // A client made in this process for this address signs with this server's key (makeClient).
  if (callerKey) servedKeys.set(address, callerKey);
  // Calls routed inside the process (grpc-local.ts) reach the same handlers.
  const unrecord = recordServedMethods(address, [{ definition: HealthService, implementation: healthImpl }, ...opts.services]);
  const setServing = (v: boolean) => {
    serving = v;
    for (const w of watchers) w.write({ status: statusOf(w.request.service) });
  };
  return {
    port,
    address,
    setServing,
    async shutdown(graceMs = 10_000) {
      setServing(false);
      // Refused from now on, as tryShutdown refuses new calls; the ones under way finish.
      unrecord();
      if (servedKeys.get(address) === callerKey) servedKeys.delete(address);
      for (const w of watchers) w.end();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref();
        // tryShutdown refuses new calls and waits for the in-flight ones.
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      await Promise.allSettled([...opts.inflight]);
    },
  };
}

/** The caller keys of the servers this process runs, by address. */
const servedKeys = new Map<string, Buffer>();
/** The key of a process that serves one wiki and calls its services from outside (the admin CLI). */
let processKey: Buffer | undefined;

/** Signs this process's calls made without a secret of their own with the wiki's `secret` (a one-wiki tool such as the admin CLI). */
export function signServiceCallsWith(secret: string): void {
  processKey = serviceCallKey(secret);
}

/**
 * Creates a grpc-js client for a generated ts-proto client constructor. `channelOptions` adds or
 * overrides grpc-js channel arguments (e.g. a shorter 'grpc.max_reconnect_backoff_ms').
 * `secretKey` is the wiki's secret the calls are signed with (service-auth.ts); without it, a
 * server this process runs at `address` lends its key, else signServiceCallsWith's, and otherwise
 * calls go unsigned (a service then answers only its health checks).
 */
export function makeClient<C extends Client>(
  Ctor: new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: object) => C,
  address: string,
  channelOptions: Record<string, string | number> = {},
  secretKey?: string,
): C {
  const callerKey = secretKey ? serviceCallKey(secretKey) : (servedKeys.get(address) ?? processKey);
  const client = new Ctor(address, credentials.createInsecure(), {
    ...(callerKey ? { interceptors: [serviceAuthClientInterceptor(callerKey)] } : {}),
    // With a dns:/// target that lists every replica (headless Service), spread calls over all.
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.max_send_message_length': 64 * 1024 * 1024,
    ...channelOptions,
  });
  clientAddresses.set(client, address);
  return client;
}

/** The address each client was made for: calls to an address served in the process may go without the network (grpc-local.ts). */
const clientAddresses = new WeakMap<Client, string>();

type UnaryMethod<Req, Res> = ((req: Req, metadata: Metadata, options: { deadline: Date }, cb: (err: GrpcServiceError | null, res: Res) => void) => unknown) & {
  path?: string;
  requestSerialize?: (req: Req) => Buffer;
  responseDeserialize?: (bytes: Buffer) => Res;
};

/**
 * Calls a unary method as a promise; failures come back as ServiceError (the one convention).
 * The call is counted (quire_grpc_client_*) and, with tracing on, is a client span whose
 * `traceparent` goes with the call.
 */
export function unary<Req, Res>(client: Client, method: UnaryMethod<Req, Res>, req: Req, opts: { deadlineMs?: number; metadata?: Metadata } = {}): Promise<Res> {
  const metadata = opts.metadata?.clone() ?? new Metadata();
  // The request being served travels with the call, so the service logs under the same id.
  const requestId = currentRequestId();
  if (requestId && metadata.get(REQUEST_ID_KEY).length === 0) metadata.set(REQUEST_ID_KEY, requestId);
  const labels = grpcPathLabels((method as { path?: string }).path ?? `/unknown/${method.name}`);
  const started = performance.now();
  const attributes = { 'rpc.system': 'grpc', 'rpc.service': labels.grpc_service, 'rpc.method': labels.grpc_method };
  return withSpan(`${labels.grpc_service}/${labels.grpc_method}`, { kind: SpanKind.CLIENT, attributes }, (span) => {
    injectTraceContext(metadata);
    return new Promise<Res>((resolve, reject) => {
      const deadline = new Date(Date.now() + (opts.deadlineMs ?? 30_000));
      const done = (err: GrpcServiceError | null, res: Res) => {
        grpcClientHandled.inc({ ...labels, grpc_code: grpcCodeName(err ? err.code : GrpcStatus.OK) });
        grpcClientSeconds.observe(labels, (performance.now() - started) / 1000);
        if (err) markSpanError(span, grpcCodeName(err.code));
        if (err) reject(ServiceError.fromGrpc(err));
        else resolve(res);
      };
      const address = clientAddresses.get(client);
      const route = localRouteFor(address);
      const { path, requestSerialize, responseDeserialize } = method;
      if (!route || !address || !path || !requestSerialize || !responseDeserialize) {
        method.call(client, req, metadata, { deadline }, done);
        return;
      }
      let bytes: Buffer;
      try {
        bytes = requestSerialize(req);
      } catch (e) {
        // grpc-js reports a request it cannot encode as INTERNAL.
        done(
          Object.assign(new Error('Request message serialization failure'), {
            code: GrpcStatus.INTERNAL,
            details: `Request message serialization failure: ${(e as Error).message}`,
            metadata: new Metadata(),
          }),
          undefined as Res,
        );
        return;
      }
      route.call(address!, path, bytes, metadata, deadline, (err, res) => {
        if (err) {
          done(err, undefined as Res);
          return;
        }
        let value: Res;
        try {
          value = responseDeserialize(res!);
        } catch {
          done(Object.assign(new Error('Failed to parse server response'), { code: GrpcStatus.INTERNAL, details: 'Failed to parse server response', metadata: new Metadata() }), undefined as Res);
          return;
        }
        done(null, value);
      });
    });
  });
}
