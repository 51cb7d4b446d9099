/*
 * Edits through both APIs on the whole wiki: action=edit with its
 * parameters and errors, conflicts and 3-way merges, REST PUT/POST against the golden samples,
 * rate limits, and many concurrent edits of one base revision.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readGolden, startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const GENEROUS_LIMITS = JSON.stringify({ edit: { ip: [100000, 60] } });

/** POST action=edit as the anonymous user. */
function edit(wiki: TestWiki, params: Record<string, string>) {
  return wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, ...params });
}

async function editJson(wiki: TestWiki, params: Record<string, string>) {
  const r = await edit(wiki, params);
  assert.equal(r.status, 200);
  return r.json();
}

async function errorCode(wiki: TestWiki, params: Record<string, string>): Promise<{ code: string; info: string }> {
  const j = await editJson(wiki, params);
  assert.ok(j.error, `expected an error, got ${JSON.stringify(j)}`);
  return j.error;
}

async function source(wiki: TestWiki, title: string): Promise<{ source: string; latest: number }> {
  const j = (await wiki.rest(`/v1/page/${encodeURIComponent(title.replaceAll(' ', '_'))}`)).json();
  return { source: j.source, latest: j.latest.id };
}

async function revisions(wiki: TestWiki, title: string) {
  const j = (await wiki.api({ action: 'query', prop: 'revisions', titles: title, rvprop: 'ids|comment|tags|flags|content', rvslots: 'main', rvlimit: 'max', formatversion: '2' })).json();
  return j.query.pages[0].revisions as { revid: number; parentid: number; comment: string; tags: string[]; minor: boolean; slots: { main: { content: string } } }[];
}

