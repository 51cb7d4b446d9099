/*
 * Revision deletion on the watchlist: list=watchlist, action=feedwatchlist and Special:Watchlist
 * hide a revision's author and summary from a caller who may not see them (userhidden,
 * commenthidden, suppressed as ApiQueryWatchlist::extractOutputData; "(username removed)" and
 * "(edit summary removed)" as ChangesList), and a user filter (wluser, rcuser, rcexcludeuser)
 * does not match a change whose author is hidden from the caller.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, type TestWiki, type WikiClient } from './harness.js';
import { loggedIn } from './files-helpers.js';

const quiet = () => undefined;
const AUTHOR = 'Hiddenwlauthor';

interface Case {
  page: string;
  suppressed: boolean;
  revId: number;
  summary: string;
}

for (const backend of testBackends()) {
  describe(`revision deletion on the watchlist (${backend})`, () => {
    let wiki: TestWiki;
    const callers: { name: string; client: WikiClient & { csrf: string; watchToken: string }; level: 0 | 1 | 2 }[] = [];
    const cases: Case[] = [];

    before(async () => {
      wiki = await startWiki(backend);
      const env = wiki.testEnv.env;
      await runAdmin(['createAndPromote', 'Supp', 'supppass1234567', '--groups', 'sysop,suppress'], env, quiet);
      await runAdmin(['createAndPromote', 'Sysie', 'sysiepass123456', '--groups', 'sysop'], env, quiet);
      await runAdmin(['createAndPromote', 'Carol', 'carolpass123456'], env, quiet);
      await runAdmin(['createAndPromote', AUTHOR, 'authorpass123456'], env, quiet);
      const supp = await loggedIn(wiki, 'Supp', 'supppass1234567');
      // level: 0 sees no hidden field, 1 the deleted ones (deletedhistory), 2 the suppressed ones too.
      callers.push(
        { name: 'user', client: await loggedIn(wiki, 'Carol', 'carolpass123456'), level: 0 },
        { name: 'sysop', client: await loggedIn(wiki, 'Sysie', 'sysiepass123456'), level: 1 },
        { name: 'suppressor', client: supp, level: 2 },
      );
      const writer = await loggedIn(wiki, AUTHOR, 'authorpass123456');
      const post = async (c: WikiClient & { csrf: string }, form: Record<string, string>) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', token: c.csrf, ...form })).json();
      for (const [i, suppressed] of [false, true].entries()) {
        const page = `Watched secret ${i + 1}`;
        const summary = `SECRETWLSUMMARY${i + 1}Z`;
        await post(supp, { action: 'edit', title: page, text: 'first', summary: 'public' });
        for (const { client } of callers) {
          const w = (await client.post('/w/api.php', { action: 'watch', titles: page, token: client.watchToken, format: 'json' })).json();
          assert.ok(w.watch, JSON.stringify(w));
        }
        const edit = await post(writer, { action: 'edit', title: page, text: `second ${i}`, summary });
        const c = { page, suppressed, revId: edit.edit.newrevid as number, summary };
        const hid = await post(supp, { action: 'revisiondelete', type: 'revision', ids: String(c.revId), hide: 'user|comment', ...(suppressed ? { suppress: 'yes' } : {}), reason: 'x' });
        assert.equal(hid.revisiondelete?.items?.[0]?.status, 'Success', JSON.stringify(hid));
        cases.push(c);
      }
    });
    after(() => wiki?.close());

    const sees = (level: number, c: Case) => level >= (c.suppressed ? 2 : 1);

    test('list=watchlist: userhidden, commenthidden and suppressed; the fields only for who may see them', async () => {
      for (const { name, client, level } of callers) {
        const r = (await client.api({ action: 'query', list: 'watchlist', wlprop: 'ids|title|user|userid|comment|parsedcomment', formatversion: '2' })).json();
        assert.equal(r.error, undefined, JSON.stringify(r));
        for (const c of cases) {
          const row = (r.query.watchlist as Record<string, unknown>[]).find((x) => x.revid === c.revId);
          assert.ok(row, `${name}: ${c.page} listed`);
          const visible = sees(level, c);
          const expected: Record<string, unknown> = { type: 'edit', ns: 0, title: c.page, revid: c.revId, userhidden: true, commenthidden: true };
          if (c.suppressed) expected.suppressed = true;
          if (visible) Object.assign(expected, { user: AUTHOR, comment: c.summary, anon: false });
          const picked = Object.fromEntries(
            Object.keys({ ...expected, user: 0, comment: 0, suppressed: 0, anon: 0 })
              .filter((k) => k in row)
              .map((k) => [k, row[k]]),
          );
          assert.deepEqual(picked, expected, `${name}: ${c.page}`);
          assert.equal(typeof row.userid === 'number', visible, `${name}: ${c.page} userid`);
          assert.equal(String(row.parsedcomment ?? '').includes(c.summary), visible, `${name}: ${c.page} parsedcomment`);
        }
      }
    });

    test('action=feedwatchlist: the hidden author and summary are left out of the items', async () => {
      for (const { name, client, level } of callers) {
        const r = await client.get('/w/api.php?action=feedwatchlist&feedformat=rss&hours=1');
        assert.equal(r.status, 200);
        for (const c of cases) {
          assert.ok(r.text.includes(`<title>${c.page}</title>`), `${name}: ${c.page} in the feed`);
          assert.equal(r.text.includes(c.summary), sees(level, c), `${name}: ${c.page} summary`);
          assert.equal(
            r.text.includes(`(${AUTHOR})`),
            cases.some((x) => sees(level, x)),
            `${name}: author`,
          );
        }
      }
    });

    test('Special:Watchlist: "(username removed)" and "(edit summary removed)"', async () => {
      for (const { name, client, level } of callers) {
        const r = await client.get('/w/index.php?title=Special:Watchlist');
        assert.equal(r.status, 200);
        for (const c of cases) {
          const line = r.text.split('<li>').find((l) => l.includes(`diff=${c.revId}&amp;`));
          assert.ok(line, `${name}: ${c.page} listed`);
          const visible = sees(level, c);
          assert.equal(line.includes(c.summary), visible, `${name}: ${c.page} summary`);
          assert.equal(line.includes(AUTHOR), visible, `${name}: ${c.page} author`);
          assert.equal(line.includes('(username removed)'), !visible, `${name}: ${c.page} username removed: ${line}`);
          assert.equal(line.includes('(edit summary removed)'), !visible, `${name}: ${c.page} summary removed`);
          assert.ok(line.includes(c.suppressed ? 'mw-history-suppressed' : 'history-deleted'), `${name}: ${c.page} class`);
        }
      }
    });

    test('a user filter does not match a change whose author is hidden from the caller', async () => {
      for (const { name, client, level } of callers) {
        const expected = cases.filter((c) => sees(level, c)).map((c) => c.revId);
        const rc = async (form: Record<string, string>) =>
          ((await client.api({ action: 'query', list: 'recentchanges', rcprop: 'ids', rclimit: '500', formatversion: '2', ...form })).json().query.recentchanges as { revid: number }[])
            .map((x) => x.revid)
            .filter((id) => cases.some((c) => c.revId === id));
        assert.deepEqual((await rc({ rcuser: AUTHOR })).sort(), expected, `${name}: rcuser`);
        assert.deepEqual((await rc({ rcexcludeuser: 'Nobody' })).sort(), expected, `${name}: rcexcludeuser`);
        const wl = async (form: Record<string, string>) =>
          ((await client.api({ action: 'query', list: 'watchlist', wlprop: 'ids', formatversion: '2', ...form })).json().query.watchlist as { revid: number }[])
            .map((x) => x.revid)
            .filter((id) => cases.some((c) => c.revId === id));
        assert.deepEqual((await wl({ wluser: AUTHOR })).sort(), expected, `${name}: wluser`);
        assert.deepEqual((await wl({ wlexcludeuser: 'Nobody' })).sort(), expected, `${name}: wlexcludeuser`);
        // Without a user filter every change is listed.
        assert.deepEqual((await rc({})).length, cases.length, `${name}: no filter`);
      }
    });
    test('a log entry whose action is hidden from the caller is left out of the watchlist (it would name its page)', async () => {
      const supp = callers.find((c) => c.name === 'suppressor')!.client;
      const post = async (form: Record<string, string>) => (await supp.post('/w/api.php', { format: 'json', formatversion: '2', token: supp.csrf, ...form })).json();
      const logIds: { logid: number; suppressed: boolean }[] = [];
      for (const [i, c] of cases.entries()) {
        assert.ok((await post({ action: 'protect', title: c.page, protections: 'edit=autoconfirmed', expiry: 'infinite', reason: `wl protect ${i}` })).protect);
        const ev = (await supp.api({ action: 'query', list: 'logevents', letype: 'protect', letitle: c.page, formatversion: '2' })).json().query.logevents[0];
        const hid = await post({ action: 'revisiondelete', type: 'logging', ids: String(ev.logid), hide: 'content', ...(c.suppressed ? { suppress: 'yes' } : {}), reason: 'x' });
        assert.equal(hid.revisiondelete?.items?.[0]?.status, 'Success', JSON.stringify(hid));
        logIds.push({ logid: ev.logid, suppressed: c.suppressed });
      }
      for (const { name, client, level } of callers) {
        const listed = ((await client.api({ action: 'query', list: 'watchlist', wltype: 'log', wlprop: 'ids|title|loginfo', formatversion: '2' })).json().query.watchlist as { logid?: number }[]).map(
          (x) => x.logid,
        );
        for (const { logid, suppressed } of logIds) {
          assert.equal(listed.includes(logid), level >= (suppressed ? 2 : 1), `${name}: log entry ${logid} (suppressed: ${suppressed})`);
        }
      }
    });
  });
}
