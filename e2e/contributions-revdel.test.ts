/*
 * Tag management, revision deletion and the REST contributions routes on the whole wiki:
 * action=managetags (create/deactivate/activate/delete, its log, rights), action=revisiondelete
 * (per-item statuses, the delete/revision log, what history counts and list=usercontribs show
 * afterwards) and /w/rest.php/coredev/v0/{me,user/{user}}/contributions[/count] with
 * REST_DEV_ROUTES=1 (segments, tag messages, visibility, errors), plus uctoponly.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';
import { loggedIn } from './files-helpers.js';

const quiet = () => undefined;
type Client = Awaited<ReturnType<typeof loggedIn>>;

const post = async (c: Client, form: Record<string, string>) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', ...form })).json();
const edit = (c: Client, form: Record<string, string>) => post(c, { action: 'edit', token: c.csrf, ...form });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The path and query of an absolute link of a REST response (the test wiki's server name may differ). */
const local = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

for (const backend of testBackends()) {
  describe(`managetags, revisiondelete, REST contributions (${backend})`, () => {
    let wiki: TestWiki;
    let admin: Client; // sysop + suppress
    let sysop: Client; // sysop only
    let carol: Client; // a plain user

    before(async () => {
      wiki = await startWiki(backend, { REST_DEV_ROUTES: '1' });
      await runAdmin(['createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,suppress'], wiki.testEnv.env, quiet);
      await runAdmin(['createAndPromote', 'Sysie', 'sysiepass123456', '--groups', 'sysop'], wiki.testEnv.env, quiet);
      await runAdmin(['createAndPromote', 'Carol', 'carolpass123456'], wiki.testEnv.env, quiet);
      admin = await loggedIn(wiki, 'Admin', 'adminpass123456');
      sysop = await loggedIn(wiki, 'Sysie', 'sysiepass123456');
      carol = await loggedIn(wiki, 'Carol', 'carolpass123456');
    });
    after(() => wiki?.close());

    test('action=managetags: create, refusals, deactivate/activate, delete, and the managetags log', async () => {
      const created = await post(admin, { action: 'managetags', operation: 'create', tag: 'e2e-tag', reason: 'testing', token: admin.csrf });
      assert.equal(typeof created.managetags.logid, 'number');
      assert.deepEqual(created, { managetags: { operation: 'create', tag: 'e2e-tag', success: true, logid: created.managetags.logid } });
      const fv1 = (await admin.post('/w/api.php', { action: 'managetags', operation: 'create', tag: 'e2e-fv1', token: admin.csrf, format: 'json' })).json();
      assert.equal(fv1.managetags.success, '', 'formatversion 1 shows true as ""');

      assert.equal((await post(admin, { action: 'managetags', operation: 'create', tag: 'e2e-tag', token: admin.csrf })).error.code, 'tags-create-already-exists');
      assert.equal((await post(admin, { action: 'managetags', operation: 'create', tag: 'a|b', token: admin.csrf })).error.code, 'tags-create-invalid-chars');
      assert.equal((await post(admin, { action: 'managetags', operation: 'delete', tag: 'mw-undo', token: admin.csrf })).error.code, 'tags-delete-not-allowed');
      assert.equal((await post(admin, { action: 'managetags', operation: 'activate', tag: 'e2e-tag', token: admin.csrf })).error.code, 'tags-activate-not-allowed');
      const denied = await post(carol, { action: 'managetags', operation: 'create', tag: 'carol-tag', token: carol.csrf });
      assert.equal(denied.error.code, 'permissiondenied');
      assert.equal(denied.error.info, 'You do not have permission to manage change tags.');

      // A tag in use survives deactivation (not defined, not active), and can be activated again.
      await edit(admin, { title: 'Tagged page', text: 'tagged', tags: 'e2e-tag' });
      assert.equal((await post(admin, { action: 'managetags', operation: 'deactivate', tag: 'e2e-tag', token: admin.csrf })).managetags.success, true);
      const tags = (await admin.api({ action: 'query', list: 'tags', tgprop: 'defined|active|hitcount', tglimit: '50', formatversion: '2' })).json().query.tags;
      assert.deepEqual(
        tags.find((t: { name: string }) => t.name === 'e2e-tag'),
        { name: 'e2e-tag', hitcount: 1, defined: false, active: false },
      );
      assert.equal((await post(admin, { action: 'managetags', operation: 'activate', tag: 'e2e-tag', token: admin.csrf })).managetags.success, true);
      const deleted = await post(admin, { action: 'managetags', operation: 'delete', tag: 'e2e-fv1', reason: 'gone', token: admin.csrf });
      assert.equal(deleted.managetags.success, true);
      assert.equal((await post(admin, { action: 'managetags', operation: 'delete', tag: 'e2e-fv1', token: admin.csrf })).error.code, 'tags-delete-not-found');

      const log = (await admin.api({ action: 'query', list: 'logevents', letype: 'managetags', lelimit: '10', formatversion: '2' })).json().query.logevents;
      assert.deepEqual(
        log.map((e: { action: string; title: string }) => [e.action, e.title]),
        [
          ['delete', 'Special:Tags'],
          ['activate', 'Special:Tags'],
          ['deactivate', 'Special:Tags'],
          ['create', 'Special:Tags'],
          ['create', 'Special:Tags'],
        ],
      );
      assert.equal(log[4].comment, 'testing');
      assert.deepEqual(log[0].params, { tag: 'e2e-fv1', count: 0 });
      assert.deepEqual(log[4].params, { tag: 'e2e-tag' });
    });

    test('action=revisiondelete: items, refusals, the log, and what history counts and usercontribs show', async () => {
      const one = (await edit(carol, { title: 'Revdel page', text: 'one', summary: 'first' })).edit;
      await sleep(1100);
      const two = (await edit(carol, { title: 'Revdel page', text: 'two', summary: 'second' })).edit;

      const noRight = await post(sysop, { action: 'revisiondelete', type: 'revision', ids: String(one.newrevid), hide: 'content', token: sysop.csrf });
      assert.equal(noRight.error.code, 'permissiondenied', "sysop has no deleterevision by default (MediaWiki 1.39's $wgGroupPermissions)");
      assert.equal((await post(admin, { action: 'revisiondelete', type: 'revision', ids: String(one.newrevid), hide: 'user', show: 'user', token: admin.csrf })).error.code, 'badparams');
      assert.equal((await post(admin, { action: 'revisiondelete', type: 'revision', ids: String(one.newrevid), token: admin.csrf })).error.code, 'badparams');

      const before = (await wiki.rest('/v1/page/Revdel_page/history/counts/edits')).json();
      assert.deepEqual(before, { count: 2, limit: false });

      const hid = await post(admin, {
        action: 'revisiondelete',
        type: 'revision',
        target: 'Revdel page',
        ids: `${one.newrevid}|${two.newrevid}|999999`,
        hide: 'content|comment|user',
        reason: 'privacy',
        token: admin.csrf,
      });
      const [current, old, missing] = hid.revisiondelete.items;
      assert.equal(hid.revisiondelete.status, 'Success');
      assert.equal(hid.revisiondelete.target, 'Revdel page');
      assert.equal(current.status, 'Fail');
      assert.equal(current.id, two.newrevid);
      assert.equal(current.errors[0].code, 'revdelete-hide-current');
      assert.deepEqual(old, {
        status: 'Success',
        id: one.newrevid,
        timestamp: one.newtimestamp,
        userhidden: true,
        commenthidden: true,
        texthidden: true,
        userid: old.userid,
        user: 'Carol',
        comment: 'first',
      });
      assert.deepEqual(missing, {
        status: 'Fail',
        errors: [{ message: 'revdelete-modify-missing', params: [999999], code: 'revdelete-modify-missing', type: 'error' }],
        id: 999999,
      });

      const again = await post(admin, { action: 'revisiondelete', type: 'revision', ids: String(one.newrevid), hide: 'content', token: admin.csrf });
      assert.equal(again.revisiondelete.items[0].status, 'Success');
      assert.equal(again.revisiondelete.items[0].warnings[0].code, 'revdelete-no-change');

      const log = (await admin.api({ action: 'query', list: 'logevents', letype: 'delete', letitle: 'Revdel page', formatversion: '2' })).json().query.logevents;
      assert.equal(log.length, 1);
      assert.equal(log[0].action, 'revision');
      assert.equal(log[0].comment, 'privacy');
      assert.deepEqual(log[0].params, {
        type: 'revision',
        ids: [String(one.newrevid)],
        old: { bitmask: 0, content: false, comment: false, user: false, restricted: false },
        new: { bitmask: 7, content: true, comment: true, user: true, restricted: false },
      });

      // PageHistoryCountHandler: hidden content is not an edit, a hidden author no editor.
      assert.deepEqual((await wiki.rest('/v1/page/Revdel_page/history/counts/edits')).json(), { count: 1, limit: false });
      assert.deepEqual((await wiki.rest('/v1/page/Revdel_page/history/counts/editors')).json(), { count: 1, limit: false });
      const lastModified = (await wiki.rest('/v1/page/Revdel_page/history/counts/edits')).headers.get('last-modified');
      assert.ok(lastModified && Date.parse(lastModified) >= Date.parse(log[0].timestamp));

      // list=usercontribs: a hidden author's revision is not listed for those who may not see it.
      const anon = new WikiClient(wiki.baseUrl);
      // REST history shows neither author nor summary to them; a sysop (deletedhistory) sees both.
      const hist = (await anon.rest('/v1/page/Revdel_page/history')).json<{ revisions: { id: number; user: unknown; comment: unknown }[] }>();
      const hiddenRev = hist.revisions.find((r) => r.id === one.newrevid);
      assert.deepEqual([hiddenRev?.user, hiddenRev?.comment], [null, null]);
      const sysHist = (await sysop.rest('/v1/page/Revdel_page/history')).json<{ revisions: { id: number; user: { name: string }; comment: unknown }[] }>();
      const sysRev = sysHist.revisions.find((r) => r.id === one.newrevid);
      assert.deepEqual([sysRev?.user.name, sysRev?.comment], ['Carol', 'first']);
      const anonContribs = (await anon.api({ action: 'query', list: 'usercontribs', ucuser: 'Carol', formatversion: '2' })).json().query.usercontribs;
      assert.ok(!anonContribs.some((c: { revid: number }) => c.revid === one.newrevid));
      const sysopContribs = (await sysop.api({ action: 'query', list: 'usercontribs', ucuser: 'Carol', formatversion: '2' })).json().query.usercontribs;
      const seen = sysopContribs.find((c: { revid: number }) => c.revid === one.newrevid);
      assert.equal(seen.texthidden, true);
      assert.equal(seen.userhidden, true);
      assert.equal(seen.commenthidden, true);
      assert.equal(seen.comment, 'first', 'deletedhistory shows a hidden summary');

      const shown = await post(admin, { action: 'revisiondelete', type: 'revision', ids: String(one.newrevid), show: 'content|comment|user', token: admin.csrf });
      assert.equal(shown.revisiondelete.items[0].texthidden, false);
      assert.deepEqual((await wiki.rest('/v1/page/Revdel_page/history/counts/edits')).json(), { count: 2, limit: false });
    });

    test('action=revisiondelete on a deleted page: archived revisions keep their bits through undeletion', async () => {
      const r1 = (await edit(carol, { title: 'Archived page', text: 'one', summary: 'secret summary' })).edit;
      await edit(carol, { title: 'Archived page', text: 'two' });
      assert.ok((await post(admin, { action: 'delete', title: 'Archived page', token: admin.csrf })).delete);
      const noTarget = await post(admin, { action: 'revisiondelete', type: 'revision', ids: String(r1.newrevid), hide: 'comment', token: admin.csrf });
      assert.equal(noTarget.error.code, 'needtarget', 'an archived revision names no page');
      const hid = await post(admin, { action: 'revisiondelete', type: 'revision', target: 'Archived page', ids: String(r1.newrevid), hide: 'comment', token: admin.csrf });
      assert.equal(hid.revisiondelete.items[0].status, 'Success');
      assert.equal(hid.revisiondelete.items[0].commenthidden, true);
      await post(admin, { action: 'undelete', title: 'Archived page', token: admin.csrf });
      const revs = (await carol.api({ action: 'query', prop: 'revisions', revids: String(r1.newrevid), rvprop: 'comment', formatversion: '2' })).json();
      assert.deepEqual(revs.query.pages[0].revisions[0], { commenthidden: true });
    });

    test('uctoponly lists only the latest revisions of pages', async () => {
      await edit(carol, { title: 'Top A', text: '1' });
      await edit(carol, { title: 'Top A', text: '2' });
      const top = (await carol.api({ action: 'query', list: 'usercontribs', ucuser: 'Carol', uctoponly: '1', ucprop: 'title|flags', formatversion: '2' })).json();
      assert.ok(top.query, JSON.stringify(top));
      assert.ok(top.query.usercontribs.length > 0);
      assert.ok(top.query.usercontribs.every((c: { top: boolean }) => c.top));
      assert.ok(top.warnings.usercontribs, 'uctoponly is deprecated');
    });

    test('REST contributions: segments, tag messages, counts, and errors', async () => {
      await post(admin, { action: 'managetags', operation: 'create', tag: 'contrib-tag', token: admin.csrf });
      await edit(admin, { title: 'MediaWiki:Tag-contrib-tag', text: "''Shown name''" });
      const dan = 'Dan';
      await runAdmin(['createAndPromote', dan, 'danpass12345678'], wiki.testEnv.env, quiet);
      const danClient = await loggedIn(wiki, dan, 'danpass12345678');
      const revs: number[] = [];
      for (let i = 1; i <= 3; i++) {
        revs.push((await edit(danClient, { title: `Dan page ${i % 2}`, text: 'x'.repeat(i), ...(i % 2 ? { tags: 'contrib-tag' } : {}) })).edit.newrevid);
        await sleep(1100);
      }
      const anon = new WikiClient(wiki.baseUrl);
      const first = await anon.rest(`/coredev/v0/user/${dan}/contributions?limit=2`);
      assert.equal(first.status, 200);
      const body = first.json<{ older: string; newer: string; latest: string; contributions: Record<string, unknown>[] }>();
      assert.deepEqual(Object.keys(body), ['older', 'newer', 'latest', 'contributions']);
      assert.deepEqual(
        body.contributions.map((c) => c.id),
        [revs[2], revs[1]],
      );
      assert.deepEqual(body.contributions[0], {
        id: revs[2],
        comment: '',
        timestamp: body.contributions[0]!.timestamp,
        delta: 2,
        size: 3,
        tags: [{ name: 'contrib-tag', description: '<i>Shown name</i>' }],
        type: 'revision',
        page: { id: body.contributions[0]!.page && (body.contributions[0]!.page as { id: number }).id, key: 'Dan_page_1', title: 'Dan page 1' },
      });
      assert.equal(local(body.latest), `/w/rest.php/coredev/v0/user/${dan}/contributions?limit=2`);
      const older = (await anon.get(local(body.older))).json<typeof body>();
      assert.deepEqual(
        older.contributions.map((c) => c.id),
        [revs[0]],
      );
      assert.equal(older.older, null);
      const back = (await anon.get(local(older.newer))).json<typeof body>();
      assert.deepEqual(back, body, 'the newer link of the older segment leads back');

      // Offsets that are no timestamp compare as text, as in MediaWiki's database: "zzz" sorts after every time.
      assert.deepEqual((await anon.rest(`/coredev/v0/user/${dan}/contributions?limit=2&segment=before%7Czzz`)).json<typeof body>().contributions, body.contributions);
      assert.deepEqual((await anon.rest(`/coredev/v0/user/${dan}/contributions?limit=2&segment=after%7Czzz`)).json<typeof body>().contributions, []);
      const tagged = (await anon.rest(`/coredev/v0/user/${dan}/contributions?tag=contrib-tag`)).json<typeof body>();
      assert.deepEqual(
        tagged.contributions.map((c) => c.id),
        [revs[2], revs[0]],
      );
      assert.match(tagged.latest, /tag=contrib-tag/);

      assert.deepEqual((await anon.rest(`/coredev/v0/user/${dan}/contributions/count`)).json(), { count: 3 });
      assert.deepEqual((await anon.rest(`/coredev/v0/user/${dan}/contributions/count?tag=contrib-tag`)).json(), { count: 2 });
      assert.deepEqual((await danClient.rest('/coredev/v0/me/contributions/count')).json(), { count: 3 });
      // list=tags shows the same message (ChangeTags::tagDescription).
      const listed = (await anon.api({ action: 'query', list: 'tags', tgprop: 'displayname|description', tglimit: '50', formatversion: '2' })).json().query.tags;
      assert.deepEqual(
        listed.find((t: { name: string }) => t.name === 'contrib-tag'),
        { name: 'contrib-tag', displayname: '<i>Shown name</i>', description: '' },
      );
      assert.deepEqual(
        listed.find((t: { name: string }) => t.name === 'mw-undo'),
        { name: 'mw-undo', displayname: 'Undo', description: 'Edits that undo previous edits using the undo link' },
      );
      const mine = (await danClient.rest('/coredev/v0/me/contributions?limit=1')).json<typeof body>();
      assert.equal(local(mine.latest), '/w/rest.php/coredev/v0/me/contributions?limit=1');

      // Hiding Dan's author leaves the revision out for those who may not see it.
      await post(admin, { action: 'revisiondelete', type: 'revision', ids: String(revs[0]), hide: 'user', token: admin.csrf });
      assert.deepEqual((await anon.rest(`/coredev/v0/user/${dan}/contributions/count`)).json(), { count: 2 });
      assert.deepEqual((await danClient.rest('/coredev/v0/me/contributions/count')).json(), { count: 2 }, 'not even their own');
      assert.deepEqual((await admin.rest(`/coredev/v0/user/${dan}/contributions/count`)).json(), { count: 3 });

      const anon401 = await anon.rest('/coredev/v0/me/contributions');
      assert.equal(anon401.status, 401);
      assert.deepEqual(anon401.json<{ messageTranslations: unknown }>().messageTranslations, { en: 'Not accessible by anonymous user' });
      assert.equal((await anon.rest(`/coredev/v0/user/${dan}/contributions?limit=0`)).status, 400);
      assert.equal((await anon.rest(`/coredev/v0/user/${dan}/contributions?limit=21`)).status, 400);
      assert.equal((await anon.rest('/coredev/v0/user//contributions')).status, 400);
      assert.equal((await anon.rest('/coredev/v0/user/|||/contributions')).json<{ failureCode: string }>().failureCode, 'baduser');
      assert.equal((await anon.rest('/coredev/v0/user/Nobody_here/contributions')).status, 404);
      assert.equal((await anon.rest('/coredev/v0/user/Nobody_here/contributions/count')).status, 404);
      const ip = await anon.rest('/coredev/v0/user/127.1.2.3/contributions');
      assert.equal(ip.status, 200);
      assert.deepEqual(ip.json<{ contributions: unknown[] }>().contributions, []);
    });
  });

  describe(`REST development routes are off by default (${backend})`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend);
    });
    after(() => wiki?.close());

    test('/coredev/v0 routes answer 404 without REST_DEV_ROUTES', async () => {
      assert.equal((await wiki.rest('/coredev/v0/user/127.0.0.1/contributions')).status, 404);
    });
  });
}
