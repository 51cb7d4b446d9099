import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { HealthClient, HealthCheckResponse_ServingStatus } from '@quire/proto/grpc/health/v1/health';
import { GetIndexStatusResponse, SearchServiceClient, SearchServiceService } from '@quire/proto/wiki/search/v1/search';
import { GrpcStatus, ServiceError, notFound } from './errors.js';
import { makeClient, startGrpcServer, unary, wrapService, type CallContext } from './grpc.js';
import { observeLocalCalls, routeInThread, routeOverPort, serveOverPort } from './grpc-local.js';
import { createLogger } from './log.js';
import { runWithRequestId } from './request.js';

const log = createLogger('test', 'silent');

type Handler = (ctx: CallContext) => Promise<Partial<GetIndexStatusResponse>>;

async function serve(handler: Handler) {
  const inflight = new Set<Promise<unknown>>();
  const unused = async (): Promise<never> => {
    throw new Error('not part of this fixture');
  };
  const impl = {
    getIndexStatus: async (_req: unknown, ctx: CallContext) => GetIndexStatusResponse.fromPartial(await handler(ctx)),
    searchPages: unused,
    completeTitles: unused,
    rebuildIndex: unused,
  };
  const server = await startGrpcServer({
    port: 0,
    log,
    inflight,
    services: [{ name: 'wiki.search.v1.SearchService', definition: SearchServiceService, implementation: wrapService(SearchServiceService, impl, log, inflight) }],
  });
  return { server, client: makeClient(SearchServiceClient, server.address), health: makeClient(HealthClient, server.address) };
}

/** Both routes: a client on the serving thread, and one on the far side of a MessagePort (here the same thread). */
const routes: [string, (address: string) => () => void][] = [
  ['in the thread', (address) => routeInThread([address])],
  [
    'over a port',
    (address) => {
      const { port1, port2 } = new MessageChannel();
      serveOverPort(port1);
      const unroute = routeOverPort(port2, [address]);
      return () => {
        unroute();
        port1.close();
        port2.close();
      };
    },
  ],
];

for (const [name, route] of routes) {
  test(`a routed call (${name}) reaches the server's handler without the network, with the caller's request id`, async () => {
    let seen: string | undefined;
    const { server, client, health } = await serve(async (ctx) => {
      seen = ctx.requestId;
      return { engine: 'sql', indexedThrough: 7, lagSeconds: 0 };
    });
    const unroute = route(server.address);
    let routed = 0;
    const unobserve = observeLocalCalls(() => routed++);
    try {
      const r = await runWithRequestId('req-local-1', () => unary(client, client.getIndexStatus, {}));
      assert.equal(r.indexedThrough, 7);
      assert.equal(r.engine, 'sql');
      assert.equal(seen, 'req-local-1');
      // The health service answers synchronously: routed too.
      assert.equal((await unary(health, health.check, { service: '' })).status, HealthCheckResponse_ServingStatus.SERVING);
      assert.equal(routed, 2);
    } finally {
      unobserve();
      unroute();
      client.close();
      health.close();
      await server.shutdown();
    }
  });

  test(`a routed call (${name}) fails as over gRPC: code, MediaWiki code and data; hidden internals; deadline; a stopped server`, async () => {
    let mode: 'notfound' | 'internal' | 'slow' = 'notfound';
    let cancelledAfter: boolean | undefined;
    const { server, client } = await serve(async (ctx) => {
      if (mode === 'notfound') throw notFound('missingtitle', "The page you specified doesn't exist.", { title: 'X' });
      if (mode === 'internal') throw new TypeError('secret internal detail');
      await new Promise((r) => setTimeout(r, 150));
      cancelledAfter = ctx.cancelled();
      return { engine: 'sql' };
    });
    const unroute = route(server.address);
    try {
      await assert.rejects(unary(client, client.getIndexStatus, {}), (e: unknown) => {
        assert.ok(e instanceof ServiceError);
        assert.equal(e.grpcCode, GrpcStatus.NOT_FOUND);
        assert.equal(e.mwCode, 'missingtitle');
        assert.equal(e.message, "The page you specified doesn't exist.");
        assert.deepEqual(e.data, { title: 'X' });
        return true;
      });
      mode = 'internal';
      await assert.rejects(unary(client, client.getIndexStatus, {}), (e: unknown) => {
        assert.ok(e instanceof ServiceError);
        assert.equal(e.grpcCode, GrpcStatus.INTERNAL);
        assert.equal(e.mwCode, 'internal_api_error');
        assert.doesNotMatch(e.message, /secret/);
        return true;
      });
      mode = 'slow';
      await assert.rejects(unary(client, client.getIndexStatus, {}, { deadlineMs: 30 }), (e: unknown) => e instanceof ServiceError && e.grpcCode === GrpcStatus.DEADLINE_EXCEEDED);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(cancelledAfter, true, 'the handler sees the call cancelled once its deadline passed');
      await server.shutdown();
      await assert.rejects(unary(client, client.getIndexStatus, {}), (e: unknown) => e instanceof ServiceError && e.grpcCode === GrpcStatus.UNAVAILABLE);
    } finally {
      unroute();
      client.close();
      await server.shutdown();
    }
  });
}

test('an address that is not routed goes over gRPC', async () => {
  const { server, client } = await serve(async () => ({ engine: 'sql', indexedThrough: 3 }));
  let routed = 0;
  const unobserve = observeLocalCalls(() => routed++);
  try {
    assert.equal((await unary(client, client.getIndexStatus, {})).indexedThrough, 3);
    assert.equal(routed, 0);
  } finally {
    unobserve();
    client.close();
    await server.shutdown();
  }
});
