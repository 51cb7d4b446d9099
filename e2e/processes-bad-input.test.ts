/*
 * No input may end a process. Titles that are not valid Unicode or hold illegal
 * characters used to kill the whole wiki: the content service put the error's data (the title)
 * into ASCII gRPC metadata and grpc-js threw outside any handler. Each request below gets
 * MediaWiki's answer, and the wiki answers the next request.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

for (const backend of testBackends()) {
  describe(`bad titles do not end the wiki (${backend})`, () => {
    let wiki: TestWiki;
    let user: WikiClient;
    let csrf: string;

    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Mover', 'moverpass123456'], wiki.testEnv.env, () => undefined);
      user = new WikiClient(wiki.baseUrl);
      const lt = (await user.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
      const login = (await user.post('/w/api.php', { format: 'json', action: 'login', lgname: 'Mover', lgpassword: 'moverpass123456', lgtoken: lt })).json();
      assert.equal(login.login.result, 'Success', JSON.stringify(login));
      csrf = (await user.api({ action: 'query', meta: 'tokens' })).json().query.tokens.csrftoken;
    });
    after(() => wiki.close());

    /** The wiki still serves: a page read succeeds. */
    async function stillServing() {
      const r = await wiki.rest('/v1/page/Main_Page');
      assert.equal(r.status, 200);
      assert.equal(r.json().title, 'Main Page');
    }

    for (const [path, shown] of [
      ['/v1/page/%C3%28%FF', '\uFFFD(\uFFFD'],
      ['/v1/page/Caf%C3%A9%5Bx%5D', 'Café[x]'],
    ] as const) {
      test(`GET /w/rest.php${path}: 404 in MediaWiki's REST shape (PageContentHelper: no such page), then the wiki serves on`, async () => {
        const r = await wiki.rest(path);
        assert.equal(r.status, 404);
        assert.deepEqual(r.json(), { messageTranslations: { en: `The specified title (${shown}) does not exist` }, httpCode: 404, httpReason: 'Not Found' });
        await stillServing();
      });
    }

    test('PUT /w/rest.php/v1/page/Café[x]: 400 invalidtitle, then the wiki serves on', async () => {
      const r = await user.request('PUT', '/w/rest.php/v1/page/Caf%C3%A9%5Bx%5D', JSON.stringify({ source: 'x', comment: 'c', token: csrf }), {
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(r.status, 400);
      const body = r.json();
      assert.equal(body.httpCode, 400);
      assert.equal(body.httpReason, 'Bad Request');
      assert.equal(body.actionModuleErrorCode, 'invalidtitle');
      assert.equal(body.messageTranslations.en, 'Bad title "Café[x]".');
      await stillServing();
    });

    test('action=query titles=Café[x]: the page is listed as invalid, then the wiki serves on', async () => {
      const r = await wiki.api({ action: 'query', titles: 'Café[x]', formatversion: '2' });
      assert.equal(r.status, 200);
      assert.deepEqual(r.json().query.pages, [{ title: 'Café[x]', invalidreason: 'The requested page title contains invalid characters: "[".', invalid: true }]);
      await stillServing();
    });

    test('action=query with a title that is not UTF-8: read as windows-1252 (Language::checkTitleEncoding), then the wiki serves on', async () => {
      const r = await wiki.get('/w/api.php?action=query&titles=%C3%28%FF&format=json&formatversion=2');
      assert.equal(r.status, 200);
      assert.deepEqual(r.json().query.pages, [{ ns: 0, title: 'Ã(ÿ', missing: true }]);
      await stillServing();
    });

    for (const title of ['Café[x]', '\uFFFD(\uFFFD']) {
      test(`action=edit title=${title}: invalidtitle, then the wiki serves on`, async () => {
        const r = await user.post('/w/api.php', { action: 'edit', format: 'json', formatversion: '2', title, text: 'x', token: csrf });
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('mediawiki-api-error'), 'invalidtitle');
        assert.equal(r.json().error.code, 'invalidtitle');
        assert.equal(r.json().error.info, `Bad title "${title}".`);
        await stillServing();
      });
    }

    test('action=move from=Café[x]: invalidtitle, then the wiki serves on', async () => {
      const r = await user.post('/w/api.php', { action: 'move', format: 'json', formatversion: '2', from: 'Café[x]', to: 'Elsewhere', token: csrf });
      assert.equal(r.status, 200);
      assert.equal(r.json().error?.code, 'invalidtitle', r.text);
      await stillServing();
    });

    for (const path of ['/w/images/%E0%A4%A', '/w/images/a/ab/%ZZ.png', '/w/images/archive/%E0/x/y']) {
      test(`GET ${path}: invalid percent-encoding of a file path is no file (404, plain text, no stack), then the wiki serves on`, async () => {
        const r = await wiki.get(path);
        assert.equal(r.status, 404);
        assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
        assert.equal(r.text, 'File not found\n');
        await stillServing();
      });
    }
  });
}