function putPage(wiki: TestWiki, title: string, body: Record<string, unknown>) {
  return wiki.request('PUT', `/w/rest.php/v1/page/${encodeURIComponent(title)}`, JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

function postPage(wiki: TestWiki, body: Record<string, unknown>) {
  return wiki.request('POST', '/w/rest.php/v1/page', JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

const goldenBody = async (name: string) => JSON.parse((await readGolden(name)).body) as Record<string, unknown>;

for (const backend of testBackends()) {
  describe(`action=edit on ${backend}`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend, {
        RATE_LIMITS: GENEROUS_LIMITS,
        MAX_ARTICLE_SIZE_KB: '4',
        GROUP_PERMISSIONS_JSON: JSON.stringify({ '*': { applychangetags: true } }),
      });
    });
    after(() => wiki?.close());

    test('creation and an append have the shapes of the golden samples', async () => {
      const created = await editJson(wiki, { title: 'Anchor sample page', text: 'Hello [[Main Page]].', summary: 'create sample page' });
      const golden = await goldenBody('action_edit_create.http');
      assert.deepEqual(Object.keys(created.edit), Object.keys(golden.edit as object));
      assert.equal(created.edit.new, '');
      assert.equal(created.edit.result, 'Success');
      assert.equal(created.edit.title, 'Anchor sample page');
      assert.equal(created.edit.contentmodel, 'wikitext');
      assert.equal(created.edit.oldrevid, 0);
      assert.match(created.edit.newtimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

      const second = await editJson(wiki, { title: 'Anchor sample page', appendtext: '\n\n== Section two ==\nMore.', summary: 'second edit' });
      assert.deepEqual(Object.keys(second.edit), Object.keys((await goldenBody('action_edit_second.http')).edit as object));
      assert.equal(second.edit.oldrevid, created.edit.newrevid);
      assert.ok(second.edit.newrevid > created.edit.newrevid);
      assert.equal((await source(wiki, 'Anchor sample page')).source, 'Hello [[Main Page]].\n\n== Section two ==\nMore.');

      const revs = await revisions(wiki, 'Anchor sample page');
      assert.deepEqual(
        revs.map((r) => r.comment),
        ['second edit', 'create sample page'],
      );
    });

    test('identical text is nochange and makes no revision; fv2 gives real booleans', async () => {
      await editJson(wiki, { title: 'Same', text: 'same text' });
      const before = await source(wiki, 'Same');
      const r = (await edit(wiki, { title: 'Same', text: 'same text  \n', formatversion: '2' })).json();
      assert.deepEqual(r.edit, { result: 'Success', pageid: r.edit.pageid, title: 'Same', contentmodel: 'wikitext', nochange: true });
      assert.equal((await source(wiki, 'Same')).latest, before.latest);
    });

    test('automatic summaries and software tags', async () => {
      await editJson(wiki, { title: 'Auto', text: 'First words of the page' });
      await editJson(wiki, { title: 'Auto', text: '#REDIRECT [[Main Page]]' });
      await editJson(wiki, { title: 'Auto', text: '' });
      const revs = await revisions(wiki, 'Auto');
      assert.deepEqual(
        revs.map((r) => [r.comment, r.tags]),
        [
          ['Blanked the page', ['mw-blank']],
          ['Redirected page to [[Main Page]]', ['mw-new-redirect']],
          ['Created page with "First words of the page"', []],
        ],
      );
    });

    test('prependtext, sections, section=new with its summary, md5', async () => {
      await editJson(wiki, { title: 'Sections', text: 'lead\n== A ==\na\n== B ==\nb' });
      await editJson(wiki, { title: 'Sections', section: '2', text: '== B ==\nbee' });
      await editJson(wiki, { title: 'Sections', section: '1', appendtext: '\nmore a' });
      await editJson(wiki, { title: 'Sections', prependtext: 'top\n' });
      const md5 = createHash('md5').update('new text').digest('hex');
      await editJson(wiki, { title: 'Sections', section: 'new', sectiontitle: 'Topic', text: 'new text', md5 });
      assert.equal((await source(wiki, 'Sections')).source, 'top\nlead\n== A ==\na\nmore a\n\n== B ==\nbee\n\n== Topic ==\n\nnew text');
      assert.equal((await revisions(wiki, 'Sections'))[0]!.comment, '/* Topic */ new section');
      await editJson(wiki, { title: 'Sections', section: 'new', text: 'from summary', summary: 'Heading' });
      assert.match((await source(wiki, 'Sections')).source, /== Heading ==\n\nfrom summary$/);
      assert.equal((await revisions(wiki, 'Sections'))[0]!.comment, '/* Heading */ new section');

      assert.equal((await errorCode(wiki, { title: 'Sections', text: 'x', md5: 'nope' })).code, 'badmd5');
      assert.deepEqual(await errorCode(wiki, { title: 'Sections', section: '9', text: 'x' }).then((e) => [e.code, e.info]), ['nosuchsection', 'There is no section 9.']);
      assert.equal((await errorCode(wiki, { title: 'Sections', section: 'x1', text: 'x' })).code, 'invalidsection');
    });

    test('createonly, nocreate, title/pageid, invalid titles', async () => {
      await editJson(wiki, { title: 'Exists', text: 'x' });
      assert.deepEqual(
        [await errorCode(wiki, { title: 'Exists', text: 'y', createonly: '1' }), await errorCode(wiki, { title: 'Not there', text: 'y', nocreate: '1' })].map((e) => [e.code, e.info]),
        [
          ['articleexists', 'The article you tried to create has been created already.'],
          ['missingtitle', "The page you specified doesn't exist."],
        ],
      );
      const id = (await source(wiki, 'Exists')).latest;
      assert.equal((await errorCode(wiki, { title: 'Exists', pageid: '1', text: 'y' })).code, 'invalidparammix');
      assert.equal((await errorCode(wiki, { text: 'y' })).code, 'missingparam');
      assert.deepEqual(await errorCode(wiki, { title: 'Exists' }).then((e) => [e.code, e.info]), [
        'missingparam',
        'At least one of the parameters "text", "appendtext", "prependtext" and "undo" is required.',
      ]);
      assert.deepEqual(await errorCode(wiki, { title: 'a<b', text: 'y' }).then((e) => [e.code, e.info]), ['invalidtitle', 'Bad title "a<b".']);
      assert.equal((await errorCode(wiki, { title: 'Special:Foo', text: 'y' })).code, 'pagecannotexist');
      assert.deepEqual(await errorCode(wiki, { pageid: '999999', text: 'y' }).then((e) => [e.code, e.info]), ['nosuchpageid', 'There is no page with ID 999999.']);
      const byId = await editJson(wiki, { pageid: String((await wiki.api({ action: 'query', titles: 'Exists', formatversion: '2' })).json().query.pages[0].pageid), text: 'by id' });
      assert.equal(byId.edit.title, 'Exists');
      assert.ok(byId.edit.oldrevid === id);
      // The token must be posted.
      assert.equal((await wiki.api({ action: 'edit', title: 'Exists', text: 'z', token: ANON_TOKEN })).json().error.code, 'mustpostparams');
      assert.equal((await edit(wiki, { title: 'Exists', text: 'z', token: 'bad+\\' })).json().error.code, 'badtoken');
    });

    test('undo and undoafter, nosuchrevid and undofailure', async () => {
      const a = await editJson(wiki, { title: 'Undo me', text: 'one\ntwo\nthree' });
      const b = await editJson(wiki, { title: 'Undo me', text: 'one\nTWO\nthree' });
      await editJson(wiki, { title: 'Undo me', text: 'one\nTWO\nthree\nfour' });
      const undone = await editJson(wiki, { title: 'Undo me', undo: String(b.edit.newrevid) });
      assert.equal(undone.edit.result, 'Success');
      assert.equal((await source(wiki, 'Undo me')).source, 'one\ntwo\nthree\nfour');
      const latest = (await revisions(wiki, 'Undo me'))[0]!;
      assert.deepEqual(latest.tags, ['mw-undo']);
      assert.match(latest.comment, new RegExp(`^Undo revision ${b.edit.newrevid} by \\[\\[Special:Contributions/`));
      assert.deepEqual(await errorCode(wiki, { title: 'Undo me', undo: '99999' }).then((e) => [e.code, e.info]), ['nosuchrevid', 'There is no revision with ID 99999.']);
      await editJson(wiki, { title: 'Undo me', text: 'ONE\nzwei\nthree\nfour' });
      assert.equal((await errorCode(wiki, { title: 'Undo me', undo: String(b.edit.newrevid), undoafter: String(a.edit.newrevid) })).code, 'undofailure');
      assert.equal((await errorCode(wiki, { title: 'Anchor sample page', undo: String(b.edit.newrevid) })).code, 'revwrongpage');
    });

    test('stale bases: non-overlapping changes are merged on top, overlapping ones are editconflict', async () => {
      const base = await editJson(wiki, { title: 'Merge', text: 'a\nb\nc\nd' });
      const baseId = String(base.edit.newrevid);
      const other = await editJson(wiki, { title: 'Merge', text: 'A\nb\nc\nd', baserevid: baseId });
      const merged = await editJson(wiki, { title: 'Merge', text: 'a\nb\nc\nD', baserevid: baseId });
      assert.equal(merged.edit.oldrevid, other.edit.newrevid, 'saved on top of the latest revision');
      assert.equal((await source(wiki, 'Merge')).source, 'A\nb\nc\nD');
      const refused = await errorCode(wiki, { title: 'Merge', text: 'X\nb\nc\nd', baserevid: baseId });
      assert.deepEqual([refused.code, refused.info], ['editconflict', 'Edit conflict.']);
      // basetimestamp names the base too; a wrong one that matches no revision cannot merge.
      assert.equal((await errorCode(wiki, { title: 'Merge', text: 'Q', basetimestamp: '2001-01-01T00:00:00Z' })).code, 'editconflict');
      assert.equal((await source(wiki, 'Merge')).source, 'A\nb\nc\nD', 'refusals leave the page alone');
    });

    test('content models: formats, models by title, and the rights to change them', async () => {
      // '*' lacks editcontentmodel: a JSON page must be one by its title.
      assert.equal((await errorCode(wiki, { title: 'Data', text: '{}', contentmodel: 'json' })).code, 'cantchangecontentmodel');
      // The MediaWiki namespace needs editinterface (invalid JSON itself: edit/merge.test.ts).
      assert.equal((await errorCode(wiki, { title: 'MediaWiki:Data.json', text: '{}' })).code, 'protectednamespace-interface');
      // A user's CSS is theirs alone (PermissionManager::checkUserConfigPermissions): not an anonymous caller's.
      assert.equal((await errorCode(wiki, { title: 'User:Anon/style.css', text: 'body {}', contentmodel: 'css', contentformat: 'text/css' })).code, 'customcssprotected');
      assert.equal((await errorCode(wiki, { title: 'User:Anon/x.css', text: 'x', contentformat: 'text/x-wiki' })).code, 'badformat');
    });

    test('tags must be defined by an administrator; contenttoobig', async () => {
      const content = wiki.stack.services.find((s) => s.name === 'content')!.runtime.db;
      await content.query(`INSERT INTO ${content.schema}.change_tag_def (ctd_name, ctd_user_defined) VALUES ('my-tag', true)`);
      await editJson(wiki, { title: 'Tagged', text: 'x', tags: 'my-tag' });
      assert.deepEqual((await revisions(wiki, 'Tagged'))[0]!.tags, ['my-tag']);
      assert.deepEqual(await errorCode(wiki, { title: 'Tagged', text: 'y', tags: 'mw-undo' }).then((e) => [e.code, e.info]), [
        'tags-apply-not-allowed-one',
        'The tag "mw-undo" is not allowed to be manually applied.',
      ]);
      assert.deepEqual(await errorCode(wiki, { title: 'Big', text: 'x'.repeat(4 * 1024 + 1) }).then((e) => [e.code, e.info]), [
        'contenttoobig',
        'The content you supplied exceeds the article size limit of 4 kibibytes.',
      ]);
    });

    test('redirect=1 edits the target of a redirect', async () => {
      await editJson(wiki, { title: 'Target page', text: 'target' });
      await editJson(wiki, { title: 'Alias', text: '#REDIRECT [[Target page]]' });
      assert.equal((await errorCode(wiki, { title: 'Alias', text: 'x', redirect: '1' })).code, 'redirect-appendonly');
      const r = await editJson(wiki, { title: 'Alias', appendtext: '\nadded', redirect: '1' });
      assert.deepEqual(r.redirects, { from: 'Alias', to: 'Target page' });
      assert.equal(r.edit.title, 'Target page');
      assert.equal((await source(wiki, 'Target page')).source, 'target\nadded');
    });

    test('REST PUT and POST: shapes, statuses and errors of the golden samples', async () => {
      const created = await putPage(wiki, 'Rest_page', { source: 'Created via PUT.\n\nlast', comment: 'c', token: ANON_TOKEN });
      assert.equal(created.status, 201);
      const putGolden = await goldenBody('rest_put_page.http');
      const body = created.json();
      assert.deepEqual(Object.keys(body), Object.keys(putGolden));
      assert.equal(body.key, 'Rest_page');
      assert.equal(body.title, 'Rest page');
      assert.equal(body.source, 'Created via PUT.\n\nlast');

      const noLatest = await putPage(wiki, 'Rest_page', { source: 'x', comment: 'c', token: ANON_TOKEN });
      assert.equal(noLatest.status, 409);
      assert.match(noLatest.json().messageTranslations.en, /cannot be created since it already exists/);

      const updated = await putPage(wiki, 'Rest_page', { source: 'Created via PUT.\n\nlast\nline two', comment: 'u', latest: { id: body.latest.id }, token: ANON_TOKEN });
      assert.equal(updated.status, 200);
      assert.equal(updated.json().latest.id > body.latest.id, true);
      // A stale base: merged when the changes do not overlap (or touch, as in diff3), else the golden 409.
      const merged = await putPage(wiki, 'Rest_page', { source: 'Changed via PUT.\n\nlast', comment: 'm', latest: { id: body.latest.id }, token: ANON_TOKEN });
      assert.equal(merged.status, 200);
      assert.equal(merged.json().source, 'Changed via PUT.\n\nlast\nline two');
      const stale = await putPage(wiki, 'Rest_page', { source: 'Other.', comment: 'm', latest: { id: body.latest.id }, token: ANON_TOKEN });
      assert.equal(stale.status, 409);
      assert.deepEqual(stale.json(), await goldenBody('rest_error_409_put_conflict.http'));

      const noToken = await putPage(wiki, 'Rest_page', { source: 'x', comment: 'c' });
      assert.equal(noToken.status, 400);
      assert.deepEqual(noToken.json(), await goldenBody('rest_error_400_put_anon_no_token.http'));

      const posted = await postPage(wiki, { title: 'Anchor REST page', source: 'Created via REST POST.', comment: 'p', token: ANON_TOKEN });
      assert.equal(posted.status, 201);
      assert.equal(posted.headers.get('location'), `${wiki.baseUrl}/w/rest.php/v1/page/Anchor_REST_page`);
      // Handler::urlEncodeTitle: `:` and `@` stay, `+` and `/` are encoded (as MediaWiki's Creation.js expects).
      const oddTitle = await postPage(wiki, { title: 'A B+C:D@E/F ü', source: 'x', comment: 'p', token: ANON_TOKEN });
      assert.equal(oddTitle.status, 201);
      assert.equal(oddTitle.headers.get('location'), `${wiki.baseUrl}/w/rest.php/v1/page/A_B%2BC:D@E%2FF_%C3%BC`);
      const followed = await wiki.rest(new URL(oddTitle.headers.get('location')!).pathname.replace('/w/rest.php', ''));
      assert.deepEqual([followed.status, followed.json<{ key: string }>().key], [200, 'A_B+C:D@E/F_ü']);
      assert.deepEqual(Object.keys(posted.json()), Object.keys(await goldenBody('rest_post_page.http')));
      const exists = await postPage(wiki, { title: 'Anchor REST page', source: 'again', comment: 'p', token: ANON_TOKEN });
      assert.equal(exists.status, 409);
      assert.deepEqual(exists.json(), await goldenBody('rest_error_409_post_exists.http'));
      const badModel = await postPage(wiki, { title: 'Model', source: 'x', comment: 'p', content_model: 'nope', token: ANON_TOKEN });
      assert.deepEqual([badModel.status, badModel.json().messageTranslations.en], [400, 'Bad content model: nope']);
    });

    test('20 concurrent edits on one base: merged or refused, nothing lost, one chain of parents', async () => {
      const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
      const base = await editJson(wiki, { title: 'Crowd', text: lines.join('\n') });
      const baseId = String(base.edit.newrevid);
      // Edits 0-14 each change their own line, two apart (diff3 merges changes that do not touch);
      // edits 15-19 all change line 1, as edit 0 does: of those six, one at most can succeed.
      const wanted = Array.from({ length: 20 }, (_, i) => (i < 15 ? { line: 2 * i + 1, value: `edit ${i}` } : { line: 1, value: `clash ${i}` }));
      const results = await Promise.all(
        wanted.map(async (w) => {
          const text = lines.map((l, j) => (j === w.line ? w.value : l)).join('\n');
          return (await edit(wiki, { title: 'Crowd', text, baserevid: baseId })).json();
        }),
      );
      const ok = results.filter((r) => r.edit?.result === 'Success');
      const refused = results.filter((r) => r.error);
      assert.equal(ok.length + refused.length, 20);
      for (const r of refused) assert.equal(r.error.code, 'editconflict');
      assert.ok(ok.length >= 14, `the non-overlapping edits succeed (got ${ok.length})`);
      assert.ok(refused.length >= 5, 'of six edits of one line, five are refused');
      const finalText = (await source(wiki, 'Crowd')).source.split('\n');
      results.forEach((r, i) => {
        if (r.edit?.result !== 'Success') return;
        const w = wanted[i]!;
        assert.equal(finalText[w.line], w.value, `edit ${i} is in the final text`);
      });
      const revs = await revisions(wiki, 'Crowd');
      assert.equal(revs.length, ok.length + 1);
      for (let k = 0; k < revs.length - 1; k++) assert.equal(revs[k]!.parentid, revs[k + 1]!.revid, 'parents form one chain');
      assert.deepEqual(new Set(ok.map((r) => r.edit.newrevid)), new Set(revs.slice(0, -1).map((r) => r.revid)));
    });
  });

  describe(`edit permissions and rate limits on ${backend}`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend, {
        GROUP_PERMISSIONS_JSON: JSON.stringify({ '*': { createpage: false } }),
        RATE_LIMITS: JSON.stringify({ edit: { ip: [3, 60] } }),
      });
    });
    after(() => wiki?.close());

    test('refusals before the save: cantcreate-anon, cantchangecontentmodel, tags-apply-no-permission', async () => {
      assert.equal((await errorCode(wiki, { title: 'New page', text: 'x' })).code, 'cantcreate-anon');
      assert.equal((await errorCode(wiki, { title: 'Main Page', text: 'x', contentmodel: 'text' })).code, 'cantchangecontentmodel');
      assert.equal((await errorCode(wiki, { title: 'Main Page', text: 'x', tags: 'any' })).code, 'tags-apply-no-permission');
      // REST (ActionModuleBasedHandler): a permission error of action=edit is a 400 naming its code.
      const info = (await errorCode(wiki, { title: 'New page', text: 'x' })).info;
      const rest = await postPage(wiki, { title: 'New page', source: 'x', comment: 'c', token: ANON_TOKEN });
      assert.equal(rest.status, 400);
      assert.deepEqual(rest.json(), { actionModuleErrorCode: 'cantcreate-anon', messageTranslations: { en: info }, httpCode: 400, httpReason: 'Bad Request' });
    });

    test('the per-IP edit limit fires in both APIs (ratelimited, then 429 with Retry-After)', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await editJson(wiki, { title: 'Main Page', appendtext: `\n${i}` })).edit.result, 'Success');
      const limited = await errorCode(wiki, { title: 'Main Page', appendtext: '\nmore' });
      assert.deepEqual([limited.code, limited.info], ['ratelimited', "You've exceeded your rate limit. Please wait some time and try again."]);
      const page = await source(wiki, 'Main Page');
      const rest = await putPage(wiki, 'Main_Page', { source: 'x', comment: 'c', latest: { id: page.latest }, token: ANON_TOKEN });
      assert.equal(rest.status, 429);
      const retryAfter = Number(rest.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal((await source(wiki, 'Main Page')).latest, page.latest, 'refused edits leave no revision');
    });
  });

  describe(`anonymous editing disabled on ${backend}`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend, { GROUP_PERMISSIONS_JSON: JSON.stringify({ '*': { edit: false } }) });
    });
    after(() => wiki?.close());

    test('an anonymous edit is permissiondenied, as MediaWiki 1.39 answers', async () => {
      const e = await errorCode(wiki, { title: 'Main Page', text: 'x' });
      assert.deepEqual([e.code, e.info], ['permissiondenied', 'The action you have requested is limited to users in the group: [[Quire:Users|Users]].']);
      const page = await source(wiki, 'Main Page');
      const rest = await putPage(wiki, 'Main_Page', { source: 'x', comment: 'c', latest: { id: page.latest }, token: ANON_TOKEN });
      assert.equal(rest.status, 400);
      assert.deepEqual(rest.json(), { actionModuleErrorCode: 'permissiondenied', messageTranslations: { en: e.info }, httpCode: 400, httpReason: 'Bad Request' });
    });
  });
}
