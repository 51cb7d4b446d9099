/* ListBlocks' bkstart/bkend/bkshow filters (ApiQueryBlocks) over gRPC. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, ServiceError, startService, type RunningService } from '@quire/kit';
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
      auth.block({
        target,
        expiry,
        reason: '',
        performerId: 0,
        performer: 'Maintenance script',
        anononly: false,
        nocreate: false,
        noemail: false,
        allowusertalk: false,
        reblock: false,
        tags: [],
        partial: false,
        pages: [],
        namespaces: [],
      } satisfies BlockRequest);
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

    test("start and end bound the block timestamps in the listing's direction", async () => {
      const past = '2020-01-01T00:00:00Z';
      const future = '2099-01-01T00:00:00Z';
      assert.deepEqual(await targets({ start: future, end: past }), ['10.1.2.3', 'Frank'], 'newest first: start is the newer bound');
      assert.deepEqual(await targets({ start: past, end: future, descending: false }), ['Frank', '10.1.2.3']);
      assert.deepEqual(await targets({ start: past }), [], 'nothing is older than 2020');
      assert.deepEqual(await targets({ end: future }), [], 'nothing is newer than 2099');
    });

    test('a partial block keeps its pages and namespaces; a reblock sitewide drops them; a partial block must allow the own talk page', async () => {
      const base = { target: '10.9.9.9', expiry: '1 day', reason: 'p', performerId: 0, performer: 'Maintenance script', anononly: false, nocreate: false, noemail: false, reblock: true, tags: [] };
      await assert.rejects(
        auth.block({ ...base, allowusertalk: false, partial: true, pages: [], namespaces: [1] }),
        (e: unknown) => e instanceof ServiceError && e.mwCode === 'ipb-prevent-user-talk-edit',
      );
      const talkRestricted = await auth.block({ ...base, allowusertalk: false, partial: true, pages: [], namespaces: [3] });
      assert.equal(talkRestricted.block?.partial, true);
      const r = await auth.block({
        ...base,
        allowusertalk: true,
        partial: true,
        pages: [
          { id: 7, ns: 0, title: 'Seven' },
          { id: 2, ns: 10, title: 'Template:Two' },
        ],
        namespaces: [10, 1],
      });
      assert.deepEqual(
        { partial: r.block?.partial, pages: r.block?.pages, namespaces: r.block?.namespaces },
        {
          partial: true,
          pages: [
            { id: 2, ns: 10, title: 'Template:Two' },
            { id: 7, ns: 0, title: 'Seven' },
          ],
          namespaces: [1, 10],
        },
      );
      const listed = (await auth.listBlocks({ users: ['10.9.9.9'] })).blocks[0]?.block;
      assert.deepEqual(
        listed?.pages.map((p) => p.id),
        [2, 7],
      );
      const sitewide = await auth.block({ ...base, allowusertalk: true, partial: false, pages: [], namespaces: [] });
      assert.deepEqual({ partial: sitewide.block?.partial, pages: sitewide.block?.pages, namespaces: sitewide.block?.namespaces }, { partial: false, pages: [], namespaces: [] });
    });
    test("a block's log entry is stamped with the clock reading its expiry counts from: 1 day ends exactly a day after the entry", async () => {
      const names = ['10.9.0.1', '10.9.0.2', '10.9.0.3', '10.9.0.4', '10.9.0.5'];
      for (const ip of names) await block(ip, '1 day');
      const rows = await svc.runtime.db.query<{ target: string; at: Date; expiry: Date }>(
        `SELECT o.target_dbkey AS target, o.created_at AS at, (o.params->>'expiry')::timestamptz AS expiry FROM ${svc.runtime.db.schema}.log_outbox o WHERE o.target_dbkey = ANY($1::text[])`,
        [names],
      );
      assert.equal(rows.rows.length, names.length);
      for (const r of rows.rows) assert.equal(r.expiry.getTime() - r.at.getTime(), 86_400_000, r.target);
    });
  });
}
