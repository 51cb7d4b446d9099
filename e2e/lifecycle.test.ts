/*
 * Page lifecycle, logs and recent changes on the whole wiki: delete,
 * undelete, protect, move, rollback, purge and patrol through the action API (and REST where it
 * shows the same data), with their rights, validation and conflict errors, and the trail each
 * leaves in list=logevents, list=recentchanges and list=usercontribs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';

/** A logged-in session with its tokens. */
async function login(wiki: TestWiki, name: string, password: string) {
  const c = new WikiClient(wiki.baseUrl);
  const lt = (await c.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
  const r = (await c.post('/w/api.php', { format: 'json', action: 'login', lgname: name, lgpassword: password, lgtoken: lt })).json();
  assert.equal(r.login.result, 'Success', JSON.stringify(r));
  const tokens = (await c.api({ action: 'query', meta: 'tokens', type: 'csrf|rollback|patrol' })).json().query.tokens;
  const post = async (params: Record<string, string>, token: string = tokens.csrftoken) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', token, ...params })).json();
  return { client: c, tokens, post };
}

type Session = Awaited<ReturnType<typeof login>>;

async function anonEdit(wiki: TestWiki, title: string, text: string) {
  const j = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title, text })).json();
  assert.equal(j.edit?.result, 'Success', JSON.stringify(j));
  return j.edit as { newrevid: number; pageid: number };
}

async function query(wiki: WikiClient, params: Record<string, string>) {
  return (await wiki.api({ action: 'query', formatversion: '2', ...params })).json();
}

