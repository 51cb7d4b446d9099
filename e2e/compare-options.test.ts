/*
 * Parameters MediaWiki 1.39 declares on action=compare, edit, delete and protect:
 * compare's slots, fromsection/tosection, frompst/topst and content models/formats; edit's
 * `unknown` model; the deprecated watch/unwatch flags of delete and protect.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';
import { loggedIn, png, upload } from './files-helpers.js';

const ANON_TOKEN = '+\\';
const TEXT = 'intro\n== A ==\naaa\n== B ==\nbbb';

for (const backend of testBackends()) {
  describe(`compare, edit, delete and protect parameters (${backend})`, () => {
    let wiki: TestWiki;
    let sysop: (params: Record<string, string>) => Promise<any>;
    let revid = 0;
    const compare = async (params: Record<string, string>) => (await wiki.api({ action: 'compare', formatversion: '2', ...params })).json();

    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Sysop', 'sysoppass123456', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
      const c = new WikiClient(wiki.baseUrl);
      const lt = (await c.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
      assert.equal((await c.post('/w/api.php', { format: 'json', action: 'login', lgname: 'Sysop', lgpassword: 'sysoppass123456', lgtoken: lt })).json().login.result, 'Success');
      const token = (await c.api({ action: 'query', meta: 'tokens' })).json().query.tokens.csrftoken as string;
      sysop = async (params) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', token, ...params })).json();
      const r = await sysop({ action: 'edit', title: 'Compared', text: TEXT, summary: 'made' });
      revid = r.edit.newrevid;
    });
    after(() => wiki.close());

    test('compare: fromsection keeps the revision reported, nosuchfromsection; slots gives bodies', async () => {
      const r = await compare({ fromtitle: 'Compared', fromsection: '2', totext: '== B ==\nccc', prop: 'diff|ids|title|comment' });
      assert.equal(r.compare.fromrevid, revid);
      assert.equal(r.compare.fromtitle, 'Compared');
      assert.equal(r.compare.fromparsedcomment, 'made');
      assert.match(r.compare.body, /ccc/);
      assert.doesNotMatch(r.compare.body, /aaa/);
      assert.equal((await compare({ fromtitle: 'Compared', fromsection: '9', totext: 'x' })).error?.code, 'nosuchfromsection');
      const bodies = await compare({ fromrev: String(revid), totext: 'x', slots: 'main' });
      assert.deepEqual(Object.keys(bodies.compare.bodies), ['main']);
      assert.equal(bodies.compare.body, undefined);
    });

    test('compare: frompst needs a title and transforms supplied wikitext; unknown models and bad formats', async () => {
      assert.equal((await compare({ fromtext: 'a~~~', totext: 'b', frompst: '1' })).error?.code, 'compare-no-title');
      const pst = await compare({ fromtitle: 'Compared', fromtext: 'sig ~~~', totext: 'sig ~~~', frompst: '1' });
      assert.match(pst.compare.body, /Special:Contributions|User:/);
      const unknown = await compare({ fromtext: 'a', totext: 'b', fromcontentmodel: 'unknown', tocontentmodel: 'unknown' });
      assert.equal(unknown.compare.body, '<tr><td colspan="4" class="error">Diffs are not supported for content model unknown.</td></tr>');
      assert.equal((await compare({ fromtext: 'a', totext: 'b', fromcontentformat: 'text/css' })).error?.code, 'badmodelformat');
    });

    test('edit: the unknown model cannot be edited directly', async () => {
      const r = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title: 'Anything', text: 'x', contentmodel: 'unknown' })).json();
      assert.deepEqual([r.error?.code, r.error?.info], ['no-direct-editing', 'Direct editing via API is not supported for content model unknown used by Anything.']);
    });

    test('delete watch/unwatch and protect watch (deprecated) set the watchlist', async () => {
      const watched = async (title: string) => (await sysop({ action: 'query', prop: 'info', inprop: 'watched', titles: title })).query.pages[0].watched === true;
      await sysop({ action: 'edit', title: 'Guard me', text: 'x' });
      const p = await sysop({ action: 'protect', title: 'Guard me', protections: 'edit=sysop', watch: '1', watchlist: 'nochange' });
      assert.ok(p.protect, JSON.stringify(p));
      assert.match(p.warnings.protect.warnings, /The parameter "watch" has been deprecated\./);
      assert.equal(await watched('Guard me'), true);
      const d = await sysop({ action: 'delete', title: 'Guard me', unwatch: '1' });
      assert.ok(d.delete, JSON.stringify(d));
      assert.equal(await watched('Guard me'), false);
      await sysop({ action: 'edit', title: 'Delete and watch', text: 'x', watchlist: 'unwatch' });
      assert.ok((await sysop({ action: 'delete', title: 'Delete and watch', watch: '1' })).delete);
      assert.equal(await watched('Delete and watch'), true);
    });

    test('delete oldimage: one old version of a file into the file archive, logged "Deleted old revision"', async () => {
      const c = await loggedIn(wiki, 'Sysop', 'sysoppass123456');
      assert.equal((await upload(c, { filename: 'Versions.png', ignorewarnings: '1' }, png(2, 2, 1), 'image/png')).upload?.result, 'Success');
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal((await upload(c, { filename: 'Versions.png', ignorewarnings: '1' }, png(2, 2, 2), 'image/png')).upload?.result, 'Success');
      const versions = async () =>
        (await sysop({ action: 'query', prop: 'imageinfo', titles: 'File:Versions.png', iiprop: 'archivename', iilimit: '5' })).query.pages[0].imageinfo as { archivename?: string }[];
      const archiveName = (await versions())[1]!.archivename!;
      assert.equal((await sysop({ action: 'delete', title: 'File:Versions.png', oldimage: 'short' })).error?.code, 'invalidoldimage');
      assert.equal((await sysop({ action: 'delete', title: 'File:Versions.png', oldimage: `20990101000000!Versions.png` })).error?.code, 'nodeleteablefile');
      const anon = (await wiki.post('/w/api.php', { action: 'delete', format: 'json', token: ANON_TOKEN, title: 'File:Versions.png', oldimage: archiveName })).json();
      assert.equal(anon.error?.code, 'permissiondenied');
      const r = await sysop({ action: 'delete', title: 'File:Versions.png', oldimage: archiveName, reason: 'why' });
      assert.deepEqual(r.delete, { title: 'File:Versions.png', reason: 'why', logid: r.delete.logid });
      assert.equal((await versions()).length, 1);
      const log = (await sysop({ action: 'query', list: 'logevents', letype: 'delete', leprop: 'ids|title|type|comment' })).query.logevents[0];
      assert.deepEqual([log.logid, log.title, log.action, log.comment], [r.delete.logid, 'File:Versions.png', 'delete', `Deleted old revision ${archiveName}: why`]);
      // The page itself stays; an oldimage on a page that is no file is ignored (the page is deleted).
      assert.equal((await sysop({ action: 'query', titles: 'File:Versions.png' })).query.pages[0].missing, undefined);
      await sysop({ action: 'edit', title: 'Plain page', text: 'x' });
      assert.ok((await sysop({ action: 'delete', title: 'Plain page', oldimage: archiveName })).delete);
      assert.equal((await sysop({ action: 'query', titles: 'Plain page' })).query.pages[0].missing, true);
    });
  });
}
