/*
 * Reading through the action API on the whole wiki: list=allpages and
 * generator=allpages with continuation in both format versions, combined with prop=info and
 * prop=revisions, and prop=revisions' enumeration filters.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const GENEROUS_LIMITS = JSON.stringify({ edit: { ip: [100000, 60] } });

type Json = Record<string, any>;

for (const backend of testBackends()) {
  describe(`action API reads on ${backend}`, () => {
    let wiki: TestWiki;
    const api = async (params: Record<string, string>): Promise<Json> => (await wiki.api(params)).json<Json>();
    async function edit(title: string, text: string, extra: Record<string, string> = {}) {
      const r = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title, text, ...extra })).json<Json>();
      assert.ok(r.edit?.newrevid, JSON.stringify(r));
      return r.edit.newrevid as number;
    }

    before(async () => {
      wiki = await startWiki(backend, { RATE_LIMITS: GENEROUS_LIMITS });
      await edit('Apple', 'apple text');
      await edit('Apricot', '#REDIRECT [[Apple]]');
      await edit('Banana', 'b');
      await edit('Talk:Apple', 'talk');
      for (let i = 0; i < 4; i++) await edit('Cherry', `cherry ${i}`, { summary: `cherry <${i}>` });
    });
    after(() => wiki?.close());

    test('list=allpages: order, filters and continuation followed to the end (fv1 and fv2)', async () => {
      const all = await api({ action: 'query', list: 'allpages', aplimit: 'max', formatversion: '2' });
      assert.deepEqual(
        all.query.allpages.map((p: Json) => p.title),
        ['Apple', 'Apricot', 'Banana', 'Cherry', 'Main Page'],
      );
      assert.deepEqual(Object.keys(all.query.allpages[0]), ['pageid', 'ns', 'title']);
      assert.equal(all.batchcomplete, true);
      assert.equal(all.limits.allpages, 500);

      const titles: string[] = [];
      let cont: Json = { continue: '' };
      let rounds = 0;
      for (;;) {
        const r = await api({ action: 'query', list: 'allpages', aplimit: '2', ...cont });
        rounds++;
        titles.push(...r.query.allpages.map((p: Json) => p.title));
        assert.equal(r.batchcomplete, '', 'fv1: batchcomplete is an empty string');
        if (!r.continue) break;
        assert.equal(r.continue.continue, '-||');
        cont = r.continue;
      }
      assert.equal(rounds, 3);
      assert.deepEqual(titles, ['Apple', 'Apricot', 'Banana', 'Cherry', 'Main Page']);
      const first = await api({ action: 'query', list: 'allpages', aplimit: '2' });
      assert.deepEqual(first.continue, { apcontinue: 'Banana', continue: '-||' });

      const q = async (extra: Record<string, string>) => (await api({ action: 'query', list: 'allpages', formatversion: '2', ...extra })).query.allpages.map((p: Json) => p.title);
      assert.deepEqual(await q({ apfrom: 'apr', apto: 'Cherry' }), ['Apricot', 'Banana', 'Cherry']);
      assert.deepEqual(await q({ apprefix: 'Ap' }), ['Apple', 'Apricot']);
      assert.deepEqual(await q({ apfilterredir: 'redirects' }), ['Apricot']);
      assert.deepEqual(await q({ apnamespace: '1' }), ['Talk:Apple']);
      assert.deepEqual(await q({ apdir: 'descending', aplimit: '2' }), ['Main Page', 'Cherry']);
      assert.deepEqual(await q({ apmaxsize: '1' }), ['Banana']);
      assert.deepEqual(await q({ apminsize: '19' }), ['Apricot', 'Main Page']);
    });

    test('generator=allpages with prop=info|revisions: pages, gapcontinue and batchcomplete', async () => {
      const fv2 = await api({ action: 'query', generator: 'allpages', gaplimit: '2', prop: 'info|revisions', formatversion: '2' });
      assert.deepEqual(fv2.continue, { gapcontinue: 'Banana', continue: 'gapcontinue||' });
      assert.equal(fv2.batchcomplete, true);
      assert.deepEqual(
        fv2.query.pages.map((p: Json) => p.title),
        ['Apple', 'Apricot'],
      );
      const apricot = fv2.query.pages.find((p: Json) => p.title === 'Apricot');
      assert.equal(apricot.redirect, true);
      assert.equal(apricot.revisions.length, 1);
      assert.equal(apricot.revisions[0].user, '127.0.0.1');

      const fv1 = await api({ action: 'query', generator: 'allpages', gaplimit: '2', gapcontinue: 'Banana', prop: 'info' });
      assert.deepEqual(
        Object.values(fv1.query.pages)
          .map((p: any) => p.title)
          .sort(),
        ['Banana', 'Cherry'],
      );
      assert.deepEqual(fv1.continue, { gapcontinue: 'Main_Page', continue: 'gapcontinue||' });
      const last = await api({ action: 'query', generator: 'allpages', gaplimit: '2', gapcontinue: 'Main_Page', prop: 'info', continue: 'gapcontinue||' });
      assert.equal(last.continue, undefined);
      assert.equal(last.batchcomplete, '');
      assert.equal(last.warnings, undefined, 'generator parameters are recognized');

      const withList = await api({ action: 'query', generator: 'allpages', gaplimit: '1', list: 'allpages', aplimit: '2' });
      assert.deepEqual(withList.continue, { apcontinue: 'Banana', gapcontinue: 'Apricot', continue: 'gapcontinue||' });

      const redirects = await api({ action: 'query', generator: 'allpages', redirects: '1' });
      assert.equal(redirects.error.code, 'params');
      assert.equal(redirects.error.info, 'Use "gapfilterredir=nonredirects" instead of "redirects" when using "allpages" as a generator.');
    });

    test('prop=revisions: rvuser/rvexcludeuser, rvstart/rvend, rvtag, parsedcomment', async () => {
      const revs = async (extra: Record<string, string>) =>
        (await api({ action: 'query', prop: 'revisions', titles: 'Cherry', formatversion: '2', rvprop: 'ids|comment|parsedcomment|timestamp', ...extra })).query.pages[0].revisions ?? [];
      const all = await revs({ rvlimit: 'max' });
      assert.equal(all.length, 4);
      assert.equal(all[0].parsedcomment, 'cherry &lt;3&gt;');
      assert.equal(all[0].comment, 'cherry <3>');
      assert.equal((await revs({ rvuser: '127.0.0.1' })).length, 4);
      assert.equal((await revs({ rvexcludeuser: '127.0.0.1' })).length, 0);
      assert.equal((await revs({ rvstart: all[1].timestamp, rvend: all[1].timestamp })).length >= 1, true);
      assert.deepEqual(await revs({ rvtag: 'no-such-tag' }), []);
      const mix = await api({ action: 'query', prop: 'revisions', titles: 'Cherry', rvuser: 'a', rvexcludeuser: 'b', formatversion: '2' });
      assert.equal(mix.errors?.[0]?.code ?? mix.error?.code, 'invalidparammix');
    });
  });
}
