/*
 * POST /w/rest.php/coredev/v0/transform/{from}/to/{format}[/{title}[/{revision}]] with
 * REST_DEV_ROUTES=1 (MediaWiki's TransformHandler from coreDevelopmentRoutes.json): bodies as JSON,
 * form or multipart; Accept negotiation (406); wikitext or html as a string or {body, headers};
 * `original` title/revid/wikitext; the 307 to the latest revision; body_only; contentmodel=json;
 * MediaWiki's HttpException bodies. Expected values are MediaWiki 1.39's answers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const PREFIX = '/w/rest.php/coredev/v0/transform';
const html = (version: string) => `text/html; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/HTML/${version}"`;
const WIKITEXT_CONTENT_TYPE = 'text/plain; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/wikitext/1.0.0"';

for (const backend of testBackends()) {
  describe(`coredev transform routes on ${backend}`, () => {
    let wiki: TestWiki;
    let revId = 0;
    before(async () => {
      wiki = await startWiki(backend, { REST_DEV_ROUTES: '1' });
      const r = await wiki.post('/w/api.php', { action: 'edit', title: 'Transform source', text: "== Head ==\n''text''", token: ANON_TOKEN, format: 'json' });
      assert.equal(r.json().edit?.result, 'Success', r.text);
      revId = r.json().edit.newrevid;
    });
    after(() => wiki?.close());

    const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      wiki.request('POST', PREFIX + path, JSON.stringify(body), { headers: { 'content-type': 'application/json', ...headers } });

    test('wikitext to html from JSON, form and multipart bodies; the trailing slash is an empty title', async () => {
      const multipart = new FormData();
      multipart.append('wikitext', '== h2 ==');
      const answers = [
        await postJson('/wikitext/to/html/', { wikitext: '== h2 ==' }),
        await wiki.post(`${PREFIX}/wikitext/to/html/`, { wikitext: '== h2 ==' }),
        await wiki.request('POST', `${PREFIX}/wikitext/to/html/`, multipart),
        await postJson('/wikitext/to/html', { wikitext: { headers: { 'content-type': 'text/plain' }, body: '== h2 ==' } }),
      ];
      for (const r of answers) {
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers.get('content-type'), html('2.6.0'));
        assert.equal(r.headers.get('cache-control'), 'private,no-cache,s-maxage=0');
        assert.match(r.text, /<body[^>]*><section data-mw-section-id="0"[^>]*><\/section><section data-mw-section-id="1"[^>]*><h2 id="h2"[^>]*>h2<\/h2><\/section><\/body>/);
      }
    });

    test('Accept picks the HTML version; nothing producible is a 406 "Not acceptable"', async () => {
      const accept = async (value: string) => postJson('/wikitext/to/html/', { wikitext: 'x' }, { accept: value });
      const v999 = await accept('text/html; profile="https://www.mediawiki.org/wiki/Specs/HTML/2.4.0"; q=0.5, text/html; profile="https://www.mediawiki.org/wiki/Specs/HTML/999.0.0"; q=0.8');
      assert.equal(v999.headers.get('content-type'), html('999.0.0'));
      assert.match(v999.text, /<meta property="mw:htmlVersion" content="999.0.0"\/>/);
      assert.equal((await accept('text/html; profile="https://www.mediawiki.org/wiki/Specs/HTML/2.0.0"')).headers.get('content-type'), html('2.6.0'));
      assert.equal((await accept('*/*')).status, 200);
      for (const refused of ['text/html; profile="https://www.mediawiki.org/wiki/Specs/HTML/0.0.0"', 'text/html; profile="something different"', 'application/json']) {
        const r = await accept(refused);
        assert.equal(r.status, 406, refused);
        assert.deepEqual(r.json(), { message: 'Not acceptable', httpCode: 406, httpReason: 'Not Acceptable' });
      }
    });

    test('only wikitext to html|lint and html to wikitext exist: other pairs are 404 "Invalid transform"', async () => {
      for (const path of ['/wikitext/to/pagebundle/', '/pagebundle/to/wikitext/', '/pagebundle/to/pagebundle/Reuse_Page/100', '/html/to/html']) {
        const r = await postJson(path, { wikitext: 'x' });
        assert.equal(r.status, 404, path);
        const [from, , format] = path.split('/').slice(1);
        assert.deepEqual(r.json(), { message: `Invalid transform: ${from}/to/${format}`, httpCode: 404, httpReason: 'Not Found' });
      }
      const lint = await postJson('/wikitext/to/lint/', { wikitext: '<span>x</div>' });
      assert.equal(lint.status, 200);
      assert.deepEqual(
        lint.json().map((l: { type: string }) => l.type),
        ['missing-end-tag', 'stripped-tag'],
      );
    });

    test('without wikitext: a title is needed (400); the page redirects to its latest revision (307); a revision is rendered', async () => {
      const none = await postJson('/wikitext/to/html/', {});
      assert.equal(none.status, 400);
      assert.equal(none.json().message, 'No title or wikitext was provided.');

      const moved = await postJson('/wikitext/to/html/?body_only=1', { original: { title: 'Transform_source' } });
      assert.equal(moved.status, 307);
      assert.equal(moved.headers.get('location'), `${wiki.baseUrl}${PREFIX}/wikitext/to/html/Transform%20source/${revId}?body_only=1`);
      assert.equal(moved.headers.get('cache-control'), 'private,no-cache,s-maxage=0');
      // A form nests `original[title]` as PHP's $_POST does.
      const movedByForm = await wiki.post(`${PREFIX}/wikitext/to/html/`, { 'original[title]': 'Transform source' });
      assert.equal(movedByForm.status, 307);
      assert.equal(movedByForm.headers.get('location'), `${wiki.baseUrl}${PREFIX}/wikitext/to/html/Transform%20source/${revId}`);

      const stored = await postJson(`/wikitext/to/html/Transform_source/${revId}`, {});
      assert.equal(stored.status, 200);
      assert.equal(stored.headers.get('content-revision-id'), String(revId));
      assert.match(stored.text, /<i[^>]*>text<\/i>/);

      const missingPage = await postJson('/wikitext/to/html/Doesnotexist', {});
      assert.deepEqual(missingPage.json(), { message: 'The specified revision does not exist.', httpCode: 404, httpReason: 'Not Found' });
      // A revision alone names no page: the title is still missing.
      assert.equal((await postJson('/wikitext/to/html/', { original: { revid: revId } })).status, 400);
      const missingRevision = await postJson('/wikitext/to/html/Main_Page', { original: { revid: 987654 } });
      assert.deepEqual(missingRevision.json(), { message: 'The specified revision is deleted or suppressed.', httpCode: 404, httpReason: 'Not Found' });
      // Posted source needs no existing page or revision.
      assert.equal((await postJson('/wikitext/to/html/Doesnotexist/987654', { original: { wikitext: { body: 'x' } } })).status, 200);
    });

    test('body_only answers the children of <body> without section wrappers', async () => {
      const r = await postJson('/wikitext/to/html/', { wikitext: "''foo''\n== h ==", body_only: 1 });
      assert.equal(r.status, 200);
      assert.doesNotMatch(r.text, /<body|<section/);
      assert.match(r.text, /^<p[^>]*><i[^>]*>foo<\/i><\/p>\n?<h2 id="h"[^>]*>h<\/h2>$/);
      const off = await wiki.post(`${PREFIX}/wikitext/to/html/`, { wikitext: 'x', body_only: '0' });
      assert.match(off.text, /^<!DOCTYPE html>/);
    });

    test('contentmodel=json renders and reads back the JSON tables', async () => {
      const table = await postJson('/wikitext/to/html/', { wikitext: '{"1":2}', contentmodel: 'json', body_only: true });
      assert.equal(table.text, '<table class="mw-json mw-json-object"><tbody><tr><th>1</th><td class="value mw-json-number">2</td></tr></tbody></table>');
      const back = await postJson('/html/to/wikitext/', { html: table.text, contentmodel: 'json' });
      assert.equal(back.text, '{"1":2}');
      const notTable = await postJson('/html/to/wikitext/', { html: '<p>x</p>', contentmodel: 'json' });
      assert.equal(notTable.status, 400);
    });

    test('html to wikitext: html is required; string or {body, headers}; title and revision from the path or the original', async () => {
      const none = await postJson('/html/to/wikitext/', {});
      assert.deepEqual(none.json(), { message: 'No html was supplied.', httpCode: 400, httpReason: 'Bad Request' });
      for (const [path, body] of [
        ['/html/to/wikitext/Doesnotexist', { html: '<pre>hi ho</pre>' }],
        ['/html/to/wikitext/', { html: { headers: { 'content-type': 'text/html' }, body: '<pre>hi ho</pre>' } }],
        [`/html/to/wikitext/Transform_source/${revId}`, { html: '<pre>hi ho</pre>' }],
        ['/html/to/wikitext/', { html: '<pre>hi ho</pre>', original: { revid: revId, title: 'Transform source' } }],
      ] as const) {
        const r = await postJson(path, body);
        assert.equal(r.status, 200, path);
        assert.equal(r.headers.get('content-type'), WIKITEXT_CONTENT_TYPE);
        assert.equal(r.text, ' hi ho\n');
      }
      const normalized = await postJson('/html/to/wikitext/', { html: '<h2></h2>', original: { title: 'Doesnotexist' } });
      assert.equal(normalized.text, '');
      const gone = await postJson('/html/to/wikitext/Doesnotexist/987654', { html: '<p>x</p>' });
      assert.equal(gone.status, 404);
      assert.equal(gone.json().message, 'The specified revision is deleted or suppressed.');
    });

    test('bodies it cannot read are client errors, in ParsoidHandler::getParsedBody words', async () => {
      const plain = await wiki.request('POST', `${PREFIX}/wikitext/to/html/`, 'x', { headers: { 'content-type': 'text/plain' } });
      assert.deepEqual(plain.json(), { message: 'Unsupported Media Type', httpCode: 415, httpReason: 'Unsupported Media Type' });
      for (const text of ['{', '"x"', 'null']) {
        const r = await wiki.request('POST', `${PREFIX}/wikitext/to/html/`, text, { headers: { 'content-type': 'application/json' } });
        assert.deepEqual(r.json(), { message: 'Payload does not JSON decode to an array.', httpCode: 400, httpReason: 'Bad Request' }, text);
      }
      // A JSON list is a PHP array too: it just holds no wikitext.
      assert.equal((await postJson('/wikitext/to/html/', ['x'])).json().message, 'No title or wikitext was provided.');
      assert.equal((await wiki.request('POST', `${PREFIX}/wikitext/to/html/`, 'x', { headers: { 'content-type': 'multipart/form-data' } })).status, 400);
      // Source that is not text is no source.
      assert.equal((await postJson('/wikitext/to/html/', { wikitext: ['a'] })).status, 400);
    });
  });
}
