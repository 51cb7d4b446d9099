import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Metadata } from '@grpc/grpc-js';
import { HealthClient, HealthCheckResponse_ServingStatus } from '@quire/proto/grpc/health/v1/health';
import { PageChange, FeedServiceClient, FeedServiceService } from '@quire/proto/wiki/content/feed/v1/feed';
import { GetIndexStatusResponse, SearchServiceClient, SearchServiceService } from '@quire/proto/wiki/search/v1/search';
import { GrpcStatus, ServiceError, notFound } from './errors.js';
import { READINESS_SERVICE, makeClient, startGrpcServer, unary, wrapService, type AsyncHandlers } from './grpc.js';
import { register } from 'prom-client';
import { createLogger } from './log.js';
import { REQUEST_ID_KEY, runWithRequestId } from './request.js';

const log = createLogger('test', 'silent');

/** The search service as a fixture: only GetIndexStatus answers (the others are never called here). */
function searchFixture(handler: () => Promise<Partial<GetIndexStatusResponse>>): AsyncHandlers<typeof SearchServiceService> {
  const unused = async (): Promise<never> => {
    throw new Error('not part of this fixture');
  };
  return { getIndexStatus: async () => GetIndexStatusResponse.fromPartial(await handler()), searchPages: unused, completeTitles: unused, rebuildIndex: unused };
}

async function serve(handler: () => Promise<{ engine: string; indexedThrough: number; lagSeconds: number }>) {
  const inflight = new Set<Promise<unknown>>();
  const server = await startGrpcServer({
    port: 0,
    log,
    inflight,
    services: [{ name: 'wiki.search.v1.SearchService', definition: SearchServiceService, implementation: wrapService(SearchServiceService, searchFixture(handler), log, inflight) }],
  });
  return { server, client: makeClient(SearchServiceClient, server.address), health: makeClient(HealthClient, server.address) };
}

test('health reports serving, unknown services, and not serving during shutdown', async () => {
  const { server, client, health } = await serve(async () => ({ engine: 'sql', indexedThrough: 1, lagSeconds: 0 }));
  assert.equal((await unary(health, health.check, { service: '' })).status, HealthCheckResponse_ServingStatus.SERVING);
  assert.equal((await unary(health, health.check, { service: 'wiki.search.v1.SearchService' })).status, HealthCheckResponse_ServingStatus.SERVING);
  await assert.rejects(unary(health, health.check, { service: 'nope.Service' }), (e: unknown) => e instanceof ServiceError && e.grpcCode === GrpcStatus.NOT_FOUND);
  server.setServing(false);
  assert.equal((await unary(health, health.check, { service: '' })).status, HealthCheckResponse_ServingStatus.NOT_SERVING);
  client.close();
  health.close();
  await server.shutdown();
});

test('a ServiceError crosses the wire with its gRPC code, MediaWiki code and data; other errors become internal', async () => {
  let fail: Error = notFound('missingtitle', "The page you specified doesn't exist.", { title: 'X' });
  const { server, client } = await serve(async () => {
    throw fail;
  });
  await assert.rejects(unary(client, client.getIndexStatus, {}), (e: unknown) => {
    assert.ok(e instanceof ServiceError);
    assert.equal(e.grpcCode, GrpcStatus.NOT_FOUND);
    assert.equal(e.mwCode, 'missingtitle');
    assert.equal(e.message, "The page you specified doesn't exist.");
    assert.deepEqual(e.data, { title: 'X' });
    return true;
  });
  fail = new TypeError('secret internal detail');
  await assert.rejects(unary(client, client.getIndexStatus, {}), (e: unknown) => {
    assert.ok(e instanceof ServiceError);
    assert.equal(e.grpcCode, GrpcStatus.INTERNAL);
    assert.equal(e.mwCode, 'internal_api_error');
    assert.doesNotMatch(e.message, /secret/);
    return true;
  });
  client.close();
  await server.shutdown();
});

