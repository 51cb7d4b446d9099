/*
 * The whole-wiki lists of the ListService through every layer: list=alllinks|
 * alltransclusions|allfileusages|allredirects, allcategories, random, pagepropnames,
 * pageswithprop, protectedtitles, querypage and allpages' protection and language-link filters,
 * on pages saved by an administrator (link tables filled by the background refreshLinks job).
 * Expected values are what MediaWiki 1.39 answered for the same pages (side by side, 2026-11-25);
 * shapes in formatversion 1 and 2, continuation to the end, generators.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { runAdmin } from '../scripts/admin.js';
import { loggedIn, png, upload } from './files-helpers.js';
import { startWiki, testBackends, type TestWiki, type WikiClient } from './harness.js';

// Response bodies are checked field by field against literal expectations.
type Json = Record<string, any>;

const PAGES: [string, string][] = [
  ['Template:HaTpl', 'tpl [[Category:HaTplCat]]'],
  ['Template:HaUnused', 'unused'],
  ['Category:HaCat', 'cat page __HIDDENCAT__'],
  ['Category:HaEmpty', 'empty cat'],
  ['HaTarget', 'target [[de:HaZiel]] [[fr:HaCible]]'],
  ['HaRedir', '#REDIRECT [[HaTarget#Sec]]'],
  ['HaRedir2', '#REDIRECT [[HaMissing]]'],
  [
    'HaSource',
    '{{DISPLAYTITLE:HaSource}}__NOTOC__ [[HaTarget]] [[HaMissing]] [[Help:HaHelp]] {{HaTpl}} {{HaNoTpl}} [[File:HaImg.png]] [[Category:HaCat]] [[Category:HaWanted]] [[Category:HaWanted2]]',
  ],
  ['HaSource2', '[[HaTarget]] [[HaMissing]] {{HaTpl}} [[File:HaImg.png]] [[File:HaOther.jpg]] [[Category:HaCat]] [[Category:HaWanted]] __NOTOC__ __NOEDITSECTION__'],
  ['HaLonely', 'nothing links here, no links out'],
];

async function eventually(check: () => Promise<void>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

for (const backend of testBackends()) {
  describe(`whole-wiki lists on ${backend}`, () => {
    let wiki: TestWiki;
    let admin: WikiClient & { csrf: string };
    const id: Record<string, number> = {};

    const q = async (params: Record<string, string>, fv: '1' | '2' = '2'): Promise<Json> => {
      const r = await wiki.api({ action: 'query', formatversion: fv, ...params });
      assert.equal(r.status, 200);
      return r.json<Json>();
    };
    /** Follows `continue` to the end, collecting what `pick` takes from each response. */
    const all = async <T>(params: Record<string, string>, pick: (body: Json) => T[]): Promise<{ items: T[]; batches: number }> => {
      const items: T[] = [];
      let cont: Json = { continue: '' };
      for (let batches = 1; batches < 50; batches++) {
        const body = await q({ ...params, ...cont });
        assert.equal(body.error, undefined, JSON.stringify(body.error));
        items.push(...pick(body));
        if (!body.continue) return { items, batches };
        cont = body.continue;
      }
      throw new Error('continuation did not end');
    };
    const post = async (params: Record<string, string>): Promise<Json> => (await admin.post('/w/api.php', { format: 'json', formatversion: '2', token: admin.csrf, ...params })).json<Json>();

    before(async () => {
      wiki = await startWiki(backend, { CONTENT_JOB_POLL_MS: '50' });
      await runAdmin(['createAndPromote', 'Sysop', 'sysoppass123456', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
      admin = await loggedIn(wiki, 'Sysop', 'sysoppass123456');
      for (const [title, text] of PAGES) {
        const r = await post({ action: 'edit', title, text });
        assert.equal(r.edit?.result, 'Success', JSON.stringify(r));
        id[title] = r.edit.pageid;
      }
      assert.ok((await post({ action: 'protect', title: 'HaProtectedMissing', protections: 'create=sysop', expiry: 'infinite', reason: 'ha [[reason]]' })).protect, 'expected true');
      assert.ok((await post({ action: 'protect', title: 'Talk:HaProtected2', protections: 'create=autoconfirmed', expiry: '2099-01-01T00:00:00Z', reason: 'later' })).protect, 'expected true');
      assert.ok((await post({ action: 'protect', title: 'HaTarget', protections: 'edit=sysop|move=sysop', expiry: 'infinite|2099-01-01T00:00:00Z', cascade: '1' })).protect, 'expected true');
      await eventually(async () => {
        const body = await q({ list: 'alllinks', allimit: '50' });
        assert.equal(body.query.alllinks.length, 6);
        const props = await q({ list: 'pageswithprop', pwppropname: 'notoc' });
        assert.equal(props.query.pageswithprop.length, 2);
      });
    });
    after(() => wiki?.close());

    test('list=alllinks: every link with its source, unique targets, continuation, generators', async () => {
      const body = await q({ list: 'alllinks', alprop: 'ids|title', allimit: '50' });
      assert.equal(body.batchcomplete, true);
      assert.deepEqual(body.query.alllinks, [
        { fromid: id.HaRedir2, ns: 0, title: 'HaMissing' },
        { fromid: id.HaSource, ns: 0, title: 'HaMissing' },
        { fromid: id.HaSource2, ns: 0, title: 'HaMissing' },
        { fromid: id.HaRedir, ns: 0, title: 'HaTarget' },
        { fromid: id.HaSource, ns: 0, title: 'HaTarget' },
        { fromid: id.HaSource2, ns: 0, title: 'HaTarget' },
      ]);
      const paged = await all({ list: 'alllinks', alprop: 'ids', allimit: '4' }, (b) => b.query.alllinks as Json[]);
      assert.equal(paged.batches, 2);
      assert.deepEqual(
        paged.items.map((l) => l.fromid),
        [id.HaRedir2, id.HaSource, id.HaSource2, id.HaRedir, id.HaSource, id.HaSource2],
      );
      const first = await q({ list: 'alllinks', alprop: 'ids', allimit: '2' });
      assert.deepEqual(first.continue, { alcontinue: `HaMissing|${id.HaSource2}`, continue: '-||' });

      assert.deepEqual((await q({ list: 'alllinks', alunique: '1' })).query.alllinks, [
        { ns: 0, title: 'HaMissing' },
        { ns: 0, title: 'HaTarget' },
      ]);
      const uniqueFirst = await q({ list: 'alllinks', alunique: '1', allimit: '1' });
      assert.deepEqual(uniqueFirst.continue, { alcontinue: 'HaTarget', continue: '-||' });
      assert.deepEqual((await q({ list: 'alllinks', aldir: 'descending', alfrom: 'HaT', alunique: '1' })).query.alllinks, [{ ns: 0, title: 'HaTarget' }]);
      assert.deepEqual((await q({ list: 'alllinks', alprefix: 'haT', alunique: '1' })).query.alllinks, [{ ns: 0, title: 'HaTarget' }]);
      assert.deepEqual((await q({ list: 'alllinks', alnamespace: '12', alunique: '1' })).query.alllinks, [{ ns: 12, title: 'Help:HaHelp' }]);

      const mix = await q({ list: 'alllinks', alunique: '1', alprop: 'ids' });
      assert.equal(mix.error.code, 'invalidparammix');
      assert.equal(mix.error.info, 'The "alprop=ids" parameter cannot be used with "alunique".');
      assert.equal((await q({ list: 'alllinks', alcontinue: 'HaMissing' })).error.code, 'badcontinue');

      // As a generator: the linking pages, or (unique) the targets, missing ones included.
      const gen = await q({ generator: 'alllinks', galunique: '1' });
      assert.deepEqual(gen.query.pages, [
        { ns: 0, title: 'HaMissing', missing: true },
        { pageid: id.HaTarget, ns: 0, title: 'HaTarget' },
      ]);
      const sources = await q({ generator: 'alllinks', gallimit: '2' });
      assert.deepEqual(
        (sources.query.pages as Json[]).map((p) => p.title),
        ['HaRedir2', 'HaSource'],
      );
      assert.deepEqual(sources.continue, { galcontinue: `HaMissing|${id.HaSource2}`, continue: 'galcontinue||' });
    });

    test('list=alltransclusions, allfileusages, allredirects (fragments; formatversion 1)', async () => {
      assert.deepEqual((await q({ list: 'alltransclusions' })).query.alltransclusions, [
        { ns: 10, title: 'Template:HaNoTpl' },
        { ns: 10, title: 'Template:HaTpl' },
        { ns: 10, title: 'Template:HaTpl' },
      ]);
      assert.deepEqual((await q({ list: 'allfileusages', afprop: 'ids|title' })).query.allfileusages, [
        { fromid: id.HaSource, ns: 6, title: 'File:HaImg.png' },
        { fromid: id.HaSource2, ns: 6, title: 'File:HaImg.png' },
        { fromid: id.HaSource2, ns: 6, title: 'File:HaOther.jpg' },
      ]);
      assert.deepEqual((await q({ list: 'allredirects', arprop: 'ids|title|fragment|interwiki' })).query.allredirects, [
        { fromid: id.HaRedir2, ns: 0, title: 'HaMissing' },
        { fromid: id.HaRedir, ns: 0, title: 'HaTarget', fragment: 'Sec' },
      ]);
      const fv1 = await q({ list: 'allredirects', arunique: '1', arlimit: '1' }, '1');
      assert.deepEqual(fv1, { batchcomplete: '', continue: { arcontinue: 'HaTarget', continue: '-||' }, query: { allredirects: [{ ns: 0, title: 'HaMissing' }] } });
      assert.equal((await q({ list: 'allredirects', arunique: '1', arprop: 'fragment' })).error.code, 'invalidparammix');
    });

    test('list=allcategories: members counted, hidden, min, continuation both ways, generator, fv1 content value', async () => {
      const body = await q({ list: 'allcategories', acprop: 'size|hidden', acprefix: 'Ha' });
      assert.deepEqual(body.query.allcategories, [
        { category: 'HaCat', size: 2, pages: 2, files: 0, subcats: 0, hidden: true },
        { category: 'HaEmpty', size: 0, pages: 0, files: 0, subcats: 0, hidden: false },
        { category: 'HaTplCat', size: 3, pages: 3, files: 0, subcats: 0, hidden: false },
        { category: 'HaWanted', size: 2, pages: 2, files: 0, subcats: 0, hidden: false },
        { category: 'HaWanted2', size: 1, pages: 1, files: 0, subcats: 0, hidden: false },
      ]);
      const fv1 = await q({ list: 'allcategories', acprop: 'size|hidden', acfrom: 'HaCat', acto: 'HaEmpty' }, '1');
      assert.deepEqual(fv1.query.allcategories, [
        { size: 2, pages: 2, files: 0, subcats: 0, hidden: '', '*': 'HaCat' },
        { size: 0, pages: 0, files: 0, subcats: 0, '*': 'HaEmpty' },
      ]);
      assert.deepEqual(
        (await q({ list: 'allcategories', acmin: '2', acmax: '2', acprefix: 'Ha' })).query.allcategories.map((c: Json) => c.category),
        ['HaCat', 'HaWanted'],
      );
      const up = await all({ list: 'allcategories', acprefix: 'Ha', aclimit: '2' }, (b) => b.query.allcategories.map((c: Json) => c.category as string));
      assert.deepEqual(up.items, ['HaCat', 'HaEmpty', 'HaTplCat', 'HaWanted', 'HaWanted2']);
      assert.equal(up.batches, 3);
      const down = await all({ list: 'allcategories', acprefix: 'Ha', aclimit: '2', acdir: 'descending' }, (b) => b.query.allcategories.map((c: Json) => c.category as string));
      assert.deepEqual(down.items, ['HaWanted2', 'HaWanted', 'HaTplCat', 'HaEmpty', 'HaCat']);
      const gen = await q({ generator: 'allcategories', gacprefix: 'Ha', gaclimit: '2', prop: 'info' });
      assert.deepEqual(gen.continue, { gaccontinue: 'HaTplCat', continue: 'gaccontinue||' });
      assert.deepEqual(
        (gen.query.pages as Json[]).map((p) => [p.title, p.pageid]),
        [
          ['Category:HaCat', id['Category:HaCat']],
          ['Category:HaEmpty', id['Category:HaEmpty']],
        ],
      );
    });

    test('list=pagepropnames and list=pageswithprop: names, values, continuation, generator', async () => {
      const names = await all({ list: 'pagepropnames', ppnlimit: '2' }, (b) => b.query.pagepropnames.map((p: Json) => p.propname as string));
      assert.deepEqual(names.items, ['displaytitle', 'hiddencat', 'noeditsection', 'notoc']);
      assert.deepEqual((await q({ list: 'pagepropnames', ppnlimit: '2' })).continue, { ppncontinue: 'noeditsection', continue: '-||' });

      assert.deepEqual((await q({ list: 'pageswithprop', pwppropname: 'notoc', pwpprop: 'ids|title|value' })).query.pageswithprop, [
        { pageid: id.HaSource, ns: 0, title: 'HaSource', value: '' },
        { pageid: id.HaSource2, ns: 0, title: 'HaSource2', value: '' },
      ]);
      assert.deepEqual((await q({ list: 'pageswithprop', pwppropname: 'displaytitle', pwpprop: 'value' })).query.pageswithprop, [{ value: 'HaSource' }]);
      const down = await q({ list: 'pageswithprop', pwppropname: 'notoc', pwpdir: 'descending', pwplimit: '1' });
      assert.deepEqual(down.query.pageswithprop, [{ pageid: id.HaSource2, ns: 0, title: 'HaSource2' }]);
      assert.deepEqual(down.continue, { pwpcontinue: String(id.HaSource), continue: '-||' });
      assert.equal((await q({ list: 'pageswithprop' })).error.code, 'missingparam');
      const gen = await q({ generator: 'pageswithprop', gpwppropname: 'notoc' });
      assert.deepEqual(
        (gen.query.pages as Json[]).map((p) => p.title),
        ['HaSource', 'HaSource2'],
      );
    });

    test('list=protectedtitles: create protections with every prop, order, filters, continuation', async () => {
      const body = await q({ list: 'protectedtitles', ptprop: 'timestamp|user|userid|comment|parsedcomment|expiry|level' });
      const titles = body.query.protectedtitles as Json[];
      assert.deepEqual(
        titles.map(({ timestamp: _t, userid: _u, parsedcomment: _p, ...rest }) => rest),
        [
          { ns: 1, title: 'Talk:HaProtected2', user: 'Sysop', comment: 'later', expiry: '2099-01-01T00:00:00Z', level: 'autoconfirmed' },
          { ns: 0, title: 'HaProtectedMissing', user: 'Sysop', comment: 'ha [[reason]]', expiry: 'infinity', level: 'sysop' },
        ],
      );
      assert.match(titles[1]!.parsedcomment, /^ha <a href="[^"]*HaReason|^ha <a /i);
      assert.ok(
        titles.every((t) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(t.timestamp) && t.userid > 0),
        'expected true',
      );
      assert.deepEqual((await q({ list: 'protectedtitles', ptlevel: 'sysop', ptnamespace: '0', ptprop: 'level' })).query.protectedtitles, [{ ns: 0, title: 'HaProtectedMissing', level: 'sysop' }]);
      const newer = await all({ list: 'protectedtitles', ptdir: 'newer', ptlimit: '1', ptprop: '' }, (b) => b.query.protectedtitles.map((t: Json) => t.title as string));
      assert.deepEqual(newer.items, ['HaProtectedMissing', 'Talk:HaProtected2']);
      assert.equal(newer.batches, 2);
      assert.match((await q({ list: 'protectedtitles', ptlimit: '1' })).continue.ptcontinue, /^\d{14}\|0\|HaProtectedMissing$/);
      assert.equal((await q({ list: 'protectedtitles', ptcontinue: 'x|y' })).error.code, 'badcontinue');
      const gen = await q({ generator: 'protectedtitles', gptnamespace: '1' });
      assert.deepEqual(gen.query.pages, [{ ns: 1, title: 'Talk:HaProtected2', missing: true }]);
    });

    test('list=allpages: protection and language-link filters', async () => {
      const titles = async (params: Record<string, string>) => ((await q({ list: 'allpages', aplimit: '50', ...params })).query.allpages as Json[]).map((p) => p.title);
      assert.deepEqual(await titles({ apprtype: 'edit' }), ['HaTarget']);
      assert.deepEqual(await titles({ apprtype: 'move', apprlevel: 'autoconfirmed' }), []);
      assert.deepEqual(await titles({ apprtype: 'edit|move', apprfiltercascade: 'cascading', apprexpiry: 'indefinite' }), ['HaTarget']);
      assert.deepEqual(await titles({ apprtype: 'edit', apprfiltercascade: 'noncascading' }), []);
      assert.deepEqual(await titles({ apprexpiry: 'definite' }), ['HaTarget']);
      assert.deepEqual(await titles({ apfilterlanglinks: 'withlanglinks' }), ['HaTarget']);
      assert.ok(!(await titles({ apfilterlanglinks: 'withoutlanglinks' })).includes('HaTarget'), 'expected true');
      const mix = await q({ list: 'allpages', apprlevel: 'sysop' });
      assert.equal(mix.error.code, 'invalidparammix');
      const paged = await all({ list: 'allpages', apfilterlanglinks: 'withoutlanglinks', aplimit: '3', apprefix: 'Ha' }, (b) => b.query.allpages.map((p: Json) => p.title as string));
      assert.deepEqual(paged.items, ['HaLonely', 'HaRedir', 'HaRedir2', 'HaSource', 'HaSource2']);
    });

    test('list=random: every page once across continuations, filters, generator', async () => {
      const pages = await all({ list: 'random', rnlimit: '3', rnfilterredir: 'all' }, (b) => b.query.random as Json[]);
      const everyPage = await q({ generator: 'allpages', gaplimit: '500', gapnamespace: '0' });
      const mainCount = (everyPage.query.pages as Json[]).length;
      const titles = pages.items.map((p) => p.title as string);
      assert.equal(new Set(titles).size, titles.length, 'no page twice');
      assert.ok(titles.includes('HaRedir') && titles.includes('Category:HaCat') && titles.length >= mainCount, 'expected true');
      assert.ok(
        pages.items.every((p) => typeof p.redirect === 'boolean' && typeof p.id === 'number'),
        'expected true',
      );
      const redirects = await q({ list: 'random', rnlimit: '10', rnfilterredir: 'redirects', rnnamespace: '0' });
      assert.deepEqual((redirects.query.random as Json[]).map((p) => p.title).sort(), ['HaRedir', 'HaRedir2']);
      assert.ok(
        (redirects.query.random as Json[]).every((p) => !('redirect' in p)),
        'expected true',
      );
      const byDefault = await q({ list: 'random', rnlimit: '50', rnnamespace: '0' });
      assert.ok(!(byDefault.query.random as Json[]).some((p) => p.title.startsWith('HaRedir')), 'expected true');
      assert.equal((await q({ list: 'random', rnfilterredir: 'all', rnredirect: '1' })).error.code, 'invalidparammix');
      assert.equal((await q({ list: 'random', rncontinue: '0.5|0.5|x|0' })).error.code, 'badcontinue');
      const gen = await q({ generator: 'random', grnlimit: '2', grnnamespace: '0', prop: 'info' });
      assert.equal((gen.query.pages as Json[]).length, 2);
      assert.match(gen.continue?.grncontinue ?? 'none', /^0\.\d{12}\|0\.\d+\|\d+\|[01]$/);
    });

    test('list=querypage: live results, values and timestamps, offsets, generator', async () => {
      const page = async (name: string, extra: Record<string, string> = {}) => (await q({ list: 'querypage', qppage: name, qplimit: '50', ...extra })).query.querypage;
      assert.deepEqual(await page('Mostlinkedtemplates'), {
        name: 'Mostlinkedtemplates',
        results: [
          { value: '2', ns: 10, title: 'Template:HaTpl' },
          { value: '1', ns: 10, title: 'Template:HaNoTpl' },
        ],
      });
      assert.deepEqual((await page('Unusedtemplates')).results, [{ ns: 10, title: 'Template:HaUnused' }]);
      assert.deepEqual((await page('Unusedcategories')).results, [{ ns: 14, title: 'Category:HaEmpty' }]);
      assert.deepEqual((await page('Mostinterwikis')).results, [{ value: '2', ns: 0, title: 'HaTarget' }]);
      assert.deepEqual((await page('Mostcategories')).results, [
        { value: '5', ns: 0, title: 'HaSource' },
        { value: '4', ns: 0, title: 'HaSource2' },
      ]);
      const wanted = (await page('Wantedcategories')).results as Json[];
      assert.deepEqual(wanted[0], { value: '3', ns: 14, title: 'Category:HaTplCat' });
      const ancient = (await page('Ancientpages')).results as Json[];
      assert.ok(
        ancient.every(
          (r) =>
            /^\d{14}$/.test(r.value) &&
            r.timestamp === `${r.value.slice(0, 4)}-${r.value.slice(4, 6)}-${r.value.slice(6, 8)}T${r.value.slice(8, 10)}:${r.value.slice(10, 12)}:${r.value.slice(12, 14)}Z`,
        ),
        'expected true',
      );
      const short = await all({ list: 'querypage', qppage: 'Shortpages', qplimit: '2' }, (b) => b.query.querypage.results as Json[]);
      const lengths = short.items.map((r) => Number(r.value));
      assert.deepEqual(
        lengths,
        [...lengths].sort((a, b) => a - b),
      );
      assert.ok(
        short.items.some((r) => r.title === 'HaLonely'),
        'expected true',
      );
      assert.deepEqual((await q({ list: 'querypage', qppage: 'Shortpages', qplimit: '1', qpoffset: '1' })).continue, { qpoffset: 2, continue: '-||' });
      assert.equal((await q({ list: 'querypage', qppage: 'Nosuchpage' })).error.code, 'badvalue');
      const gen = await q({ generator: 'querypage', gqppage: 'Uncategorizedtemplates' });
      assert.deepEqual(gen.query.pages, [{ pageid: id['Template:HaUnused'], ns: 10, title: 'Template:HaUnused' }]);
      assert.deepEqual((await page('Wantedpages')).results, [
        { value: '3', ns: 0, title: 'HaMissing' },
        { value: '1', ns: 10, title: 'Template:HaNoTpl' },
        { value: '1', ns: 12, title: 'Help:HaHelp' },
      ]);
      assert.deepEqual((await page('Wantedtemplates')).results, [{ value: '1', ns: 10, title: 'Template:HaNoTpl' }]);
      assert.deepEqual((await page('Wantedfiles')).results, [
        { value: '2', ns: 6, title: 'File:HaImg.png' },
        { value: '1', ns: 6, title: 'File:HaOther.jpg' },
      ]);
      assert.deepEqual((await page('Mostimages')).results, [{ value: '2', ns: 6, title: 'File:HaImg.png' }]);
      assert.deepEqual((await page('Mostlinked')).results, [
        { value: '3', ns: 0, title: 'HaMissing', databaseResult: { page_namespace: null } },
        { value: '3', ns: 0, title: 'HaTarget', databaseResult: { page_namespace: '0' } },
      ]);
      assert.deepEqual((await page('BrokenRedirects')).results, [{ ns: 0, title: 'HaRedir2', databaseResult: { rd_namespace: '0', rd_title: 'HaMissing', rd_fragment: '' } }]);
      assert.deepEqual((await page('Listredirects')).results, [
        { ns: 0, title: 'HaRedir', databaseResult: { rd_namespace: '0', rd_title: 'HaTarget', rd_fragment: 'Sec', rd_interwiki: '', redirid: String(id.HaTarget) } },
        { ns: 0, title: 'HaRedir2', databaseResult: { rd_namespace: '0', rd_title: 'HaMissing', rd_fragment: '', rd_interwiki: '', redirid: null } },
      ]);
      assert.equal((await post({ action: 'edit', title: 'QpDbl', text: '#REDIRECT [[HaRedir#Frag]]' })).edit?.result, 'Success');
      assert.deepEqual((await page('DoubleRedirects')).results, [
        {
          ns: 0,
          title: 'QpDbl',
          databaseResult: { b_namespace: '0', b_title: 'HaRedir', b_fragment: 'Frag', c_namespace: '0', c_title: 'HaTarget', c_fragment: 'Sec', c_interwiki: '' },
        },
      ]);
      // Gone again: later tests list the Ha… links.
      assert.equal((await post({ action: 'delete', title: 'QpDbl' })).delete?.title, 'QpDbl');
      assert.deepEqual((await page('DoubleRedirects')).results, []);
      const denied = await q({ list: 'querypage', qppage: 'Unwatchedpages' });
      assert.equal(denied.error.code, 'specialpage-cantexecute');
      assert.equal(denied.error.info, "You don't have permission to view the results of this special page.");
      const unwatched = (await admin.api({ action: 'query', list: 'querypage', qppage: 'Unwatchedpages', qplimit: '500', format: 'json', formatversion: '2' })).json<Json>();
      const rows = unwatched.query.querypage.results as Json[];
      // The creator watches what it creates (watchcreations): Main Page is the one page nobody watches.
      assert.deepEqual(rows, [{ value: '0', ns: 0, title: 'Main Page' }]);
      const fv1 = await q({ list: 'querypage', qppage: 'Unusedtemplates' }, '1');
      assert.deepEqual(fv1.query.querypage, { name: 'Unusedtemplates', results: [{ ns: 10, title: 'Template:HaUnused' }] });
    });
    test('action=purge and action=watch take the page set: generator with continuation, revids, pageids', async () => {
      const purge = async (params: Record<string, string>): Promise<Json> => (await wiki.post('/w/api.php', { action: 'purge', format: 'json', formatversion: '2', ...params })).json<Json>();
      const purged = await purge({ generator: 'allpages', gapprefix: 'Ha', gaplimit: '2' });
      assert.deepEqual(purged, {
        batchcomplete: true,
        continue: { gapcontinue: 'HaRedir2', continue: 'gapcontinue||' },
        purge: [
          { ns: 0, title: 'HaLonely', purged: true },
          { ns: 0, title: 'HaRedir', purged: true },
        ],
      });
      const rev = (await q({ prop: 'info', titles: 'HaLonely' })).query.pages[0].lastrevid as number;
      assert.deepEqual(await purge({ revids: `${rev}|999999` }), {
        batchcomplete: true,
        purge: [
          { revid: 999999, missing: true },
          { ns: 0, title: 'HaLonely', purged: true },
        ],
      });
      assert.equal((await purge({ generator: 'allpages', gapprefix: 'Ha', redirects: '1' })).error.code, 'params');
      assert.deepEqual(await purge({ generator: 'allpages', continue: '-||' }), { batchcomplete: true, purge: [] });

      const watchToken = (await admin.api({ action: 'query', meta: 'tokens', type: 'watch', format: 'json' })).json<Json>().query.tokens.watchtoken as string;
      const watch = async (params: Record<string, string>) => post({ action: 'watch', token: watchToken, ...params });
      assert.deepEqual(await watch({ generator: 'alllinks', galunique: '1' }), {
        batchcomplete: true,
        watch: [
          { title: 'HaMissing', ns: 0, watched: true, missing: true },
          { title: 'HaTarget', ns: 0, watched: true },
        ],
      });
      const batch = await watch({ generator: 'allpages', gapprefix: 'Ha', gaplimit: '2', unwatch: '1' });
      assert.deepEqual(batch.continue, { gapcontinue: 'HaRedir2', continue: 'gapcontinue||' });
      assert.deepEqual(batch.watch, [
        { title: 'HaLonely', ns: 0, unwatched: true },
        { title: 'HaRedir', ns: 0, unwatched: true },
      ]);
      assert.deepEqual((await watch({ pageids: `${id.HaLonely}|424242` })).watch, [
        { pageid: 424242, missing: true },
        { title: 'HaLonely', ns: 0, watched: true },
      ]);
      assert.deepEqual(await watch({}), { batchcomplete: true, watch: [] });
      const mix = await watch({ title: 'HaTarget', pageids: '1' });
      assert.equal(mix.error.code, 'invalidparammix');
      assert.equal(mix.error.info, 'The "title" parameter cannot be used with "pageids".');
    });

    test('prop=info: linkclasses, testactions, incontinue', async () => {
      const body = await q({ prop: 'info', titles: 'HaTarget|HaRedir|HaMissing|MediaWiki:HaMsg', inprop: 'linkclasses', intestactions: 'edit|move|read|create|delete' });
      const pages = Object.fromEntries((body.query.pages as Json[]).map((p) => [p.title, p]));
      assert.deepEqual(pages.HaTarget.linkclasses, []);
      assert.deepEqual(pages.HaRedir.linkclasses, ['mw-redirect']);
      assert.equal(pages.HaMissing.linkclasses, undefined);
      // An anonymous caller: HaTarget is protected (edit=sysop), MediaWiki: needs editinterface.
      assert.deepEqual(pages.HaTarget.actions, { edit: false, move: false, read: true, create: true, delete: false });
      assert.deepEqual(pages.HaRedir.actions, { edit: true, move: false, read: true, create: true, delete: false });
      assert.deepEqual(pages['MediaWiki:HaMsg'].actions, { edit: false, move: false, read: true, create: true, delete: false });
      const asAdmin = (await admin.api({ action: 'query', prop: 'info', titles: 'HaTarget', intestactions: 'edit|protect', format: 'json', formatversion: '2' })).json<Json>();
      assert.deepEqual(asAdmin.query.pages[0].actions, { edit: true, protect: true });
      const from = await q({ prop: 'info', titles: 'HaTarget|HaRedir|HaLonely', incontinue: '0|HaRedir' });
      const got = Object.fromEntries((from.query.pages as Json[]).map((p) => [p.title, 'lastrevid' in p]));
      assert.deepEqual(got, { HaLonely: false, HaRedir: true, HaTarget: true });
      assert.equal((await q({ prop: 'info', titles: 'HaTarget', incontinue: 'bad' })).error.code, 'badcontinue');
    });
    test('list=langbacklinks: by language and title, continuation, generator', async () => {
      const lang = await post({ action: 'edit', title: 'HaLang', text: '[[de:HaZiel]] [[fr:HaAutre]]' });
      assert.equal(lang.edit?.result, 'Success');
      const langId = lang.edit.pageid as number;
      let body: Json = {};
      await eventually(async () => {
        body = await q({ list: 'langbacklinks', lblprop: 'lllang|lltitle' });
        assert.equal(body.query.langbacklinks.length, 4);
      });
      // (language, title, page) order.
      assert.deepEqual(body.query.langbacklinks, [
        { pageid: id.HaTarget, ns: 0, title: 'HaTarget', lllang: 'de', lltitle: 'HaZiel' },
        { pageid: langId, ns: 0, title: 'HaLang', lllang: 'de', lltitle: 'HaZiel' },
        { pageid: langId, ns: 0, title: 'HaLang', lllang: 'fr', lltitle: 'HaAutre' },
        { pageid: id.HaTarget, ns: 0, title: 'HaTarget', lllang: 'fr', lltitle: 'HaCible' },
      ]);
      const first = await q({ list: 'langbacklinks', lbllang: 'de', lbllimit: '1' });
      assert.deepEqual(first.query.langbacklinks, [{ pageid: id.HaTarget, ns: 0, title: 'HaTarget' }]);
      assert.deepEqual(first.continue, { lblcontinue: `de|HaZiel|${langId}`, continue: '-||' });
      const down = await all({ list: 'langbacklinks', lbldir: 'descending', lbllimit: '3', lblprop: 'lllang' }, (b) => b.query.langbacklinks.map((l: Json) => `${l.lllang}:${l.title}`));
      assert.deepEqual(down.items, ['fr:HaTarget', 'fr:HaLang', 'de:HaLang', 'de:HaTarget']);
      assert.deepEqual((await q({ list: 'langbacklinks', lbllang: 'fr', lbltitle: 'HaCible', lblprop: 'lltitle' })).query.langbacklinks, [
        { pageid: id.HaTarget, ns: 0, title: 'HaTarget', lltitle: 'HaCible' },
      ]);
      const nolang = await q({ list: 'langbacklinks', lbltitle: 'HaZiel' });
      assert.equal(nolang.error.code, 'nolang');
      assert.equal(nolang.error.info, 'The "lbltitle" parameter may only be used with "lbllang".');
      const gen = await q({ generator: 'langbacklinks', glbllang: 'fr' });
      assert.deepEqual((gen.query.pages as Json[]).map((p) => p.title).sort(), ['HaLang', 'HaTarget']);
    });

    test('prop=duplicatefiles: same SHA-1 by name, both directions, continuation, generator', async () => {
      const same = png(4, 4, 7);
      for (const name of ['HaDupA.png', 'HaDupB.png', 'HaDupC.png']) assert.equal((await upload(admin, { filename: name, ignorewarnings: '1' }, same, 'image/png')).upload?.result, 'Success');
      assert.equal((await upload(admin, { filename: 'HaSolo.png' }, png(5, 5, 3), 'image/png')).upload?.result, 'Success');
      const names = (page: Json) => ((page.duplicatefiles ?? []) as Json[]).map((d) => d.name);
      const body = await q({ prop: 'duplicatefiles', titles: 'File:HaDupA.png|File:HaSolo.png|File:HaDupB.png|File:Nope.png' });
      const pages = Object.fromEntries((body.query.pages as Json[]).map((p) => [p.title, p]));
      assert.deepEqual(names(pages['File:HaDupA.png']), ['HaDupB.png', 'HaDupC.png']);
      assert.deepEqual(names(pages['File:HaDupB.png']), ['HaDupA.png', 'HaDupC.png']);
      assert.equal(pages['File:HaSolo.png'].duplicatefiles, undefined);
      assert.equal(pages['File:Nope.png'].missing, true);
      const dup = pages['File:HaDupA.png'].duplicatefiles[0];
      assert.deepEqual(Object.keys(dup), ['name', 'timestamp', 'shared', 'user']);
      assert.equal(dup.shared, false);
      assert.equal(dup.user, 'Sysop');

      const limited = await q({ prop: 'duplicatefiles', titles: 'File:HaDupA.png|File:HaDupB.png', dflimit: '3' });
      assert.deepEqual(limited.continue, { dfcontinue: 'HaDupB.png|HaDupC.png', continue: '||' });
      const rest = await q({ prop: 'duplicatefiles', titles: 'File:HaDupA.png|File:HaDupB.png', dflimit: '3', ...limited.continue });
      assert.deepEqual((rest.query.pages as Json[]).map(names), [[], ['HaDupC.png']]);
      const down = await q({ prop: 'duplicatefiles', titles: 'File:HaDupA.png|File:HaDupB.png', dflimit: '3', dfdir: 'descending' });
      assert.deepEqual(down.continue, { dfcontinue: 'HaDupA.png|HaDupB.png', continue: '||' });
      assert.deepEqual((down.query.pages as Json[]).map(names), [['HaDupC.png'], ['HaDupC.png', 'HaDupA.png']]);
      const gen = await q({ generator: 'duplicatefiles', titles: 'File:HaDupA.png' });
      assert.deepEqual(
        (gen.query.pages as Json[]).map((p) => p.title),
        ['File:HaDupB.png', 'File:HaDupC.png'],
      );
      assert.equal((await q({ prop: 'duplicatefiles', titles: 'File:HaDupA.png', dfcontinue: 'x' })).error.code, 'badcontinue');
      // list=allimages: the same files by SHA-1 (hex or base 36), and as a generator.
      const hex = createHash('sha1').update(same).digest('hex');
      const base36 = BigInt(`0x${hex}`).toString(36).padStart(31, '0');
      const bySha1 = async (params: Record<string, string>) => ((await q({ list: 'allimages', aiprop: '', ...params })).query.allimages as Json[]).map((f) => f.name);
      assert.deepEqual(await bySha1({ aisha1: hex }), ['HaDupA.png', 'HaDupB.png', 'HaDupC.png']);
      assert.deepEqual(await bySha1({ aisha1base36: base36 }), ['HaDupA.png', 'HaDupB.png', 'HaDupC.png']);
      assert.equal((await q({ list: 'allimages', aisha1base36: 'zz' })).error.code, 'invalidsha1base36hash');
      assert.equal((await q({ list: 'allimages', aisha1: 'abc' })).error.code, 'invalidsha1hash');
      const files = await q({ generator: 'allimages', gailimit: '2', gaiprefix: 'HaDup' });
      assert.deepEqual(
        (files.query.pages as Json[]).map((p) => p.title),
        ['File:HaDupA.png', 'File:HaDupB.png'],
      );
      assert.deepEqual(files.continue, { gaicontinue: 'HaDupC.png', continue: 'gaicontinue||' });
      const stats = (await q({ list: 'querypage', qppage: 'MediaStatistics' })).query.querypage.results as Json[];
      assert.deepEqual(stats, [{ value: '1', ns: -2, title: `Media:BITMAP;image/png;4;${3 * same.length + png(5, 5, 3).length}` }]);
      const unused = (await q({ list: 'querypage', qppage: 'Unusedimages', qplimit: '10' })).query.querypage.results as Json[];
      assert.deepEqual(unused.map((r) => r.title).sort(), ['File:HaDupA.png', 'File:HaDupB.png', 'File:HaDupC.png', 'File:HaSolo.png']);
      assert.ok(
        unused.every((r) => /^\d{14}$/.test(r.value) && /Z$/.test(r.timestamp)),
        'expected true',
      );
    });
    test('prop=contributors: anonymous editors counted, registered ones by actor, group and rights filters, continuation', async () => {
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, () => undefined);
      const alice = await loggedIn(wiki, 'Alice', 'alicepass123456');
      const anonEdit = async (title: string, text: string) =>
        assert.equal((await wiki.post('/w/api.php', { action: 'edit', title, text, token: '+\\', format: 'json' })).json<Json>().edit?.result, 'Success');
      for (const title of ['HaContrib', 'HaContrib2']) {
        await anonEdit(title, 'anon one');
        assert.equal((await alice.post('/w/api.php', { action: 'edit', title, text: 'alice', token: alice.csrf, format: 'json' })).json<Json>().edit?.result, 'Success');
        assert.equal((await post({ action: 'edit', title, text: 'sysop' })).edit?.result, 'Success');
        await anonEdit(title, 'anon again');
      }
      const body = await q({ prop: 'contributors', titles: 'HaContrib|HaContrib2|HaMissingX' });
      const pages = Object.fromEntries((body.query.pages as Json[]).map((p) => [p.title, p]));
      // Sysop's actor was created before Alice's: (page, actor) order.
      assert.deepEqual(
        pages.HaContrib.contributors.map((c: Json) => c.name),
        ['Sysop', 'Alice'],
      );
      assert.equal(pages.HaContrib.anoncontributors, 1);
      assert.ok(
        pages.HaContrib.contributors.every((c: Json) => typeof c.userid === 'number' && c.userid > 0),
        'expected true',
      );
      assert.equal(pages.HaMissingX.contributors, undefined);
      const names = async (params: Record<string, string>) => ((await q({ prop: 'contributors', titles: 'HaContrib', ...params })).query.pages[0].contributors ?? []).map((c: Json) => c.name);
      assert.deepEqual(await names({ pcgroup: 'sysop' }), ['Sysop']);
      assert.deepEqual(await names({ pcexcludegroup: 'sysop' }), ['Alice']);
      assert.deepEqual(await names({ pcrights: 'delete' }), ['Sysop']);
      assert.deepEqual(await names({ pcrights: 'edit' }), []);
      assert.deepEqual(await names({ pcexcluderights: 'block' }), ['Alice']);
      const mix = await q({ prop: 'contributors', titles: 'HaContrib', pcgroup: 'sysop', pcrights: 'block', pcexcludegroup: 'bot' });
      assert.equal(mix.error.info, 'The parameters "pcgroup", "pcexcludegroup" and "pcrights" can not be used together.');
      const paged = await all({ prop: 'contributors', titles: 'HaContrib|HaContrib2', pclimit: '1' }, (b) =>
        (b.query.pages as Json[]).flatMap((p) => ((p.contributors ?? []) as Json[]).map((c) => `${p.title}:${c.name}`)),
      );
      assert.deepEqual(paged.items, ['HaContrib:Sysop', 'HaContrib:Alice', 'HaContrib2:Sysop', 'HaContrib2:Alice']);
      assert.equal(paged.batches, 4);
    });
    test('prop=iwlinks and list=iwbacklinks: the iwlinks table from renders, urls, filters, continuation, generator', async () => {
      const iw = await post({ action: 'edit', title: 'HaIw', text: '[[wikipedia:foo bar#x]] [[mw:Help:Contents]] [[:fr:Bonjour]] [[wikt:test]] [[wikipedia:Zed]]' });
      const iw2 = await post({ action: 'edit', title: 'HaIw2', text: '[[wikipedia:Zed]] [[metawikimedia:Main Page]]' });
      const [a, b] = [iw.edit.pageid as number, iw2.edit.pageid as number];
      let body: Json = {};
      await eventually(async () => {
        body = await q({ prop: 'iwlinks', titles: 'HaIw|HaIw2', iwprop: 'url' });
        assert.equal(body.query.pages[1]?.iwlinks?.length, 2);
      });
      // (page, prefix, title) order; titles as DB keys without the fragment.
      assert.deepEqual(body.query.pages[0].iwlinks, [
        { prefix: 'fr', url: 'https://fr.wikipedia.org/wiki/Bonjour', title: 'Bonjour' },
        { prefix: 'mw', url: 'https://www.mediawiki.org/wiki/Help:Contents', title: 'Help:Contents' },
        { prefix: 'wikipedia', url: 'https://en.wikipedia.org/wiki/Zed', title: 'Zed' },
        { prefix: 'wikipedia', url: 'https://en.wikipedia.org/wiki/foo_bar', title: 'foo_bar' },
        { prefix: 'wikt', url: 'https://en.wiktionary.org/wiki/test', title: 'test' },
      ]);
      const limited = await q({ prop: 'iwlinks', titles: 'HaIw|HaIw2', iwlimit: '2' });
      assert.deepEqual(limited.continue, { iwcontinue: `${a}|wikipedia|Zed`, continue: '||' });
      const fv1 = await q({ prop: 'iwlinks', titles: 'HaIw', iwprefix: 'wikipedia', iwdir: 'descending' }, '1');
      assert.deepEqual(fv1.query.pages[a].iwlinks, [
        { prefix: 'wikipedia', '*': 'foo_bar' },
        { prefix: 'wikipedia', '*': 'Zed' },
      ]);
      assert.equal((await q({ prop: 'iwlinks', titles: 'HaIw', iwtitle: 'Zed' })).error.code, 'invalidparammix');
      assert.equal((await q({ prop: 'iwlinks', titles: 'HaIw', iwurl: '1', iwprop: 'url' })).error.info, 'The parameters "iwprop" and "iwurl" can not be used together.');

      const back = await q({ list: 'iwbacklinks', iwblprop: 'iwprefix|iwtitle' });
      assert.deepEqual(
        (back.query.iwbacklinks as Json[]).map((l) => `${l.iwprefix}:${l.iwtitle}:${l.pageid}`),
        [`fr:Bonjour:${a}`, `metawikimedia:Main_Page:${b}`, `mw:Help:Contents:${a}`, `wikipedia:Zed:${a}`, `wikipedia:Zed:${b}`, `wikipedia:foo_bar:${a}`, `wikt:test:${a}`],
      );
      assert.deepEqual((await q({ list: 'iwbacklinks', iwblprefix: 'wikipedia', iwbltitle: 'Zed' })).query.iwbacklinks, [
        { pageid: a, ns: 0, title: 'HaIw' },
        { pageid: b, ns: 0, title: 'HaIw2' },
      ]);
      assert.deepEqual((await q({ list: 'iwbacklinks', iwbllimit: '2' })).continue, { iwblcontinue: `mw|Help:Contents|${a}`, continue: '-||' });
      assert.equal((await q({ list: 'iwbacklinks', iwbltitle: 'Zed' })).error.code, 'invalidparammix');
      assert.deepEqual((await q({ generator: 'iwbacklinks', giwblprefix: 'mw' })).query.pages, [{ pageid: a, ns: 0, title: 'HaIw' }]);
      // A new revision replaces the page's rows.
      await post({ action: 'edit', title: 'HaIw2', text: 'no more links' });
      await eventually(async () => assert.equal((await q({ list: 'iwbacklinks', iwblprefix: 'metawikimedia' })).query.iwbacklinks.length, 0));
    });
  });
}
