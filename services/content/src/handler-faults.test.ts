/*
 * A content handler whose database fails (injected through the runtime the service is
 * constructed with) answers that call with INTERNAL, and the service serves the next call.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, unary } from '@quire/kit';
import { assertInternalWithoutDetails, startFaultyTestService, type FaultyService } from '@quire/kit/faults';
import { testBackends } from '@quire/kit/testing';
import { PageServiceClient } from '@quire/proto/wiki/content/pages/v1/pages';
import { contentService } from './server.js';

for (const backend of testBackends()) {
  describe(`content handlers with failing storage (${backend})`, () => {
    let svc: FaultyService;
    let client: PageServiceClient;
    before(async () => {
      svc = await startFaultyTestService(contentService, backend);
      client = makeClient(PageServiceClient, svc.address);
    });
    after(async () => {
      client.close();
      await svc.stop();
    });

    test('GetPage fails with INTERNAL while the database fails, then serves the next call', async () => {
      svc.fault.failing = true;
      await assertInternalWithoutDetails(unary(client, client.getPage, { title: 'Never read before', withContent: true }));
      svc.fault.failing = false;
      assert.ok(svc.fault.injected > 0, 'the handler reached the failing database');
      const page = await unary(client, client.getPage, { title: 'Main Page', withContent: true });
      assert.equal(page.page?.title, 'Main Page');
      assert.ok((page.latest?.content ?? '').length > 0);
    });
  });
}
