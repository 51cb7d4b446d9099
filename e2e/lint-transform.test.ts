/*
 * REST lint and transform routes: lints of a page, a revision and posted
 * wikitext (Parsoid's categories, dsr in UTF-8 bytes), posted wikitext rendered as the Parsoid
 * document, the redirect of a title without wikitext to its latest revision, and MediaWiki's
 * errors (400 without input, 404 for a missing page or revision, 415).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const LINTED = 'é<center>x</center>\n<b>y';

for (const backend of testBackends()) {
  describe(`lint and transform on ${backend}`, () => {
    let wiki: TestWiki;
    let revId = 0;
    before(async () => {
      wiki = await startWiki(backend);
      const r = await wiki.post('/w/api.php', { action: 'edit', title: 'Linted', text: LINTED, token: ANON_TOKEN, format: 'json' });
      assert.equal(r.json().edit?.result, 'Success', r.text);
      revId = r.json().edit.newrevid;
    });
    after(() => wiki?.close());

    const expected = [
      { type: 'obsolete-tag', dsr: [2, 20, 8, 9], params: { name: 'center' } },
      { type: 'missing-end-tag', dsr: [21, 25, 3, 0], params: { name: 'b', inTable: false } },
    ];

    test('page and revision lint: byte offsets, 404 for what does not exist', async () => {
      const p = await wiki.rest('/v1/page/Linted/lint');
      assert.equal(p.status, 200);
      assert.match(p.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(p.json(), expected);
      const r = await wiki.rest(`/v1/revision/${revId}/lint`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.json(), expected);
      const missing = await wiki.rest('/v1/page/No_such_page_here/lint');
      assert.equal(missing.status, 404);
      assert.equal(missing.json().httpCode, 404);
      assert.equal((await wiki.rest('/v1/revision/987654/lint')).status, 404);
    });

    test('POST wikitext/to/lint takes JSON or a form; no input is a 400; other types a 415', async () => {
      const json = await wiki.request('POST', '/w/rest.php/v1/transform/wikitext/to/lint', JSON.stringify({ wikitext: '<span>x</div>' }), { headers: { 'content-type': 'application/json' } });
      assert.equal(json.status, 200);
      assert.deepEqual(json.json(), [
        { type: 'missing-end-tag', dsr: [0, 13, 6, 0], params: { name: 'span', inTable: false } },
        { type: 'stripped-tag', dsr: [7, 13, null, null], params: { name: 'div' } },
      ]);
      const form = await wiki.post('/w/rest.php/v1/transform/wikitext/to/lint/Linted', { wikitext: 'fine text' });
      assert.equal(form.status, 200);
      assert.deepEqual(form.json(), []);
      // A title without wikitext is redirected to its latest revision (TransformHandler), whose stored text is linted.
      const moved = await wiki.request('POST', '/w/rest.php/v1/transform/wikitext/to/lint/Linted', '{}', { headers: { 'content-type': 'application/json' } });
      assert.equal(moved.status, 307);
      const location = moved.headers.get('location') ?? '';
      assert.equal(location, `${wiki.baseUrl}/w/rest.php/v1/transform/wikitext/to/lint/Linted/${revId}`);
      const stored = await wiki.request('POST', location.slice(wiki.baseUrl.length), '{}', { headers: { 'content-type': 'application/json' } });
      assert.equal(stored.headers.get('content-revision-id'), String(revId));
      assert.deepEqual(stored.json(), expected);
      const none = await wiki.request('POST', '/w/rest.php/v1/transform/wikitext/to/lint', '{}', { headers: { 'content-type': 'application/json' } });
      assert.equal(none.status, 400);
      assert.equal(none.json().message, 'No title or wikitext was provided.');
      const plain = await wiki.request('POST', '/w/rest.php/v1/transform/wikitext/to/lint', 'x', { headers: { 'content-type': 'text/plain' } });
      assert.equal(plain.status, 415);
    });

    test('POST wikitext/to/html renders a Parsoid document in the title context', async () => {
      const r = await wiki.request('POST', '/w/rest.php/v1/transform/wikitext/to/html/Linted', JSON.stringify({ wikitext: '[[Linted]] and [[Nowhere]] on {{PAGENAME}}\n== Head ==\ntext' }), {
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/HTML/2.6.0"');
      assert.equal(r.headers.get('content-language'), 'en');
      assert.match(r.text, /^<!DOCTYPE html>/);
      assert.match(r.text, /<title>Linted<\/title>/);
      assert.match(r.text, /<section data-mw-section-id="0"[^>]*><p[^>]*><a rel="mw:WikiLink" href="\.\/Linted"[^>]*>Linted<\/a> and <a rel="mw:WikiLink" href="\.\/Nowhere"[^>]*class="new"/);
      assert.match(r.text, /on <span about="#mwt1" typeof="mw:Transclusion"[^>]*>Linted<\/span>/);
      assert.match(r.text, /<section data-mw-section-id="1"[^>]*><h2 id="Head"/);
      const bare = await wiki.post('/w/rest.php/v1/transform/wikitext/to/html', { wikitext: "'''bold'''" });
      assert.equal(bare.status, 200);
      assert.match(bare.text, /<b[^>]*>bold<\/b>/);
      const none = await wiki.request('POST', '/w/rest.php/v1/transform/wikitext/to/html', '{}', { headers: { 'content-type': 'application/json' } });
      assert.equal(none.status, 400);
      const stored = await wiki.request('POST', `/w/rest.php/v1/transform/wikitext/to/html/Linted/${revId}`, '{}', { headers: { 'content-type': 'application/json' } });
      assert.equal(stored.status, 200);
      assert.match(stored.text, /<center[^>]*>x<\/center>/);
      const gone = await wiki.request('POST', '/w/rest.php/v1/transform/wikitext/to/html/Linted/987654', '{}', { headers: { 'content-type': 'application/json' } });
      assert.equal(gone.status, 404);
    });
  });
}
