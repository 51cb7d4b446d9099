/*
 * What a render reports about the page, as MediaWiki 1.39's action=parse (values taken from the
 * reference wiki): categories' sort keys, display titles, section offsets, redirects.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest } from './testing.js';

const pages = new MemoryLookup({ 'Main Page': 'x', 'Template:Tpl': 'long template output {{{1|}}}' });
const render = (text: string) => renderTest(text, { title: 'API', pages, req: { limitReport: false } });

describe('page properties and metadata', () => {
  test('a category without a sort key takes {{DEFAULTSORT:}}', async () => {
    const r = await render('[[Category:A]]{{DEFAULTSORT:Zed}}[[Category:B|bee]]');
    assert.deepEqual(
      r.categories.map((c) => [c.dbkey, c.sortkey]),
      [
        ['A', 'Zed'],
        ['B', 'bee'],
      ],
    );
  });

  test('an ignored display title puts the page in its tracking category', async () => {
    const r = await render('{{DISPLAYTITLE:Other}}');
    assert.deepEqual(r.properties, {});
    assert.deepEqual(
      r.categories.map((c) => c.dbkey),
      ['Pages_with_ignored_display_titles'],
    );
    assert.deepEqual((await render('{{DISPLAYTITLE:<i>API</i>}}')).properties, { displaytitle: '<i>API</i>' });
  });

  test('section byte offsets count include tags and templates as written', async () => {
    const offsets = async (text: string) => (await render(text)).sections.map((s) => s.byteoffset);
    assert.deepEqual(await offsets('<includeonly>aaa</includeonly><noinclude>bb</noinclude>\n== B ==\n'), [56]);
    assert.deepEqual(await offsets('<onlyinclude>x</onlyinclude>\n== B ==\n== C ==\n'), [29, 37]);
    assert.deepEqual(await offsets('== A ==\n{{Tpl|éé}}\n== B ==\n'), [0, 21]);
  });

  test('a redirect to a section shows the fragment', async () => {
    const r = await render('#REDIRECT [[Main Page#Sec tion]]');
    assert.ok(r.html.includes('<a href="/wiki/Main_Page#Sec_tion" title="Main Page">Main Page#Sec tion</a>'), r.html);
  });
});
