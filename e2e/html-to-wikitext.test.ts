/*
 * REST POST /v1/transform/html/to/wikitext[/{title}[/{revision}]]: the
 * Parsoid document our wikitext/to/html route serves goes back to the same wikitext, through JSON
 * and form bodies; MediaWiki's errors (400 without html or with a bad title, 404 for a revision
 * that is not the page's, 415 for other bodies).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const WIKITEXT_CONTENT_TYPE = 'text/plain; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/wikitext/1.0.0"';
const ARTICLE =
  "'''Cats''' are [[Cat target|animals]] and [[No such cat page]]s.<ref name=\"s\">Smith ''2001''.</ref>\n\n" +
  '== Behaviour ==\n* They sleep.\n*# Mostly.\n; Hunting\n: Mice, see [https://example.org the site].<ref name="s" />\n\n' +
  '{{Cat box|colour=grey|Tabby}}\n\n{| class="wikitable"\n! Trait\n! Value\n|-\n| Legs\n| 4\n|}\n\n' +
  '<nowiki>[[literal]]</nowiki>\n\n== Notes ==\n<references />\n\n[[Category:Cats|Domestic]]';

for (const backend of testBackends()) {
  describe(`html to wikitext on ${backend}`, () => {
    let wiki: TestWiki;
    let revId = 0;
    before(async () => {
      wiki = await startWiki(backend);
      const pages: [string, string][] = [
        ['Cat target', 'x'],
        ['Template:Cat box', '<div class="box">{{{colour}}}: {{{1}}}</div>'],
        ['Cats', ARTICLE],
      ];
      for (const [title, text] of pages) {
        const r = await wiki.post('/w/api.php', { action: 'edit', title, text, token: ANON_TOKEN, format: 'json' });
        assert.equal(r.json().edit?.result, 'Success', r.text);
        revId = r.json().edit.newrevid;
      }
    });
    after(() => wiki?.close());

    const toWikitext = (path: string, html: string) =>
      wiki.request('POST', `/w/rest.php/v1/transform/html/to/wikitext${path}`, JSON.stringify({ html }), { headers: { 'content-type': 'application/json' } });

    test('the stored page and posted wikitext round-trip through the Parsoid document (JSON body)', async () => {
      const page = await wiki.rest('/v1/page/Cats/html');
      assert.equal(page.status, 200);
      const back = await toWikitext('/Cats', page.text);
      assert.equal(back.status, 200);
      assert.equal(back.headers.get('content-type'), WIKITEXT_CONTENT_TYPE);
      assert.equal(back.headers.get('cache-control'), 'private,no-cache,s-maxage=0');
      assert.equal(back.text, ARTICLE);
      const posted = await wiki.request('POST', '/w/rest.php/v1/transform/wikitext/to/html/Cats', JSON.stringify({ wikitext: '#REDIRECT [[Cat target]]' }), {
        headers: { 'content-type': 'application/json' },
      });
      assert.equal((await toWikitext('', posted.text)).text, '#REDIRECT [[Cat target]]');
    });

    test('form bodies, the revision context and edited HTML', async () => {
      const form = await wiki.post(`/w/rest.php/v1/transform/html/to/wikitext/Cats/${revId}`, {
        html: '<p>New <b>bold</b> text linking <a rel="mw:WikiLink" href="./Cat_target" title="Cat target">Cat target</a> and {{braces}}</p><h2>Head</h2><ol><li>one</li></ol>',
      });
      assert.equal(form.status, 200);
      assert.equal(form.text, "New '''bold''' text linking [[Cat target]] and <nowiki>{{</nowiki>braces<nowiki>}}</nowiki>\n== Head ==\n# one");
    });

    test('errors: no html 400, bad title 400, foreign revision 404, other content types 415', async () => {
      const none = await wiki.request('POST', '/w/rest.php/v1/transform/html/to/wikitext', '{}', { headers: { 'content-type': 'application/json' } });
      assert.equal(none.status, 400);
      assert.equal(none.json().message, 'No html was supplied.');
      const noneForm = await wiki.post('/w/rest.php/v1/transform/html/to/wikitext/Cats', { wikitext: 'x' });
      assert.equal(noneForm.status, 400);
      const badTitle = await toWikitext('/%5B%5Bbad%5D%5D', '<p>x</p>');
      assert.equal(badTitle.status, 400);
      const foreign = await toWikitext(`/Cat_target/${revId}`, '<p>x</p>');
      assert.equal(foreign.status, 404);
      assert.equal(foreign.json().httpCode, 404);
      assert.equal((await toWikitext('/Cats/987654', '<p>x</p>')).status, 404);
      const plain = await wiki.request('POST', '/w/rest.php/v1/transform/html/to/wikitext', '<p>x</p>', { headers: { 'content-type': 'text/html' } });
      assert.equal(plain.status, 415);
    });
  });
}
