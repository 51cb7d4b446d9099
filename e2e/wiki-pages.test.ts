/*
 * The wiki's pages over HTTP (no browser): MediaWiki's addresses and redirects, the headers of
 * views (CSP, framing, cache validators and 304s for anonymous readers), the edit form's flows
 * (preview saves nothing, a bad token keeps the text, concurrent edits merge or are shown as a
 * conflict with both texts — never lost), raw, history, diff, info, purge, watch, and the sysop
 * actions protect and delete.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, WikiClient, type TestWiki } from './harness.js';
import { hiddenFields, withoutSkinScript } from './special-pages.js';
import { totpAt } from '@quire/auth/totp';
import { png } from './files-helpers.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#039': "'" };
const decodeEntities = (s: string) => s.replace(/&(amp|lt|gt|quot|#039);/g, (_m, e: string) => ENTITIES[e]!);
/** The message boxes of a page (what an assertion failure should show rather than the whole document). */
const messages = (html: string) => [...html.matchAll(/<div class="msg[^>]*>([\s\S]*?)<\/div>/g)].map((m) => m[1]).join(' | ') || html.slice(-1500);

/** The text of the edit form's wpTextbox1 (or another textarea). */
function textarea(html: string, name = 'wpTextbox1'): string {
  const m = new RegExp(`<textarea name="${name}"[^>]*>\\n([\\s\\S]*?)</textarea>`).exec(html);
  assert.ok(m, `a ${name} textarea`);
  return decodeEntities(m[1]!);
}

async function formLogin(wiki: TestWiki, name: string, password: string): Promise<WikiClient> {
  const c = new WikiClient(wiki.baseUrl);
  const form = await c.get('/wiki/Special:UserLogin');
  const r = await c.post('/wiki/Special:UserLogin', { ...hiddenFields(form.text), wpName: name, wpPassword: password });
  assert.equal(r.status, 302, `login of ${name}`);
  return c;
}

/** The edit form of a page, as a browser would submit it: its hidden fields. */
async function editForm(c: WikiClient, title: string, query = ''): Promise<{ fields: Record<string, string>; html: string }> {
  const r = await c.get(`/w/index.php?title=${encodeURIComponent(title)}&action=edit${query}`);
  assert.equal(r.status, 200, r.text.slice(0, 300));
  return { fields: hiddenFields(r.text), html: r.text };
}

async function latestText(c: WikiClient, title: string): Promise<string> {
  const r = await c.get(`/w/index.php?title=${encodeURIComponent(title)}&action=raw`);
  return r.text;
}

async function revisionCount(c: WikiClient, title: string): Promise<number> {
  const r = await c.get(`/w/api.php?action=query&prop=revisions&titles=${encodeURIComponent(title)}&rvlimit=max&rvprop=ids&format=json&formatversion=2`);
  return r.json().query.pages[0].revisions?.length ?? 0;
}

/** Retries `check` until it passes (link tables and page properties follow an edit through the job queue). */
async function eventually<T>(check: () => Promise<T>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

/** Saves a page through the action API with the client's session (setting up what a test reads). */
async function apiEdit(c: WikiClient, title: string, text: string): Promise<void> {
  const token = (await c.api({ action: 'query', meta: 'tokens' })).json().query.tokens.csrftoken as string;
  const r = await c.post('/w/api.php', { format: 'json', action: 'edit', title, text, token, summary: 'setup' });
  assert.equal(r.json().edit?.result, 'Success', r.text.slice(0, 300));
}

describe('wiki pages over HTTP', () => {
  let wiki: TestWiki;
  let alice: WikiClient;
  let bob: WikiClient;
  let admin: WikiClient;
  const anon = () => new WikiClient(wiki.baseUrl);

  before(async () => {
    wiki = await startWiki('embedded', { CONTENT_JOB_POLL_MS: '50' });
    const quiet = () => undefined;
    await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, quiet);
    await runAdmin(['createAndPromote', 'Bob', 'bobpass1234567'], wiki.testEnv.env, quiet);
    await runAdmin(['createAndPromote', 'Sysadmin', 'sysadminpass1234', '--groups', 'sysop'], wiki.testEnv.env, quiet);
    [alice, bob, admin] = await Promise.all([formLogin(wiki, 'Alice', 'alicepass123456'), formLogin(wiki, 'Bob', 'bobpass1234567'), formLogin(wiki, 'Sysadmin', 'sysadminpass1234')]);
  });
  after(async () => {
    await wiki?.close();
  });

  test('addresses: / and other spellings redirect to the canonical view; missing 404 with a create link; bad titles 400', async () => {
    const c = anon();
    const root = await c.get('/');
    assert.equal(root.status, 301);
    assert.equal(root.headers.get('location'), '/wiki/Main_Page');
    const spaced = await c.get('/wiki/Main%20Page');
    assert.equal(spaced.status, 301);
    assert.equal(spaced.headers.get('location'), '/wiki/Main_Page');
    // First-letter case only: main_page is Main_page, another (missing) page.
    assert.equal((await c.get('/wiki/main_page')).headers.get('location'), '/wiki/Main_page');
    for (const path of ['/wiki/Main_Page', '/w/index.php?title=Main_Page', '/w/index.php', '/w/index.php?title=Main_Page&action=view']) {
      const r = await c.get(path);
      assert.equal(r.status, 200, path);
      assert.match(r.text, /<h1 id="firstHeading">(?:<span class="mw-page-title-main">)?Main Page(?:<\/span>)?<\/h1>/, path);
      assert.match(r.text, /id="ca-edit"/);
      assert.match(r.text, /id="pt-login"/);
      assert.match(r.text, /id="n-randompage"/);
    }
    const missing = await c.get('/wiki/No_such_page_here');
    assert.equal(missing.status, 404);
    assert.match(missing.text, /href="\/w\/index\.php\?title=No_such_page_here&amp;action=edit" id="create-this-page"/);
    const bad = await c.get('/wiki/A%5Bb%5D');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /Bad title/);
    const noAction = await c.get('/w/index.php?title=Main_Page&action=nonsense');
    assert.equal(noAction.status, 404);
    assert.match(noAction.text, /No such action/);
  });

  test("views: CSP with the skin's script only, no framing, MediaWiki cache headers and 304 for anonymous readers", async () => {
    const c = anon();
    const r = await c.get('/wiki/Main_Page', { cookies: false });
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /(?:^|; )script-src 'self';/, 'scripts from the wiki only: no inline script, no eval');
    assert.doesNotMatch(csp, /unsafe-eval|script-src[^;]*unsafe-inline/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
    assert.equal(r.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
    assert.equal(r.headers.get('expires'), 'Thu, 01 Jan 1970 00:00:00 GMT');
    assert.match(r.headers.get('vary') ?? '', /Cookie/);
    const lastModified = r.headers.get('last-modified');
    assert.ok(lastModified, 'Last-Modified of the page');
    const again = await c.get('/wiki/Main_Page', { cookies: false, headers: { 'if-modified-since': lastModified } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    const stale = await c.get('/wiki/Main_Page', { cookies: false, headers: { 'if-modified-since': 'Thu, 01 Jan 2004 00:00:00 GMT' } });
    assert.equal(stale.status, 200);
    // Logged-in views are never answered 304 from a page time alone (their skin differs).
    const mine = await alice.get('/wiki/Main_Page', { headers: { 'if-modified-since': lastModified } });
    assert.equal(mine.status, 200);
    assert.equal(mine.headers.get('last-modified'), null);
  });

  test('edit: preview and show changes save nothing; save redirects to the page; a bad token keeps the text', async () => {
    const { fields, html } = await editForm(alice, 'Form page');
    for (const name of ['wpEditToken', 'wpStarttime', 'editRevId', 'wpSection', 'wpUltimateParam', 'wpUnicodeCheck', 'model', 'format']) assert.ok(name in fields, name);
    assert.equal(fields.editRevId, '0');
    assert.match(html, /<h1 id="firstHeading">Creating Form page<\/h1>/);
    assert.equal(html.match(/Cache-Control/i), null);
    const text = "Line one.\n\nLine two with '''bold'''.";
    const preview = await alice.post('/w/index.php?title=Form_page&action=submit', { ...fields, wpTextbox1: text, wpSummary: 'first', wpPreview: 'Show preview' });
    assert.equal(preview.status, 200);
    assert.match(preview.text, /id="wikiPreview"[\s\S]*<b>bold<\/b>/);
    assert.equal(textarea(preview.text), text);
    assert.equal(await revisionCount(alice, 'Form page'), 0);
    const badToken = await alice.post('/w/index.php?title=Form_page&action=submit', { ...fields, wpEditToken: 'nope+\\', wpTextbox1: text, wpSave: 'Save' });
    assert.match(badToken.text, /problem with your login session/);
    assert.equal(textarea(badToken.text), text, 'the text survives a session failure');
    assert.equal(await revisionCount(alice, 'Form page'), 0);
    const saved = await alice.post('/w/index.php?title=Form_page&action=submit', { ...fields, wpTextbox1: text, wpSummary: 'first', wpSave: 'Save page' });
    assert.equal(saved.status, 302);
    assert.equal(saved.headers.get('location'), '/wiki/Form_page');
    assert.equal(await latestText(alice, 'Form page'), text);
    const again = await editForm(alice, 'Form page');
    assert.equal(textarea(again.html), text);
    const diff = await alice.post('/w/index.php?title=Form_page&action=submit', { ...again.fields, wpTextbox1: text.replace('one', 'uno'), wpDiff: 'Show changes' });
    assert.match(diff.text, /id="wikiDiff"[\s\S]*diff-addedline[\s\S]*uno/);
    assert.equal(await revisionCount(alice, 'Form page'), 1);
  });

  test('edit conflicts: other lines merge; the same line is shown as a conflict with both texts, and the resubmission saves', async () => {
    const base = 'alpha\n\nbeta\n\ngamma';
    const first = await editForm(alice, 'Conflict page');
    assert.equal((await alice.post('/w/index.php?title=Conflict_page&action=submit', { ...first.fields, wpTextbox1: base, wpSave: 'Save' })).status, 302);

    const a = await editForm(alice, 'Conflict page');
    const b = await editForm(bob, 'Conflict page');
    assert.equal((await alice.post('/w/index.php?title=Conflict_page&action=submit', { ...a.fields, wpTextbox1: 'ALPHA\n\nbeta\n\ngamma', wpSave: 'Save' })).status, 302);
    const merged = await bob.post('/w/index.php?title=Conflict_page&action=submit', { ...b.fields, wpTextbox1: 'alpha\n\nbeta\n\nGAMMA', wpSave: 'Save' });
    assert.equal(merged.status, 302, 'different lines merge');
    assert.equal(await latestText(alice, 'Conflict page'), 'ALPHA\n\nbeta\n\nGAMMA');

    const a2 = await editForm(alice, 'Conflict page');
    const b2 = await editForm(bob, 'Conflict page');
    assert.equal((await alice.post('/w/index.php?title=Conflict_page&action=submit', { ...a2.fields, wpTextbox1: 'ALPHA\n\nbeta by Alice\n\nGAMMA', wpSave: 'Save' })).status, 302);
    const bobsText = 'ALPHA\n\nbeta by Bob\n\nGAMMA';
    const conflict = await bob.post('/w/index.php?title=Conflict_page&action=submit', { ...b2.fields, wpTextbox1: bobsText, wpSave: 'Save' });
    assert.equal(conflict.status, 200);
    assert.match(conflict.text, /<h1 id="firstHeading">Edit conflict: Conflict page<\/h1>/);
    assert.equal(textarea(conflict.text), 'ALPHA\n\nbeta by Alice\n\nGAMMA', 'the current text to merge into');
    assert.equal(textarea(conflict.text, 'wpTextbox2'), bobsText, "Bob's text is kept");
    assert.equal(await latestText(alice, 'Conflict page'), 'ALPHA\n\nbeta by Alice\n\nGAMMA', 'nothing was overwritten');
    const resubmit = hiddenFields(conflict.text);
    const done = await bob.post('/w/index.php?title=Conflict_page&action=submit', { ...resubmit, wpTextbox1: 'ALPHA\n\nbeta by Alice and Bob\n\nGAMMA', wpSave: 'Save' });
    assert.equal(done.status, 302);
    assert.equal(await latestText(alice, 'Conflict page'), 'ALPHA\n\nbeta by Alice and Bob\n\nGAMMA');

    // Two new-page forms: the second is a conflict, not an overwrite.
    const n1 = await editForm(alice, 'Born twice');
    const n2 = await editForm(bob, 'Born twice');
    assert.equal((await alice.post('/w/index.php?title=Born_twice&action=submit', { ...n1.fields, wpTextbox1: 'by Alice', wpSave: 'Save' })).status, 302);
    const second = await bob.post('/w/index.php?title=Born_twice&action=submit', { ...n2.fields, wpTextbox1: 'by Bob', wpSave: 'Save' });
    assert.match(second.text, /Edit conflict/);
    assert.equal(textarea(second.text, 'wpTextbox2'), 'by Bob');
    assert.equal(await latestText(alice, 'Born twice'), 'by Alice');
  });

  test('history undo links; the undo form has the undone text, the undo summary, the notice and the diff; saving tags mw-undo', async () => {
    await apiEdit(admin, 'Undo page', 'Line one.\n\nLine two.\n\nLine three.');
    await apiEdit(bob, 'Undo page', 'Line one by Bob.\n\nLine two.\n\nLine three.');
    await apiEdit(admin, 'Undo page', 'Line one by Bob.\n\nLine two.\n\nLine three by Alice.');
    const revs = (await admin.api({ action: 'query', prop: 'revisions', titles: 'Undo page', rvlimit: 'max', rvprop: 'ids', formatversion: '2' })).json().query.pages[0].revisions as {
      revid: number;
      parentid: number;
    }[];
    const [latest, bobs, first] = revs;
    assert.ok(latest && bobs && first);
    const history = await admin.get('/w/index.php?title=Undo_page&action=history');
    const undoLinks = [...history.text.matchAll(/<span class="mw-changeslist-links"><span><span class="mw-history-undo"><a href="([^"]+)"[^>]*>undo<\/a><\/span><\/span><\/span>/g)].map((m) =>
      decodeEntities(m[1]!),
    );
    assert.deepEqual(undoLinks, [
      `/w/index.php?title=Undo_page&action=edit&undoafter=${bobs.revid}&undo=${latest.revid}`,
      `/w/index.php?title=Undo_page&action=edit&undoafter=${first.revid}&undo=${bobs.revid}`,
    ]);
    // Bob's edit, not the latest: merged out of the current text.
    const form = await editForm(admin, 'Undo page', `&undoafter=${first.revid}&undo=${bobs.revid}`);
    assert.equal(textarea(form.html), 'Line one.\n\nLine two.\n\nLine three by Alice.');
    assert.equal(form.fields.wpUndidRevision, String(bobs.revid));
    assert.equal(form.fields.wpUndoAfter, String(first.revid));
    assert.match(form.html, /<div class="mw-undo-success"><p>The edit can be undone\.\nPlease check the comparison below/);
    assert.match(form.html, /id="wikiDiff"[\s\S]*diff-deletedline[\s\S]*by Bob[\s\S]*diff-addedline/);
    const summary = /<input type="text" name="wpSummary"[^>]*value="([^"]*)"/.exec(form.html)?.[1];
    assert.equal(decodeEntities(summary ?? ''), `Undo revision ${bobs.revid} by [[Special:Contributions/Bob|Bob]] ([[User talk:Bob|talk]])`);
    const saved = await admin.post('/w/index.php?title=Undo_page&action=submit', {
      ...form.fields,
      wpTextbox1: textarea(form.html),
      wpSummary: decodeEntities(summary ?? ''),
      wpSave: 'Save changes',
    });
    assert.equal(saved.status, 302, messages(saved.text));
    assert.equal(await latestText(admin, 'Undo page'), 'Line one.\n\nLine two.\n\nLine three by Alice.');
    const top = (await admin.api({ action: 'query', prop: 'revisions', titles: 'Undo page', rvprop: 'ids|tags|comment', formatversion: '2' })).json().query.pages[0].revisions[0];
    assert.deepEqual(top.tags, ['mw-undo']);
    assert.equal(top.comment, `Undo revision ${bobs.revid} by [[Special:Contributions/Bob|Bob]] ([[User talk:Bob|talk]])`);
    // A revision that is not the page's: undo-norev above the current text.
    const bogus = await editForm(admin, 'Undo page', '&undoafter=1&undo=999999');
    assert.match(bogus.html, /class="error mw-undo-norev"><p>The edit could not be undone because it does not exist or was deleted\./);
    assert.equal(textarea(bogus.html), 'Line one.\n\nLine two.\n\nLine three by Alice.');
  });

  test('the skin: an icon at /favicon.ico, and the footer links to the project pages', async () => {
    const icon = await anon().get('/favicon.ico');
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/x-icon');
    const page = await anon().get('/wiki/Special:RecentChanges');
    assert.match(page.text, /<link rel="icon" href="\/favicon.ico">/);
    assert.match(page.text, /<li id="footer-places-privacy"><a href="\/wiki\/Project:Privacy_policy">Privacy policy<\/a><\/li>/);
    const about = await anon().get('/wiki/Project:About');
    assert.ok(about.status === 404 || about.status === 301 || about.status === 302, `the About link is a page address (${about.status})`);
  });

  test('file pages: File history with thumbnails, the upload link for those who may, File usage', async () => {
    const upload = async (bytes: Buffer, comment: string) => {
      const token = (await admin.api({ action: 'query', meta: 'tokens' })).json().query.tokens.csrftoken as string;
      const r = await admin.postMultipart('/w/api.php', {
        action: 'upload',
        format: 'json',
        filename: 'History pic.png',
        comment,
        ignorewarnings: '1',
        file: new File([new Uint8Array(bytes)], 'History pic.png', { type: 'application/octet-stream' }),
        token,
      });
      assert.equal(r.json().upload?.result, 'Success', r.text.slice(0, 300));
    };
    await upload(png(300, 150, 3), 'first version');
    await upload(png(60, 40, 5), 'second version');
    await apiEdit(admin, 'Uses the pic', '[[File:History pic.png|thumb|a picture]]');
    const page = await eventually(async () => {
      const r = await admin.get('/wiki/File:History_pic.png');
      assert.match(r.text, /The following page uses this file:/);
      return r.text;
    });
    assert.match(page, /<p>Click on a date\/time to view the file as it appeared at that time\.<\/p>/);
    const rows = [
      ...page.matchAll(/<tr><td>(current)?<\/td><td[^>]*><a href="([^"]+)">[^<]+<\/a><\/td><td>(<a [^>]*><img [^>]*><\/a>)?<\/td><td>([^<]*)<\/td>[\s\S]*?<td dir="ltr">([^<]*)<\/td><\/tr>/g),
    ];
    assert.deepEqual(
      rows.map((m) => [m[1] ?? '', m[4], m[5]]),
      [
        ['current', '60 × 40 (' + png(60, 40, 5).length + ' bytes)', 'second version'],
        ['', '300 × 150 (' + png(300, 150, 3).length + ' bytes)', 'first version'],
      ],
    );
    assert.match(rows[1]![3] ?? '', /width="120" height="60"/, 'a thumbnail 120px wide');
    assert.match(rows[1]![2] ?? '', /^\/w\/images\/archive\//, 'an old version links to its archived file');
    assert.match(
      page,
      /<p class="plainlinks" id="mw-imagepage-reupload-link"><a class="external text" href="\/w\/index\.php\?title=Special:Upload&amp;wpDestFile=History_pic\.png&amp;wpForReUpload=1">Upload a new version of this file<\/a><\/p>/,
    );
    assert.match(
      page,
      /<h2 id="filelinks">File usage<\/h2>\s*<div id="mw-imagepage-section-linkstoimage"><p>The following page uses this file:<\/p><ul class="mw-imagepage-linkstoimage"><li class="mw-imagepage-linkstoimage-ns0"><a href="\/wiki\/Uses_the_pic">Uses the pic<\/a><\/li><\/ul>/,
    );
    const asReader = (await anon().get('/wiki/File:History_pic.png')).text;
    assert.match(asReader, /<p id="mw-imagepage-upload-disallowed">You cannot overwrite this file\.<\/p>/);
  });

  test('preferences: signature, date format, time zone and editing defaults are saved as options and set the edit form', async () => {
    await runAdmin(['createAndPromote', 'Carol', 'carolpass123456'], wiki.testEnv.env, () => undefined);
    const carol = await formLogin(wiki, 'Carol', 'carolpass123456');
    await apiEdit(carol, 'Carol page', 'Text.');
    const before = await editForm(carol, 'Carol page');
    assert.match(before.html, /name="wpWatchthis" id="wpWatchthis" value="1" checked/, 'watchdefault is on by default');
    assert.doesNotMatch(before.html, /name="wpMinoredit" id="wpMinoredit" value="1" checked/);
    const form = await carol.get('/wiki/Special:Preferences');
    for (const name of ['wpnickname', 'wpfancysig', 'wpdate', 'wptimecorrection', 'wpminordefault', 'wpwatchdefault', 'wpwatchcreations']) assert.match(form.text, new RegExp(`name="${name}"`), name);
    const signature = "[[User:Carol|'''Carol''']]";
    const saved = await carol.post('/wiki/Special:Preferences', {
      ...hiddenFields(form.text),
      op: 'options',
      wpnickname: signature,
      wpfancysig: '1',
      wpdate: 'ISO 8601',
      wptimecorrection: 'Offset|120',
      wpminordefault: '1',
      wpwatchcreations: '1',
    });
    assert.match(saved.text, /Your preferences have been saved\./);
    assert.match(saved.text, /<option value="Offset\|120" selected>UTC\+02:00<\/option>/);
    assert.match(saved.text, /<input type="radio" name="wpdate" value="ISO 8601" checked>/);
    const opts = (await carol.api({ action: 'query', meta: 'userinfo', uiprop: 'options', formatversion: '2' })).json().query.userinfo.options;
    assert.deepEqual(
      [opts.nickname, opts.fancysig, opts.date, opts.timecorrection, opts.minordefault, opts.watchdefault, opts.watchcreations],
      [signature, '1', 'ISO 8601', 'Offset|120', '1', '0', 1],
    );
    await apiEdit(admin, 'Page Carol never edited', 'Text.');
    const after = await editForm(carol, 'Page Carol never edited');
    assert.match(after.html, /name="wpMinoredit" id="wpMinoredit" value="1" checked/, 'minordefault');
    assert.doesNotMatch(after.html, /name="wpWatchthis" id="wpWatchthis" value="1" checked/, 'watchdefault off, and the page not watched');
    const created = await editForm(carol, 'Carol new page');
    assert.match(created.html, /name="wpWatchthis" id="wpWatchthis" value="1" checked/, 'watchcreations');
    assert.doesNotMatch(created.html, /name="wpMinoredit" id="wpMinoredit" value="1" checked/, 'a new page is never minor');
    const tooLong = await carol.post('/wiki/Special:Preferences', { ...hiddenFields(saved.text), op: 'options', wpnickname: 'x'.repeat(256) });
    assert.match(tooLong.text, /Your signature is too long\. It must not be more than 255 characters long\./);
  });

  test('a new blank page is saved only when saved again after the warning (blankarticle)', async () => {
    const f = await editForm(alice, 'Blank start');
    const first = await alice.post('/w/index.php?title=Blank_start&action=submit', { ...f.fields, wpTextbox1: '  \n', wpSave: 'Save' });
    assert.equal(first.status, 200);
    assert.match(first.text, /<div id="mw-blankarticle">[\s\S]*The page you are creating is blank/);
    assert.equal((await alice.get('/w/index.php?title=Blank_start&action=raw')).status, 404, 'not created yet');
    const again = await alice.post('/w/index.php?title=Blank_start&action=submit', { ...hiddenFields(first.text), wpTextbox1: '', wpSave: 'Save' });
    assert.equal(again.status, 302);
    const raw = await alice.get('/w/index.php?title=Blank_start&action=raw');
    assert.equal(raw.status, 200);
    assert.equal(raw.text, '');
  });

  test('section editing and new sections', async () => {
    const f = await editForm(alice, 'Sections page');
    await alice.post('/w/index.php?title=Sections_page&action=submit', { ...f.fields, wpTextbox1: 'Intro\n\n== One ==\nfirst\n\n== Two ==\nsecond', wpSave: 'Save' });
    const s2 = await editForm(alice, 'Sections page', '&section=2');
    assert.equal(textarea(s2.html), '== Two ==\nsecond');
    assert.equal(s2.fields.wpSection, '2');
    assert.match(s2.html, /name="wpSummary" id="wpSummary" maxlength="500" value="\/\* Two \*\/ "/);
    const saved = await alice.post('/w/index.php?title=Sections_page&action=submit', { ...s2.fields, wpTextbox1: '== Two ==\nsecond, edited', wpSummary: '/* Two */ edited', wpSave: 'Save' });
    assert.equal(saved.status, 302);
    // The editor lands on the section edited (EditPage::guessSectionName).
    assert.match(saved.headers.get('location') ?? '', /\/wiki\/Sections_page#Two$/);
    assert.equal(await latestText(alice, 'Sections page'), 'Intro\n\n== One ==\nfirst\n\n== Two ==\nsecond, edited');
    const nw = await editForm(alice, 'Sections page', '&section=new');
    const added = await alice.post('/w/index.php?title=Sections_page&action=submit', { ...nw.fields, wpSummary: "Three [[Link|o'clock]]", wpTextbox1: 'third', wpSave: 'Save' });
    assert.equal(added.status, 302);
    assert.match(added.headers.get('location') ?? '', /\/wiki\/Sections_page#Three_o%27clock$/);
    assert.equal(await latestText(alice, 'Sections page'), "Intro\n\n== One ==\nfirst\n\n== Two ==\nsecond, edited\n\n== Three [[Link|o'clock]] ==\n\nthird");
    const none = await alice.get('/w/index.php?title=Sections_page&action=edit&section=9');
    assert.equal(none.status, 200, 'MediaWiki answers "Cannot find section" with a 200');
    assert.match(none.text, /<h1 id="firstHeading">Cannot find section<\/h1>/);
    const badSection = await alice.get('/w/index.php?title=Sections_page&action=edit&section=x');
    assert.equal(badSection.status, 400);
  });

  test('Special:RecentChanges: hide my edits, registered or anonymous users, one namespace; a heading per day', async () => {
    const mine = await editForm(alice, 'Rc mine');
    await alice.post('/w/index.php?title=Rc_mine&action=submit', { ...mine.fields, wpTextbox1: 'mine', wpSave: 'Save' });
    const talk = await editForm(alice, 'Talk:Rc mine');
    await alice.post('/w/index.php?title=Talk:Rc_mine&action=submit', { ...talk.fields, wpTextbox1: 'talk', wpSave: 'Save' });
    const stranger = anon();
    const theirs = await editForm(stranger, 'Rc anon');
    assert.equal((await stranger.post('/w/index.php?title=Rc_anon&action=submit', { ...theirs.fields, wpTextbox1: 'anon', wpSave: 'Save' })).status, 302);
    const listed = async (query: string) => {
      const r = await alice.get(`/w/index.php?title=Special:RecentChanges&days=1&limit=500${query}`);
      assert.equal(r.status, 200);
      return ['Rc mine', 'Talk:Rc mine', 'Rc anon'].filter((t) => r.text.includes(`class="mw-changeslist-title">${t}</a>`));
    };
    assert.deepEqual(await listed(''), ['Rc mine', 'Talk:Rc mine', 'Rc anon']);
    assert.deepEqual(await listed('&hidemyself=1'), ['Rc anon']);
    assert.deepEqual(await listed('&hideanons=1'), ['Rc mine', 'Talk:Rc mine']);
    assert.deepEqual(await listed('&hideliu=1'), ['Rc anon']);
    assert.deepEqual(await listed('&hideliu=1&hideanons=1'), []);
    assert.deepEqual(await listed('&namespace=1'), ['Talk:Rc mine']);
    const page = await alice.get('/w/index.php?title=Special:RecentChanges&days=1');
    const d = new Date();
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
    assert.match(page.text, new RegExp(`<h4>${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}</h4><ul class="special list mw-changeslist">`));
    assert.match(page.text, /hidemyself=1/, 'the toggle links');
  });

  test('raw with ctype, history with paging, diff, old revision, info', async () => {
    for (let i = 1; i <= 4; i++) {
      const f = await editForm(alice, 'History page');
      await alice.post('/w/index.php?title=History_page&action=submit', { ...f.fields, wpTextbox1: `version ${i}`, wpSummary: `edit ${i}`, wpSave: 'Save' });
    }
    const c = anon();
    const raw = await c.get('/w/index.php?title=History_page&action=raw');
    assert.equal(raw.headers.get('content-type'), 'text/x-wiki; charset=UTF-8');
    assert.equal(raw.text, 'version 4');
    assert.equal(raw.headers.get('cache-control'), 'public, s-maxage=0, max-age=18000', "RawAction's, as the reference wiki sends");
    assert.match((await alice.get('/w/index.php?title=History_page&action=raw&maxage=60')).headers.get('cache-control') ?? '', /^private, s-maxage=0, max-age=60$/);
    assert.equal((await c.get('/w/index.php?title=History_page&action=raw&ctype=text/css')).status, 403, 'wikitext is not served as a stylesheet');
    assert.equal((await c.get('/w/index.php?title=History_page&action=raw&ctype=text/x-wiki')).status, 200);
    assert.equal((await c.get('/w/index.php?title=Not_there_at_all&action=raw')).status, 404);

    const history = await c.get('/w/index.php?title=History_page&action=history&limit=2');
    assert.equal(history.status, 200);
    assert.equal(history.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
    const ids = [...history.text.matchAll(/<li data-mw-revid="(\d+)">/g)].map((m) => Number(m[1]));
    assert.equal(ids.length, 2);
    assert.match(history.text, /name="oldid" value="\d+"/);
    const older = /href="([^"]*offset=\d+[^"]*)" class="mw-nextlink"/.exec(history.text);
    assert.ok(older, 'a link to older revisions');
    const page2 = await c.get(decodeEntities(older[1]!));
    const ids2 = [...page2.text.matchAll(/<li data-mw-revid="(\d+)">/g)].map((m) => Number(m[1]));
    assert.equal(ids2.length, 2);
    assert.ok(Math.max(...ids2) < Math.min(...ids), 'older ones');

    const diff = await c.get(`/w/index.php?title=History_page&diff=${ids[0]}&oldid=${ids2[1]}`);
    assert.equal(diff.status, 200);
    assert.match(diff.text, /<table class="diff/);
    assert.match(diff.text, /diff-deletedline[\s\S]*>1<[\s\S]*diff-addedline[\s\S]*>4</);
    const prev = await c.get(`/w/index.php?title=History_page&diff=prev&oldid=${ids[0]}`);
    assert.match(prev.text, /id="differences-prevlink"/);
    const old = await c.get(`/w/index.php?title=History_page&oldid=${ids2[1]}`);
    assert.match(old.text, /id="mw-revision-info"/);
    assert.match(old.text, /version 1/);
    assert.match(old.headers.get('cache-control') ?? '', /private/);
    const info = await c.get('/w/index.php?title=History_page&action=info');
    assert.match(info.text, /<tr id="mw-pageinfo-edits"><th>Total number of edits<\/th><td>4<\/td><\/tr>/);
  });

  test('purge and watch need a POST with the token', async () => {
    const purgeForm = await alice.get('/w/index.php?title=Main_Page&action=purge');
    assert.equal(purgeForm.status, 200);
    assert.match(purgeForm.text, /Purge the cache of this page\?/);
    const purged = await alice.post('/w/index.php?title=Main_Page&action=purge', hiddenFields(purgeForm.text));
    assert.equal(purged.status, 302);
    const watchForm = await alice.get('/w/index.php?title=Main_Page&action=watch');
    const forged = await alice.post('/w/index.php?title=Main_Page&action=watch', { wpEditToken: 'x' });
    assert.equal(forged.status, 400);
    const watched = await alice.post('/w/index.php?title=Main_Page&action=watch', hiddenFields(watchForm.text));
    assert.match(watched.text, /added to your watchlist/);
    assert.match(watched.text, /id="ca-unwatch"/);
    const list = await alice.get('/wiki/Special:Watchlist');
    assert.match(list.text, /You have 1 page on your watchlist/, list.text.slice(list.text.indexOf('<div id="bodyContent">'), list.text.indexOf('<div id="bodyContent">') + 500));
    assert.equal((await anon().get('/w/index.php?title=Main_Page&action=watch')).status, 302, 'anonymous: to the login form');
  });

  test('sysop: protect makes the edit form a "view source" for others; delete removes the page', async () => {
    const f = await editForm(alice, 'Guarded page');
    await alice.post('/w/index.php?title=Guarded_page&action=submit', { ...f.fields, wpTextbox1: 'guarded text', wpSave: 'Save' });
    assert.equal((await alice.get('/w/index.php?title=Guarded_page&action=protect')).text.includes('mw-Protect-submit'), false, 'no protect right: settings only');
    const pf = await admin.get('/w/index.php?title=Guarded_page&action=protect');
    const protectedR = await admin.post('/w/index.php?title=Guarded_page&action=protect', {
      ...hiddenFields(pf.text),
      'mwProtect-level-edit': 'sysop',
      'mwProtect-expiry-edit': 'infinite',
      'mwProtect-level-move': 'sysop',
      'mwProtect-expiry-move': 'infinite',
      'mwProtect-reason': 'test',
    });
    assert.match(decodeEntities(protectedR.text), /protection level of "Guarded page" has been changed/, messages(protectedR.text));
    const viewSource = await alice.get('/w/index.php?title=Guarded_page&action=edit');
    assert.equal(viewSource.status, 403);
    assert.match(viewSource.text, /View source for Guarded page/);
    assert.equal(textarea(viewSource.text), 'guarded text');
    const sysopForm = await admin.get('/w/index.php?title=Guarded_page&action=edit');
    assert.match(sysopForm.text, /only users with administrator rights can edit it/);

    assert.equal((await alice.get('/w/index.php?title=Guarded_page&action=delete')).status, 403);
    const df = await admin.get('/w/index.php?title=Guarded_page&action=delete');
    const deleted = await admin.post('/w/index.php?title=Guarded_page&action=delete', { ...hiddenFields(df.text), wpReason: 'cleanup', wpConfirmB: 'Delete page' });
    assert.match(decodeEntities(deleted.text), /"Guarded page" has been deleted/);
    assert.equal((await anon().get('/wiki/Guarded_page')).status, 404);
  });

  test('hostile content and titles stay inert: no javascript: URL, no script, titles escaped', async () => {
    const f = await editForm(alice, 'Hostile page');
    await alice.post('/w/index.php?title=Hostile_page&action=submit', {
      ...f.fields,
      wpTextbox1: '[javascript:alert(1) click] <script>alert(2)</script> [[<b>x</b>]]',
      wpSummary: '<img src=x onerror=alert(3)>',
      wpSave: 'Save',
    });
    for (const path of ['/wiki/Hostile_page', '/w/index.php?title=Hostile_page&action=history', '/wiki/Special:RecentChanges', '/w/index.php?title=Hostile_page&action=edit']) {
      const r = await alice.get(path);
      assert.doesNotMatch(r.text, /href="javascript:/i, path);
      assert.doesNotMatch(withoutSkinScript(r.text), /<script/i, path);
      assert.doesNotMatch(r.text, /<img src=x/i, path);
    }
    const search = await anon().get('/w/index.php?title=Special:Search&search=%3Cscript%3Ealert(1)%3C/script%3E&fulltext=1');
    assert.doesNotMatch(search.text, /<script>alert/);
  });

  test('sysop pages: MovePage, Undelete, Block (a blocked user sees the block on the edit form)', async () => {
    const f = await editForm(admin, 'Moved source');
    await admin.post('/w/index.php?title=Moved_source&action=submit', { ...f.fields, wpTextbox1: 'moving text', wpSave: 'Save' });
    const mf = await admin.get('/wiki/Special:MovePage/Moved_source');
    assert.equal(mf.status, 200);
    const moved = await admin.post('/wiki/Special:MovePage', {
      ...hiddenFields(mf.text),
      wpNewTitleNs: '0',
      wpNewTitleMain: 'Moved target',
      wpReason: 'rename',
      wpLeaveRedirect: '1',
      wpMovetalk: '1',
    });
    assert.match(decodeEntities(moved.text), /has been moved to/, messages(moved.text));
    assert.equal(await latestText(anon(), 'Moved target'), 'moving text');
    assert.match(await latestText(anon(), 'Moved source'), /^#REDIRECT \[\[Moved target\]\]/);
    const followed = await anon().get('/wiki/Moved_source');
    assert.match(followed.text, /Redirected from/);
    assert.match(followed.text, /moving text/);

    const df = await admin.get('/w/index.php?title=Moved_target&action=delete');
    await admin.post('/w/index.php?title=Moved_target&action=delete', { ...hiddenFields(df.text), wpReason: 'gone' });
    assert.equal((await anon().get('/wiki/Moved_target')).status, 404);
    const uf = await admin.get('/wiki/Special:Undelete/Moved_target');
    assert.match(uf.text, /moving text|Page history/);
    const restored = await admin.post('/wiki/Special:Undelete/Moved_target', { ...hiddenFields(uf.text), wpComment: 'back' });
    assert.match(restored.text, /restored/, messages(restored.text));
    assert.equal(await latestText(anon(), 'Moved target'), 'moving text');
    assert.equal((await alice.get('/wiki/Special:Undelete')).status, 403);

    const bf = await admin.get('/wiki/Special:Block/Bob');
    const blocked = await admin.post('/wiki/Special:Block', { ...hiddenFields(bf.text), wpTarget: 'Bob', wpExpiry: '1 day', wpReason: 'testing blocks' });
    assert.match(blocked.text, /Bob<\/a> has been blocked/, messages(blocked.text));
    const bobForm = await bob.get('/w/index.php?title=Main_Page&action=edit');
    assert.equal(bobForm.status, 403);
    assert.match(bobForm.text, /has been blocked[\s\S]*testing blocks/);
    assert.equal((await alice.get('/wiki/Special:Block')).status, 403);
  });

  test('preferences: change the password with the current one', async () => {
    const prefs = await alice.get('/wiki/Special:Preferences');
    assert.match(prefs.text, /Alice/);
    assert.equal((await anon().get('/wiki/Special:Preferences')).status, 302);
    const form = await alice.get('/wiki/Special:ChangePassword');
    const wrong = await alice.post('/wiki/Special:ChangePassword', { ...hiddenFields(form.text), wpPassword: 'not-the-password', password: 'alicenewpass123456', retype: 'alicenewpass123456' });
    assert.match(wrong.text, /current password is incorrect/);
    const ok = await alice.post('/wiki/Special:ChangePassword', { ...hiddenFields(form.text), wpPassword: 'alicepass123456', password: 'alicenewpass123456', retype: 'alicenewpass123456' });
    assert.match(ok.text, /Your password has been changed/, messages(ok.text));
    await formLogin(wiki, 'Alice', 'alicenewpass123456');
    assert.match((await alice.get('/wiki/Main_Page')).text, /id="pt-userpage"/, 'the session survives');
  });

  test('preferences: the email address is set, shown and removed with the password (Special:ChangeEmail)', async () => {
    await runAdmin(['createAndPromote', 'Erin', 'erinpass12345678'], wiki.testEnv.env, () => undefined);
    const erin = await formLogin(wiki, 'Erin', 'erinpass12345678');
    assert.match((await erin.get('/wiki/Special:Preferences')).text, /<td id="mw-pref-email"><a href="\/wiki\/Special:ChangeEmail" id="mw-pref-change-email">Set an email address<\/a>/);
    assert.equal((await anon().get('/wiki/Special:ChangeEmail')).status, 302, 'anonymous visitors are sent to log in');
    const form = await erin.get('/wiki/Special:ChangeEmail');
    assert.match(form.text, /Current email address: <span id="mw-changeemail-current">\(none\)<\/span>/);
    const change = (fields: Record<string, string>) => erin.post('/wiki/Special:ChangeEmail', { ...hiddenFields(form.text), ...fields });
    assert.match((await change({ wpNewEmail: 'erin@example.org', wpPassword: 'not-the-password' })).text, /Incorrect password entered/);
    assert.match((await change({ wpNewEmail: 'not an address', wpPassword: 'erinpass12345678' })).text, /invalid format/);
    assert.match((await erin.post('/wiki/Special:ChangeEmail', { wpEditToken: 'x', wpNewEmail: 'evil@example.org', wpPassword: 'erinpass12345678' })).text, /problem with your login session/);
    const userinfo = async () =>
      (await erin.get('/w/api.php?action=query&meta=userinfo&uiprop=email&format=json&formatversion=2')).json<{ query: { userinfo: { email?: string } } }>().query.userinfo.email;
    assert.equal(await userinfo(), '', 'nothing was changed by the refused forms');
    const ok = await change({ wpNewEmail: 'erin@example.org', wpPassword: 'erinpass12345678' });
    assert.match(ok.text, /Your email address has been changed/, messages(ok.text));
    assert.equal(await userinfo(), 'erin@example.org');
    assert.match((await erin.get('/wiki/Special:Preferences')).text, /<td id="mw-pref-email">erin@example.org <a[^>]*>Change or remove email address<\/a>/);
    assert.match((await change({ wpNewEmail: 'erin@example.org', wpPassword: 'erinpass12345678' })).text, /Please enter a different new email address/);
    assert.match((await change({ wpNewEmail: '', wpPassword: 'erinpass12345678' })).text, /Your email address has been removed/);
    assert.equal(await userinfo(), '');
  });

  test('preferences: two-factor enrolment shows the key once, a code confirms it, a code switches it off', async () => {
    await runAdmin(['createAndPromote', 'Carl', 'carlpass12345678'], wiki.testEnv.env, () => undefined);
    const carl = await formLogin(wiki, 'Carl', 'carlpass12345678');
    const prefs = await carl.get('/wiki/Special:Preferences');
    assert.match(prefs.text, /Status: <strong>disabled<\/strong>/);
    const enabled = await carl.post('/wiki/Special:Preferences', { ...hiddenFields(prefs.text), op: 'enable' });
    const secret = /<span class="secret" id="mw-oath-secret">([A-Z2-7]+)<\/span>/.exec(enabled.text)?.[1];
    assert.ok(secret, messages(enabled.text));
    assert.match(enabled.text, /Status: <strong>enabled<\/strong>/);
    const wrong = await carl.post('/wiki/Special:Preferences', { ...hiddenFields(enabled.text), op: 'disable', OATHToken: '000000' === totpAt(secret, Date.now() / 1000) ? '111111' : '000000' });
    assert.match(wrong.text, /The code is not valid/);
    assert.match(wrong.text, /Status: <strong>enabled<\/strong>/);
    const forged = await carl.post('/wiki/Special:Preferences', { wpEditToken: 'x', op: 'disable', OATHToken: totpAt(secret, Date.now() / 1000) });
    assert.match(forged.text, /problem with your login session/);
    const off = await carl.post('/wiki/Special:Preferences', { ...hiddenFields(wrong.text), op: 'disable', OATHToken: totpAt(secret, Date.now() / 1000) });
    assert.match(off.text, /Two-factor authentication is now off/, messages(off.text));
    assert.match(off.text, /Status: <strong>disabled<\/strong>/);
  });

  test('odd parameters and addresses: a page or a 4xx, never a 5xx', async () => {
    const c = anon();
    const cases: [string, number][] = [
      ['/wiki/%', 404],
      ['/w/index.php?title[]=x', 200],
      ['/w/index.php?title=Main_Page&oldid=abc', 200],
      ['/w/index.php?title=Main_Page&diff=abc', 200],
      ['/w/index.php?title=Main_Page&diff=999999', 404],
      ['/w/index.php?title=Main_Page&oldid=999999', 404],
      ['/w/index.php?title=Main_Page&action=history&offset=-5&limit=99999', 200],
      ['/wiki/Special:Search?search[]=a', 200],
      ['/wiki/Special:Search?search=%00&fulltext=1', 200],
      ['/wiki/Special:RecentChanges?days=abc&limit=-1', 200],
      ['/wiki/Special:Contributions/%3Cx%3E', 200],
      ['/wiki/Special:Log?type=%3Cb%3E&page=%5B%5B', 200],
      ['/wiki/Special:AllPages?namespace=999', 200],
      ['/wiki/Special:Random', 302],
      ['/w/index.php?title=Main_Page&action=raw&ctype=text/html', 200],
      ['/wiki/Talk:', 400],
      ['/w/index.php?title=Main_Page&action=edit&section=T-1', 200],
      ['/w/index.php?title=Main_Page&action=edit&section=T-99', 200],
      ['/w/index.php?title=Main_Page&action=edit&section=X-1', 400],
      ['/wiki/Special:Export?pages=%00', 200],
      ['/wiki/Special:Export/Special:Version', 200],
      // Nothing links to the Main Page: 'nolinkshere' with MediaWiki's 404.
      ['/w/index.php?title=Special:WhatLinksHere&target=Main_Page&from=0|999999999999999999999&limit=-5', 404],
      ['/w/index.php?title=Special:WhatLinksHere&target=Main_Page&offset=-3%7C999999999999999999999&dir=prev', 404],
      ['/w/index.php?title=Special:WhatLinksHere&target=Main_Page&offset=x%7C&dir=next&namespace=4', 404],
      ['/wiki/Special:WhatLinksHere/%3Cx%3E', 200],
      ['/wiki/Special:RecentChangesLinked/Special:Version', 200],
      ['/wiki/Special:Import', 302],
      ['/w/index.php?search=main+page', 302],
      ['/wiki/File:Nope.png', 404],
      ['/wiki/Category:Nope', 404],
    ];
    for (const [path, status] of cases) {
      const r = await c.get(path);
      assert.equal(r.status, status, `${path}: ${messages(r.text).slice(0, 300)}`);
    }
    const malformed = await c.request('POST', '/w/index.php', '%%%', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.ok(malformed.status < 500, String(malformed.status));
    const anonSave = await c.post('/w/index.php?title=Anon_page&action=submit', { wpTextbox1: 'x', wpSave: '1' });
    assert.equal(anonSave.status, 200, 'no token, no ultimate param: the form again');
    assert.match(anonSave.text, /problem with your login session/);
  });

  test('Special:Export: Special:Export/Title, GET pages=, POST with curonly or the full history, templates, a category added to the list', async () => {
    await apiEdit(admin, 'Template:Exported box', 'Box {{{1}}}');
    await apiEdit(admin, 'Export me', 'first [[Category:Exported]]');
    await apiEdit(admin, 'Export me', 'second {{Exported box|x}} [[Category:Exported]]');
    const c = anon();
    const form = await c.get('/wiki/Special:Export');
    assert.equal(form.status, 200);
    assert.match(form.text, /<textarea name="pages"/);
    assert.match(form.text, /name="curonly" id="curonly" value="1" checked/);
    assert.match(form.headers.get('content-security-policy') ?? '', /^default-src 'none'/);

    const one = await c.get('/wiki/Special:Export/Export_me');
    assert.equal(one.status, 200);
    assert.equal(one.headers.get('content-type'), 'application/xml; charset=utf-8');
    assert.equal(one.headers.get('x-robots-tag'), 'noindex,nofollow');
    assert.equal(one.headers.get('x-content-type-options'), 'nosniff');
    assert.match(one.text, /^<mediawiki xmlns="http:\/\/www.mediawiki.org\/xml\/export-0.11\/"/);
    assert.equal((one.text.match(/<revision>/g) ?? []).length, 1, 'a GET exports the current revision');
    assert.match(one.text, /<title>Export me<\/title>/);
    assert.match(one.text, /second \{\{Exported box\|x\}\}/);
    assert.equal(one.headers.get('content-disposition'), null);

    const history = await c.get('/w/index.php?title=Special:Export&pages=Export_me&history=1');
    assert.equal((history.text.match(/<revision>/g) ?? []).length, 2, 'history=1: every revision');

    const full = await eventually(async () => {
      const r = await c.post('/wiki/Special:Export', { pages: 'Export me\n\nNo such page here\nExport me', templates: '1', wpDownload: '1' });
      assert.equal(r.status, 200);
      assert.equal((r.text.match(/<page>/g) ?? []).length, 2, 'the page once, and its template');
      return r;
    });
    assert.equal((full.text.match(/<revision>/g) ?? []).length, 3, 'without curonly: the whole history');
    assert.match(full.text, /<title>Template:Exported box<\/title>/);
    assert.match(full.headers.get('content-disposition') ?? '', /^attachment;filename=Quire-\d{14}\.xml$/);
    const current = await c.post('/wiki/Special:Export', { pages: 'Export me', curonly: '1' });
    assert.equal((current.text.match(/<revision>/g) ?? []).length, 1);
    // As listed, not by page id (MediaWiki 1.39's WikiExporter::pagesByName): the template is the older page.
    const order = (xml: string) => [...xml.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
    for (const [how, r] of [
      ['GET', await c.get('/w/index.php?title=Special:Export&pages=Export_me%0ATemplate:Exported_box')],
      ['POST curonly', await c.post('/wiki/Special:Export', { pages: 'Export me\nTemplate:Exported box', curonly: '1' })],
      ['POST history', await c.post('/wiki/Special:Export', { pages: 'Export me\nTemplate:Exported box' })],
    ] as const)
      assert.deepEqual(order(r.text), ['Export me', 'Template:Exported box'], how);

    await eventually(async () => {
      const added = await c.post('/wiki/Special:Export', { pages: 'Main Page', catname: 'Exported', addcat: 'Add' });
      assert.equal(added.status, 200);
      assert.match(added.text, /<textarea name="pages" id="mw-input-pages" rows="10">Main Page\nExport me<\/textarea>/);
    });
    // A hostile title list is only text in the form.
    const hostile = await c.post('/wiki/Special:Export', { pages: '</textarea><script>x</script>', catname: 'Nope', addcat: 'Add' });
    assert.doesNotMatch(hostile.text, /<script>x/);
  });

  test('Special:Import: sysops upload a dump with the token; prefix, namespace mapping and summary; others are refused', async () => {
    const dump = (await anon().get('/w/index.php?title=Special:Export&pages=Export_me&history=1')).text
      .replace(/<title>Export me<\/title>/, '<title>Imported page</title>')
      .replace(/<id>\d+<\/id>/g, '<id>0</id>');
    const xml = new Blob([dump], { type: 'application/xml' });
    assert.equal((await anon().get('/wiki/Special:Import')).status, 302, 'anonymous visitors log in first');
    assert.equal((await alice.get('/wiki/Special:Import')).status, 403, 'a user without importupload');
    const form = await admin.get('/wiki/Special:Import');
    assert.equal(form.status, 200);
    assert.match(form.text, /enctype="multipart\/form-data"/);
    assert.match(form.text, /name="xmlimport"/);
    const fields = hiddenFields(form.text);
    assert.ok(fields.wpEditToken && fields.wpEditToken !== '+\\');

    const noToken = await admin.postMultipart('/w/index.php?title=Special:Import&action=submit', { source: 'upload', usernamePrefix: 'src', xmlimport: xml });
    assert.equal(noToken.status, 400);
    assert.match(noToken.text, /Loss of session data/);
    const noPrefix = await admin.postMultipart('/w/index.php?title=Special:Import&action=submit', { ...fields, xmlimport: xml });
    assert.match(noPrefix.text, /No interwiki prefix was supplied/);
    const broken = await admin.postMultipart('/w/index.php?title=Special:Import&action=submit', { ...fields, usernamePrefix: 'src', xmlimport: new Blob([dump.slice(0, dump.length / 2)]) });
    assert.equal(broken.status, 400);
    assert.match(broken.text, /Import failed: /);
    assert.equal(await revisionCount(admin, 'Quire:Imported page'), 0, 'a truncated file writes nothing');

    const ok = await admin.postMultipart('/w/index.php?title=Special:Import&action=submit', {
      ...fields,
      usernamePrefix: 'src',
      mapping: 'namespace',
      namespace: '4',
      'log-comment': 'moving in',
      xmlimport: xml,
    });
    assert.equal(ok.status, 200, messages(ok.text));
    assert.match(ok.text, /Import finished!/);
    assert.match(ok.text, /<a href="\/wiki\/Quire:Imported_page">Quire:Imported page<\/a> <bdi>2 revisions<\/bdi>/);
    const revs = (await admin.api({ action: 'query', prop: 'revisions', titles: 'Quire:Imported page', rvlimit: '50', rvprop: 'user|comment', formatversion: '2' })).json().query.pages[0]
      .revisions as { user: string; comment: string }[];
    assert.equal(revs.length, 3, 'two imported revisions and the null revision');
    assert.equal(revs[0]!.comment, '2 revisions imported: moving in');
    assert.equal(revs[1]!.user, 'src>Sysadmin');
    const log = (await admin.api({ action: 'query', list: 'logevents', letype: 'import', formatversion: '2' })).json().query.logevents as { title: string; comment: string; action: string }[];
    assert.ok(log.some((e) => e.title === 'Quire:Imported page' && e.comment === 'moving in' && e.action === 'upload'));
    const again = await admin.postMultipart('/w/index.php?title=Special:Import&action=submit', { ...fields, usernamePrefix: 'src', mapping: 'namespace', namespace: '4', xmlimport: xml });
    assert.match(again.text, /No revisions imported/);
  });

  test('sidebar tools, WhatLinksHere and Related changes', async () => {
    await apiEdit(admin, 'Linked target', 'The target.');
    await apiEdit(admin, 'Links in', 'See [[Linked target]].');
    await apiEdit(admin, 'Redirect in', '#REDIRECT [[Linked target]]');
    await apiEdit(admin, 'Through redirect', 'Via [[Redirect in]].');
    await apiEdit(admin, 'Template:Uses target', '{{:Linked target}}');
    const c = anon();
    const view = await c.get('/wiki/Linked_target');
    const latest = (await c.api({ action: 'query', titles: 'Linked target', prop: 'info', formatversion: '2' })).json().query.pages[0].lastrevid as number;
    for (const [id, href] of [
      ['t-whatlinkshere', '/wiki/Special:WhatLinksHere/Linked_target'],
      ['t-recentchangeslinked', '/wiki/Special:RecentChangesLinked/Linked_target'],
      ['t-specialpages', '/wiki/Special:SpecialPages'],
      ['t-permalink', `/w/index.php?title=Linked_target&amp;oldid=${latest}`],
      ['t-info', '/w/index.php?title=Linked_target&amp;action=info'],
    ])
      assert.ok(view.text.includes(`<li id="${id}"><a href="${href}">`), `${id} → ${href}`);
    const special = await c.get('/wiki/Special:Version');
    assert.doesNotMatch(special.text, /t-whatlinkshere|t-permalink/, 'special pages have no page tools');

    await eventually(async () => {
      const wlh = await c.get('/wiki/Special:WhatLinksHere/Linked_target');
      assert.equal(wlh.status, 200);
      assert.match(wlh.text, /<h1 id="firstHeading">Pages that link to &quot;Linked target&quot;<\/h1>/);
      const list = /<ul id="mw-whatlinkshere-list">([\s\S]*?)<\/ul>\n/.exec(wlh.text)?.[1] ?? '';
      assert.match(list, /<a href="\/wiki\/Links_in">Links in<\/a> <span/);
      assert.match(list, /Redirect in<\/a> \(redirect page\)[\s\S]*<ul><li><a href="\/wiki\/Through_redirect">Through redirect<\/a>/);
      assert.match(list, /Template:Uses target<\/a> \(transclusion\)/);
    });
    // Paging as MediaWiki 1.39 (PagerNavigationBuilder): "next" and "previous" ("next 2" above a limit of 1) carry
    // offset=<ns>|<id> (that page excluded) and dir; one at a time forwards, then back from the last page.
    const ids = (await c.api({ action: 'query', titles: 'Links in|Redirect in|Template:Uses target', formatversion: '2' })).json().query.pages as { title: string; pageid: number }[];
    const idOf = (title: string) => ids.find((x) => x.title === title)!.pageid;
    const walk = async (start: string, dir: 'next' | 'prev') => {
      const seen: string[] = [];
      let url = start;
      let last = '';
      for (let i = 0; i < 10 && url; i++) {
        const r = await c.get(url);
        assert.equal(r.status, 200, url);
        const first = /<ul id="mw-whatlinkshere-list"><li><a href="[^"]*"[^>]*>([^<]*)<\/a>/.exec(r.text);
        assert.ok(first, r.text.slice(-2000));
        assert.match(r.text, /<p>Displayed 1 item\.<\/p><div class="mw-pager-navigation-bar">View \(/);
        seen.push(first[1]!);
        last = r.text;
        url = decodeEntities(new RegExp(`<a href="([^"]*)" rel="${dir}" class="mw-${dir}link">${dir === 'prev' ? 'previous' : 'next'}</a>`).exec(r.text)?.[1] ?? '');
      }
      return { seen, last };
    };
    const forward = await walk('/w/index.php?title=Special:WhatLinksHere&target=Linked_target&limit=1', 'next');
    assert.deepEqual(forward.seen, ['Links in', 'Redirect in', 'Template:Uses target'], 'namespace, then page id');
    assert.match(forward.last, /<span class="mw-nextlink">next<\/span>/);
    const back = `/w/index.php?title=Special:WhatLinksHere/Linked_target&limit=1&offset=10%7C${idOf('Template:Uses target')}&dir=prev`;
    assert.ok(forward.last.includes(back.replace(/&/g, '&amp;')), 'the last page links back with its first row as the offset');
    const backward = await walk(back, 'prev');
    assert.deepEqual(backward.seen, ['Redirect in', 'Links in']);
    assert.match(backward.last, /View \(<span class="mw-prevlink">previous<\/span> {2}\| {2}<a href="[^"]*&amp;limit=1&amp;offset=0%7C\d+&amp;dir=next" rel="next" class="mw-nextlink">next<\/a>\)/);
    const legacy = await c.get(`/w/index.php?title=Special:WhatLinksHere&target=Linked_target&limit=2&from=${idOf('Redirect in')}`);
    assert.match(legacy.text, /<ul id="mw-whatlinkshere-list"><li><a href="\/w\/index.php\?title=Redirect_in&amp;redirect=no"/, 'from=<id>: that page first');
    assert.match(legacy.text, /rel="prev" class="mw-prevlink">previous 2<\/a>/);
    const beyond = await c.get(`/w/index.php?title=Special:WhatLinksHere/Linked_target&offset=10%7C${idOf('Template:Uses target')}`);
    assert.equal(beyond.status, 404, 'past the end: nolinkshere, with a 404 as MediaWiki');
    const all = await c.get('/wiki/Special:WhatLinksHere/Linked_target');
    assert.match(
      all.text,
      /View \(<span class="mw-prevlink">previous 50<\/span> {2}\| {2}<span class="mw-nextlink">next 50<\/span>\) \(<a href="[^"]*&amp;limit=20" class="mw-numlink">20<\/a> \| <span class="mw-numlink">50<\/span> \|/,
    );
    const noTrans = await c.get('/w/index.php?title=Special:WhatLinksHere&target=Linked+target&hidetrans=1');
    assert.doesNotMatch(noTrans.text, /Template:Uses target<\/a>/);
    const none = await c.get('/wiki/Special:WhatLinksHere/Through_redirect');
    assert.equal(none.status, 404);
    assert.match(none.text, /No pages link to <strong>/);
    assert.equal((await c.get('/wiki/Special:WhatLinksHere')).status, 200);

    await eventually(async () => {
      const related = await c.get('/wiki/Special:RecentChangesLinked/Links_in');
      assert.equal(related.status, 200);
      assert.match(related.text, /class="mw-changeslist-title">Linked target<\/a>/);
    });
    const linkedTo = await c.get('/w/index.php?title=Special:RecentChangesLinked&target=Linked_target&showlinkedto=1');
    assert.match(linkedTo.text, /class="mw-changeslist-title">Links in<\/a>/);
    assert.doesNotMatch(linkedTo.text, /class="mw-changeslist-title">Linked target<\/a>/);
  });

  test('search snippets are plain text with the match highlighted', async () => {
    await apiEdit(admin, 'Snippet page', "'''Snippet''' text about [[Linked target|zebrafish]] and {{Exported box|stripes}} here.\n== Section ==\n* more zebrafish");
    let text = '';
    for (let i = 0; i < 50 && !text.includes('Snippet page'); i++) {
      if (i) await new Promise((res) => setTimeout(res, 200));
      text = (await anon().get('/w/index.php?title=Special:Search&search=zebrafish&fulltext=1')).text;
    }
    const snippet = /<div class="searchresult">([\s\S]*?)<\/div>/.exec(text)?.[1] ?? '';
    assert.match(snippet, /Snippet text about <span class="searchmatch">zebrafish<\/span> and stripes here\./);
    assert.doesNotMatch(snippet, /\[\[|\{\{|'''|&#039;/);
  });

  test('template sections: section=T-N edits that section of the template; a missing one (or a missing numbered section) is "Cannot find section" with a 200', async () => {
    await apiEdit(admin, 'Template:Sectioned', 'Intro\n== Part A ==\nalpha\n== Part B ==\nbeta');
    await apiEdit(admin, 'Uses sectioned', 'Before\n{{Sectioned}}');
    const view = await alice.get('/wiki/Uses_sectioned');
    assert.match(view.text, /title=Template:Sectioned&amp;action=edit&amp;section=T-2/, 'the transcluded heading links to its section of the template');
    const f = await editForm(alice, 'Template:Sectioned', '&section=T-2');
    assert.equal(textarea(f.html), '== Part B ==\nbeta');
    assert.equal(f.fields.wpSection, 'T-2');
    const saved = await alice.post('/w/index.php?title=Template:Sectioned&action=submit', { ...f.fields, wpTextbox1: '== Part B ==\nbeta, edited', wpSummary: '', wpSave: 'Save' });
    assert.equal(saved.status, 302, messages(saved.text));
    assert.equal(await latestText(alice, 'Template:Sectioned'), 'Intro\n== Part A ==\nalpha\n== Part B ==\nbeta, edited');
    // MediaWiki 1.39 answers a missing section, "T-N" or a number, with a 200 and the same text.
    for (const section of ['T-7', '7']) {
      const missing = await alice.get(`/w/index.php?title=Template:Sectioned&action=edit&section=${section}`);
      assert.equal(missing.status, 200, section);
      assert.match(missing.text, /<h1 id="firstHeading">Cannot find section<\/h1>/);
      assert.match(
        missing.text,
        /<p>You tried to edit a section that does not exist\.\nIt may have been moved or deleted while you were viewing the page\.<\/p><p id="mw-returnto">Return to <a href="\/wiki\/Template:Sectioned">Template:Sectioned<\/a>\.<\/p>/,
      );
      assert.doesNotMatch(missing.text, /name="wpTextbox1"/);
    }
  });

  test('hidden categories: listed under "Hidden categories" only for readers who opt in, and on category pages', async () => {
    await apiEdit(admin, 'Category:Tracking hidden', 'For maintenance.\n__HIDDENCAT__');
    await apiEdit(admin, 'Category:Shown cat', 'Visible.');
    await apiEdit(admin, 'Hidden cat page', 'Text [[Category:Tracking hidden]] [[Category:Shown cat]]');
    await apiEdit(admin, 'Category:Sub of hidden', 'A category in it [[Category:Tracking hidden]]');
    // __HIDDENCAT__ becomes a page property with the page's links update (from the job queue).
    await eventually(async () =>
      assert.equal((await admin.api({ action: 'query', titles: 'Category:Tracking hidden', prop: 'categoryinfo', formatversion: '2' })).json().query.pages[0].categoryinfo?.hidden, true),
    );
    const before = await bob.get('/wiki/Hidden_cat_page');
    assert.match(before.text, /id="mw-normal-catlinks"[\s\S]*Shown cat/);
    assert.doesNotMatch(before.text, /Tracking hidden<\/a>/);
    assert.doesNotMatch((await anon().get('/wiki/Hidden_cat_page')).text, /Tracking hidden<\/a>/);
    // On a category page its hidden parents are shown to everyone (mw-hidden-cats-ns-shown).
    assert.match((await anon().get('/wiki/Category:Sub_of_hidden')).text, /id="mw-hidden-catlinks"[^>]*>Hidden category: <ul><li><a href="\/wiki\/Category:Tracking_hidden">/);

    // Page information lists them to everyone (InfoAction's page properties).
    await eventually(async () =>
      assert.match(
        (await anon().get('/w/index.php?title=Hidden_cat_page&action=info')).text,
        /Hidden category \(1\)<\/th><td><ul class="mw-hiddenCategoriesExplanation"><li><a href="\/wiki\/Category:Tracking_hidden">Tracking hidden<\/a>/,
      ),
    );
    const prefs = await bob.get('/wiki/Special:Preferences');
    assert.match(prefs.text, /name="wpshowhiddencats"/);
    const token = hiddenFields(prefs.text).wpEditToken!;
    assert.equal((await bob.post('/wiki/Special:Preferences', { op: 'options', wpshowhiddencats: '1', wpEditToken: token })).status, 200);
    assert.match((await bob.get('/wiki/Special:Preferences')).text, /name="wpshowhiddencats" id="mw-input-wpshowhiddencats" value="1" checked/);
    const after = await bob.get('/wiki/Hidden_cat_page');
    assert.match(after.text, /id="mw-hidden-catlinks" class="mw-hidden-catlinks mw-hidden-cats-user-shown">Hidden category: <ul><li><a href="\/wiki\/Category:Tracking_hidden">Tracking hidden<\/a>/);
    assert.doesNotMatch((await alice.get('/wiki/Hidden_cat_page')).text, /Tracking hidden<\/a>/, 'only the reader who opted in');
    assert.equal((await bob.post('/wiki/Special:Preferences', { op: 'options', wpEditToken: token })).status, 200);
    assert.doesNotMatch((await bob.get('/wiki/Hidden_cat_page')).text, /Tracking hidden<\/a>/);
  });
});
