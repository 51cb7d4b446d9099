/*
 * The auth service's log entries end to end: account creations, blocks and
 * rights changes are written to auth.log_outbox in the transaction of the change and relayed to
 * the content service's log, where list=logevents and list=recentchanges show them with
 * MediaWiki 1.39's types, actions and parameters. Delivery is at least once and idempotent, and
 * survives the content service being down.
 */
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, startService, unary, type Db, type RunningService } from '@quire/kit';
import { AuthServiceClient } from '@quire/proto/wiki/auth/v1/auth';
import { LogServiceClient } from '@quire/proto/wiki/content/logs/v1/logs';
import { contentService } from '@quire/content/server';
import { AuthClient } from '@quire/gateway/clients/index';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

const API = '/w/api.php';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

async function login(wiki: TestWiki, name: string, password: string) {
  const c = new WikiClient(wiki.baseUrl);
  const lt = (await c.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
  const r = (await c.post(API, { format: 'json', action: 'login', lgname: name, lgpassword: password, lgtoken: lt })).json();
  assert.equal(r.login.result, 'Success', JSON.stringify(r));
  const tokens = (await c.api({ action: 'query', meta: 'tokens', type: 'csrf|userrights|createaccount' })).json().query.tokens;
  const post = async (params: Record<string, string>) => (await c.post(API, { format: 'json', formatversion: '2', ...params })).json();
  return { client: c, tokens, post };
}

async function createAccountAnonymously(wiki: TestWiki, username: string, password: string) {
  const c = new WikiClient(wiki.baseUrl);
  const createtoken = (await c.api({ action: 'query', meta: 'tokens', type: 'createaccount' })).json().query.tokens.createaccounttoken;
  return (await c.post(API, { format: 'json', formatversion: '2', action: 'createaccount', username, password, retype: password, createreturnurl: 'http://x/', createtoken })).json();
}

/** list=logevents of one user page, oldest first, with every property MediaWiki shows by default plus userid. */
async function logOf(wiki: WikiClient, title: string, type = ''): Promise<any[]> {
  const params: Record<string, string> = { action: 'query', list: 'logevents', letitle: title, ledir: 'newer', leprop: 'ids|title|type|user|userid|timestamp|comment|details', formatversion: '2' };
  if (type) params.letype = type;
  return (await wiki.api(params)).json().query.logevents;
}

async function logChangesOf(wiki: WikiClient, title: string): Promise<any[]> {
  return (
    await wiki.api({ action: 'query', list: 'recentchanges', rctype: 'log', rctitle: title, rcdir: 'newer', rcprop: 'title|ids|user|userid|comment|timestamp|loginfo|flags', formatversion: '2' })
  ).json().query.recentchanges;
}

/** Polls until `probe` returns a value that is not undefined; resolves with it and the time it took. */
async function within<T>(ms: number, what: string, probe: () => Promise<T | undefined>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return { value, ms: Date.now() - start };
    if (Date.now() - start > ms) assert.fail(`${what}: not there within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits for the log of `title` to hold `count` entries (of `type`); reports how long it took. */
async function logged(t: TestContext, wiki: WikiClient, title: string, count: number, type = '', ms = 1000): Promise<any[]> {
  const r = await within(ms, `${count} log entries of ${title}`, async () => {
    const events = await logOf(wiki, title, type);
    return events.length >= count ? events : undefined;
  });
  t.diagnostic(`${title}: ${type || 'log'} entry visible ${r.ms} ms after the write`);
  assert.equal(r.value.length, count, `exactly ${count} entries of ${title}`);
  return r.value;
}

function service(wiki: TestWiki, name: string): RunningService {
  return wiki.stack.services.find((s) => s.name === name)!;
}

const authDb = (wiki: TestWiki): Db => service(wiki, 'auth').runtime.db;

async function outboxCount(wiki: TestWiki, where = 'true'): Promise<number> {
  const r = await authDb(wiki).query<{ n: number }>(`SELECT count(*)::int AS n FROM auth.log_outbox WHERE ${where}`);
  return r.rows[0]!.n;
}

for (const backend of testBackends()) {
  describe(`auth log entries (${backend})`, () => {
    let wiki: TestWiki;
    let admin: Awaited<ReturnType<typeof login>>;
    let adminId: number;

    before(async () => {
      wiki = await startWiki(backend, { AUTH_ACCOUNT_CREATION_THROTTLE: '1000/86400', AUTH_PASSWORD_ATTEMPT_THROTTLE: '1000/300' });
      await runAdmin(['createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,bureaucrat,bot'], wiki.testEnv.env, () => undefined);
      admin = await login(wiki, 'Admin', 'adminpass123456');
      adminId = (await wiki.api({ action: 'query', list: 'users', ususers: 'Admin', formatversion: '2' })).json().query.users[0].userid;
    });
    after(() => wiki.close());

    test('admin CLI: newusers/autocreate in the log, without a recent change (as createAndPromote)', async (t) => {
      const lines: string[] = [];
      await runAdmin(['createAndPromote', 'Cliuser', 'cliuserpass123456', '--groups', 'sysop'], wiki.testEnv.env, (l) => lines.push(l));
      const id = Number(/id (\d+)/.exec(lines[0]!)![1]);
      const [e] = await logged(t, wiki, 'User:Cliuser', 1);
      assert.deepEqual(
        { ...e, logid: 0, timestamp: '' },
        {
          logid: 0,
          ns: 2,
          title: 'User:Cliuser',
          pageid: 0,
          logpage: 0,
          params: { userid: id },
          type: 'newusers',
          action: 'autocreate',
          user: 'Cliuser',
          userid: id,
          timestamp: '',
          comment: '',
        },
      );
      assert.match(e.timestamp, ISO);
      // The maintenance promotion is not logged (UserGroupManager, not Special:UserRights).
      assert.deepEqual(await logOf(wiki, 'User:Cliuser', 'rights'), []);
      assert.deepEqual(await logChangesOf(wiki, 'User:Cliuser'), []);
    });

    test('createaccount by an anonymous caller: newusers/create by the new account, with its recent change', async (t) => {
      const r = await createAccountAnonymously(wiki, 'Newcomer', 'newcomerpass123456');
      assert.equal(r.createaccount.status, 'PASS', JSON.stringify(r));
      const [e] = await logged(t, wiki, 'User:Newcomer', 1);
      assert.equal(e.type, 'newusers');
      assert.equal(e.action, 'create');
      assert.equal(e.user, 'Newcomer');
      assert.ok(e.userid > 0);
      assert.deepEqual(e.params, { userid: e.userid });
      const [rc] = await logChangesOf(wiki, 'User:Newcomer');
      assert.deepEqual(
        { ...rc, rcid: 0, timestamp: '' },
        {
          type: 'log',
          ns: 2,
          title: 'User:Newcomer',
          pageid: 0,
          revid: 0,
          old_revid: 0,
          rcid: 0,
          user: 'Newcomer',
          userid: e.userid,
          bot: false,
          new: false,
          minor: false,
          timestamp: '',
          comment: '',
          logid: e.logid,
          logtype: 'newusers',
          logaction: 'create',
          logparams: { userid: e.userid },
        },
      );
      assert.equal(rc.timestamp, e.timestamp);
    });

    test('createaccount by a logged-in user: newusers/create2 by them, with the reason; a bot performer flags the change', async (t) => {
      const r = await admin.post({
        action: 'createaccount',
        username: 'Madebyadmin',
        password: 'madebyadmin123456',
        retype: 'madebyadmin123456',
        reason: 'requested on the help desk',
        createreturnurl: 'http://x/',
        createtoken: admin.tokens.createaccounttoken,
      });
      assert.equal(r.createaccount.status, 'PASS', JSON.stringify(r));
      const [e] = await logged(t, wiki, 'User:Madebyadmin', 1);
      assert.deepEqual([e.type, e.action, e.user, e.userid, e.comment], ['newusers', 'create2', 'Admin', adminId, 'requested on the help desk']);
      const newId = (await wiki.api({ action: 'query', list: 'users', ususers: 'Madebyadmin', formatversion: '2' })).json().query.users[0].userid;
      assert.deepEqual(e.params, { userid: newId });
      const [rc] = await logChangesOf(wiki, 'User:Madebyadmin');
      assert.deepEqual([rc.logtype, rc.logaction, rc.user, rc.bot, rc.comment], ['newusers', 'create2', 'Admin', true, 'requested on the help desk']);
    });

    test('a failed account creation (existing name) writes no outbox row and no log entry', async () => {
      const rows = await outboxCount(wiki);
      const r = await createAccountAnonymously(wiki, 'Newcomer', 'anotherpass123456');
      assert.equal(r.createaccount.status, 'FAIL');
      assert.equal(r.createaccount.messagecode, 'userexists');
      assert.equal(await outboxCount(wiki), rows);
      await new Promise((res) => setTimeout(res, 600));
      assert.equal((await logOf(wiki, 'User:Newcomer')).length, 1);
    });

    test('block, reblock and unblock of an account and of an IP: block log entries with their flags, duration and expiry', async (t) => {
      assert.equal((await createAccountAnonymously(wiki, 'Troll', 'trollpass123456')).createaccount.status, 'PASS');
      const block1 = await admin.post({ action: 'block', user: 'Troll', expiry: 'infinite', reason: 'r1', token: admin.tokens.csrftoken });
      assert.equal(block1.block.user, 'Troll', JSON.stringify(block1));
      await admin.post({ action: 'block', user: 'Troll', expiry: '3 days', reason: 'r2', nocreate: '1', noemail: '1', allowusertalk: '1', reblock: '1', token: admin.tokens.csrftoken });
      await admin.post({ action: 'unblock', user: 'Troll', reason: 'r3', token: admin.tokens.csrftoken });
      const events = await logged(t, wiki, 'User:Troll', 3, 'block');
      assert.deepEqual(
        events.map((e) => [e.type, e.action, e.user, e.userid, e.comment, e.ns, e.pageid, e.logpage]),
        [
          ['block', 'block', 'Admin', adminId, 'r1', 2, 0, 0],
          ['block', 'reblock', 'Admin', adminId, 'r2', 2, 0, 0],
          ['block', 'unblock', 'Admin', adminId, 'r3', 2, 0, 0],
        ],
      );
      assert.deepEqual(events[0].params, { duration: 'infinity', flags: ['noautoblock', 'nousertalk'], sitewide: true });
      const { expiry, ...reblock } = events[1].params;
      assert.deepEqual(reblock, { duration: '3 days', flags: ['nocreate', 'noautoblock', 'noemail'], sitewide: true });
      assert.equal(Date.parse(expiry) - Date.parse(events[1].timestamp), 3 * 86_400_000);
      assert.deepEqual(events[2].params, {});

      await admin.post({ action: 'block', user: '192.0.2.77', expiry: '2 hours', anononly: '1', nocreate: '1', token: admin.tokens.csrftoken });
      await admin.post({ action: 'unblock', user: '192.0.2.77', token: admin.tokens.csrftoken });
      const ip = await logged(t, wiki, 'User:192.0.2.77', 2, 'block');
      assert.deepEqual(
        ip.map((e) => [e.action, e.title]),
        [
          ['block', 'User:192.0.2.77'],
          ['unblock', 'User:192.0.2.77'],
        ],
      );
      assert.deepEqual({ ...ip[0].params, expiry: '' }, { duration: '2 hours', flags: ['anononly', 'nocreate', 'nousertalk'], sitewide: true, expiry: '' });
      assert.match(ip[0].params.expiry, ISO);

      const rcs = await logChangesOf(wiki, 'User:Troll');
      assert.deepEqual(
        rcs.map((c) => [c.logtype, c.logaction, c.bot]),
        [
          ['newusers', 'create', false],
          ['block', 'block', true],
          ['block', 'reblock', true],
          ['block', 'unblock', true],
        ],
      );
      assert.deepEqual(rcs[1].logparams, events[0].params);
    });

    test('userrights: rights/rights with old and new groups and their expiries; no change, no entry', async (t) => {
      assert.equal((await createAccountAnonymously(wiki, 'Promoted', 'promotedpass123456')).createaccount.status, 'PASS');
      const add = await admin.post({ action: 'userrights', user: 'Promoted', add: 'bot|sysop', expiry: 'infinite|2030-01-01T00:00:00Z', reason: 'r4', token: admin.tokens.userrightstoken });
      assert.deepEqual(add.userrights.added, ['bot', 'sysop'], JSON.stringify(add));
      await admin.post({ action: 'userrights', user: 'Promoted', remove: 'bot', token: admin.tokens.userrightstoken });
      await admin.post({ action: 'userrights', user: 'Promoted', remove: 'bureaucrat', token: admin.tokens.userrightstoken });
      const events = await logged(t, wiki, 'User:Promoted', 2, 'rights');
      assert.deepEqual(
        events.map((e) => [e.type, e.action, e.user, e.comment]),
        [
          ['rights', 'rights', 'Admin', 'r4'],
          ['rights', 'rights', 'Admin', ''],
        ],
      );
      assert.deepEqual(events[0].params, {
        oldgroups: [],
        newgroups: ['bot', 'sysop'],
        oldmetadata: [],
        newmetadata: [
          { group: 'bot', expiry: 'infinity' },
          { group: 'sysop', expiry: '2030-01-01T00:00:00Z' },
        ],
      });
      assert.deepEqual(events[1].params, {
        oldgroups: ['bot', 'sysop'],
        newgroups: ['sysop'],
        oldmetadata: [
          { group: 'bot', expiry: 'infinity' },
          { group: 'sysop', expiry: '2030-01-01T00:00:00Z' },
        ],
        newmetadata: [{ group: 'sysop', expiry: '2030-01-01T00:00:00Z' }],
      });
      const rcs = await logChangesOf(wiki, 'User:Promoted');
      assert.deepEqual(
        rcs.filter((c) => c.logtype === 'rights').map((c) => c.logparams),
        events.map((e) => e.params),
      );
      // Filters of list=logevents apply to these entries like to any other.
      const byAdmin = (await wiki.api({ action: 'query', list: 'logevents', leaction: 'rights/rights', leuser: 'Admin', formatversion: '2' })).json().query.logevents;
      assert.deepEqual(
        byAdmin.map((e: any) => e.title),
        ['User:Promoted', 'User:Promoted'],
      );
    });

    test('tags of block, unblock and userrights reach their log entries and recent changes; undefined tags write nothing', async (t) => {
      const content = service(wiki, 'content').runtime.db;
      await content.query(`INSERT INTO ${content.schema}.change_tag_def (ctd_name, ctd_user_defined) VALUES ('admin-tag', true) ON CONFLICT DO NOTHING`);
      assert.equal((await createAccountAnonymously(wiki, 'Tagged', 'taggedpass123456')).createaccount.status, 'PASS');
      const csrf = admin.tokens.csrftoken;
      // A tag nobody defined (or a software tag) is refused before anything is written, as TagsDef does.
      const outboxBefore = await outboxCount(wiki);
      const bad = await admin.post({ action: 'block', user: 'Tagged', tags: 'admin-tag|no-such-tag', token: csrf });
      assert.deepEqual([bad.error?.code, bad.error?.info, bad.error?.disallowedtags], ['badtags', 'The tag "no-such-tag" is not allowed to be manually applied.', ['no-such-tag']]);
      const software = await admin.post({ action: 'userrights', user: 'Tagged', add: 'bot', tags: 'mw-rollback', token: admin.tokens.userrightstoken });
      assert.equal(software.error?.code, 'badtags');
      assert.equal((await admin.post({ action: 'unblock', user: 'Tagged', tags: 'nope', token: csrf })).error?.code, 'badtags');
      assert.equal(await outboxCount(wiki), outboxBefore, 'no block, unblock or rights change was written');
      assert.equal((await wiki.api({ action: 'query', list: 'blocks', bkusers: 'Tagged', formatversion: '2' })).json().query.blocks.length, 0);

      assert.ok((await admin.post({ action: 'block', user: 'Tagged', tags: 'admin-tag', token: csrf })).block);
      assert.ok((await admin.post({ action: 'unblock', user: 'Tagged', tags: 'admin-tag', token: csrf })).unblock);
      assert.ok((await admin.post({ action: 'userrights', user: 'Tagged', add: 'bot', tags: 'admin-tag', token: admin.tokens.userrightstoken })).userrights);
      await logged(t, wiki, 'User:Tagged', 4);
      const events = (await wiki.api({ action: 'query', list: 'logevents', letitle: 'User:Tagged', ledir: 'newer', leprop: 'type|tags', formatversion: '2' })).json().query.logevents;
      assert.deepEqual(
        events.map((e: any) => [e.type, e.action, e.tags]),
        [
          ['newusers', 'create', []],
          ['block', 'block', ['admin-tag']],
          ['block', 'unblock', ['admin-tag']],
          ['rights', 'rights', ['admin-tag']],
        ],
      );
      const rcs = (await wiki.api({ action: 'query', list: 'recentchanges', rctype: 'log', rctitle: 'User:Tagged', rcdir: 'newer', rcprop: 'loginfo|tags', formatversion: '2' })).json().query
        .recentchanges;
      assert.deepEqual(
        rcs.map((c: any) => [c.logaction, c.tags]),
        [
          ['create', []],
          ['block', ['admin-tag']],
          ['unblock', ['admin-tag']],
          ['rights', ['admin-tag']],
        ],
      );
      const tagged = (await wiki.api({ action: 'query', list: 'logevents', letag: 'admin-tag', formatversion: '2' })).json().query.logevents;
      assert.equal(tagged.length, 3);
    });

    test('the same outbox row delivered twice is recorded once', async (t) => {
      assert.equal((await createAccountAnonymously(wiki, 'Twice', 'twicepass123456')).createaccount.status, 'PASS');
      const [first] = await logged(t, wiki, 'User:Twice', 1);
      const db = authDb(wiki);
      const row = (await db.query<{ id: number }>(`SELECT id FROM auth.log_outbox WHERE target_dbkey = 'Twice'`)).rows[0]!;
      // As if the relay had crashed after the call and before marking the row: it is sent again.
      await db.query(`UPDATE auth.log_outbox SET delivered_at = NULL WHERE id = $1`, [row.id]);
      await within(3000, 'redelivery', async () => ((await outboxCount(wiki, `id = ${row.id} AND delivered_at IS NOT NULL`)) === 1 ? true : undefined));
      const events = await logOf(wiki, 'User:Twice');
      assert.deepEqual(events, [first]);
      assert.equal((await logChangesOf(wiki, 'User:Twice')).length, 1);

      // And straight to content: a repeated origin is skipped.
      const content = makeClient(LogServiceClient, service(wiki, 'content').address);
      try {
        const entry = {
          origin: `auth:${row.id}`,
          type: 'newusers',
          action: 'create',
          timestamp: first.timestamp,
          userId: first.userid,
          userName: 'Twice',
          ns: 2,
          dbkey: 'Twice',
          comment: '',
          paramsJson: '{}',
          bot: false,
          logOnly: false,
          tags: [],
        };
        assert.equal((await unary(content, content.recordLogEntries, { entries: [entry, entry] })).recorded, 0);
        const fresh = { ...entry, origin: 'test:fresh', type: 'block', action: 'unblock' };
        assert.equal((await unary(content, content.recordLogEntries, { entries: [fresh, fresh] })).recorded, 1);
        assert.equal((await logOf(wiki, 'User:Twice')).length, 2);
      } finally {
        content.close();
      }
    });

    test('content down while auth writes: the backlog waits in the outbox and is delivered, in order, when content is back', async (t) => {
      const old = service(wiki, 'content');
      const port = old.port;
      const auth = new AuthClient(makeClient(AuthServiceClient, service(wiki, 'auth').address));
      try {
        await old.stop();
        const created = await auth.createAccount({ username: 'Offline', password: 'offlinepass123456', ip: '10.1.2.3' });
        assert.equal(created.ok, true);
        await auth.block({
          target: 'Offline',
          expiry: '1 week',
          reason: 'while content was down',
          performerId: adminId,
          performer: 'Admin',
          anononly: false,
          nocreate: false,
          noemail: false,
          allowusertalk: true,
          reblock: false,
          tags: [],
        });
        await auth.unblock({ id: 0, target: 'Offline', performerId: adminId, performer: 'Admin', reason: 'still down', tags: [] });
        // Longer than a few polls: nothing is delivered, nothing is lost.
        await new Promise((r) => setTimeout(r, 1500));
        assert.equal(await outboxCount(wiki, `target_dbkey = 'Offline' AND delivered_at IS NULL`), 3);

        const restartedAt = Date.now();
        const restarted = await startService(contentService, { ...wiki.testEnv.env, CONTENT_GRPC_HOST: '127.0.0.1', CONTENT_GRPC_PORT: String(port) });
        wiki.stack.services[wiki.stack.services.indexOf(old)] = restarted;
        const startMs = Date.now() - restartedAt;
        const r = await within(30_000, 'backlog delivery', async () => ((await outboxCount(wiki, `target_dbkey = 'Offline' AND delivered_at IS NULL`)) === 0 ? true : undefined));
        t.diagnostic(`content restarted in ${startMs} ms; the backlog of 3 was delivered ${r.ms} ms later`);
        // The gateway's own channel to content reconnects on its own schedule (grpc-js backoff).
        const { value: events } = await within(30_000, 'the gateway reaching content again', () => logOf(wiki, 'User:Offline').catch(() => undefined));
        assert.deepEqual(
          events.map((e) => [e.type, e.action, e.user, e.comment]),
          [
            ['newusers', 'create', 'Offline', ''],
            ['block', 'block', 'Admin', 'while content was down'],
            ['block', 'unblock', 'Admin', 'still down'],
          ],
        );
        assert.deepEqual(events[1].params.flags, ['noautoblock']);
        assert.ok(events[0].logid < events[1].logid && events[1].logid < events[2].logid, 'delivered in the order written');
      } finally {
        auth.close();
      }
    });
  });
}