test('shutdown lets in-flight calls finish and refuses new ones', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const reached = new Promise<void>((r) => (entered = r));
  const { server, client } = await serve(async () => {
    entered();
    await gate;
    return { engine: 'sql', indexedThrough: 42, lagSeconds: 0 };
  });
  const inFlight = unary(client, client.getIndexStatus, {}, { metadata: new Metadata() });
  // Shut down only once the call has reached the handler (a first connection can take a while on a busy machine).
  await reached;
  const stopped = server.shutdown(5000);
  let stoppedEarly = false;
  void stopped.then(() => (stoppedEarly = true));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(stoppedEarly, false, 'shutdown waits for the in-flight call');
  release();
  assert.equal((await inFlight).indexedThrough, 42);
  await stopped;
  await assert.rejects(unary(client, client.getIndexStatus, {}, { deadlineMs: 1000 }), (e: unknown) => e instanceof ServiceError && e.grpcCode === GrpcStatus.UNAVAILABLE);
  client.close();
});

test('error data and messages in any Unicode cross the wire (binary metadata), and the server serves on', async () => {
  const data = { title: 'Café[x] \uFFFD(\uFFFD 日本 😀', reasonCode: 'title-invalid-characters', nested: { list: ['ü', 1, null] } };
  let fail: Error = new ServiceError(GrpcStatus.INVALID_ARGUMENT, 'invalidtitle', 'Bad title "Café[x] 😀".', data);
  const { server, client } = await serve(async () => {
    throw fail;
  });
  await assert.rejects(unary(client, client.getIndexStatus, {}), (e: unknown) => {
    assert.ok(e instanceof ServiceError);
    assert.equal(e.grpcCode, GrpcStatus.INVALID_ARGUMENT);
    assert.equal(e.mwCode, 'invalidtitle');
    assert.equal(e.message, 'Bad title "Café[x] 😀".');
    assert.deepEqual(e.data, data);
    return true;
  });
  // A lone surrogate: the message (sent as UTF-8) gets U+FFFD instead of breaking the answer; the
  // data (JSON escapes it as \ud800) arrives as it was.
  fail = new ServiceError(GrpcStatus.NOT_FOUND, 'missingtitle', 'No page "a\uD800b".', { title: 'a\uD800b' });
  await assert.rejects(unary(client, client.getIndexStatus, {}), (e: unknown) => {
    assert.ok(e instanceof ServiceError);
    assert.equal(e.mwCode, 'missingtitle');
    assert.equal(e.message, 'No page "a\uFFFDb".');
    assert.deepEqual(e.data, { title: 'a\uD800b' });
    return true;
  });
  // Errors that echo a huge input (a 70 KB title) still complete: the headers stay small.
  const huge = 'x'.repeat(70_000);
  fail = new ServiceError(GrpcStatus.INVALID_ARGUMENT, 'invalidtitle', `Bad title "${huge}".`, { title: huge, reasonCode: 'title-invalid-too-long' });
  await assert.rejects(unary(client, client.getIndexStatus, {}, { deadlineMs: 5000 }), (e: unknown) => {
    assert.ok(e instanceof ServiceError);
    assert.equal(e.mwCode, 'invalidtitle');
    assert.ok(e.message.startsWith('Bad title "xxx') && e.message.length < 5000);
    assert.equal(e.data.reasonCode, 'title-invalid-too-long');
    assert.ok(typeof e.data.title === 'string' && e.data.title.startsWith('xxx') && e.data.title.length < 2000);
    return true;
  });
  // Data that cannot be serialized: the code and message still arrive.
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  fail = new ServiceError(GrpcStatus.ABORTED, 'editconflict', 'Edit conflict.', cyclic);
  await assert.rejects(unary(client, client.getIndexStatus, {}), (e: unknown) => e instanceof ServiceError && e.mwCode === 'editconflict' && Object.keys(e.data).length === 0);
  client.close();
  await server.shutdown();
});

