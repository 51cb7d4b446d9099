/*
 * An auth handler whose token store fails (injected through the runtime the service is
 * constructed with) answers that call with INTERNAL, and the service serves the next call.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, unary } from '@quire/kit';
import { assertInternalWithoutDetails, startFaultyTestService, type FaultyService } from '@quire/kit/faults';
import { testBackends } from '@quire/kit/testing';
import { AuthServiceClient } from '@quire/proto/wiki/auth/v1/auth';
import { authService } from './server.js';

for (const backend of testBackends()) {
  describe(`auth handlers with failing storage (${backend})`, () => {
    let svc: FaultyService;
    let client: AuthServiceClient;
    before(async () => {
      svc = await startFaultyTestService(authService, backend);
      client = makeClient(AuthServiceClient, svc.address);
    });
    after(async () => {
      client.close();
      await svc.stop();
    });

    test('ResolveSession fails with INTERNAL while the token store fails, then serves the next call', async () => {
      const request = { sessionId: 'a'.repeat(32), ip: '192.0.2.1', tokenType: '', token: '' };
      svc.fault.failing = true;
      await assertInternalWithoutDetails(unary(client, client.resolveSession, request));
      svc.fault.failing = false;
      assert.ok(svc.fault.injected > 0, 'the handler reached the failing store');
      const r = await unary(client, client.resolveSession, request);
      assert.equal(r.sessionValid, false);
      assert.equal(r.user?.anonymous ?? true, true);
    });
  });
}
