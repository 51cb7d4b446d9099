/* The auth service over gRPC on every backend: bot-password lifecycle, groups, blocks, statistics. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, ServiceError, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { AuthServiceClient, LoginResponse_Status, SessionKind } from '@quire/proto/wiki/auth/v1/auth';
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

    const botLogin = (name: string, password: string) => auth.login({ sessionId: '', username: name, password, ip: '10.0.0.2', botPasswordAllowed: true, remember: false });

    test('bot passwords: create, list, update grants, reset, delete', async () => {
      const created = await auth.createBotPassword({ user: 'carol', appId: 'tool', grants: ['editpage'] });
      assert.equal(created.botPassword!.user, 'Carol');
      assert.match(created.password, /^[a-z2-7]{32}$/);
      await rejects(auth.createBotPassword({ user: 'Carol', appId: 'tool', grants: [] }), 'botpasswords-insert-failed');
      await rejects(auth.createBotPassword({ user: 'Carol', appId: 'x', grants: ['nonsense'] }), 'badvalue');
      await rejects(auth.createBotPassword({ user: 'Nobody', appId: 'x', grants: [] }), 'nosuchuser');
      assert.deepEqual(
        (await auth.listBotPasswords('Carol')).map((b) => [b.appId, b.grants]),
        [['tool', ['editpage']]],
      );

      const first = await botLogin('Carol@tool', created.password);
      assert.equal(first.status, LoginResponse_Status.PASS);
      assert.equal(first.botPassword, true);
      assert.ok(first.user!.rights.includes('edit'));

      await auth.updateBotPassword({ user: 'Carol', appId: 'tool', grants: ['basic'] });
      const session = await auth.resolveSession(first.sessionId, '10.0.0.2');
      assert.equal(session.user!.rights.includes('edit'), false, 'grants apply to live sessions');
      // The API's only: the gateway's web pages see an anonymous visitor.
      assert.equal(session.sessionKind, SessionKind.SESSION_KIND_BOT_PASSWORD);

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
      const changed = await auth.changeUserGroups({ username: 'Carol', userId: 0, add: [{ group: 'sysop', expiry: '2 days' }], remove: [], performerId: 0, reason: '', tags: [] });
      assert.match(changed.added[0]!.expiry, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      await rejects(auth.changeUserGroups({ username: 'Carol', userId: 0, add: [{ group: 'wizard', expiry: 'infinite' }], remove: [], performerId: 0, reason: '', tags: [] }), 'badvalue');
      const stats = await auth.getUserStatistics();
      // Carol and the system user "MediaWiki default" (migration 002), as MediaWiki counts it too.
      assert.deepEqual([stats.users, stats.admins, stats.activeUsers], [2, 1, 0]);
      // siteinfo usergroups: $wgGroupPermissions in order, granted rights, sizes ("user": every account).
      const perms = await auth.listGroupPermissions(true);
      assert.deepEqual(
        perms.groups.map((g) => g.name),
        ['*', 'user', 'autoconfirmed', 'bot', 'sysop', 'interface-admin', 'bureaucrat', 'suppress'],
      );
      const group = new Map(perms.groups.map((g) => [g.name, g]));
      assert.deepEqual(group.get('autoconfirmed')?.rights, ['autoconfirmed', 'editsemiprotected']);
      assert.deepEqual([group.get('user')?.members, group.get('sysop')?.members, group.get('bot')?.members], [2, 1, 0]);
      assert.equal((await auth.listGroupPermissions(false)).groups[1]?.members, 0);

      const login = await auth.login({ sessionId: '', username: 'Carol', password: 'carolpass123456', ip: '10.0.0.3', botPasswordAllowed: false, remember: true });
      assert.equal(login.status, LoginResponse_Status.PASS);
      assert.ok(login.persistentSeconds > 0);
      const blocked = await auth.block({
        target: 'Carol',
        expiry: 'infinite',
        reason: 'test',
        performerId: 0,
        performer: 'Maintenance script',
        anononly: false,
        nocreate: true,
        noemail: false,
        allowusertalk: false,
        reblock: false,
        tags: [],
      });
      const r = await auth.resolveSession(login.sessionId, '10.0.0.3');
      assert.equal(r.sessionKind, SessionKind.SESSION_KIND_LOGIN);
      assert.equal(r.user!.block?.id, blocked.block!.id);
      assert.equal(r.user!.block?.expiry, 'infinite');
      assert.ok(r.user!.groups.includes('sysop'));
      await auth.unblock({ id: blocked.block!.id, target: '', performerId: 0, performer: 'Maintenance script', reason: 'done', tags: [] });
      assert.equal((await auth.resolveSession(login.sessionId, '10.0.0.3')).user!.block, undefined);
      // Who the session is was just read (and is remembered): a rights change shows at once.
      await auth.changeUserGroups({ username: 'Carol', userId: 0, add: [{ group: 'bot', expiry: 'infinite' }], remove: ['sysop'], performerId: 0, reason: '', tags: [] });
      const regrouped = (await auth.resolveSession(login.sessionId, '10.0.0.3')).user!;
      assert.ok(!regrouped.groups.includes('sysop') && regrouped.groups.includes('bot'), regrouped.groups.join());
      assert.ok(!regrouped.rights.includes('delete') && regrouped.rights.includes('bot'));
      await auth.changeUserGroups({ username: 'Carol', userId: 0, add: [{ group: 'sysop', expiry: '2 days' }], remove: ['bot'], performerId: 0, reason: '', tags: [] });
      assert.ok((await auth.resolveSession(login.sessionId, '10.0.0.3')).user!.rights.includes('delete'));

      await auth.incrementEditCount(r.user!.id);
      const details = (await auth.getUsers({ ids: [r.user!.id] })).users[0]!;
      assert.equal(details.editcount, 1);
      assert.equal((await auth.getUserStatistics()).activeUsers, 1);

      await auth.logout(login.sessionId);
      const ended = await auth.resolveSession(login.sessionId, '10.0.0.3');
      assert.deepEqual([ended.sessionValid, ended.sessionKind], [false, SessionKind.SESSION_KIND_UNSPECIFIED]);
    });

    test('log outbox: each account creation, block and rights change writes its entry with it; failures none', async () => {
      const db = svc.runtime.db;
      const rows = async (afterId: number) =>
        (
          await db.query<{
            id: number;
            log_type: string;
            log_action: string;
            performer_name: string;
            target_dbkey: string;
            comment: string;
            params: Record<string, unknown>;
            publish: boolean;
            delivered_at: Date | null;
          }>(`SELECT id, log_type, log_action, performer_name, target_dbkey, comment, params, publish, delivered_at FROM auth.log_outbox WHERE id > $1 ORDER BY id`, [afterId])
        ).rows;
      const all = await rows(0);
      // Carol, created in before() by an anonymous caller: newusers/create by herself.
      const carol = all.find((r) => r.target_dbkey === 'Carol' && r.log_type === 'newusers')!;
      assert.deepEqual([carol.log_action, carol.performer_name, carol.publish], ['create', 'Carol', true]);
      assert.ok(
        all.every((r) => r.delivered_at === null),
        'no CONTENT_GRPC_ADDR: the outbox only accumulates',
      );
      let last = all[all.length - 1]!.id;

      const dup = await auth.createAccount({ username: 'carol', password: 'carolpass123456', ip: '10.0.0.1' });
      assert.equal(dup.messageCode, 'userexists');
      const weak = await auth.createAccount({ username: 'Dave', password: 'Dave', ip: '10.0.0.1' });
      assert.equal(weak.ok, false);
      assert.deepEqual(await rows(last), [], 'failed creations write no entry');

      const dave = await auth.createAccount({ username: 'Dave', password: 'davepass123456', ip: '127.0.0.1', skipThrottle: true });
      const login = await auth.login({ sessionId: '', username: 'Dave', password: 'davepass123456', ip: '10.0.0.4', botPasswordAllowed: false, remember: false });
      await auth.createAccount({ sessionId: login.sessionId, username: 'Erin', password: 'erinpass123456', ip: '10.0.0.4', reason: 'for a friend' });
      let got = await rows(last);
      assert.deepEqual(
        got.map((r) => [r.log_action, r.performer_name, r.target_dbkey, r.comment, r.params, r.publish]),
        [
          ['autocreate', 'Dave', 'Dave', '', { userid: dave.user!.id }, false],
          ['create2', 'Dave', 'Erin', 'for a friend', { userid: dave.user!.id + 1 }, true],
        ],
      );
      last = got[got.length - 1]!.id;

      const block = (expiry: string, reblock: boolean) =>
        auth.block({
          target: 'Erin',
          expiry,
          reason: `r-${expiry}`,
          performerId: dave.user!.id,
          performer: 'Dave',
          anononly: false,
          nocreate: true,
          noemail: false,
          allowusertalk: false,
          reblock,
          tags: [],
        });
      const blocked = await block('infinite', false);
      await rejects(block('1 day', false), 'alreadyblocked');
      await block('3 days', true);
      await auth.unblock({ id: 0, target: 'Erin', performerId: dave.user!.id, performer: 'Dave', reason: 'forgiven', tags: [] });
      await rejects(auth.unblock({ id: blocked.block!.id, target: '', performerId: dave.user!.id, performer: 'Dave', reason: '', tags: [] }), 'nosuchblockid');
      got = await rows(last);
      assert.deepEqual(
        got.map((r) => [r.log_type, r.log_action, r.performer_name, r.target_dbkey, r.comment]),
        [
          ['block', 'block', 'Dave', 'Erin', 'r-infinite'],
          ['block', 'reblock', 'Dave', 'Erin', 'r-3 days'],
          ['block', 'unblock', 'Dave', 'Erin', 'forgiven'],
        ],
      );
      assert.deepEqual(got[0]!.params, { duration: 'infinity', flags: ['nocreate', 'noautoblock', 'nousertalk'], sitewide: true });
      assert.equal(got[1]!.params.duration, '3 days');
      assert.match(String(got[1]!.params.expiry), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.deepEqual(got[2]!.params, {});
      last = got[got.length - 1]!.id;

      const groups = (add: string[], remove: string[], performerId: number) =>
        auth.changeUserGroups({ username: 'Erin', userId: 0, add: add.map((group) => ({ group, expiry: 'infinite' })), remove, performerId, reason: 'promotion', tags: [] });
      await groups(['bot'], [], 0);
      assert.deepEqual(await rows(last), [], 'maintenance (performer 0) changes groups without a log entry');
      await groups(['sysop'], ['bot'], dave.user!.id);
      await groups(['sysop'], [], dave.user!.id);
      await rejects(groups(['wizard'], [], dave.user!.id), 'badvalue');
      got = await rows(last);
      assert.equal(got.length, 1, 'an unchanged membership and a refused change write nothing');
      assert.deepEqual([got[0]!.log_type, got[0]!.log_action, got[0]!.performer_name, got[0]!.target_dbkey, got[0]!.comment], ['rights', 'rights', 'Dave', 'Erin', 'promotion']);
      assert.deepEqual(got[0]!.params, {
        oldgroups: ['bot'],
        newgroups: ['sysop'],
        oldmetadata: [{ group: 'bot', expiry: 'infinity' }],
        newmetadata: [{ group: 'sysop', expiry: 'infinity' }],
      });
    });
  });
}
