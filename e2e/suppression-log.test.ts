/*
 * $wgLogRestrictions = ['suppress' => 'suppressionlog']: entries of the suppression log are left
 * out of every listing of log entries for a caller without suppressionlog (LogEventsList::
 * getExcludeClause in ApiQueryLogEvents and LogPager), and Special:Log/suppress is a permission
 * error for them. A suppressor (group suppress) sees them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';
import { loggedIn } from './files-helpers.js';

const quiet = () => undefined;
const REASON = 'SUPPRESSREASONZ';

for (const backend of testBackends()) {
  describe(`the suppression log is restricted (${backend})`, () => {
    let wiki: TestWiki;
    const callers: { name: string; client: WikiClient; suppressor: boolean }[] = [];
    let logId = 0;
    let deleteLogId = 0;

    before(async () => {
      // A sysop who may delete log entries (as on Wikimedia's wikis) but may not read the suppression log.
      wiki = await startWiki(backend, { GROUP_PERMISSIONS_JSON: JSON.stringify({ sysop: { deletelogentry: true } }) });
      const env = wiki.testEnv.env;
      await runAdmin(['createAndPromote', 'Supp', 'supppass1234567', '--groups', 'sysop,suppress'], env, quiet);
      await runAdmin(['createAndPromote', 'Sysie', 'sysiepass123456', '--groups', 'sysop'], env, quiet);
      await runAdmin(['createAndPromote', 'Carol', 'carolpass123456'], env, quiet);
      const supp = await loggedIn(wiki, 'Supp', 'supppass1234567');
      const sysop = await loggedIn(wiki, 'Sysie', 'sysiepass123456');
      callers.push(
        { name: 'anonymous', client: new WikiClient(wiki.baseUrl), suppressor: false },
        { name: 'user', client: await loggedIn(wiki, 'Carol', 'carolpass123456'), suppressor: false },
        { name: 'sysop', client: sysop, suppressor: false },
        { name: 'suppressor', client: supp, suppressor: true },
      );
      const post = async (c: WikiClient & { csrf: string }, form: Record<string, string>) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', token: c.csrf, ...form })).json();
      const first = await post(supp, { action: 'edit', title: 'Suppressed page', text: 'one', summary: 'secret summary' });
      await post(supp, { action: 'edit', title: 'Suppressed page', text: 'two', summary: 'public' });
      const hid = await post(supp, { action: 'revisiondelete', type: 'revision', ids: String(first.edit.newrevid), hide: 'comment', suppress: 'yes', reason: REASON });
      assert.equal(hid.revisiondelete?.items?.[0]?.status, 'Success', JSON.stringify(hid));
      // A plain revision deletion: the deletion log stays public.
      const plain = await post(supp, { action: 'edit', title: 'Deleted page', text: 'one', summary: 'x' });
      await post(supp, { action: 'edit', title: 'Deleted page', text: 'two', summary: 'y' });
      const del = await post(supp, { action: 'revisiondelete', type: 'revision', ids: String(plain.edit.newrevid), hide: 'comment', reason: 'plain' });
      assert.equal(del.revisiondelete?.items?.[0]?.status, 'Success', JSON.stringify(del));
      const all = (await supp.api({ action: 'query', list: 'logevents', lelimit: '500', formatversion: '2' })).json().query.logevents as { logid: number; type: string; action: string }[];
      logId = all.find((e) => e.type === 'suppress')?.logid ?? 0;
      deleteLogId = all.find((e) => e.type === 'delete' && e.action === 'revision')?.logid ?? 0;
      assert.ok(logId && deleteLogId, JSON.stringify(all));
    });
    after(() => wiki?.close());

    const logevents = async (client: WikiClient, extra: Record<string, string>) => {
      const r = (await client.api({ action: 'query', list: 'logevents', lelimit: '500', formatversion: '2', ...extra })).json();
      assert.equal(r.error, undefined, JSON.stringify(r));
      return r.query.logevents as { logid: number; type: string; comment?: string }[];
    };

    test('list=logevents: no suppress entries without suppressionlog, whatever the filter', async () => {
      for (const { name, client, suppressor } of callers) {
        const none = await logevents(client, {});
        assert.equal(
          none.some((e) => e.type === 'suppress'),
          suppressor,
          `${name}: no letype`,
        );
        assert.ok(
          none.some((e) => e.logid === deleteLogId),
          `${name}: the deletion log is public`,
        );
        const typed = await logevents(client, { letype: 'suppress' });
        assert.deepEqual(
          typed.map((e) => e.logid),
          suppressor ? [logId] : [],
          `${name}: letype=suppress`,
        );
        if (suppressor) assert.equal(typed[0]!.comment, REASON);
        const action = await logevents(client, { leaction: 'suppress/revision' });
        assert.deepEqual(
          action.map((e) => e.logid),
          suppressor ? [logId] : [],
          `${name}: leaction`,
        );
        const byTitle = await logevents(client, { letitle: 'Suppressed page' });
        assert.equal(
          byTitle.some((e) => e.logid === logId),
          suppressor,
          `${name}: letitle`,
        );
        const byUser = await logevents(client, { leuser: 'Supp' });
        assert.equal(
          byUser.some((e) => e.logid === logId),
          suppressor,
          `${name}: leuser`,
        );
      }
    });

    test('Special:Log: no suppress entries; Special:Log/suppress is a permission error without suppressionlog', async () => {
      for (const { name, client, suppressor } of callers) {
        const all = await client.get('/w/index.php?title=Special:Log');
        assert.equal(all.status, 200);
        assert.equal(all.text.includes(`data-mw-logid="${logId}"`), suppressor, `${name}: Special:Log`);
        assert.equal(all.text.includes(REASON), suppressor, `${name}: Special:Log reason`);
        assert.ok(all.text.includes(`data-mw-logid="${deleteLogId}"`), `${name}: the deletion log is public`);
        const user = await client.get('/w/index.php?title=Special:Log&user=Supp');
        assert.equal(user.text.includes(`data-mw-logid="${logId}"`), suppressor, `${name}: Special:Log&user`);
        for (const path of ['/wiki/Special:Log/suppress', '/w/index.php?title=Special:Log&type=suppress']) {
          const r = await client.get(path);
          assert.equal(r.status, 200, `${name}: ${path}`);
          assert.equal(r.text.includes(`data-mw-logid="${logId}"`), suppressor, `${name}: ${path}`);
          assert.equal(r.text.includes('You do not have permission to view this private log'), !suppressor, `${name}: ${path}`);
          assert.equal(r.text.includes('Permission error'), !suppressor, `${name}: ${path}`);
        }
      }
    });

    test('action=revisiondelete type=logging: an entry of the suppression log is not touched nor shown without suppressionlog', async () => {
      const sysop = callers.find((c) => c.name === 'sysop')!.client as WikiClient & { csrf: string };
      const supp = callers.find((c) => c.name === 'suppressor')!.client as WikiClient & { csrf: string };
      const hide = async (c: WikiClient & { csrf: string }) =>
        (await c.post('/w/api.php', { action: 'revisiondelete', type: 'logging', ids: String(logId), hide: 'comment', reason: 'r', format: 'json', formatversion: '2', token: c.csrf })).json();
      const denied = await hide(sysop);
      assert.equal(denied.error, undefined, JSON.stringify(denied));
      const item = denied.revisiondelete.items[0];
      assert.equal(item.status, 'Fail');
      assert.equal(item.errors?.[0]?.code, 'revdelete-modify-no-access', JSON.stringify(item));
      assert.equal(item.id, logId);
      for (const field of ['user', 'userid', 'comment', 'params']) assert.equal(field in item, false, `${field}: ${JSON.stringify(item)}`);
      // The entry is unchanged: its summary is not hidden.
      const before = (await logevents(supp, { letype: 'suppress' }))[0] as Record<string, unknown>;
      assert.equal(before.commenthidden, undefined);
      assert.equal(before.comment, REASON);
      // The suppressor may.
      const done = await hide(supp);
      assert.equal(done.revisiondelete.items[0].status, 'Success', JSON.stringify(done));
      assert.equal(done.revisiondelete.items[0].comment, REASON);
      const after = (await logevents(supp, { letype: 'suppress' })).find((e) => e.logid === logId) as Record<string, unknown>;
      assert.equal(after.commenthidden, true);
    });

    test('list=recentchanges: the suppression log is not published there', async () => {
      for (const { name, client } of callers) {
        const rc = (await client.api({ action: 'query', list: 'recentchanges', rcprop: 'loginfo|ids', rclimit: '500', formatversion: '2' })).json();
        assert.equal(
          (rc.query.recentchanges as { logtype?: string }[]).some((x) => x.logtype === 'suppress'),
          false,
          name,
        );
      }
    });
  });
}
