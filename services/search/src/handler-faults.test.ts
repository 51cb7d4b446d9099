/*
 * A search handler whose database fails (injected through the runtime the service is
 * constructed with) answers that call with INTERNAL, and the service serves the next call.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, unary } from '@quire/kit';
import { assertInternalWithoutDetails, startFaultyTestService, type FaultyService } from '@quire/kit/faults';
import { testBackends } from '@quire/kit/testing';
import { SearchServiceClient } from '@quire/proto/wiki/search/v1/search';
import { searchService } from './server.js';

for (const backend of testBackends()) {
  describe(`search handlers with failing storage (${backend})`, () => {
    let svc: FaultyService;
    let client: SearchServiceClient;
    before(async () => {
      // The query role only: the indexer would need a content service.
      svc = await startFaultyTestService(searchService, backend, { SEARCH_ROLE: 'query' });
      client = makeClient(SearchServiceClient, svc.address);
    });
    after(async () => {
      client.close();
      await svc.stop();
    });

    test('GetIndexStatus fails with INTERNAL while the database fails, then serves the next call', async () => {
      svc.fault.failing = true;
      await assertInternalWithoutDetails(unary(client, client.getIndexStatus, {}, { deadlineMs: 10_000 }));
      svc.fault.failing = false;
      assert.ok(svc.fault.injected > 0, 'the handler reached the failing database');
      // Content is not running: the service answers what it knows on its own (its cursor and engine).
      const r = await unary(client, client.getIndexStatus, {}, { deadlineMs: 10_000 });
      assert.equal(r.engine, 'sql');
      assert.equal(r.indexedThrough, 0);
    });
  });
}
