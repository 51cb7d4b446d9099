/*
 * Unary gRPC calls inside one process without HTTP/2. `npm start` runs the services and
 * the gateway as threads of one process; over loopback each grpc-js unary call cost ~1 ms of CPU
 * (HTTP/2 framing, the channel's call stack, two socket hops) and ~0.7 ms of latency on 2 cores,
 * against ~60 µs for a message between threads. A call routed here is the same call: the request
 * and the answer are serialized with the method's own protobuf codecs, the metadata (request id,
 * trace context) and a failure's status and trailers (the MediaWiki error code) cross as they do
 * over the wire, the handler is the one the gRPC server runs (counted, traced and drained on
 * shutdown by wrapService), and a deadline ends the wait with DEADLINE_EXCEEDED and marks the
 * call cancelled for the handler. Only the transport differs.
 *
 * A gRPC server records its unary methods under its address (`recordServedMethods`, from
 * startGrpcServer). The process decides which addresses its clients reach this way: the thread
 * that serves them with `routeInThread`, another thread through a MessagePort (`serveOverPort`
 * on the serving side, `routeOverPort` on the calling one). Every other address, and every
 * streaming method, goes over the network as before.
 */
import type { MessagePort } from 'node:worker_threads';
import { Metadata, status as GrpcStatus, type ServiceError as GrpcServiceError, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';

/** What a unary method needs to be served here: its handler (grpc-js's signature) and codecs. */
interface ServedMethod {
  handler: (call: LocalCall, cb: (err: Partial<GrpcServiceError> | null, res?: unknown) => void) => void;
  requestDeserialize(bytes: Buffer): unknown;
  responseSerialize(value: unknown): Buffer;
}

/** The part of grpc-js's ServerUnaryCall that handlers use (wrapService, the health service). */
interface LocalCall {
  request: unknown;
  metadata: Metadata;
  cancelled: boolean;
  getPeer(): string;
  getDeadline(): Date;
}

/** Metadata as it crosses threads: [key, value] pairs, binary values as bytes. */
type WireMetadata = [string, string | Uint8Array][];

interface CallMessage {
  t: 'call';
  id: number;
  address: string;
  path: string;
  req: Uint8Array;
  md: WireMetadata;
  deadline: number;
}
interface CancelMessage {
  t: 'cancel';
  id: number;
}
interface AnswerMessage {
  t: 'answer';
  id: number;
  res?: Uint8Array;
  code?: number;
  details?: string;
  md?: WireMetadata;
}

/** address → path → method, for the servers of this thread. */
const served = new Map<string, Map<string, ServedMethod>>();

/** Records the unary methods a gRPC server of this thread serves at `address`; returns the undo. */
export function recordServedMethods(address: string, services: { definition: ServiceDefinition; implementation: UntypedServiceImplementation }[]): () => void {
  const methods = new Map<string, ServedMethod>();
  for (const { definition, implementation } of services) {
    for (const [name, m] of Object.entries(definition)) {
      const handler = implementation[name];
      if (m.requestStream || m.responseStream || typeof handler !== 'function') continue;
      methods.set(m.path, { handler: handler as ServedMethod['handler'], requestDeserialize: m.requestDeserialize, responseSerialize: m.responseSerialize as (v: unknown) => Buffer });
    }
  }
  served.set(address, methods);
  return () => {
    if (served.get(address) === methods) served.delete(address);
  };
}

function toWire(md: Metadata | undefined): WireMetadata {
  const out: WireMetadata = [];
  if (!md) return out;
  for (const [key, values] of Object.entries(md.toJSON())) for (const v of values) out.push([key, v]);
  return out;
}

function fromWire(pairs: WireMetadata | undefined): Metadata {
  const md = new Metadata();
  for (const [key, v] of pairs ?? []) md.add(key, typeof v === 'string' ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  return md;
}

const bytes = (u: Uint8Array): Buffer => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

/**
 * Runs one call against this thread's servers and answers through `answer` exactly once. What a
 * server would refuse (an address no longer served: it shut down; an unknown method; a request
 * that does not decode) is answered with the status grpc-js would send.
 */
function dispatch(m: CallMessage, answer: (a: AnswerMessage) => void): LocalCall | undefined {
  const fail = (code: number, details: string) => answer({ t: 'answer', id: m.id, code, details });
  const methods = served.get(m.address);
  if (!methods) {
    fail(GrpcStatus.UNAVAILABLE, `no server at ${m.address}`);
    return undefined;
  }
  const method = methods.get(m.path);
  if (!method) {
    fail(GrpcStatus.UNIMPLEMENTED, `The server does not implement the method ${m.path}`);
    return undefined;
  }
  let request: unknown;
  try {
    request = method.requestDeserialize(bytes(m.req));
  } catch {
    fail(GrpcStatus.INTERNAL, 'Error deserializing request');
    return undefined;
  }
  const call: LocalCall = { request, metadata: fromWire(m.md), cancelled: false, getPeer: () => 'local', getDeadline: () => new Date(m.deadline) };
  let done = false;
  method.handler(call, (err, res) => {
    if (done) return;
    done = true;
    if (err) {
      answer({ t: 'answer', id: m.id, code: err.code ?? GrpcStatus.UNKNOWN, details: err.details ?? err.message ?? '', md: toWire(err.metadata) });
      return;
    }
    let out: Buffer;
    try {
      out = method.responseSerialize(res);
    } catch {
      fail(GrpcStatus.INTERNAL, 'Failed to serialize response');
      return;
    }
    answer({ t: 'answer', id: m.id, res: out });
  });
  return call;
}

/** Serves this thread's servers to the threads that call through `port` (the other end of routeOverPort's). */
export function serveOverPort(port: MessagePort): void {
  const open = new Map<number, LocalCall>();
  port.on('message', (m: CallMessage | CancelMessage) => {
    if (m.t === 'cancel') {
      const call = open.get(m.id);
      if (call) call.cancelled = true;
      return;
    }
    let answered = false;
    const call = dispatch(m, (a) => {
      answered = true;
      open.delete(m.id);
      port.postMessage(a);
    });
    if (call && !answered) open.set(m.id, call);
  });
}

const callObservers = new Set<() => void>();

/** Calls `listener` at each call a client of this thread routes here (the gateway's debug call counter). */
export function observeLocalCalls(listener: () => void): () => void {
  callObservers.add(listener);
  return () => callObservers.delete(listener);
}

/** The route of `address` for this thread's clients, if any; counts the call for the observers. */
export function localRouteFor(address: string | undefined): LocalRoute | undefined {
  const route = address === undefined ? undefined : routes.get(address);
  if (route) for (const o of callObservers) o();
  return route;
}

/** How a client reaches a server without the network. */
export interface LocalRoute {
  call(address: string, path: string, req: Buffer, metadata: Metadata, deadline: Date, done: (err: GrpcServiceError | null, res?: Buffer) => void): void;
}

/** Addresses this thread's clients reach without the network, and how. */
const routes = new Map<string, LocalRoute>();

/** A status as grpc-js's client reports it (a ServiceError with code, details and trailers). */
function clientError(code: number, details: string, md: Metadata): GrpcServiceError {
  return Object.assign(new Error(`${code} ${GrpcStatus[code] ?? 'UNKNOWN'}: ${details}`), { code, details, metadata: md });
}

/**
 * Ends the wait at the deadline, as grpc-js does (DEADLINE_EXCEEDED), telling the server the call
 * is cancelled; a later answer is dropped.
 */
function withDeadline(deadline: Date, done: (err: GrpcServiceError | null, res?: Buffer) => void, cancel: () => void): (a: AnswerMessage) => void {
  let settled = false;
  const timer = setTimeout(
    () => {
      if (settled) return;
      settled = true;
      cancel();
      done(clientError(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded', new Metadata()));
    },
    Math.max(0, deadline.getTime() - Date.now()),
  );
  return (a) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (a.res !== undefined) done(null, bytes(a.res));
    else done(clientError(a.code ?? GrpcStatus.UNKNOWN, a.details ?? '', fromWire(a.md)));
  };
}

/** This thread's clients of `addresses` call this thread's servers directly (they must serve them). */
export function routeInThread(addresses: string[]): () => void {
  let nextId = 0;
  const route: LocalRoute = {
    call(address, path, req, metadata, deadline, done) {
      const id = nextId++;
      let call: LocalCall | undefined;
      const settle = withDeadline(deadline, done, () => {
        if (call) call.cancelled = true;
      });
      // Asynchronous like a network call: the caller's code after the call runs first.
      queueMicrotask(() => {
        call = dispatch({ t: 'call', id, address, path, req, md: toWire(metadata), deadline: deadline.getTime() }, settle);
      });
    },
  };
  for (const a of addresses) routes.set(a, route);
  return () => {
    for (const a of addresses) if (routes.get(a) === route) routes.delete(a);
  };
}

/** This thread's clients of `addresses` call the thread at the other end of `port` (serveOverPort). */
export function routeOverPort(port: MessagePort, addresses: string[]): () => void {
  let nextId = 0;
  const waiting = new Map<number, (a: AnswerMessage) => void>();
  port.on('message', (a: AnswerMessage) => {
    const settle = waiting.get(a.id);
    waiting.delete(a.id);
    settle?.(a);
  });
  // Waiting calls must not keep the thread alive on their own: their deadline timers do.
  port.unref();
  const route: LocalRoute = {
    call(address, path, req, metadata, deadline, done) {
      const id = nextId++;
      const settle = withDeadline(deadline, done, () => {
        waiting.delete(id);
        port.postMessage({ t: 'cancel', id } satisfies CancelMessage);
      });
      waiting.set(id, settle);
      port.postMessage({ t: 'call', id, address, path, req, md: toWire(metadata), deadline: deadline.getTime() } satisfies CallMessage);
    },
  };
  for (const a of addresses) routes.set(a, route);
  return () => {
    for (const a of addresses) if (routes.get(a) === route) routes.delete(a);
    for (const settle of waiting.values()) settle({ t: 'answer', id: -1, code: GrpcStatus.UNAVAILABLE, details: 'the route closed' });
    waiting.clear();
  };
}