test('fromGrpc reads the ASCII keys older services send, and survives anything', () => {
  const md = new Metadata();
  md.set('mw-code', 'badtoken');
  md.set('mw-data', '{"a":1}');
  const e = ServiceError.fromGrpc({ code: GrpcStatus.PERMISSION_DENIED, details: 'Invalid CSRF token.', metadata: md });
  assert.deepEqual([e.grpcCode, e.mwCode, e.message, e.data], [GrpcStatus.PERMISSION_DENIED, 'badtoken', 'Invalid CSRF token.', { a: 1 }]);
  for (const junk of [null, undefined, 'text', 42, { metadata: 'not metadata' }]) {
    const x = ServiceError.fromGrpc(junk);
    assert.equal(x.grpcCode, GrpcStatus.INTERNAL);
    assert.equal(x.mwCode, 'internal_api_error');
  }
});

/** A logger that keeps what handlers' failures log. */
function recordingLog() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void lines.push({ level, obj, msg });
  const logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } as unknown as typeof log;
  return { lines, logger };
}

test('a handler that throws synchronously, rejects, throws a non-Error or returns what cannot be sent gets INTERNAL, is logged with its request id, and the next call is served', async () => {
  const { lines, logger } = recordingLog();
  type Mode = 'sync' | 'async' | 'non-error' | 'unsendable' | 'ok';
  let mode: Mode = 'ok';
  const unused = async (): Promise<never> => {
    throw new Error('not part of this fixture');
  };
  const handlers = {
    // Not an async function: a synchronous throw escapes it before any promise exists.
    getIndexStatus: ((_req: unknown, ctx: { requestId: string }) => {
      if (mode === 'sync') throw new TypeError('sync failure');
      if (mode === 'async') return Promise.reject(new RangeError('async failure'));
      if (mode === 'non-error') return Promise.reject(null);
      if (mode === 'unsendable') return Promise.resolve({ engine: { not: 'a string' }, indexedThrough: 'x' });
      return Promise.resolve(GetIndexStatusResponse.fromPartial({ engine: ctx.requestId, indexedThrough: 7 }));
    }) as unknown as AsyncHandlers<typeof SearchServiceService>['getIndexStatus'],
    searchPages: unused,
    completeTitles: unused,
    rebuildIndex: unused,
  };
  const inflight = new Set<Promise<unknown>>();
  const server = await startGrpcServer({
    port: 0,
    log: logger,
    inflight,
    services: [{ name: 'wiki.search.v1.SearchService', definition: SearchServiceService, implementation: wrapService(SearchServiceService, handlers, logger, inflight) }],
  });
  const client = makeClient(SearchServiceClient, server.address);
  for (const m of ['sync', 'async', 'non-error', 'unsendable'] as const) {
    mode = m;
    const before = lines.length;
    const md = new Metadata();
    md.set(REQUEST_ID_KEY, `req-${m}`);
    await assert.rejects(unary(client, client.getIndexStatus, {}, { metadata: md, deadlineMs: 5000 }), (e: unknown) => {
      assert.ok(e instanceof ServiceError, m);
      assert.equal(e.grpcCode, GrpcStatus.INTERNAL, m);
      assert.doesNotMatch(e.message, /failure/, m);
      return true;
    });
    if (m !== 'unsendable') {
      const logged = lines.slice(before).find((l) => l.level === 'error');
      assert.ok(logged, `${m}: the failure is logged`);
      assert.equal(logged.obj.requestId, `req-${m}`);
      assert.equal(logged.obj.method, 'getIndexStatus');
    }
    mode = 'ok';
    assert.equal((await unary(client, client.getIndexStatus, {})).indexedThrough, 7, `${m}: the next call is served`);
  }
  // The caller's request id reaches the handler; without one the handler gets a fresh id.
  const viaCaller = await runWithRequestId('abc-123', () => unary(client, client.getIndexStatus, {}));
  assert.equal(viaCaller.engine, 'abc-123');
  assert.match((await unary(client, client.getIndexStatus, {})).engine, /^[0-9a-f]{24}$/);
  client.close();
  await server.shutdown();
});