for (const backend of testBackends()) {
  describe(`page lifecycle and logs (${backend})`, () => {
    let wiki: TestWiki;
    let admin: Session;
    let alice: Session;

    before(async () => {
      wiki = await startWiki(backend, { RATE_LIMITS: JSON.stringify({ edit: { ip: [100000, 60], user: [100000, 60], newbie: [100000, 60] } }) });
      const quiet = () => undefined;
      await runAdmin(['createAndPromote', 'Sysop', 'sysoppass123456', '--groups', 'sysop'], wiki.testEnv.env, quiet);
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, quiet);
      admin = await login(wiki, 'Sysop', 'sysoppass123456');
      alice = await login(wiki, 'Alice', 'alicepass123456');
    });
    after(() => wiki.close());

    test('delete: rights, 404 in REST, archive; undelete brings the whole history back', async () => {
      await anonEdit(wiki, 'Doomed', 'one [[Link]]');
      await anonEdit(wiki, 'Doomed', 'two [[Link]]');
      const before = (await wiki.rest('/v1/page/Doomed/history')).json();
      assert.equal(before.revisions.length, 2);

      const denied = await alice.post({ action: 'delete', title: 'Doomed' });
      assert.equal(denied.error?.code, 'permissiondenied');
      assert.equal((await admin.post({ action: 'delete', title: 'Doomed', pageid: '1' })).error?.code, 'invalidparammix');
      assert.equal((await admin.post({ action: 'delete', title: 'No such page' })).error?.code, 'missingtitle');
      const stats0 = (await query(wiki, { meta: 'siteinfo', siprop: 'statistics' })).query.statistics;

      const del = await admin.post({ action: 'delete', title: 'Doomed', reason: 'test deletion' });
      assert.deepEqual(Object.keys(del.delete), ['title', 'reason', 'logid']);
      assert.equal(del.delete.title, 'Doomed');
      assert.equal(del.delete.reason, 'test deletion');
      assert.equal((await wiki.rest('/v1/page/Doomed')).status, 404);
      assert.equal((await query(wiki, { titles: 'Doomed' })).query.pages[0].missing, true);
      const stats1 = (await query(wiki, { meta: 'siteinfo', siprop: 'statistics' })).query.statistics;
      assert.equal(stats1.pages, stats0.pages - 1);
      // The deletion is in the log and recent changes; the page's edits left recent changes.
      const log = (await query(wiki, { list: 'logevents', letype: 'delete', leprop: 'ids|title|type|user|comment|details' })).query.logevents;
      assert.deepEqual(log[0], {
        logid: del.delete.logid,
        ns: 0,
        title: 'Doomed',
        pageid: 0,
        logpage: before.revisions[0] ? log[0].logpage : 0,
        params: {},
        type: 'delete',
        action: 'delete',
        user: 'Sysop',
        comment: 'test deletion',
      });
      const rc = (await query(wiki, { list: 'recentchanges', rctitle: 'Doomed', rcprop: 'title|loginfo' })).query.recentchanges;
      assert.deepEqual(
        rc.map((c: { type: string }) => c.type),
        ['log'],
      );

      assert.equal((await alice.post({ action: 'undelete', title: 'Doomed' })).error?.code, 'permissiondenied');
      assert.equal((await admin.post({ action: 'undelete', title: 'Never existed' })).error?.code, 'cantundelete');
      const und = await admin.post({ action: 'undelete', title: 'Doomed', reason: 'back' });
      assert.deepEqual(und.undelete, { title: 'Doomed', revisions: 2, fileversions: 0, reason: 'back' });
      const after = (await wiki.rest('/v1/page/Doomed/history')).json();
      assert.deepEqual(
        after.revisions.map((r: { id: number }) => r.id),
        before.revisions.map((r: { id: number }) => r.id),
      );
      assert.equal((await wiki.rest('/v1/page/Doomed')).json().source, 'two [[Link]]');
      const restore = (await query(wiki, { list: 'logevents', leaction: 'delete/restore', leprop: 'details|title' })).query.logevents[0];
      assert.deepEqual(restore.params, { count: { revisions: 2, files: 0 } });
    });

    test("delete without a reason: MediaWiki's automatic reason (excontentauthor, excontent, exbeforeblank)", async () => {
      const reasonOf = async (title: string) => {
        const r = await admin.post({ action: 'delete', title });
        assert.ok(r.delete, JSON.stringify(r));
        return r.delete.reason as string;
      };
      assert.ok((await alice.post({ action: 'edit', title: 'Auto reason one', text: 'line one\nline two' })).edit);
      assert.equal(await reasonOf('Auto reason one'), 'content was: "line one line two", and the only contributor was "[[Special:Contributions/Alice|Alice]]" ([[User talk:Alice|talk]])');
      assert.ok((await alice.post({ action: 'edit', title: 'Auto reason two', text: 'first' })).edit);
      assert.ok((await admin.post({ action: 'edit', title: 'Auto reason two', text: `${'x'.repeat(600)}` })).edit);
      assert.equal(await reasonOf('Auto reason two'), `content was: "${'x'.repeat(500 - 'content was: ""'.length - 3)}..."`);
      assert.ok((await alice.post({ action: 'edit', title: 'Auto reason three', text: 'before blanking' })).edit);
      assert.ok((await alice.post({ action: 'edit', title: 'Auto reason three', text: '' })).edit);
      assert.equal(await reasonOf('Auto reason three'), 'content before blanking was: "before blanking"');
    });

    test('undelete of selected timestamps; an edit over a deletion needs recreate', async () => {
      await anonEdit(wiki, 'Partial', 'a');
      await new Promise((r) => setTimeout(r, 1100));
      await anonEdit(wiki, 'Partial', 'b');
      const revs = (await query(wiki, { prop: 'revisions', titles: 'Partial', rvprop: 'timestamp|ids', rvlimit: 'max', rvdir: 'newer' })).query.pages[0].revisions;
      const start = new Date(Date.now() - 5000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      await admin.post({ action: 'delete', title: 'Partial' });
      const conflict = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title: 'Partial', text: 'c', starttimestamp: start })).json();
      assert.equal(conflict.error?.code, 'pagedeleted');
      const und = await admin.post({ action: 'undelete', title: 'Partial', timestamps: revs[0].timestamp });
      assert.equal(und.undelete.revisions, 1);
      assert.equal((await wiki.rest('/v1/page/Partial')).json().source, 'a');
      assert.equal((await wiki.rest('/v1/page/Partial')).json().latest.id, revs[0].revid);
    });

    test('protect: validation, levels and expiry, enforcement in action=edit and REST, inprop=protection, log', async () => {
      const page = await anonEdit(wiki, 'Guarded', 'guarded text');
      assert.equal((await alice.post({ action: 'protect', title: 'Guarded', protections: 'edit=sysop' })).error?.code, 'permissiondenied');
      assert.equal((await admin.post({ action: 'protect', title: 'Guarded', protections: 'smash=sysop' })).error?.code, 'protect-invalidaction');
      assert.equal((await admin.post({ action: 'protect', title: 'Guarded', protections: 'edit=god' })).error?.code, 'protect-invalidlevel');
      assert.equal((await admin.post({ action: 'protect', title: 'Guarded', protections: 'edit=sysop|move=sysop', expiry: '1 day|2 days|3 days' })).error?.code, 'toofewexpiries');
      assert.equal((await admin.post({ action: 'protect', title: 'Guarded', protections: 'edit=sysop', expiry: 'whenever' })).error?.code, 'invalidexpiry');
      assert.equal((await admin.post({ action: 'protect', title: 'Guarded', protections: 'edit=sysop', expiry: '2001-01-01T00:00:00Z' })).error?.code, 'pastexpiry');
      assert.equal((await admin.post({ action: 'protect', title: 'Guarded', protections: 'create=sysop' })).error?.code, 'create-titleexists');
      assert.equal((await admin.post({ action: 'protect', title: 'Unwritten', protections: 'edit=sysop' })).error?.code, 'missingtitle-createonly');

      const prot = await admin.post({ action: 'protect', title: 'Guarded', protections: 'edit=sysop|move=autoconfirmed', expiry: 'infinite|2099-01-01T00:00:00Z', reason: 'vandalism', cascade: '1' });
      assert.deepEqual(prot.protect, {
        title: 'Guarded',
        reason: 'vandalism',
        cascade: true,
        protections: [
          { edit: 'sysop', expiry: 'infinite' },
          { move: 'autoconfirmed', expiry: '2099-01-01T00:00:00Z' },
        ],
      });
      const edit = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title: 'Guarded', text: 'x' })).json();
      assert.equal(edit.error?.code, 'protectedpage');
      const put = await wiki.request('PUT', '/w/rest.php/v1/page/Guarded', JSON.stringify({ source: 'x', comment: '', latest: { id: page.newrevid }, token: ANON_TOKEN }), {
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(put.status, 403, put.text);
      assert.equal(put.json().httpCode, 403);
      // Cascading: a template the page transcludes is protected too (once the page's links are known).
      await anonEdit(wiki, 'Template:Shield', 'shield');
      await admin.post({ action: 'edit', title: 'Guarded', text: '{{Shield}}' });
      // The job runner records the transclusion; then the template is cascade-protected.
      let templateEdit: { error?: { code: string } } = {};
      for (let i = 0; i < 40 && templateEdit.error?.code !== 'cascadeprotected'; i++) {
        await new Promise((r) => setTimeout(r, 250));
        templateEdit = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title: 'Template:Shield', text: 'y', nocreate: '1' })).json();
      }
      assert.equal(templateEdit.error?.code, 'cascadeprotected');
      const shield = (await query(wiki, { prop: 'info', inprop: 'protection', titles: 'Template:Shield' })).query.pages[0];
      assert.deepEqual(shield.protection, [{ type: 'edit', level: 'sysop', expiry: 'infinity', source: 'Guarded' }]);
      const info = await query(wiki, { prop: 'info', inprop: 'protection', titles: 'Guarded|Unwritten' });
      const guarded = info.query.pages.find((p: { title: string }) => p.title === 'Guarded');
      assert.deepEqual(guarded.protection, [
        { type: 'edit', level: 'sysop', expiry: 'infinity', cascade: true },
        { type: 'move', level: 'autoconfirmed', expiry: '2099-01-01T00:00:00Z' },
      ]);
      assert.deepEqual(guarded.restrictiontypes, ['edit', 'move']);
      const log = (await query(wiki, { list: 'logevents', letype: 'protect', letitle: 'Guarded' })).query.logevents[0];
      assert.equal(log.action, 'protect');
      assert.equal(log.params.cascade, true);
      assert.equal(log.params.description, '\u200e[edit=sysop] (indefinite)\u200e[move=autoconfirmed] (expires 00:00, 1 January 2099 (UTC))');
      // The null revision recording the protection is in the history.
      const hist = (await query(wiki, { prop: 'revisions', titles: 'Guarded', rvlimit: '3', rvprop: 'comment' })).query.pages[0].revisions;
      // WikiPage::insertNullProtectionRevision's words (protectedarticle-comment, protect-summary-desc).
      assert.ok(
        hist.some(
          (r: { comment: string }) =>
            r.comment === 'Protected "[[Guarded]]": vandalism ([Edit=Allow only administrators] (indefinite) [Move=Allow only autoconfirmed users] (expires 00:00, 1 January 2099 (UTC))) [cascading]',
        ),
        JSON.stringify(hist),
      );

      // Create protection of a missing title.
      await admin.post({ action: 'protect', title: 'Unwritten', protections: 'create=sysop', reason: 'salted' });
      const create = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title: 'Unwritten', text: 'x' })).json();
      // checkPageRestrictions (the title's create restriction) reports first, as in MediaWiki.
      assert.deepEqual([create.error?.code, create.error?.info], ['protectedpage', 'This page has been protected to prevent editing or other actions.']);
      // protections="" lifts every restriction (doUpdateRestrictions replaces the whole set).
      assert.deepEqual((await admin.post({ action: 'protect', title: 'Unwritten', protections: '' })).protect.protections, []);
      await anonEdit(wiki, 'Unwritten', 'created after unsalting');
      await admin.post({ action: 'protect', title: 'Unwritten', protections: 'edit=sysop|move=sysop' });
      await admin.post({ action: 'protect', title: 'Unwritten', protections: 'edit=autoconfirmed' });
      const replaced = (await query(wiki, { prop: 'info', inprop: 'protection', titles: 'Unwritten' })).query.pages[0];
      assert.deepEqual(replaced.protection, [{ type: 'edit', level: 'autoconfirmed', expiry: 'infinity' }]);
      await admin.post({ action: 'protect', title: 'Unwritten', protections: '' });
      await anonEdit(wiki, 'Unwritten', 'anyone may edit again');
      // Unprotecting logs "unprotect" and lets edits through again.
      const unprot = await admin.post({ action: 'protect', title: 'Guarded', protections: 'edit=all|move=all' });
      assert.equal(unprot.protect.protections[0].edit, 'all');
      assert.equal((await query(wiki, { list: 'logevents', letype: 'protect', lelimit: '1' })).query.logevents[0].action, 'unprotect');
      await anonEdit(wiki, 'Guarded', 'free again');
    });

    test('move: new title answers, the old one redirects, talk page, noredirect needs suppressredirect, errors', async () => {
      await anonEdit(wiki, 'Old name', 'content to move');
      await anonEdit(wiki, 'Talk:Old name', 'talk');
      assert.equal((await alice.post({ action: 'move', from: 'Old name', to: 'Old name' })).error?.code, 'selfmove');
      assert.equal((await admin.post({ action: 'move', from: 'Nothing here', to: 'Anything' })).error?.code, 'missingtitle');
      assert.equal((await admin.post({ action: 'move', from: 'Old name', to: 'Main Page' })).error?.code, 'articleexists');
      const anon = (await wiki.post('/w/api.php', { action: 'move', format: 'json', token: ANON_TOKEN, from: 'Old name', to: 'X' })).json();
      // PermissionManager::checkQuickPermissions: an anonymous caller is told to log in.
      assert.deepEqual([anon.error?.code, anon.error?.info], ['cantmove-anon', 'You must be a registered user and [[Special:UserLogin|logged in]] to move a page.']);
      // ApiMove reports a missing source before any permission check.
      const anonMissing = (await wiki.post('/w/api.php', { action: 'move', format: 'json', token: ANON_TOKEN, from: 'Nothing here', to: 'X' })).json();
      assert.equal(anonMissing.error?.code, 'missingtitle');

      const mv = await alice.post({ action: 'move', from: 'Old name', to: 'New name', reason: 'rename', movetalk: '1', noredirect: '1' });
      // Alice lacks suppressredirect: the redirect is left behind anyway.
      assert.deepEqual(mv.move, {
        from: 'Old name',
        to: 'New name',
        reason: 'rename',
        redirectcreated: true,
        moveoverredirect: false,
        talkfrom: 'Talk:Old name',
        talkto: 'Talk:New name',
        talkredirectcreated: true,
        talkmoveoverredirect: false,
      });
      assert.equal((await wiki.rest('/v1/page/New_name')).json().source, 'content to move');
      const old = (await query(wiki, { titles: 'Old name', redirects: '1' })).query;
      assert.deepEqual(old.redirects, [{ from: 'Old name', to: 'New name' }]);
      const log = (await query(wiki, { list: 'logevents', letype: 'move', lelimit: '2' })).query.logevents;
      assert.deepEqual(log[1].params, { target_ns: 0, target_title: 'New name', suppressredirect: false });
      assert.equal(log[1].title, 'Old name');

      // Back over the redirect (a single revision pointing at the source), without a redirect.
      const back = await admin.post({ action: 'move', from: 'New name', to: 'Old name', noredirect: '1' });
      assert.equal(back.move.moveoverredirect, true);
      assert.equal(back.move.redirectcreated, undefined);
      assert.equal((await wiki.rest('/v1/page/New_name')).status, 404);
      assert.equal((await wiki.rest('/v1/page/Old_name')).json().source, 'content to move');
      assert.equal((await query(wiki, { list: 'logevents', letype: 'move', lelimit: '1' })).query.logevents[0].action, 'move_redir');
    });

    test('rollback: the top edits of one user are reverted, tagged, and visible to the reverted filter', async () => {
      await admin.post({ action: 'edit', title: 'Rolled', text: 'good' });
      const v1 = (await alice.post({ action: 'edit', title: 'Rolled', text: 'bad 1' })).edit;
      await alice.post({ action: 'edit', title: 'Rolled', text: 'bad 2' });
      assert.equal((await alice.post({ action: 'rollback', title: 'Rolled', user: 'Alice' }, alice.tokens.rollbacktoken)).error?.code, 'permissiondenied');
      assert.equal((await admin.post({ action: 'rollback', title: 'Rolled', user: 'Sysop' }, admin.tokens.rollbacktoken)).error?.code, 'alreadyrolled');
      assert.equal((await admin.post({ action: 'rollback', title: 'Rolled', user: 'Alice' })).error?.code, 'badtoken');
      const rb = await admin.post({ action: 'rollback', title: 'Rolled', user: 'Alice' }, admin.tokens.rollbacktoken);
      assert.equal(rb.rollback.title, 'Rolled');
      assert.equal(rb.rollback.summary, 'Reverted edits by [[Special:Contributions/Alice|Alice]] ([[User talk:Alice|talk]]) to last revision by [[User:Sysop|Sysop]]');
      assert.equal(rb.rollback.last_revid, v1.oldrevid);
      assert.equal((await wiki.rest('/v1/page/Rolled')).json().source, 'good');
      const reverted = (await wiki.rest('/v1/page/Rolled/history?filter=reverted')).json();
      assert.deepEqual(
        reverted.revisions.map((r: { id: number }) => r.id),
        [rb.rollback.revid],
      );
      assert.equal((await wiki.rest('/v1/page/Rolled/history/counts/reverted')).json().count, 1);
      const tags = (await query(wiki, { prop: 'revisions', titles: 'Rolled', rvprop: 'ids|tags', rvlimit: '4' })).query.pages[0].revisions;
      assert.deepEqual(
        tags.map((r: { tags: string[] }) => r.tags),
        [['mw-rollback'], ['mw-reverted'], ['mw-reverted'], []],
      );
      await alice.post({ action: 'edit', title: 'Alone', text: 'only Alice' });
      await alice.post({ action: 'edit', title: 'Alone', text: 'only Alice, twice' });
      assert.equal((await admin.post({ action: 'rollback', title: 'Alone', user: 'Alice' }, admin.tokens.rollbacktoken)).error?.code, 'onlyauthor');
    });

    test('recent changes, usercontribs and patrol', async () => {
      const e = await anonEdit(wiki, 'Patrolled page', 'anon text');
      const rc = (await query(admin.client, { list: 'recentchanges', rctitle: 'Patrolled page', rcprop: 'ids|flags|user|patrolled|sizes|sha1|title', rclimit: '5' })).query.recentchanges;
      assert.equal(rc.length, 1);
      assert.equal(rc[0].type, 'new');
      assert.equal(rc[0].revid, e.newrevid);
      assert.equal(rc[0].anon, true);
      assert.equal(rc[0].unpatrolled, true);
      assert.equal(rc[0].newlen, 9);
      assert.match(rc[0].sha1, /^[0-9a-f]{40}$/);
      assert.equal((await query(wiki, { list: 'recentchanges', rcprop: 'patrolled' })).error?.code, 'permissiondenied');
      // Sysop edits are autopatrolled.
      await admin.post({ action: 'edit', title: 'Patrolled page', text: 'sysop text', minor: '1' });
      const shown = (await query(admin.client, { list: 'recentchanges', rctitle: 'Patrolled page', rcshow: 'autopatrolled', rcprop: 'flags|user' })).query.recentchanges;
      assert.deepEqual(
        shown.map((c: { user: string; minor: boolean }) => [c.user, c.minor]),
        [['Sysop', true]],
      );

      assert.equal((await alice.post({ action: 'patrol', rcid: String(rc[0].rcid) }, alice.tokens.patroltoken)).error?.code, 'permissiondenied');
      assert.equal((await admin.post({ action: 'patrol', rcid: '999999' }, admin.tokens.patroltoken)).error?.code, 'nosuchrcid');
      const pat = await admin.post({ action: 'patrol', rcid: String(rc[0].rcid) }, admin.tokens.patroltoken);
      assert.deepEqual(pat.patrol, { rcid: rc[0].rcid, ns: 0, title: 'Patrolled page' });
      const after = (await query(admin.client, { list: 'recentchanges', rctitle: 'Patrolled page', rcprop: 'patrolled', rcshow: '!autopatrolled' })).query.recentchanges;
      assert.equal(after[0].patrolled, true);
      assert.equal((await query(wiki, { list: 'logevents', letype: 'patrol', lelimit: '1' })).query.logevents[0].title, 'Patrolled page');

      // Continuation walks the whole list without repeats.
      const seen: number[] = [];
      let cont: Record<string, string> = {};
      for (let i = 0; i < 50; i++) {
        const j = await query(wiki, { list: 'recentchanges', rclimit: '3', rcprop: 'ids', ...cont });
        seen.push(...j.query.recentchanges.map((c: { rcid: number }) => c.rcid));
        if (!j.continue) break;
        cont = j.continue;
      }
      assert.equal(new Set(seen).size, seen.length);
      assert.deepEqual(
        [...seen].sort((a, b) => b - a),
        seen,
      );
      const all = (await query(wiki, { list: 'recentchanges', rclimit: 'max', rcprop: 'ids' })).query.recentchanges;
      assert.equal(seen.length, all.length);
      // Types and users.
      const logs = (await query(wiki, { list: 'recentchanges', rctype: 'log', rclimit: 'max', rcprop: 'loginfo' })).query.recentchanges;
      assert.ok(logs.length > 0 && logs.every((c: { type: string; logtype: string }) => c.type === 'log' && c.logtype));
      const notSysop = (await query(wiki, { list: 'recentchanges', rcexcludeuser: 'Sysop', rclimit: 'max', rcprop: 'user' })).query.recentchanges;
      assert.ok(notSysop.every((c: { user: string }) => c.user !== 'Sysop'));

      const contribs = (await query(wiki, { list: 'usercontribs', ucuser: 'Alice', ucprop: 'ids|title|flags|sizediff|tags', uclimit: '2' })).query;
      assert.equal(contribs.usercontribs.length, 2);
      assert.ok(contribs.usercontribs.every((c: { user: string }) => c.user === 'Alice'));
      assert.match((await query(wiki, { list: 'usercontribs', ucuser: 'Alice', uclimit: '2' })).continue.uccontinue, /^\d{14}\|\d+$/);
      assert.equal((await query(wiki, { list: 'usercontribs' })).error?.code, 'missingparam');
      const creation = (await query(wiki, { list: 'logevents', letype: 'create', letitle: 'Patrolled page' })).query.logevents;
      assert.equal(creation.length, 1);
    });

    test('purge: POST only, missing titles, forcelinkupdate queues the link refresh', async () => {
      await anonEdit(wiki, 'Purgeable', 'x');
      const get = (await wiki.api({ action: 'purge', titles: 'Purgeable' })).json();
      assert.equal(get.error?.code, 'mustbeposted');
      const j = (await wiki.post('/w/api.php', { action: 'purge', format: 'json', formatversion: '2', titles: 'Purgeable|Not there', forcelinkupdate: '1' })).json();
      assert.deepEqual(j.purge, [
        { ns: 0, title: 'Not there', missing: true },
        { ns: 0, title: 'Purgeable', purged: true, linkupdate: true },
      ]);
    });

    // Two moves of one page at once: the page row lock serializes them; the second finds its source
    // gone and leaves nothing behind (no page at its target, no log entry).
    test('two conflicting moves of one page: one wins whole, the other leaves nothing', async () => {
      await anonEdit(wiki, 'Contested', 'contested text');
      const [a, b] = await Promise.all([
        admin.post({ action: 'move', from: 'Contested', to: 'Contested A', noredirect: '1' }),
        admin.post({ action: 'move', from: 'Contested', to: 'Contested B', noredirect: '1' }),
      ]);
      const ok = [a, b].filter((r) => r.move);
      assert.equal(ok.length, 1, JSON.stringify([a, b]));
      assert.equal([a, b].filter((r) => r.error?.code === 'missingtitle').length, 1);
      const loser = ok[0].move.to === 'Contested A' ? 'Contested_B' : 'Contested_A';
      assert.equal((await wiki.rest(`/v1/page/${loser}`)).status, 404);
      assert.equal((await query(wiki, { list: 'logevents', letype: 'move', letitle: 'Contested' })).query.logevents.length, 1);
    });
  });
}
