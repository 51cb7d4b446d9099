/* The auth service over gRPC on every backend: bot-password lifecycle, groups, blocks, statistics. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, ServiceError, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { AuthServiceClient, LoginResponse_Status } from '@quire/proto/wiki/auth/v1/auth';
import { AuthClient } from '@quire/gateway/clients/index';
import { authService } from './server.js';

async function rejects(p: Promise<unknown>, mwCode: string) {
  await assert.rejects(p, (e: unknown) => e instanceof ServiceError && e.mwCode === mwCode);
}

for (const backend of testBackends()) {
  describe(`auth service (${backend})`, () => {
    let env: TestEnv;
    let svc: RunningService;
    let auth: AuthClient;

    before(async () => {
      env = await makeTestEnv(backend, { AUTH_GRPC_PORT: '0' });
      svc = await startService(authService, env.env);
      auth = new AuthClient(makeClient(AuthServiceClient, svc.address));
      const r = await auth.createAccount({ username: 'Carol', password: 'carolpass123456', ip: '10.0.0.1' });
      assert.equal(r.ok, true);
    });
    after(async () => {
      auth.close();
      await svc.stop();
      await env.cleanup();
    });

    const botLogin = (name: string, password: string) =>
      auth.login({ sessionId: '', username: name, password, ip: '10.0.0.2', botPasswordAllowed: true, remember: false });

    test('bot passwords: create, list, update grants, reset, delete', async () => {
      const created = await auth.createBotPassword({ user: 'carol', appId: 'tool', grants: ['editpage'] });
      assert.equal(created.botPassword!.user, 'Carol');
      assert.match(created.password, /^[a-z2-7]{32}$/);
      await rejects(auth.createBotPassword({ user: 'Carol', appId: 'tool', grants: [] }), 'botpasswords-insert-failed');
      await rejects(auth.createBotPassword({ user: 'Carol', appId: 'x', grants: ['nonsense'] }), 'badvalue');
      await rejects(auth.createBotPassword({ user: 'Nobody', appId: 'x', grants: [] }), 'nosuchuser');
      assert.deepEqual((await auth.listBotPasswords('Carol')).map((b) => [b.appId, b.grants]), [['tool', ['editpage']]]);

      const first = await botLogin('Carol@tool', created.password);
      assert.equal(first.status, LoginResponse_Status.PASS);
      assert.equal(first.botPassword, true);
      assert.ok(first.user!.rights.includes('edit'));

      await auth.updateBotPassword({ user: 'Carol', appId: 'tool', grants: ['basic'] });
      const session = await auth.resolveSession(first.sessionId, '10.0.0.2');
      assert.equal(session.user!.rights.includes('edit'), false, 'grants apply to live sessions');

      const reset = await auth.resetBotPassword({ user: 'Carol', appId: 'tool' });
      assert.notEqual(reset.password, created.password);
      assert.equal((await auth.resolveSession(first.sessionId, '10.0.0.2')).sessionValid, false, 'a reset ends its sessions');
      assert.equal((await botLogin('Carol@tool', created.password)).status, LoginResponse_Status.FAIL);
      assert.equal((await botLogin('Carol@tool', reset.password)).status, LoginResponse_Status.PASS);

      await auth.deleteBotPassword({ user: 'Carol', appId: 'tool' });
      assert.deepEqual(await auth.listBotPasswords('Carol'), []);
      await rejects(auth.deleteBotPassword({ user: 'Carol', appId: 'tool' }), 'botpasswords-not-exist');
      assert.equal((await botLogin('Carol@tool', reset.password)).status, LoginResponse_Status.FAIL);
    });

    test('groups with expiry, blocks on the resolved user, statistics and editcount', async () => {
      const changed = await auth.changeUserGroups({ username: 'Carol', userId: 0, add: [{ group: 'sysop', expiry: '2 days' }], remove: [], performerId: 0, reason: '' });
      assert.match(changed.added[0]!.expiry, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      await rejects(auth.changeUserGroups({ username: 'Carol', userId: 0, add: [{ group: 'wizard', expiry: 'infinite' }], remove: [], performerId: 0, reason: '' }), 'badvalue');
      const stats = await auth.getUserStatistics();
      assert.deepEqual([stats.users, stats.admins, stats.activeUsers], [1, 1, 0]);

      const login = await auth.login({ sessionId: '', username: 'Carol', password: 'carolpass123456', ip: '10.0.0.3', botPasswordAllowed: false, remember: true });
      assert.equal(login.status, LoginResponse_Status.PASS);
      assert.ok(login.persistentSeconds > 0);
      const blocked = await auth.block({ target: 'Carol', expiry: 'infinite', reason: 'test', performerId: 0, performer: 'Maintenance script', anononly: false, nocreate: true, noemail: false, allowusertalk: false, reblock: false });
      const r = await auth.resolveSession(login.sessionId, '10.0.0.3');
      assert.equal(r.user!.block?.id, blocked.block!.id);
      assert.equal(r.user!.block?.expiry, 'infinite');
      assert.ok(r.user!.groups.includes('sysop'));
      await auth.unblock({ id: blocked.block!.id, target: '', performerId: 0 });
      assert.equal((await auth.resolveSession(login.sessionId, '10.0.0.3')).user!.block, undefined);

      await auth.incrementEditCount(r.user!.id);
      const details = (await auth.getUsers({ ids: [r.user!.id] })).users[0]!;
      assert.equal(details.editcount, 1);
      assert.equal((await auth.getUserStatistics()).activeUsers, 1);

      await auth.logout(login.sessionId);
      assert.equal((await auth.resolveSession(login.sessionId, '10.0.0.3')).sessionValid, false);
    });
  });
}
