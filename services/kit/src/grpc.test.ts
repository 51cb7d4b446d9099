import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Metadata } from '@grpc/grpc-js';
import { HealthClient, HealthCheckResponse_ServingStatus } from '@quire/proto/grpc/health/v1/health';
import { GetIndexStatusResponse, SearchServiceClient, SearchServiceService } from '@quire/proto/wiki/search/v1/search';
import { GrpcStatus, ServiceError, notFound } from './errors.js';
import { makeClient, startGrpcServer, unary, wrapService, type AsyncHandlers } from './grpc.js';
import { createLogger } from './log.js';

const log = createLogger('test', 'silent');

/** The search service as a fixture: only GetIndexStatus answers (the others are never called here). */
function searchFixture(handler: () => Promise<Partial<GetIndexStatusResponse>>): AsyncHandlers<typeof SearchServiceService> {
  const unused = async (): Promise<never> => {
    throw new Error('not part of this fixture');
  };
  return { getIndexStatus: async () => GetIndexStatusResponse.fromPartial(await handler()), searchPages: unused, completeTitles: unused };
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
  const { server, client } = await serve(async () => {
    await gate;
    return { engine: 'sql', indexedThrough: 42, lagSeconds: 0 };
  });
  const inFlight = unary(client, client.getIndexStatus, {}, { metadata: new Metadata() });
  await new Promise((r) => setTimeout(r, 50)); // the call has reached the handler
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
