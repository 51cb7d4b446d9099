/* ListBlocks' bkstart/bkend/bkshow filters (ApiQueryBlocks) over gRPC. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { AuthServiceClient, type BlockRequest } from '@quire/proto/wiki/auth/v1/auth';
import { AuthClient } from '@quire/gateway/clients/index';
import { authService } from './server.js';

for (const backend of testBackends()) {
  describe(`ListBlocks filters (${backend})`, () => {
    let env: TestEnv;
    let svc: RunningService;
    let auth: AuthClient;
    const block = (target: string, expiry: string) =>
      auth.block({ target, expiry, reason: '', performerId: 0, performer: 'Maintenance script', anononly: false, nocreate: false, noemail: false, allowusertalk: false, reblock: false, tags: [] } satisfies BlockRequest);
    const targets = async (req: { start?: string; end?: string; show?: string[]; descending?: boolean }) => (await auth.listBlocks(req)).blocks.map((b) => b.user);

    before(async () => {
      env = await makeTestEnv(backend, { AUTH_GRPC_PORT: '0' });
      svc = await startService(authService, env.env);
      auth = new AuthClient(makeClient(AuthServiceClient, svc.address));
      assert.equal((await auth.createAccount({ username: 'Frank', password: 'frankpass123456', ip: '10.0.0.1' })).ok, true);
      await block('Frank', '1 day');
      await block('10.1.2.3', 'infinite');
    });
    after(async () => {
      auth.close();
      await svc.stop();
      await env.cleanup();
    });

    test('show: account, ip, range, temp and their negations', async () => {
      assert.deepEqual(await targets({ show: ['account'] }), ['Frank']);
      assert.deepEqual(await targets({ show: ['!account'] }), ['10.1.2.3']);
      assert.deepEqual(await targets({ show: ['ip'] }), ['10.1.2.3']);
      assert.deepEqual(await targets({ show: ['!ip'] }), ['Frank']);
      assert.deepEqual(await targets({ show: ['range'] }), []);
      assert.deepEqual(await targets({ show: ['!range'] }), ['10.1.2.3', 'Frank']);
      assert.deepEqual(await targets({ show: ['temp'] }), ['Frank']);
      assert.deepEqual(await targets({ show: ['!temp', '!account'] }), ['10.1.2.3']);
    });

    test('start and end bound the block timestamps in the listing\'s direction', async () => {
      const past = '2020-01-01T00:00:00Z';
      const future = '2099-01-01T00:00:00Z';
      assert.deepEqual(await targets({ start: future, end: past }), ['10.1.2.3', 'Frank'], 'newest first: start is the newer bound');
      assert.deepEqual(await targets({ start: past, end: future, descending: false }), ['Frank', '10.1.2.3']);
      assert.deepEqual(await targets({ start: past }), [], 'nothing is older than 2020');
      assert.deepEqual(await targets({ end: future }), [], 'nothing is newer than 2099');
    });
  });
}
