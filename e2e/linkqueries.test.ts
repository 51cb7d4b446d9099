/*
 * The link-table query modules through every layer: pages saved with anonymous edits, their link
 * tables filled by the background refreshLinks job, then prop=links|templates|categories|
 * langlinks|images|extlinks|pageprops|categoryinfo|linkshere|transcludedin|fileusage|redirects and
 * list=backlinks|embeddedin|imageusage|categorymembers|exturlusage read back — shapes (fv1 and fv2), continuation and generators —
 * with the values MediaWiki 1.39 gives for the same pages.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const byNumber = (a: unknown, b: unknown) => Number(a) - Number(b);

// Response bodies are checked field by field against literal expectations.
type Json = Record<string, any>;

async function edit(wiki: TestWiki, title: string, text: string): Promise<number> {
  const r = await wiki.post('/w/api.php', { action: 'edit', title, text, token: ANON_TOKEN, format: 'json', formatversion: '2' });
  const body = r.json<{ edit?: { result: string; pageid: number }; error?: unknown }>();
  assert.equal(body.edit?.result, 'Success', JSON.stringify(body));
  return body.edit.pageid;
}

async function eventually(check: () => Promise<void>, ms = 20_000): Promise<void> {
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

const SOURCE_TEXT =
  '{{DISPLAYTITLE:Lq<i>Source</i>}}{{DEFAULTSORT:Zed}} [[LqTarget]] [[LqRedir]] [[Talk:LqMissing]] [[Help:LqHelp]] {{LqTpl|x}} ' +
  '[[Category:LqCat]] [[Category:LqOther|Beta]] [[fr:LqFr]] [[de:LqDe]] [[File:LqImg.png]] [[File:LqOther.jpg|thumb]] ' +
  'http://example.com/a https://www.example.org/b?c=d [//proto.example.net/x rel] [mailto:x@example.com m]';

for (const backend of testBackends()) {
  describe(`link table queries on ${backend}`, () => {
    let wiki: TestWiki;
    const id: Record<string, number> = {};

    const q = async (params: Record<string, string>, fv: '1' | '2' = '2'): Promise<Json> => {
      const r = await wiki.api({ action: 'query', formatversion: fv, ...params });
      assert.equal(r.status, 200);
      return r.json<Json>();
    };
    /** Follows `continue` to the end, collecting what `pick` takes from each response. */
    const all = async <T>(params: Record<string, string>, pick: (body: Json) => T[]): Promise<{ items: T[]; continues: Json[] }> => {
      const items: T[] = [];
      const continues: Json[] = [];
      let cont: Json = { continue: '' };
      for (let i = 0; i < 20; i++) {
        const body = await q({ ...params, ...cont });
        assert.equal(body.error, undefined, JSON.stringify(body.error));
        items.push(...pick(body));
        if (!body.continue) return { items, continues };
        continues.push(body.continue);
        cont = body.continue;
      }
      throw new Error('continuation did not end');
    };

    before(async () => {
      wiki = await startWiki(backend, { CONTENT_JOB_POLL_MS: '50' });
      id.tpl = await edit(wiki, 'Template:LqTpl', 'tpl {{{1|}}}');
      id.hidden = await edit(wiki, 'Category:LqHidden', '__HIDDENCAT__ hidden [[Category:LqCat]]');
      id.cat = await edit(wiki, 'Category:LqCat', 'a cat [[Category:LqParent]]');
      id.target = await edit(wiki, 'LqTarget', 'target');
      id.redir = await edit(wiki, 'LqRedir', '#REDIRECT [[LqTarget]]');
      id.source = await edit(wiki, 'LqSource', SOURCE_TEXT);
      id.source2 = await edit(wiki, 'LqSource2', '[[LqTarget]] [[LqRedir]] [[Category:LqCat|Alpha]] [[Category:LqHidden]] [[File:LqImg.png]] http://example.com/zz');
      id.sub = await edit(wiki, 'Category:LqSub', '[[Category:LqCat]]');
      // The refreshLinks jobs run in the background: wait until the last saves are in the tables.
      await eventually(async () => {
        const body = await q({ list: 'categorymembers', cmtitle: 'Category:LqCat', cmlimit: '50' });
        assert.equal(body.query.categorymembers.length, 4);
        const links = await q({ prop: 'links', titles: 'LqSource2' });
        assert.equal(links.query.pages[0].links?.length, 2);
      });
    });
    after(() => wiki?.close());

    test('prop=links|templates|categories|langlinks|images|extlinks|pageprops (fv2) as MediaWiki', async () => {
      const body = await q({
        prop: 'links|templates|categories|langlinks|images|extlinks|pageprops',
        titles: 'LqSource',
        clprop: 'sortkey|hidden',
        llprop: 'url|langname|autonym',
      });
      assert.equal(body.batchcomplete, true);
      const page = body.query.pages[0];
      assert.equal(page.pageid, id.source);
      assert.deepEqual(page.links, [
        { ns: 0, title: 'LqRedir' },
        { ns: 0, title: 'LqTarget' },
        { ns: 1, title: 'Talk:LqMissing' },
        { ns: 12, title: 'Help:LqHelp' },
      ]);
      assert.deepEqual(page.templates, [{ ns: 10, title: 'Template:LqTpl' }]);
      const cats = (page.categories as Json[]).filter((c) => c.title !== 'Category:Pages with broken file links');
      assert.deepEqual(cats, [
        { ns: 14, title: 'Category:LqCat', sortkey: '5a45440a4c51534f55524345', sortkeyprefix: 'Zed', hidden: false },
        { ns: 14, title: 'Category:LqOther', sortkey: '424554410a4c51534f55524345', sortkeyprefix: 'Beta', hidden: false },
      ]);
      assert.deepEqual(page.langlinks, [
        { lang: 'de', url: 'https://de.wikipedia.org/wiki/LqDe', langname: 'Deutsch', autonym: 'Deutsch', title: 'LqDe' },
        { lang: 'fr', url: 'https://fr.wikipedia.org/wiki/LqFr', langname: 'français', autonym: 'français', title: 'LqFr' },
      ]);
      assert.deepEqual(page.images, [
        { ns: 6, title: 'File:LqImg.png' },
        { ns: 6, title: 'File:LqOther.jpg' },
      ]);
      assert.deepEqual(page.extlinks, [{ url: 'http://example.com/a' }, { url: '//proto.example.net/x' }, { url: 'https://www.example.org/b?c=d' }, { url: 'mailto:x@example.com' }]);
      assert.deepEqual(page.pageprops, { defaultsort: 'Zed', displaytitle: 'Lq<i>Source</i>' });
    });

    test('fv1 shapes: content values under "*", booleans as empty strings, pages keyed by id', async () => {
      const body = await q({ prop: 'langlinks|extlinks|categories', titles: 'LqSource2', clprop: 'hidden|timestamp', format: 'json' }, '1');
      const page = body.query.pages[String(id.source2)];
      assert.deepEqual(page.extlinks, [{ '*': 'http://example.com/zz' }]);
      assert.equal(page.langlinks, undefined);
      const hidden = (page.categories as Json[]).find((c) => c.title === 'Category:LqHidden');
      assert.equal(hidden?.hidden, '');
      assert.match(hidden?.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal('hidden' in (page.categories as Json[]).find((c) => c.title === 'Category:LqCat')!, false);
      const ll = await q({ prop: 'langlinks', titles: 'LqSource', lllang: 'fr' }, '1');
      assert.deepEqual(ll.query.pages[String(id.source)].langlinks, [{ lang: 'fr', '*': 'LqFr' }]);
    });

    test('filters: plnamespace, pltitles, clshow, clcategories, imimages, tltemplates, elprotocol/elquery', async () => {
      const page = async (params: Record<string, string>) => (await q({ titles: 'LqSource', ...params })).query.pages[0];
      assert.deepEqual((await page({ prop: 'links', plnamespace: '1|12' })).links, [
        { ns: 1, title: 'Talk:LqMissing' },
        { ns: 12, title: 'Help:LqHelp' },
      ]);
      assert.deepEqual((await page({ prop: 'links', pltitles: 'LqTarget|Nowhere' })).links, [{ ns: 0, title: 'LqTarget' }]);
      assert.deepEqual((await page({ prop: 'templates', tltemplates: 'Template:LqTpl' })).templates, [{ ns: 10, title: 'Template:LqTpl' }]);
      assert.deepEqual((await page({ prop: 'categories', clcategories: 'Category:LqOther' })).categories, [{ ns: 14, title: 'Category:LqOther' }]);
      assert.deepEqual((await page({ prop: 'images', imimages: 'File:LqOther.jpg' })).images, [{ ns: 6, title: 'File:LqOther.jpg' }]);
      assert.deepEqual((await page({ prop: 'extlinks', elprotocol: 'https' })).extlinks, [{ url: 'https://www.example.org/b?c=d' }]);
      // Without elprotocol a query means http (and protocol-relative links), as MediaWiki 1.39.
      assert.deepEqual((await page({ prop: 'extlinks', elquery: '*.example.org' })).extlinks, undefined);
      assert.deepEqual((await page({ prop: 'extlinks', elquery: '*.example.org', elprotocol: 'https' })).extlinks, [{ url: 'https://www.example.org/b?c=d' }]);
      assert.deepEqual((await page({ prop: 'extlinks', elquery: 'proto.example.net' })).extlinks, [{ url: '//proto.example.net/x' }]);
      const s2 = (await q({ prop: 'categories', titles: 'LqSource2', clshow: 'hidden' })).query.pages[0];
      assert.deepEqual(s2.categories, [{ ns: 14, title: 'Category:LqHidden' }]);
      const s2b = (await q({ prop: 'categories', titles: 'LqSource2', clshow: '!hidden' })).query.pages[0];
      // The tracking category of missing files is not hidden on a fresh wiki (nor in MediaWiki).
      assert.deepEqual(s2b.categories, [
        { ns: 14, title: 'Category:LqCat' },
        { ns: 14, title: 'Category:Pages with broken file links' },
      ]);
      const warn = await q({ prop: 'links', titles: 'LqSource', pltitles: 'Bad[title' });
      assert.equal(warn.query.pages[0].links, undefined);
      assert.match(JSON.stringify(warn.warnings), /is not a valid title/);
    });

    test('prop continuation in MediaWiki format, across several pages, covers every link once', async () => {
      const first = await q({ prop: 'links', titles: 'LqSource|LqSource2', pllimit: '2' });
      assert.deepEqual(first.continue, { plcontinue: `${id.source}|1|LqMissing`, continue: '||' });
      const { items } = await all({ prop: 'links', titles: 'LqSource|LqSource2', pllimit: '2' }, (b) =>
        (b.query.pages as Json[]).flatMap((p) => ((p.links as Json[] | undefined) ?? []).map((l) => `${p.title}>${l.title}`)),
      );
      assert.deepEqual(items, ['LqSource>LqRedir', 'LqSource>LqTarget', 'LqSource>Talk:LqMissing', 'LqSource>Help:LqHelp', 'LqSource2>LqRedir', 'LqSource2>LqTarget']);
      const desc = await q({ prop: 'links', titles: 'LqSource', pllimit: '1', pldir: 'descending' });
      assert.deepEqual(desc.query.pages[0].links, [{ ns: 12, title: 'Help:LqHelp' }]);
      assert.equal(desc.continue.plcontinue, `${id.source}|1|LqMissing`);
      const cl = await q({ prop: 'categories', titles: 'LqSource', cllimit: '1' });
      assert.equal(cl.continue.clcontinue, `${id.source}|LqOther`);
      const ll = await q({ prop: 'langlinks', titles: 'LqSource', lllimit: '1' });
      assert.equal(ll.continue.llcontinue, `${id.source}|fr`);
      const im = await q({ prop: 'images', titles: 'LqSource', imlimit: '1' });
      assert.equal(im.continue.imcontinue, `${id.source}|LqOther.jpg`);
      const el = await all({ prop: 'extlinks', titles: 'LqSource', ellimit: '3' }, (b) => (b.query.pages[0].extlinks as Json[] | undefined) ?? []);
      assert.equal(el.items.length, 4);
      assert.match(el.continues[0]!.elcontinue, /^mailto:x@example.com\|\d+$/);
      const bad = await q({ prop: 'links', titles: 'LqSource', plcontinue: 'garbage' });
      assert.equal(bad.error.code, 'badcontinue');
    });

    test('prop modules as generators, with prop=info; missing link targets become missing pages', async () => {
      const body = await q({ generator: 'links', titles: 'LqSource', prop: 'info', gpllimit: '3' });
      assert.deepEqual(body.continue, { gplcontinue: `${id.source}|12|LqHelp`, continue: 'gplcontinue||' });
      const pages = body.query.pages as Json[];
      assert.deepEqual(
        pages.map((p) => [p.title, p.pageid ?? null, p.missing ?? false, p.redirect ?? false]),
        [
          ['Talk:LqMissing', null, true, false],
          ['LqTarget', id.target, false, false],
          ['LqRedir', id.redir, false, true],
        ],
      );
      assert.equal(pages[1]!.contentmodel, 'wikitext');
      const next = await q({ generator: 'links', titles: 'LqSource', prop: 'info', gpllimit: '3', ...body.continue });
      assert.deepEqual(
        (next.query.pages as Json[]).map((p) => [p.title, p.missing]),
        [['Help:LqHelp', true]],
      );
      assert.equal(next.continue, undefined);
      const cats = await q({ generator: 'categories', titles: 'LqSource2', prop: 'categoryinfo' });
      const catInfo = Object.fromEntries((cats.query.pages as Json[]).map((p) => [p.title, p.categoryinfo]));
      assert.deepEqual(catInfo['Category:LqCat'], { size: 4, pages: 2, files: 0, subcats: 2, hidden: false });
      assert.deepEqual(catInfo['Category:LqHidden'], { size: 1, pages: 1, files: 0, subcats: 0, hidden: true });
      const tpl = await q({ generator: 'templates', titles: 'LqSource', prop: 'info' });
      assert.deepEqual(
        (tpl.query.pages as Json[]).map((p) => p.pageid),
        [id.tpl],
      );
      const img = await q({ generator: 'images', titles: 'LqSource2' });
      assert.deepEqual(
        (img.query.pages as Json[]).map((p) => [p.title, p.missing]),
        [['File:LqImg.png', true]],
      );
    });

    test('list=backlinks with blredirect and blfilterredir, as MediaWiki', async () => {
      const body = await q({ list: 'backlinks', bltitle: 'LqTarget', blredirect: '1' });
      assert.deepEqual(body.query.backlinks, [
        {
          pageid: id.redir,
          ns: 0,
          title: 'LqRedir',
          redirect: true,
          redirlinks: [
            { pageid: id.source, ns: 0, title: 'LqSource' },
            { pageid: id.source2, ns: 0, title: 'LqSource2' },
          ],
        },
        { pageid: id.source, ns: 0, title: 'LqSource' },
        { pageid: id.source2, ns: 0, title: 'LqSource2' },
      ]);
      const redirectsOnly = await q({ list: 'backlinks', bltitle: 'LqTarget', blfilterredir: 'redirects' });
      assert.deepEqual(redirectsOnly.query.backlinks, [{ pageid: id.redir, ns: 0, title: 'LqRedir', redirect: true }]);
      const byId = await q({ list: 'backlinks', blpageid: String(id.target), bllimit: '1', blfilterredir: 'nonredirects' });
      assert.deepEqual(byId.query.backlinks, [{ pageid: id.source, ns: 0, title: 'LqSource' }]);
      assert.deepEqual(byId.continue, { blcontinue: `0|${id.source2}`, continue: '-||' });
      // A continuation inside the second query keeps the first query's batch (6 parts).
      const small = await q({ list: 'backlinks', bltitle: 'LqTarget', blredirect: '1', bllimit: '1' });
      assert.equal(small.continue.blcontinue, `0|${id.redir}|0|LqRedir|0|${id.source2}`);
      const rest = await q({ list: 'backlinks', bltitle: 'LqTarget', blredirect: '1', bllimit: '1', ...small.continue });
      assert.deepEqual(rest.query.backlinks[0].redirlinks, [{ pageid: id.source2, ns: 0, title: 'LqSource2' }]);
      const fv1 = await q({ list: 'backlinks', bltitle: 'LqTarget', blfilterredir: 'redirects' }, '1');
      assert.deepEqual(fv1.query.backlinks, [{ pageid: id.redir, ns: 0, title: 'LqRedir', redirect: '' }]);
      const gen = await q({ generator: 'backlinks', gbltitle: 'LqTarget', gblredirect: '1', prop: 'info' });
      assert.deepEqual((gen.query.pages as Json[]).map((p) => p.pageid).sort(byNumber), [id.redir, id.source, id.source2].sort(byNumber));
    });

    test('list=embeddedin and list=imageusage', async () => {
      const ei = await q({ list: 'embeddedin', eititle: 'Template:LqTpl' });
      assert.deepEqual(ei.query.embeddedin, [{ pageid: id.source, ns: 0, title: 'LqSource' }]);
      const iu = await q({ list: 'imageusage', iutitle: 'File:LqImg.png' });
      assert.deepEqual(iu.query.imageusage, [
        { pageid: id.source, ns: 0, title: 'LqSource' },
        { pageid: id.source2, ns: 0, title: 'LqSource2' },
      ]);
      const gen = await q({ generator: 'imageusage', giutitle: 'File:LqImg.png', giulimit: '1', prop: 'info' });
      assert.deepEqual(
        (gen.query.pages as Json[]).map((p) => p.pageid),
        [id.source],
      );
      assert.deepEqual(gen.continue, { giucontinue: `0|${id.source2}`, continue: 'giucontinue||' });
      const bad = await q({ list: 'imageusage', iutitle: 'LqTarget' });
      assert.deepEqual([bad.error.code, bad.error.info], ['bad_image_title', 'The title for "imageusage" must be a file.']);
      const missing = await q({ list: 'embeddedin' });
      assert.deepEqual([missing.error.code, missing.error.info], ['missingparam', 'One of the parameters "eititle" and "eipageid" is required.']);
    });

    test('prop=linkshere|transcludedin|fileusage on existing and missing pages, as MediaWiki', async () => {
      const body = await q({ prop: 'linkshere|transcludedin|fileusage', titles: 'LqTarget|Talk:LqMissing|Template:LqTpl|File:LqImg.png' });
      const byTitle = Object.fromEntries((body.query.pages as Json[]).map((p) => [p.title, p]));
      assert.deepEqual(byTitle.LqTarget.linkshere, [
        { pageid: id.redir, ns: 0, title: 'LqRedir', redirect: true },
        { pageid: id.source, ns: 0, title: 'LqSource', redirect: false },
        { pageid: id.source2, ns: 0, title: 'LqSource2', redirect: false },
      ]);
      assert.equal(byTitle['Talk:LqMissing'].missing, true);
      assert.deepEqual(byTitle['Talk:LqMissing'].linkshere, [{ pageid: id.source, ns: 0, title: 'LqSource', redirect: false }]);
      assert.deepEqual(byTitle['Template:LqTpl'].transcludedin, [{ pageid: id.source, ns: 0, title: 'LqSource', redirect: false }]);
      assert.deepEqual(byTitle['File:LqImg.png'].fileusage, [
        { pageid: id.source, ns: 0, title: 'LqSource', redirect: false },
        { pageid: id.source2, ns: 0, title: 'LqSource2', redirect: false },
      ]);
      // One target: the continuation is the linking page id alone; several: namespace|title|id.
      const first = await q({ prop: 'linkshere', titles: 'LqTarget', lhlimit: '1', lhprop: 'title' });
      assert.deepEqual(first.query.pages[0].linkshere, [{ ns: 0, title: 'LqRedir' }]);
      assert.deepEqual(first.continue, { lhcontinue: String(id.source), continue: '||' });
      const { items } = await all({ prop: 'linkshere', titles: 'LqTarget|Talk:LqMissing', lhlimit: '1', lhprop: 'pageid' }, (b) =>
        (b.query.pages as Json[]).flatMap((p) => ((p.linkshere ?? []) as Json[]).map((l) => `${p.title}<${l.pageid}`)),
      );
      assert.deepEqual(items, [`LqTarget<${id.redir}`, `LqTarget<${id.source}`, `LqTarget<${id.source2}`, `Talk:LqMissing<${id.source}`]);
      const two = await q({ prop: 'linkshere', titles: 'LqTarget|Talk:LqMissing', lhlimit: '1' });
      assert.equal(two.continue.lhcontinue, `0|LqTarget|${id.source}`);
      const redirects = await q({ prop: 'linkshere', titles: 'LqTarget', lhshow: 'redirect' }, '1');
      assert.deepEqual(redirects.query.pages[String(id.target)].linkshere, [{ pageid: id.redir, ns: 0, title: 'LqRedir', redirect: '' }]);
      const nonRedirects = await q({ prop: 'linkshere', titles: 'LqTarget', lhshow: '!redirect' }, '1');
      assert.deepEqual(nonRedirects.query.pages[String(id.target)].linkshere, [
        { pageid: id.source, ns: 0, title: 'LqSource' },
        { pageid: id.source2, ns: 0, title: 'LqSource2' },
      ]);
      const otherNs = await q({ prop: 'linkshere', titles: 'LqTarget', lhnamespace: '1' });
      assert.equal(otherNs.query.pages[0].linkshere, undefined);
      const gen = await q({ generator: 'linkshere', titles: 'LqTarget', prop: 'info' });
      assert.deepEqual((gen.query.pages as Json[]).map((p) => p.pageid).sort(byNumber), [id.redir, id.source, id.source2].sort(byNumber));
      const show = await q({ prop: 'linkshere', titles: 'LqTarget', lhshow: 'redirect|!redirect' });
      assert.deepEqual([show.error.code, show.error.info], ['show', 'Incorrect parameter - mutually exclusive values may not be supplied.']);
      const badContinue = await q({ prop: 'linkshere', titles: 'LqTarget', lhcontinue: 'x' });
      assert.equal(badContinue.error.code, 'badcontinue');
    });

    test('prop=redirects: the redirects to each page, rdprop=fragment, rdshow, generator', async () => {
      const body = await q({ prop: 'redirects', titles: 'LqTarget|LqSource' });
      const byTitle = Object.fromEntries((body.query.pages as Json[]).map((p) => [p.title, p.redirects]));
      assert.deepEqual(byTitle, { LqTarget: [{ pageid: id.redir, ns: 0, title: 'LqRedir' }], LqSource: undefined });
      // No fragment on this redirect: the key is left out.
      const withFragment = await q({ prop: 'redirects', titles: 'LqTarget', rdprop: 'title|fragment' });
      assert.deepEqual(withFragment.query.pages[0].redirects, [{ ns: 0, title: 'LqRedir' }]);
      const onlyFragments = await q({ prop: 'redirects', titles: 'LqTarget', rdshow: 'fragment' });
      assert.equal(onlyFragments.query.pages[0].redirects, undefined);
      const gen = await q({ generator: 'redirects', titles: 'LqTarget', prop: 'info' });
      assert.deepEqual(
        (gen.query.pages as Json[]).map((p) => [p.pageid, p.redirect]),
        [[id.redir, true]],
      );
      const show = await q({ prop: 'redirects', titles: 'LqTarget', rdshow: 'fragment|!fragment' });
      assert.equal(show.error.code, 'show');
    });

    test('list=categorymembers: sort key order by type, continuation, cmsort=timestamp, generator', async () => {
      const body = await q({ list: 'categorymembers', cmtitle: 'Category:LqCat', cmprop: 'ids|title|sortkey|sortkeyprefix|type', cmlimit: '2' });
      assert.deepEqual(body.query.categorymembers, [
        { pageid: id.source2, ns: 0, title: 'LqSource2', sortkey: '414c5048410a4c51534f5552434532', sortkeyprefix: 'Alpha', type: 'page' },
        { pageid: id.source, ns: 0, title: 'LqSource', sortkey: '5a45440a4c51534f55524345', sortkeyprefix: 'Zed', type: 'page' },
      ]);
      // Subcategories come after pages, in sort key order (LQHIDDEN < LQSUB).
      assert.deepEqual(body.continue, { cmcontinue: `subcat|${Buffer.from('LQHIDDEN').toString('hex')}|${id.hidden}`, continue: '-||' });
      const { items } = await all({ list: 'categorymembers', cmtitle: 'Category:LqCat', cmlimit: '1' }, (b) => (b.query.categorymembers as Json[]).map((m) => m.title));
      assert.deepEqual(items, ['LqSource2', 'LqSource', 'Category:LqHidden', 'Category:LqSub']);
      const subcats = await q({ list: 'categorymembers', cmtitle: 'Category:LqCat', cmtype: 'subcat' });
      assert.deepEqual(
        (subcats.query.categorymembers as Json[]).map((m) => m.title),
        ['Category:LqHidden', 'Category:LqSub'],
      );
      const fromPrefix = await q({ list: 'categorymembers', cmtitle: 'Category:LqCat', cmtype: 'page', cmstartsortkeyprefix: 'b' });
      assert.deepEqual(
        (fromPrefix.query.categorymembers as Json[]).map((m) => m.title),
        ['LqSource'],
      );
      const byTime = await all({ list: 'categorymembers', cmtitle: 'Category:LqCat', cmsort: 'timestamp', cmprop: 'ids|timestamp', cmlimit: '3' }, (b) => b.query.categorymembers as Json[]);
      assert.equal(byTime.items.length, 4);
      assert.match(byTime.continues[0]!.cmcontinue, /^\d{14}\|\d+$/);
      const gen = await q({ generator: 'categorymembers', gcmtitle: 'Category:LqCat', gcmtype: 'subcat', prop: 'categoryinfo' });
      assert.deepEqual(
        (gen.query.pages as Json[]).map((p) => [p.title, p.categoryinfo?.size]),
        [
          ['Category:LqHidden', 1],
          ['Category:LqSub', 0],
        ],
      );
      const notCategory = await q({ list: 'categorymembers', cmtitle: 'LqTarget' });
      assert.equal(notCategory.error.code, 'invalidcategory');
    });

    test('list=exturlusage: euquery, euprotocol, eunamespace, continuation, generator', async () => {
      const body = await q({ list: 'exturlusage', euquery: 'example.com' });
      assert.deepEqual(body.query.exturlusage, [
        { pageid: id.source, ns: 0, title: 'LqSource', url: 'http://example.com/a' },
        { pageid: id.source2, ns: 0, title: 'LqSource2', url: 'http://example.com/zz' },
      ]);
      const first = await q({ list: 'exturlusage', euquery: 'example.com', eulimit: '1', euprop: 'title' });
      assert.deepEqual(first.query.exturlusage, [{ ns: 0, title: 'LqSource' }]);
      assert.match(first.continue.eucontinue, /^http:\/\/example.com\/zz\|\d+$/);
      const mail = await q({ list: 'exturlusage', euprotocol: 'mailto' });
      assert.deepEqual(mail.query.exturlusage, [{ pageid: id.source, ns: 0, title: 'LqSource', url: 'mailto:x@example.com' }]);
      const none = await q({ list: 'exturlusage', euquery: 'example.com', eunamespace: '14' });
      assert.deepEqual(none.query.exturlusage, []);
      const gen = await q({ generator: 'exturlusage', geuquery: 'example.com', prop: 'info' });
      assert.deepEqual((gen.query.pages as Json[]).map((p) => p.pageid).sort(byNumber), [id.source, id.source2].sort(byNumber));
    });

    test('prop=categoryinfo: existing and missing categories, non-categories left alone', async () => {
      const body = await q({ prop: 'categoryinfo', titles: 'Category:LqCat|Category:LqHidden|Category:Nope|Category:LqParent|Category:LqSub|LqSource' });
      const info = Object.fromEntries((body.query.pages as Json[]).map((p) => [p.title, p.categoryinfo]));
      assert.deepEqual(info, {
        'Category:LqCat': { size: 4, pages: 2, files: 0, subcats: 2, hidden: false },
        'Category:LqHidden': { size: 1, pages: 1, files: 0, subcats: 0, hidden: true },
        'Category:Nope': undefined,
        'Category:LqParent': { size: 1, pages: 0, files: 0, subcats: 1, hidden: false },
        'Category:LqSub': { size: 0, pages: 0, files: 0, subcats: 0, hidden: false },
        LqSource: undefined,
      });
      const pp = await q({ prop: 'pageprops', titles: 'Category:LqHidden|LqSource', ppprop: 'hiddencat' });
      const props = Object.fromEntries((pp.query.pages as Json[]).map((p) => [p.title, p.pageprops]));
      assert.deepEqual(props, { 'Category:LqHidden': { hiddencat: '' }, LqSource: undefined });
    });

    test('errors in the API format', async () => {
      const show = await q({ prop: 'categories', titles: 'LqSource', clshow: 'hidden|!hidden' });
      assert.equal(show.error.code, 'show');
      const mix = await q({ prop: 'langlinks', titles: 'LqSource', lltitle: 'x' });
      assert.deepEqual([mix.error.code, mix.error.info], ['invalidparammix', 'The "lltitle" parameter may only be used with "lllang".']);
      const both = await q({ list: 'backlinks', bltitle: 'X', blpageid: '1' });
      assert.deepEqual([both.error.code, both.error.info], ['invalidparammix', 'The parameters "bltitle" and "blpageid" can not be used together.']);
      const nosuch = await q({ list: 'backlinks', blpageid: '999999' });
      assert.equal(nosuch.error.code, 'nosuchpageid');
      const badcm = await q({ list: 'categorymembers', cmtitle: 'Category:LqCat', cmcontinue: 'page|zz|1' });
      assert.equal(badcm.error.code, 'badcontinue');
    });
  });
}
