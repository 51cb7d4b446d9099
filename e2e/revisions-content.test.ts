/*
 * prop=revisions' content options: rvsection, and what MediaWiki 1.39 still answers
 * with deprecation warnings — rvexpandtemplates, rvparse, rvprop=parsetree, rvcontentformat,
 * rvdiffto, rvdifftotext — in the legacy format, their refusals with rvslots, and the same
 * options on list=allrevisions (ApiQueryRevisionsBase).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const TEXT = 'intro {{PAGENAME}}\n== A ==\naaa [[Foo]]\n== B ==\nbbb';

for (const backend of testBackends()) {
  describe(`prop=revisions content options (${backend})`, () => {
    let wiki: TestWiki;
    const revids: number[] = [];
    const get = async (params: Record<string, string>) => (await wiki.api({ action: 'query', formatversion: '2', titles: 'Sectioned', prop: 'revisions', ...params })).json();
    const rev = async (params: Record<string, string>) => (await get(params)).query.pages[0].revisions[0];

    before(async () => {
      wiki = await startWiki(backend);
      for (const text of [TEXT.replace('intro', 'first'), TEXT]) {
        const j = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title: 'Sectioned', text })).json();
        assert.equal(j.edit?.result, 'Success', JSON.stringify(j));
        revids.push(j.edit.newrevid);
      }
    });
    after(() => wiki.close());

    test('rvsection: the section in both formats; a missing one is nosuchsection (legacy) or a slot flag', async () => {
      assert.deepEqual(await rev({ rvprop: 'content', rvsection: '1' }), { contentformat: 'text/x-wiki', contentmodel: 'wikitext', content: '== A ==\naaa [[Foo]]' });
      assert.equal((await rev({ rvprop: 'content', rvsection: '1', rvslots: 'main' })).slots.main.content, '== A ==\naaa [[Foo]]');
      const missing = await get({ rvprop: 'content', rvsection: '9' });
      assert.deepEqual([missing.error?.code, missing.error?.info], ['nosuchsection', `There is no section 9 in revision ${revids[1]}.`]);
      assert.equal((await rev({ rvprop: 'content', rvsection: '9', rvslots: 'main' })).slots.main.nosuchsection, true);
    });

    test('deprecated content fields: expandtemplates, parse, parsetree, contentformat — with their warnings', async () => {
      const expanded = await get({ rvprop: 'content', rvexpandtemplates: '1' });
      assert.deepEqual(expanded.query.pages[0].revisions[0], { content: 'intro Sectioned\n== A ==\naaa [[Foo]]\n== B ==\nbbb' });
      assert.match(expanded.warnings.revisions.warnings, /The parameter "rvexpandtemplates" has been deprecated\./);
      const parsed = await rev({ rvprop: 'content', rvparse: '1', rvsection: '2' });
      assert.deepEqual(Object.keys(parsed), ['content']);
      assert.match(parsed.content, /^<div class="mw-parser-output">/);
      assert.match(parsed.content, /bbb/);
      assert.doesNotMatch(parsed.content, /aaa/);
      const tree = await get({ rvprop: 'parsetree' });
      assert.match(tree.query.pages[0].revisions[0].parsetree, /^<root>intro <template><title>PAGENAME<\/title><\/template>/);
      assert.match(tree.warnings.revisions.warnings, /The value "parsetree" to parameter "rvprop" has been deprecated\./);
      const badFormat = await get({ rvprop: 'content', rvcontentformat: 'text/css' });
      assert.deepEqual(badFormat.query.pages[0].revisions[0], { badcontentformat: true });
      assert.match(badFormat.warnings.revisions.warnings, /The requested format text\/css is not supported for content model wikitext used by Sectioned\./);
    });

    test('rvdiffto and rvdifftotext: one diff per request, the rest notcached; errors', async () => {
      const prev = await rev({ rvprop: 'ids', rvdiffto: 'prev' });
      assert.equal(prev.diff.from, revids[0]);
      assert.equal(prev.diff.to, revids[1]);
      assert.match(prev.diff.body, /<del class="diffchange diffchange-inline">first<\/del>/);
      assert.match(prev.diff.body, /<!-- diff cache key quire:diff:wikidiff2:1\.12:old-\d+:rev-\d+:1\.13\.0 -->\n$/);
      const text = await rev({ rvprop: 'ids', rvdifftotext: 'xyz' });
      assert.deepEqual(Object.keys(text.diff), ['body']);
      assert.match(text.diff.body, /<div>xyz<\/div>/);
      const both = (await get({ rvprop: 'ids', rvdiffto: 'cur', rvlimit: '2' })).query.pages[0].revisions;
      assert.equal(both[1].diff.notcached, true);
      assert.equal((await get({ rvdiffto: 'abc' })).error?.code, 'diffto');
      assert.equal((await get({ rvdiffto: '999999' })).error?.code, 'nosuchrevid');
    });

    test('with rvslots the deprecated options are refused; list=allrevisions shares them', async () => {
      for (const [name, value] of [
        ['rvparse', '1'],
        ['rvdiffto', 'prev'],
        ['rvcontentformat', 'text/x-wiki'],
        ['rvprop', 'parsetree'],
      ] as const) {
        const r = await get({ rvprop: name === 'rvprop' ? value : 'content', rvslots: 'main', ...(name === 'rvprop' ? {} : { [name]: value }) });
        assert.equal(r.error?.code, 'invalidparammix', name);
      }
      const all = (await wiki.api({ action: 'query', formatversion: '2', list: 'allrevisions', arvprop: 'content', arvsection: '2', arvlimit: '1' })).json();
      assert.equal(all.query.allrevisions[0].revisions[0].content, '== B ==\nbbb');
    });
  });
}
