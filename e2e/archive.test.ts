/*
 * Revisions across pages: prop=deletedrevisions, list=alldeletedrevisions, the
 * deprecated list=deletedrevs and list=allrevisions on the whole wiki — shapes as the reference
 * MediaWiki 1.39 answers, continuation, and the rights MediaWiki checks (anonymous, a plain user
 * and a sysop).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

async function login(wiki: TestWiki, name: string, password: string) {
  const c = new WikiClient(wiki.baseUrl);
  const lt = (await c.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
  const r = (await c.post('/w/api.php', { format: 'json', action: 'login', lgname: name, lgpassword: password, lgtoken: lt })).json();
  assert.equal(r.login.result, 'Success', JSON.stringify(r));
  const csrf = (await c.api({ action: 'query', meta: 'tokens' })).json().query.tokens.csrftoken as string;
  return {
    post: async (params: Record<string, string>) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', token: csrf, ...params })).json(),
    get: async (params: Record<string, string>) => (await c.api({ formatversion: '2', ...params })).json(),
  };
}

type Session = Awaited<ReturnType<typeof login>>;

for (const backend of testBackends()) {
  describe(`deleted revisions and all revisions (${backend})`, () => {
    let wiki: TestWiki;
    let admin: Session;
    let alice: Session;
    const anon = (params: Record<string, string>) => wiki.api({ formatversion: '2', ...params }).then((r) => r.json());
    const revids: number[] = [];

    before(async () => {
      wiki = await startWiki(backend);
      const quiet = () => undefined;
      await runAdmin(['createAndPromote', 'Sysop', 'sysoppass123456', '--groups', 'sysop'], wiki.testEnv.env, quiet);
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, quiet);
      admin = await login(wiki, 'Sysop', 'sysoppass123456');
      alice = await login(wiki, 'Alice', 'alicepass123456');
      for (const [title, text, summary] of [
        ['Gone', 'one', 'first'],
        ['Gone', 'two', 'second'],
        ['Talk:Gone too', 'talk', 'talk edit'],
      ] as const) {
        const r = await alice.post({ action: 'edit', title, text, summary });
        assert.equal(r.edit?.result, 'Success', JSON.stringify(r));
        revids.push(r.edit.newrevid);
      }
      assert.ok((await admin.post({ action: 'delete', title: 'Gone', reason: 'bye' })).delete);
      assert.ok((await admin.post({ action: 'delete', title: 'Talk:Gone too' })).delete);
    });
    after(() => wiki.close());

    test('prop=deletedrevisions: metadata for anyone, comments need deletedhistory, content deletedtext', async () => {
      const meta = await anon({ action: 'query', prop: 'deletedrevisions', titles: 'Gone', drvprop: 'ids|timestamp|user' });
      const page = meta.query.pages[0];
      assert.equal(page.missing, true);
      assert.deepEqual(
        page.deletedrevisions.map((r: { revid: number; parentid: number; user: string }) => [r.revid, r.parentid, r.user]),
        [
          [revids[1], revids[0], 'Alice'],
          [revids[0], 0, 'Alice'],
        ],
      );
      assert.match(page.deletedrevisions[0].timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      for (const caller of [anon, alice.get]) {
        const denied = await caller({ action: 'query', prop: 'deletedrevisions', titles: 'Gone', drvprop: 'comment' });
        assert.equal(denied.error?.code, 'permissiondenied');
        assert.equal(denied.error?.info, "You don't have permission to view deleted comments.");
      }
      const noContent = await alice.get({ action: 'query', prop: 'deletedrevisions', titles: 'Gone', drvprop: 'content' });
      assert.equal(noContent.error?.info, "You don't have permission to view content of deleted revisions.");
      // The legacy-format deprecation comes before the refusal, as in MediaWiki.
      assert.ok(noContent.warnings?.deletedrevisions);

      const full = await admin.get({ action: 'query', prop: 'deletedrevisions', titles: 'Gone|Never', drvprop: 'ids|comment|content|size|sha1|tags', drvslots: 'main' });
      const byTitle = (t: string) => full.query.pages.find((pg: { title: string }) => pg.title === t);
      const [gone, never] = [byTitle('Gone'), byTitle('Never')];
      assert.equal(never.missing, true);
      assert.equal(never.deletedrevisions, undefined);
      assert.deepEqual(gone.deletedrevisions[0], {
        revid: revids[1],
        parentid: revids[0],
        size: 3,
        sha1: 'ad782ecdac770fc6eb9a62e44f90873fb97fb26b',
        slots: { main: { contentmodel: 'wikitext', contentformat: 'text/x-wiki', content: 'two' } },
        comment: 'second',
        tags: [],
      });
    });

    test('revids naming deleted revisions: their titles join the page set for deletedhistory; generators of deleted revisions', async () => {
      const byRevids = await admin.get({ action: 'query', prop: 'deletedrevisions', revids: `${revids[1]}|${revids[0]}|1|999999`, drvprop: 'ids' });
      assert.deepEqual(Object.keys(byRevids.query.badrevids), ['999999']);
      const gone = byRevids.query.pages.find((pg: { title: string }) => pg.title === 'Gone');
      assert.equal(gone.missing, true);
      assert.deepEqual(
        gone.deletedrevisions.map((r: { revid: number }) => r.revid),
        [revids[1], revids[0]],
      );
      const limited = await admin.get({ action: 'query', prop: 'deletedrevisions', revids: `${revids[1]}|${revids[0]}`, drvprop: 'ids', drvlimit: '1' });
      // The continuation names the next row: revision id and archive id.
      assert.equal(limited.continue.drvcontinue, `${revids[0]}|${limited.continue.drvcontinue.split('|')[1]}`);
      assert.deepEqual(
        limited.query.pages[0].deletedrevisions.map((r: { revid: number }) => r.revid),
        [revids[1]],
      );
      // Without deletedhistory they stay bad revision ids, and a page set of only live revisions has nothing deleted.
      const anonymous = await anon({ action: 'query', prop: 'deletedrevisions', revids: `${revids[1]}|1`, drvprop: 'ids|comment' });
      assert.deepEqual(Object.keys(anonymous.query.badrevids), [String(revids[1])]);
      assert.equal(anonymous.query.pages[0].deletedrevisions, undefined);

      const gen = await admin.get({ action: 'query', generator: 'deletedrevisions', titles: 'Gone', gdrvlimit: '1', prop: 'deletedrevisions', drvprop: 'ids' });
      assert.match(gen.continue.gdrvcontinue, /^0\|Gone\|\d{14}\|\d+$/);
      assert.deepEqual(
        gen.query.pages[0].deletedrevisions.map((r: { revid: number }) => r.revid),
        [revids[1]],
      );
      const all = await admin.get({ action: 'query', generator: 'alldeletedrevisions', gadrnamespace: '1', gadrgeneratetitles: '1', prop: 'info' });
      assert.deepEqual(
        all.query.pages.map((pg: { title: string; missing: boolean }) => [pg.title, pg.missing]),
        [['Talk:Gone too', true]],
      );
    });

    test('prop=deletedrevisions continues by drvcontinue; a bad one is badcontinue', async () => {
      const first = await admin.get({ action: 'query', prop: 'deletedrevisions', titles: 'Gone', drvlimit: '1' });
      assert.match(first.continue.drvcontinue, /^0\|Gone\|\d{14}\|\d+$/);
      assert.equal(first.query.pages[0].deletedrevisions[0].revid, revids[1]);
      const second = await admin.get({ action: 'query', prop: 'deletedrevisions', titles: 'Gone', drvlimit: '1', drvcontinue: first.continue.drvcontinue });
      assert.equal(second.query.pages[0].deletedrevisions[0].revid, revids[0]);
      assert.equal(second.continue, undefined);
      const bad = await admin.get({ action: 'query', prop: 'deletedrevisions', titles: 'Gone', drvcontinue: 'x|y' });
      assert.equal(bad.error?.code, 'badcontinue');
      const both = await admin.get({ action: 'query', prop: 'deletedrevisions', titles: 'Gone', drvuser: 'Alice', drvexcludeuser: 'Bob' });
      assert.equal(both.error?.code, 'invalidparammix');
    });

    test('list=alldeletedrevisions: by title over namespaces, by user by timestamp, parameter rules', async () => {
      const all = await anon({ action: 'query', list: 'alldeletedrevisions', adrprop: 'ids' });
      assert.deepEqual(
        all.query.alldeletedrevisions.map((p: { pageid: number; ns: number; title: string; revisions: unknown[] }) => [p.pageid, p.ns, p.title, p.revisions.length]),
        [
          [0, 1, 'Talk:Gone too', 1],
          [0, 0, 'Gone', 2],
        ],
      );
      const main = await anon({ action: 'query', list: 'alldeletedrevisions', adrnamespace: '0', adrdir: 'newer', adrprop: 'ids' });
      assert.deepEqual(
        main.query.alldeletedrevisions[0].revisions.map((r: { revid: number }) => r.revid),
        [revids[0], revids[1]],
      );
      const prefixed = await anon({ action: 'query', list: 'alldeletedrevisions', adrnamespace: '1', adrprefix: 'gone', adrprop: 'ids' });
      assert.equal(prefixed.query.alldeletedrevisions[0].title, 'Talk:Gone too');

      const byUser = await admin.get({ action: 'query', list: 'alldeletedrevisions', adruser: 'Alice', adrlimit: '2', adrprop: 'ids|comment' });
      assert.match(byUser.continue.adrcontinue, /^\d{14}\|\d+$/);
      const rest = await admin.get({ action: 'query', list: 'alldeletedrevisions', adruser: 'Alice', adrlimit: '2', adrprop: 'ids', adrcontinue: byUser.continue.adrcontinue });
      assert.deepEqual(
        rest.query.alldeletedrevisions[0].revisions.map((r: { revid: number }) => r.revid),
        [revids[0]],
      );

      assert.equal((await anon({ action: 'query', list: 'alldeletedrevisions', adruser: 'Alice', adrfrom: 'A' })).error?.code, 'invalidparammix');
      assert.equal((await anon({ action: 'query', list: 'alldeletedrevisions', adrstart: '2020-01-01T00:00:00Z' })).error?.code, 'invalidparammix');
      assert.equal((await alice.get({ action: 'query', list: 'alldeletedrevisions', adrprop: 'comment' })).error?.code, 'permissiondenied');
    });

    test('list=deletedrevs (deprecated): deletedhistory required, its own shape, modes', async () => {
      const denied = await alice.get({ action: 'query', list: 'deletedrevs' });
      assert.equal(denied.error?.info, "You don't have permission to view a page's deleted history.");
      const r = await admin.get({ action: 'query', list: 'deletedrevs', drprop: 'revid|user|len|minor', drlimit: '1' });
      assert.ok(r.warnings.deletedrevs);
      assert.deepEqual(r.query.deletedrevs, [
        { revisions: [{ timestamp: r.query.deletedrevs[0].revisions[0].timestamp, revid: revids[1], user: 'Alice', minor: false, len: '3' }], ns: 0, title: 'Gone' },
      ]);
      assert.match(r.continue.drcontinue, /^0\|Gone\|\d{14}\|\d+$/);
      const titles = await admin.get({ action: 'query', list: 'deletedrevs', titles: 'Talk:Gone too', drprop: 'revid' });
      assert.deepEqual(
        titles.query.deletedrevs[0].revisions.map((x: { revid: number }) => x.revid),
        [revids[2]],
      );
      assert.equal((await admin.get({ action: 'query', list: 'deletedrevs', druser: 'Alice', drfrom: 'A' })).error?.code, 'badparams');
    });

    test('list=allrevisions: live revisions of all pages, newest first, grouped by page; generator', async () => {
      const live = await alice.post({ action: 'edit', title: 'Alive', text: 'here', summary: 's' });
      const r = await anon({ action: 'query', list: 'allrevisions', arvprop: 'ids|user|comment', arvlimit: '1' });
      assert.deepEqual(r.query.allrevisions, [{ pageid: live.edit.pageid, revisions: [{ revid: live.edit.newrevid, parentid: 0, user: 'Alice', comment: 's' }], ns: 0, title: 'Alive' }]);
      const next = await anon({ action: 'query', list: 'allrevisions', arvprop: 'ids', arvlimit: '1', arvcontinue: r.continue.arvcontinue });
      assert.equal(next.query.allrevisions[0].title, 'Main Page');
      const talk = await anon({ action: 'query', list: 'allrevisions', arvnamespace: '1' });
      assert.deepEqual(talk.query.allrevisions, []);
      const gen = await anon({ action: 'query', generator: 'allrevisions', garvlimit: '1', garvuser: 'Alice', prop: 'info' });
      assert.equal(gen.query.pages[0].title, 'Alive');
      assert.equal((await anon({ action: 'query', list: 'allrevisions', arvuser: 'A', arvexcludeuser: 'B' })).error?.code, 'invalidparammix');
    });

    test('action=changecontentmodel: rights, errors, the revision and the contentmodel/change log entry', async () => {
      const page = await alice.post({ action: 'edit', title: 'Model', text: 'plain', summary: 's' });
      const anonPost = (await wiki.post('/w/api.php', { format: 'json', action: 'changecontentmodel', title: 'Model', model: 'text', token: '+\\' })).json();
      assert.equal(anonPost.error?.info, "You don't have permission to edit the content model of a page.");
      assert.equal((await alice.post({ action: 'changecontentmodel', title: 'Nowhere', model: 'text' })).error?.code, 'changecontentmodel-missingtitle');
      assert.equal((await alice.post({ action: 'changecontentmodel', title: 'Model', model: 'wikitext' })).error?.code, 'nochanges');
      assert.equal((await alice.post({ action: 'changecontentmodel', title: 'Model', model: 'json' })).error?.code, 'invalid-json-data');
      assert.equal((await alice.post({ action: 'changecontentmodel', title: 'Model', model: 'nonsense' })).error?.code, 'badvalue');

      const r = await alice.post({ action: 'changecontentmodel', title: 'Model', model: 'text', summary: 'why' });
      assert.deepEqual(r.changecontentmodel, {
        result: 'Success',
        title: 'Model',
        pageid: page.edit.pageid,
        contentmodel: 'text',
        logid: r.changecontentmodel.logid,
        revid: r.changecontentmodel.revid,
      });
      const rev = (await anon({ action: 'query', prop: 'revisions', titles: 'Model', rvprop: 'ids|comment|tags|contentmodel', rvslots: 'main' })).query.pages[0].revisions[0];
      assert.deepEqual(rev, {
        revid: r.changecontentmodel.revid,
        parentid: page.edit.newrevid,
        slots: { main: { contentmodel: 'text' } },
        comment: 'Alice changed the content model of the page [[Model]] from "wikitext" to "plain text": why',
        tags: ['mw-contentmodelchange'],
      });
      const log = (await anon({ action: 'query', list: 'logevents', leaction: 'contentmodel/change', leprop: 'ids|title|type|user|comment|details' })).query.logevents[0];
      assert.deepEqual(log, {
        logid: r.changecontentmodel.logid,
        ns: 0,
        title: 'Model',
        pageid: page.edit.pageid,
        logpage: page.edit.pageid,
        params: { oldmodel: 'wikitext', newmodel: 'text' },
        type: 'contentmodel',
        action: 'change',
        user: 'Alice',
        comment: 'why',
      });
      assert.deepEqual(Object.keys(log.params), ['oldmodel', 'newmodel']);
      // leaction is MediaWiki's enum of log actions: "delete/*" is not one of them.
      assert.ok((await anon({ action: 'query', list: 'logevents', leaction: 'delete/*' })).error);
    });

    test("action=mergehistory: checks in MediaWiki's order, revisions move, the source becomes a redirect, merge/merge log", async () => {
      const s1 = await alice.post({ action: 'edit', title: 'Merge source', text: 's1' });
      await new Promise((r) => setTimeout(r, 1100));
      const s2 = await alice.post({ action: 'edit', title: 'Merge source', text: 's2' });
      await new Promise((r) => setTimeout(r, 1100));
      const d1 = await alice.post({ action: 'edit', title: 'Merge dest', text: 'd1' });
      const merge = (params: Record<string, string>) => admin.post({ action: 'mergehistory', ...params });
      assert.equal((await alice.post({ action: 'mergehistory', from: 'Merge source', to: 'Merge dest' })).error?.code, 'mergehistory-fail-permission');
      assert.equal((await merge({ from: 'Merge source', to: 'Merge source' })).error?.code, 'mergehistory-fail-self-merge');
      assert.equal((await merge({ from: 'No source', to: 'Merge dest' })).error?.code, 'mergehistory-fail-invalid-source');
      assert.equal((await merge({ from: 'Merge source', to: 'No dest' })).error?.code, 'mergehistory-fail-invalid-dest');
      assert.equal((await merge({ from: 'Merge dest', to: 'Merge source' })).error?.code, 'mergehistory-fail-timestamps-overlap');
      assert.equal((await merge({ from: 'Merge source', fromid: '1', to: 'Merge dest' })).error?.code, 'invalidparammix');
      assert.equal((await merge({ fromid: '999999', to: 'Merge dest' })).error?.code, 'nosuchpageid');

      const r = await merge({ from: 'Merge source', to: 'Merge dest', reason: 'because' });
      assert.deepEqual(Object.keys(r.mergehistory), ['from', 'to', 'timestamp', 'reason']);
      assert.deepEqual([r.mergehistory.from, r.mergehistory.to, r.mergehistory.reason], ['Merge source', 'Merge dest', 'because']);
      const revs = async (title: string) =>
        (await anon({ action: 'query', prop: 'revisions', titles: title, rvprop: 'ids|comment|content', rvslots: 'main', rvlimit: 'max' })).query.pages[0].revisions.map(
          (x: { revid: number; parentid: number; comment: string; slots: { main: { content: string } } }) => [x.revid, x.parentid, x.comment, x.slots.main.content],
        );
      assert.deepEqual(await revs('Merge dest'), [
        [d1.edit.newrevid, 0, 'Created page with "d1"', 'd1'],
        [s2.edit.newrevid, s1.edit.newrevid, '', 's2'],
        [s1.edit.newrevid, 0, 'Created page with "s1"', 's1'],
      ]);
      const source = await revs('Merge source');
      assert.equal(source.length, 1);
      assert.deepEqual(source[0].slice(1), [s2.edit.newrevid, 'Merged [[:Merge source]] into [[:Merge dest]]: because', '#REDIRECT [[Merge dest]]']);
      const log = (await anon({ action: 'query', list: 'logevents', letype: 'merge', leprop: 'title|type|comment|details' })).query.logevents[0];
      assert.deepEqual(log, {
        ns: 0,
        title: 'Merge source',
        params: { dest_ns: 0, dest_title: 'Merge dest', mergepoint: log.params.mergepoint },
        type: 'merge',
        action: 'merge',
        comment: 'Merged [[:Merge source]] into [[:Merge dest]]: because',
      });
      assert.match(log.params.mergepoint, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      // The redirect revision has no recent change of its own; the log entry has one.
      const rc = (await anon({ action: 'query', list: 'recentchanges', rctitle: 'Merge source', rcprop: 'title|ids' })).query.recentchanges;
      assert.equal(rc[0].type, 'log');
    });

    test('action=mergehistory up to a timestamp: older revisions move, the source keeps the rest and the plain reason', async () => {
      const edit = (title: string, text: string) => alice.post({ action: 'edit', title, text });
      const pause = () => new Promise((r) => setTimeout(r, 1100));
      const p1 = await edit('Partial source', 'p1');
      await pause();
      const p2 = await edit('Partial source', 'p2');
      await pause();
      await edit('Partial dest', 'q1');
      await pause();
      const p3 = await edit('Partial source', 'p3');
      // Without a timestamp every source revision would move, and p3 comes after the destination's first.
      assert.equal((await admin.post({ action: 'mergehistory', from: 'Partial source', to: 'Partial dest' })).error?.code, 'mergehistory-fail-timestamps-overlap');
      const ts = (await anon({ action: 'query', prop: 'revisions', revids: String(p2.edit.newrevid), rvprop: 'timestamp' })).query.pages[0].revisions[0].timestamp;
      const r = await admin.post({ action: 'mergehistory', from: 'Partial source', to: 'Partial dest', timestamp: ts, reason: 'r' });
      assert.deepEqual(r.mergehistory, { from: 'Partial source', to: 'Partial dest', timestamp: ts, reason: 'r' });
      const ids = async (title: string) =>
        (await anon({ action: 'query', prop: 'revisions', titles: title, rvprop: 'ids', rvlimit: 'max' })).query.pages[0].revisions.map((x: { revid: number }) => x.revid);
      assert.deepEqual(await ids('Partial source'), [p3.edit.newrevid]);
      assert.ok((await ids('Partial dest')).includes(p1.edit.newrevid));
      const log = (await anon({ action: 'query', list: 'logevents', letype: 'merge', leprop: 'title|comment|details' })).query.logevents[0];
      assert.deepEqual([log.title, log.comment, log.params.mergepoint], ['Partial source', 'r', ts]);
    });

    test('revisiondelete type=logging: deletelogentry, items as RevDelLogItem, delete/event logged, list=logevents hides the fields', async () => {
      await runAdmin(['createAndPromote', 'Suppressor', 'suppresspass123456', '--groups', 'sysop,suppress'], wiki.testEnv.env, () => undefined);
      const sup = await login(wiki, 'Suppressor', 'suppresspass123456');
      const entry = (await anon({ action: 'query', list: 'logevents', leaction: 'delete/delete', letitle: 'Talk:Gone too', leprop: 'ids' })).query.logevents[0];
      const denied = await admin.post({ action: 'revisiondelete', type: 'logging', ids: String(entry.logid), hide: 'comment' });
      assert.deepEqual([denied.error?.code, denied.error?.info], ['permissiondenied', "You don't have permission to delete log entries."]);

      const r = await sup.post({ action: 'revisiondelete', type: 'logging', ids: `${entry.logid}|999999`, hide: 'comment|user', reason: 'tidy' });
      assert.equal(r.revisiondelete.target, 'Special:Log/delete');
      const [item, missing] = r.revisiondelete.items;
      assert.deepEqual(item, {
        status: 'Success',
        id: entry.logid,
        type: 'delete',
        action: 'delete',
        userhidden: true,
        commenthidden: true,
        actionhidden: false,
        params: {},
        userid: item.userid,
        user: 'Sysop',
        comment: item.comment,
      });
      assert.equal(missing.status, 'Fail');
      assert.equal(missing.errors[0].code, 'revdelete-modify-missing');
      const again = await sup.post({ action: 'revisiondelete', type: 'logging', ids: String(entry.logid), hide: 'comment' });
      assert.equal(again.revisiondelete.items[0].warnings[0].code, 'revdelete-no-change');

      const shown = async (get: (p: Record<string, string>) => Promise<any>) =>
        (await get({ action: 'query', list: 'logevents', leaction: 'delete/delete', letitle: 'Talk:Gone too', leprop: 'ids|title|user|comment|details' })).query.logevents[0];
      const forAnon = await shown(anon);
      assert.equal(forAnon.userhidden, true);
      assert.equal(forAnon.commenthidden, true);
      assert.equal(forAnon.user, undefined);
      assert.equal(forAnon.comment, undefined);
      assert.equal(forAnon.title, 'Talk:Gone too');
      const forSysop = await shown(admin.get);
      assert.equal(forSysop.user, 'Sysop');
      assert.equal(forSysop.userhidden, true);

      const event = (await anon({ action: 'query', list: 'logevents', leaction: 'delete/event', leprop: 'title|type|comment|details' })).query.logevents[0];
      assert.deepEqual(event, {
        ns: -1,
        title: 'Special:Log/delete',
        params: {
          type: 'logging',
          ids: [String(entry.logid)],
          old: { bitmask: 0, content: false, comment: false, user: false, restricted: false },
          new: { bitmask: 6, content: false, comment: true, user: true, restricted: false },
        },
        type: 'delete',
        action: 'event',
        comment: 'tidy',
      });
    });

    test("revisiondelete type=archive: a deleted page's revisions by timestamp, delete/revision logged with the timestamps", async () => {
      const sup = await login(wiki, 'Suppressor', 'suppresspass123456');
      const deleted = (await admin.get({ action: 'query', prop: 'deletedrevisions', titles: 'Gone', drvprop: 'ids|timestamp', drvdir: 'newer' })).query.pages[0].deletedrevisions;
      const ts = (deleted[0].timestamp as string).replace(/[-:TZ]/g, '');
      assert.equal((await alice.post({ action: 'revisiondelete', type: 'archive', target: 'Gone', ids: ts, hide: 'comment' })).error?.code, 'permissiondenied');
      assert.equal((await sup.post({ action: 'revisiondelete', type: 'archive', ids: ts, hide: 'comment' })).error?.code, 'needtarget');
      const r = await sup.post({ action: 'revisiondelete', type: 'archive', target: 'Gone', ids: ts, hide: 'comment', reason: 'old' });
      assert.deepEqual(r.revisiondelete, {
        status: 'Success',
        target: 'Gone',
        items: [
          {
            status: 'Success',
            id: ts,
            timestamp: deleted[0].timestamp,
            userhidden: false,
            commenthidden: true,
            texthidden: false,
            userid: r.revisiondelete.items[0].userid,
            user: 'Alice',
            comment: 'first',
          },
        ],
      });
      const rev = (await admin.get({ action: 'query', prop: 'deletedrevisions', revids: String(revids[0]), drvprop: 'ids|comment' })).query.pages[0].deletedrevisions[0];
      assert.deepEqual(rev, { revid: revids[0], parentid: 0, commenthidden: true, comment: 'first' });
      const log = (await anon({ action: 'query', list: 'logevents', leaction: 'delete/revision', leprop: 'title|comment|details' })).query.logevents[0];
      assert.deepEqual(log.params, {
        type: 'archive',
        ids: [ts],
        old: { bitmask: 0, content: false, comment: false, user: false, restricted: false },
        new: { bitmask: 2, content: false, comment: true, user: false, restricted: false },
      });
      assert.deepEqual([log.title, log.comment], ['Gone', 'old']);
      // Shown again, then put back as it was.
      assert.equal((await sup.post({ action: 'revisiondelete', type: 'archive', target: 'Gone', ids: ts, show: 'comment' })).revisiondelete.items[0].commenthidden, false);
    });

    test('action=setpagelanguage answers pagelang-disabled ($wgPageLanguageUseDB is false), after parameter validation', async () => {
      const r = await admin.post({ action: 'setpagelanguage', title: 'Alive', lang: 'de' });
      assert.deepEqual([r.error?.code, r.error?.info], ['pagelang-disabled', 'Changing the language of a page is not allowed on this wiki.']);
      assert.equal((await admin.post({ action: 'setpagelanguage', title: 'Alive', lang: 'xx' })).error?.code, 'badvalue');
      assert.equal((await admin.post({ action: 'setpagelanguage', title: 'Alive' })).error?.code, 'missingparam');
    });

    test('action=stashedit: the text by its SHA-1, checks of model/format, text/hash, base revision', async () => {
      const stash = (params: Record<string, string>) => alice.post({ action: 'stashedit', contentmodel: 'wikitext', contentformat: 'text/x-wiki', baserevid: '0', ...params });
      const r = await stash({ title: 'Stashed', text: 'hello\r\n\n' });
      assert.deepEqual(r.stashedit, { status: 'stashed', texthash: 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d' });
      assert.deepEqual((await stash({ title: 'Stashed', stashedtexthash: 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d' })).stashedit, r.stashedit);
      assert.equal((await stash({ title: 'Stashed', stashedtexthash: '0'.repeat(40) })).error?.code, 'missingtext');
      assert.equal((await stash({ title: 'Stashed', stashedtexthash: 'nothex' })).error?.code, 'missingtext');
      assert.equal((await stash({ title: 'Stashed', text: 'x', stashedtexthash: 'x' })).error?.code, 'invalidparammix');
      assert.equal((await stash({ title: 'Stashed' })).error?.code, 'missingparam');
      assert.equal((await stash({ title: 'Stashed', text: 'x', contentformat: 'text/css' })).error?.code, 'badmodelformat');
      const alive = (await anon({ action: 'query', prop: 'info', titles: 'Alive' })).query.pages[0];
      assert.equal((await stash({ title: 'Alive', text: 'x', baserevid: '1' })).error?.code, 'nosuchrevid');
      assert.equal((await stash({ title: 'Alive', text: 'x', baserevid: String(alive.lastrevid) })).stashedit?.status, 'stashed');
    });
  });
}