test('a streaming handler that throws ends its stream with INTERNAL, and the server serves on', async () => {
  const { lines, logger } = recordingLog();
  let fail = true;
  const inflight = new Set<Promise<unknown>>();
  // Only StreamChanges is called; the other methods of the definition are never reached.
  const handlers = {
    streamChanges: (async (_req: unknown, stream: { write(m: unknown): boolean }) => {
      stream.write(PageChange.fromPartial({ position: 1, dbkey: 'A' }));
      if (fail) throw new Error('stream failure');
    }) as unknown as AsyncHandlers<typeof FeedServiceService>['streamChanges'],
  } as unknown as AsyncHandlers<typeof FeedServiceService>;
  const server = await startGrpcServer({
    port: 0,
    log: logger,
    inflight,
    services: [{ name: 'wiki.content.feed.v1.FeedService', definition: FeedServiceService, implementation: wrapService(FeedServiceService, handlers, logger, inflight) }],
  });
  const content = makeClient(FeedServiceClient, server.address);
  const watch = (md: Metadata) =>
    new Promise<{ messages: number; code: number }>((resolve) => {
      let messages = 0;
      const call = content.streamChanges({ fromPosition: 0, maxBatch: 0, maxWaitMs: 0 }, md);
      call.on('data', () => messages++);
      call.on('error', (e: { code: number }) => resolve({ messages, code: e.code }));
      call.on('end', () => resolve({ messages, code: GrpcStatus.OK }));
    });
  const md = new Metadata();
  md.set(REQUEST_ID_KEY, 'stream-1');
  assert.deepEqual(await watch(md), { messages: 1, code: GrpcStatus.INTERNAL });
  assert.ok(lines.some((l) => l.level === 'error' && l.obj.requestId === 'stream-1'));
  fail = false;
  assert.deepEqual(await watch(new Metadata()), { messages: 1, code: GrpcStatus.OK });
  content.close();
  await server.shutdown();
});

test('readiness (quire.readiness) follows the dependencies while liveness ("") stays SERVING', async () => {
  const inflight = new Set<Promise<unknown>>();
  let depsUp = true;
  const server = await startGrpcServer({ port: 0, log, inflight, services: [], ready: () => depsUp });
  const health = makeClient(HealthClient, server.address);
  const status = async (service: string) => (await unary(health, health.check, { service })).status;
  try {
    assert.equal(await status(READINESS_SERVICE), HealthCheckResponse_ServingStatus.SERVING);
    depsUp = false;
    assert.equal(await status(READINESS_SERVICE), HealthCheckResponse_ServingStatus.NOT_SERVING);
    assert.equal(await status(''), HealthCheckResponse_ServingStatus.SERVING, 'a database outage does not make the process unhealthy');
    depsUp = true;
    assert.equal(await status(READINESS_SERVICE), HealthCheckResponse_ServingStatus.SERVING);
  } finally {
    health.close();
    await server.shutdown(100);
  }
});

test('calls are counted on both sides (quire_grpc_*) by method and status code', async () => {
  const { server, client, health } = await serve(async () => {
    throw notFound('nosuchthing', 'none');
  });
  const labels = { grpc_service: 'wiki.search.v1.SearchService', grpc_method: 'GetIndexStatus', grpc_code: 'NOT_FOUND' };
  const count = async (name: string) => (await register.getSingleMetric(name)!.get()).values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;
  const [s0, c0] = [await count('quire_grpc_server_handled_total'), await count('quire_grpc_client_handled_total')];
  try {
    await assert.rejects(unary(client, client.getIndexStatus, {}));
    assert.equal(await count('quire_grpc_server_handled_total'), s0 + 1);
    assert.equal(await count('quire_grpc_client_handled_total'), c0 + 1);
  } finally {
    client.close();
    health.close();
    await server.shutdown(100);
  }
});
