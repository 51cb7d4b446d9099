/*
 * The first slice through every layer: HTTP → gateway pipelines → gRPC →
 * content/auth services → PGlite or PostgreSQL/Redis, on a freshly started wiki whose only page
 * is the Main Page the content service creates on first start (1 page, 1 edit).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const DOCREF_TAIL =
  'Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.';
const MAILING_LIST_WARNING =
  'Subscribe to the mediawiki-api-announce mailing list at <https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/> for notice of API deprecations and breaking changes.';
const LEGACY_WARNING = 'Because "rvslots" was not specified, a legacy format has been used for the output. This format is deprecated, and in the future the new format will always be used.';
const ALL_REVISION_PROPS = 'ids|timestamp|content|user|comment|size|sha1';
/** One of each kind of title MediaWiki reports differently, plus one that needs normalizing. */
const MIXED_TITLES = 'Main_Page|Nope|Special:Foo|a<b|Talk:';

for (const backend of testBackends()) {
  describe(`slice on ${backend}`, () => {
    let wiki: TestWiki;
    /** The Main Page's wikitext as REST serves it (the revision modules must agree). */
    let mainSource = '';
    let mainRevId = 0;

    before(async () => {
      wiki = await startWiki(backend);
      const page = (await wiki.rest('/v1/page/Main_Page')).json();
      mainSource = page.source;
      mainRevId = page.latest.id;
    });
    after(() => wiki?.close());

    test('/healthz reports every service serving', async () => {
      const r = await wiki.get('/healthz');
      assert.equal(r.status, 200);
      const { status, services } = r.json();
      assert.deepEqual({ status, services }, { status: 'ok', services: { auth: 'serving', content: 'serving', search: 'serving' } });
    });

    describe('meta=siteinfo', () => {
      test('general describes this wiki', async () => {
        const r = await wiki.api({ action: 'query', meta: 'siteinfo' });
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
        const j = r.json();
        assert.equal(j.batchcomplete, '');
        const g = j.query.general;
        assert.equal(g.mainpage, 'Main Page');
        assert.equal(g.server, wiki.baseUrl);
        assert.equal(g.base, `${wiki.baseUrl}/wiki/Main_Page`);
        assert.equal(g.articlepath, '/wiki/$1');
        assert.equal(g.scriptpath, '/w');
        assert.equal(g.case, 'first-letter');
        assert.equal(g.lang, 'en');
        assert.equal(g.writeapi, '', 'fv1 true boolean is ""');
        assert.ok(!('readonly' in g), 'fv1 drops false booleans');
        assert.match(g.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      });

      test('namespaces, aliases and statistics in formatversion 1', async () => {
        const q = (await wiki.api({ action: 'query', meta: 'siteinfo', siprop: 'namespaces|namespacealiases|statistics' })).json().query;
        assert.deepEqual(q.namespaces['0'], { id: 0, case: 'first-letter', content: '', '*': '' });
        assert.deepEqual(q.namespaces['1'], { id: 1, case: 'first-letter', subpages: '', canonical: 'Talk', '*': 'Talk' });
        assert.deepEqual(q.namespaces['-1'], { id: -1, case: 'first-letter', canonical: 'Special', '*': 'Special' });
        assert.equal(q.namespaces['4'].canonical, 'Project');
        assert.equal(q.namespaces['4']['*'], 'Quire', 'the project namespace is named after the site');
        assert.deepEqual(
          Object.keys(q.namespaces)
            .map(Number)
            .sort((a, b) => a - b),
          [-2, -1, ...Array.from({ length: 16 }, (_, i) => i)],
        );
        assert.deepEqual(q.namespacealiases, [
          { id: 6, '*': 'Image' },
          { id: 7, '*': 'Image talk' },
        ]);
        // A fresh wiki: the Main Page and its one revision.
        assert.equal(q.statistics.pages, 1);
        assert.equal(q.statistics.edits, 1);
        for (const k of ['articles', 'images', 'users', 'activeusers', 'admins', 'jobs']) assert.equal(typeof q.statistics[k], 'number', k);
      });

      test('namespaces and aliases in formatversion 2', async () => {
        const q = (await wiki.api({ action: 'query', meta: 'siteinfo', siprop: 'namespaces|namespacealiases|statistics', formatversion: '2' })).json().query;
        assert.deepEqual(q.namespaces['0'], { id: 0, case: 'first-letter', name: '', subpages: false, content: true, nonincludable: false });
        assert.deepEqual(q.namespaces['1'], { id: 1, case: 'first-letter', name: 'Talk', subpages: true, canonical: 'Talk', content: false, nonincludable: false });
        assert.deepEqual(q.namespacealiases, [
          { id: 6, alias: 'Image' },
          { id: 7, alias: 'Image talk' },
        ]);
        assert.equal(q.statistics.pages, 1);
        assert.equal(q.statistics.edits, 1);
      });
    });

    describe('meta=tokens', () => {
      test('anonymous callers get "+\\" for the default csrf type', async () => {
        const r = await wiki.api({ action: 'query', meta: 'tokens' });
        assert.deepEqual(r.json(), { batchcomplete: '', query: { tokens: { csrftoken: ANON_TOKEN } } });
      });

      test('a list of types; unknown types are dropped with a warning', async () => {
        const j = (await wiki.api({ action: 'query', meta: 'tokens', type: 'csrf|watch|patrol|rollback|userrights|bogus', formatversion: '2' })).json();
        assert.deepEqual(j.query.tokens, { csrftoken: ANON_TOKEN, watchtoken: ANON_TOKEN, patroltoken: ANON_TOKEN, rollbacktoken: ANON_TOKEN, userrightstoken: ANON_TOKEN });
        assert.deepEqual(j.warnings, { tokens: { warnings: 'Unrecognized value for parameter "type": bogus' } });
      });

      test('origin=*: anonymous CORS, no tokens at all', async () => {
        const r = await wiki.api({ action: 'query', meta: 'tokens', origin: '*' }, { headers: { origin: 'https://elsewhere.example' } });
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
        assert.equal(r.headers.get('access-control-allow-credentials'), 'false');
        assert.equal(r.headers.get('mediawiki-login-suppressed'), 'true');
        assert.deepEqual(r.json(), {
          batchcomplete: '',
          warnings: { tokens: { '*': 'Tokens may not be obtained when the same-origin policy is not applied.' } },
        });
      });
    });

    describe('prop=info and prop=revisions', () => {
      function checkMainRevision(rev: Record<string, unknown>, fv: 1 | 2) {
        assert.equal(rev.revid, mainRevId);
        assert.equal(rev.parentid, 0);
        assert.equal(rev.user, 'MediaWiki default');
        assert.match(String(rev.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.equal(rev.size, Buffer.byteLength(mainSource));
        assert.equal(rev.sha1, createHash('sha1').update(mainSource).digest('hex'));
        assert.equal(rev.comment, '');
        const main = (rev.slots as Record<string, Record<string, unknown>>).main!;
        assert.equal(main.contentmodel, 'wikitext');
        assert.equal(main.contentformat, 'text/x-wiki');
        assert.equal(fv === 1 ? main['*'] : main.content, mainSource);
      }

      test('titles: normalized, missing, invalid, special and existing pages (formatversion 1)', async () => {
        const r = await wiki.api({ action: 'query', prop: 'info|revisions', rvprop: ALL_REVISION_PROPS, rvslots: 'main', titles: MIXED_TITLES });
        const j = r.json();
        assert.ok(!('warnings' in j), JSON.stringify(j.warnings));
        assert.deepEqual(j.query.normalized, [{ from: 'Main_Page', to: 'Main Page' }]);
        const pages = j.query.pages;
        // MediaWiki's order: missing, invalid, special, then existing pages by id.
        // Fake ids: invalid titles first, then special, then missing; output: missing, invalid, special, existing.
        // (JSON.parse reorders integer keys, so the order is read from the text.)
        const order = ['-4', '-1', '-2', '-3', '1'].map((id) => r.text.indexOf(`"${id}":{`));
        assert.deepEqual(
          [...order].sort((a, b) => a - b),
          order,
          r.text,
        );
        assert.deepEqual(Object.keys(pages).sort(), ['-1', '-2', '-3', '-4', '1']);
        const byTitle = Object.fromEntries(Object.entries(pages).map(([id, p]) => [(p as { title: string }).title, { id, ...(p as object) }]));
        assert.deepEqual(byTitle.Nope, {
          id: '-4',
          ns: 0,
          title: 'Nope',
          missing: '',
          contentmodel: 'wikitext',
          pagelanguage: 'en',
          pagelanguagehtmlcode: 'en',
          pagelanguagedir: 'ltr',
        });
        assert.deepEqual(byTitle['a<b'], { id: '-1', title: 'a<b', invalidreason: 'The requested page title contains invalid characters: "<".', invalid: '' });
        assert.deepEqual(byTitle['Talk:'], { id: '-2', title: 'Talk:', invalidreason: 'The requested page title is empty or contains only the name of a namespace.', invalid: '' });
        assert.deepEqual(byTitle['Special:Foo'], { id: '-3', ns: -1, title: 'Special:Foo', special: '', missing: '' });
        const main = pages['1'];
        assert.equal(main.pageid, 1);
        assert.equal(main.lastrevid, mainRevId);
        assert.equal(main.length, Buffer.byteLength(mainSource));
        assert.equal(main.new, '');
        assert.equal(main.revisions.length, 1);
        checkMainRevision(main.revisions[0], 1);
      });

      test('titles in formatversion 2: a list with real booleans', async () => {
        const j = (await wiki.api({ action: 'query', prop: 'info|revisions', rvprop: ALL_REVISION_PROPS, rvslots: 'main', titles: MIXED_TITLES, formatversion: '2' })).json();
        assert.equal(j.batchcomplete, true);
        assert.deepEqual(j.query.normalized, [{ fromencoded: false, from: 'Main_Page', to: 'Main Page' }]);
        const pages = j.query.pages as Record<string, unknown>[];
        assert.ok(Array.isArray(pages));
        const byTitle = Object.fromEntries(pages.map((p) => [p.title, p]));
        assert.equal(byTitle.Nope!.missing, true);
        assert.deepEqual(byTitle['a<b'], { title: 'a<b', invalidreason: 'The requested page title contains invalid characters: "<".', invalid: true });
        assert.deepEqual(byTitle['Special:Foo'], { ns: -1, title: 'Special:Foo', special: true, missing: true });
        const main = byTitle['Main Page'] as { new: boolean; revisions: Record<string, unknown>[] };
        assert.equal(main.new, true);
        checkMainRevision(main.revisions[0]!, 2);
      });

      test('the Main Page author is a registered (system) user, not an IP', async () => {
        const rev = (await wiki.api({ action: 'query', prop: 'revisions', rvprop: 'user|userid', titles: 'Main Page', formatversion: '2' })).json().query.pages[0].revisions[0];
        assert.equal(rev.user, 'MediaWiki default');
        assert.ok(!('anon' in rev), 'MediaWiki creates "MediaWiki default" as a system user');
        assert.equal(rev.userid, 1);
        const users = (await wiki.api({ action: 'query', list: 'users', ususers: 'MediaWiki default', formatversion: '2' })).json();
        assert.equal(users.query.users[0].userid, 1, 'the same user in the auth service');
      });

      test('pageids: existing and missing', async () => {
        const fv1 = (await wiki.api({ action: 'query', prop: 'revisions', rvprop: 'ids', pageids: '1|999999' })).json();
        assert.deepEqual(fv1.query.pages['999999'], { pageid: 999999, missing: '' });
        assert.deepEqual(fv1.query.pages['1'], { pageid: 1, ns: 0, title: 'Main Page', revisions: [{ revid: mainRevId, parentid: 0 }] });
        const fv2 = (await wiki.api({ action: 'query', prop: 'info', pageids: '999999', formatversion: '2' })).json();
        assert.deepEqual(fv2.query.pages, [{ pageid: 999999, missing: true }]);
      });

      test('revids: good and bad revision ids', async () => {
        const fv1 = (await wiki.api({ action: 'query', prop: 'revisions', rvprop: 'ids|user', rvslots: 'main', revids: `${mainRevId}|999999` })).json();
        assert.deepEqual(fv1.query.badrevids, { '999999': { revid: 999999, missing: '' } });
        assert.equal(fv1.query.pages['1'].revisions[0].revid, mainRevId);
        const fv2 = (await wiki.api({ action: 'query', prop: 'revisions', revids: '999999', formatversion: '2' })).json();
        assert.deepEqual(fv2.query, { badrevids: { '999999': { revid: 999999, missing: true } } });
        const notInteger = await wiki.api({ action: 'query', prop: 'revisions', revids: 'abc|1' });
        assert.equal(notInteger.headers.get('mediawiki-api-error'), 'badinteger');
        assert.deepEqual(notInteger.json().error, {
          code: 'badinteger',
          info: 'Invalid value "abc" for integer parameter "revids".',
          '*': `See ${wiki.baseUrl}/w/api.php for API usage. ${DOCREF_TAIL}`,
        });
      });

      test('legacy format (no rvslots): content on the revision, deprecation warnings main first with the URL', async () => {
        const r = await wiki.api({ action: 'query', prop: 'revisions', rvprop: 'content', titles: 'Main_Page' });
        const j = r.json();
        assert.deepEqual(Object.keys(j), ['batchcomplete', 'warnings', 'query']);
        assert.deepEqual(Object.keys(j.warnings), ['main', 'revisions']);
        assert.deepEqual(j.warnings, { main: { '*': MAILING_LIST_WARNING }, revisions: { '*': LEGACY_WARNING } });
        assert.deepEqual(j.query.pages['1'].revisions, [{ contentformat: 'text/x-wiki', contentmodel: 'wikitext', '*': mainSource }]);
        // The same warnings as structured items keep their order of arrival.
        const plain = (await wiki.api({ action: 'query', prop: 'revisions', rvprop: 'content', titles: 'Main_Page', errorformat: 'plaintext', formatversion: '2' })).json();
        assert.deepEqual(plain.warnings, [
          { code: 'deprecation', text: LEGACY_WARNING, data: { feature: 'action=query&prop=revisions&!rvslots' }, module: 'query+revisions' },
          { code: 'deprecation-help', text: MAILING_LIST_WARNING, module: 'main' },
        ]);
      });

      test("request values are NFC-normalized, with MediaWiki's warning and normalized entry", async () => {
        const decomposed = 'Cafe\u0301';
        const j = (await wiki.api({ action: 'query', prop: 'info', titles: `${decomposed}|Caf\u00e9`, formatversion: '2' })).json();
        assert.deepEqual(j.warnings, {
          query: {
            warnings:
              'The value passed for "titles" contains invalid or non-normalized data. Textual data should be valid, NFC-normalized Unicode without C0 control characters other than HT (\\t), LF (\\n), and CR (\\r).',
          },
        });
        assert.deepEqual(j.query.normalized, [{ fromencoded: true, from: 'Cafe%CC%81', to: 'Caf\u00e9' }]);
        assert.equal(j.query.pages.length, 1, 'both spellings are the same page');
        assert.equal(j.query.pages[0].title, 'Caf\u00e9');
        // REST: the path title is normalized before the content service looks it up.
        const rest = await wiki.rest(`/v1/page/${encodeURIComponent('Main_Pa\u0301ge'.normalize('NFD'))}`);
        assert.equal(rest.status, 404);
        assert.equal(rest.json().messageTranslations.en, 'The specified title (Main_Pa\u0301ge) does not exist'.normalize('NFC'));
      });
    });

    describe('REST page', () => {
      test('GET /v1/page/{title}: the page with its source and validators', async () => {
        const r = await wiki.rest('/v1/page/Main_Page');
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/json');
        assert.equal(r.headers.get('cache-control'), 'max-age=5');
        assert.match(r.headers.get('etag') ?? '', /^"[0-9a-f]{40}"$/);
        assert.ok(!Number.isNaN(Date.parse(r.headers.get('last-modified') ?? '')));
        const j = r.json();
        assert.deepEqual(Object.keys(j), ['id', 'key', 'title', 'latest', 'content_model', 'license', 'source']);
        assert.equal(j.id, 1);
        assert.equal(j.key, 'Main_Page');
        assert.equal(j.title, 'Main Page');
        assert.equal(j.latest.id, mainRevId);
        assert.equal(j.content_model, 'wikitext');
        assert.deepEqual(j.license, { url: '', title: '' });
        assert.match(j.source, /Welcome to \{\{SITENAME\}\}/);
      });

      test('GET /v1/page/{title}/bare: html_url instead of source', async () => {
        // A title with spaces is served directly (MediaWiki 1.39 has no normalization redirect).
        const r = await wiki.rest('/v1/page/Main%20Page/bare');
        assert.equal(r.status, 200);
        const j = r.json();
        assert.deepEqual(Object.keys(j), ['id', 'key', 'title', 'latest', 'content_model', 'license', 'html_url']);
        // MediaWiki builds it from the title with spaces, so it is encoded as %20.
        assert.equal(j.html_url, `${wiki.baseUrl}/w/rest.php/v1/page/Main%20Page/html`);
      });

      test('If-None-Match with the ETag: 304 without a body', async () => {
        const first = await wiki.rest('/v1/page/Main_Page');
        const etag = first.headers.get('etag')!;
        const again = await wiki.rest('/v1/page/Main_Page', { headers: { 'if-none-match': etag } });
        assert.equal(again.status, 304);
        assert.equal(again.text, '');
        assert.equal(again.headers.get('etag'), etag);
        const other = await wiki.rest('/v1/page/Main_Page', { headers: { 'if-none-match': '"something-else"' } });
        assert.equal(other.status, 200);
      });

      test("a missing page: 404 with MediaWiki's body", async () => {
        const r = await wiki.rest('/v1/page/No_such_page_anywhere');
        assert.equal(r.status, 404);
        assert.equal(r.headers.get('content-type'), 'application/json');
        assert.deepEqual(r.json(), {
          messageTranslations: { en: 'The specified title (No_such_page_anywhere) does not exist' },
          httpCode: 404,
          httpReason: 'Not Found',
        });
      });
    });

    describe('the rest of the action pipeline', () => {
      test('an unknown action is a badvalue error', async () => {
        const r = await wiki.api({ action: 'frobnicate' });
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('mediawiki-api-error'), 'badvalue');
        assert.deepEqual(r.json(), {
          error: { code: 'badvalue', info: 'Unrecognized value for parameter "action": frobnicate.', '*': `See ${wiki.baseUrl}/w/api.php for API usage. ${DOCREF_TAIL}` },
        });
      });

      test('action=help and action=paraminfo are served', async () => {
        const help = await wiki.get('/w/api.php?action=help&modules=query');
        assert.equal(help.status, 200);
        assert.equal(help.headers.get('content-type'), 'text/html; charset=utf-8');
        assert.match(help.text, /action=query/);
        const info = (await wiki.api({ action: 'paraminfo', modules: 'query|query+revisions' })).json();
        assert.deepEqual(
          info.paraminfo.modules.map((m: { path: string }) => m.path),
          ['query', 'query+revisions'],
        );
        const rvprop = info.paraminfo.modules[1].parameters.find((p: { name: string }) => p.name === 'prop');
        assert.ok(rvprop.type.includes('sha1'));
      });

      test('POST urlencoded and multipart reach the same pipeline', async () => {
        const form = { action: 'query', meta: 'tokens', format: 'json' };
        const urlencoded = await wiki.post('/w/api.php', form);
        const multipart = await wiki.postMultipart('/w/api.php', form);
        assert.deepEqual(urlencoded.json(), { batchcomplete: '', query: { tokens: { csrftoken: ANON_TOKEN } } });
        assert.deepEqual(multipart.json(), urlencoded.json());
      });
    });
  });

  describe(`restart on ${backend}`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend);
    });
    after(() => wiki?.close());

    test('stop, start again on the same data: the Main Page is still there, unchanged', async () => {
      const before = (await wiki.rest('/v1/page/Main_Page')).json();
      const stats = (await wiki.api({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).json().query.statistics;
      await wiki.restart();
      const after = (await wiki.rest('/v1/page/Main_Page')).json();
      assert.equal(after.latest.id, before.latest.id, 'no second Main Page revision on the second start');
      assert.deepEqual(after, before);
      const statsAfter = (await wiki.api({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).json().query.statistics;
      assert.deepEqual(statsAfter, stats);
    });
  });

  describe(`permissions on ${backend}`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend, { GROUP_PERMISSIONS_JSON: JSON.stringify({ '*': { read: false } }) });
    });
    after(() => wiki?.close());

    test('without the read right, reading modules answer readapidenied', async () => {
      const requests: Record<string, string>[] = [
        { action: 'query', meta: 'siteinfo' },
        { action: 'query', prop: 'revisions', titles: 'Main Page' },
        { action: 'query', meta: 'tokens', titles: 'Main Page' },
      ];
      for (const params of requests) {
        const r = await wiki.api(params);
        assert.equal(r.headers.get('mediawiki-api-error'), 'readapidenied', JSON.stringify(params));
        assert.deepEqual(r.json().error, {
          code: 'readapidenied',
          info: 'You need read permission to use this module.',
          '*': `See ${wiki.baseUrl}/w/api.php for API usage. ${DOCREF_TAIL}`,
        });
      }
    });

    test('meta=tokens alone, help and paraminfo still work', async () => {
      assert.deepEqual((await wiki.api({ action: 'query', meta: 'tokens', rawcontinue: '1' })).json().query, { tokens: { csrftoken: ANON_TOKEN } });
      const help = await wiki.get('/w/api.php?action=help');
      assert.equal(help.status, 200);
      assert.equal(help.headers.get('mediawiki-api-error'), null);
      const info = await wiki.api({ action: 'paraminfo', modules: 'query' });
      assert.equal(info.json().paraminfo.modules[0].name, 'query');
    });

    test('REST answers 403 rest-read-denied', async () => {
      const r = await wiki.rest('/v1/page/Main_Page');
      assert.equal(r.status, 403);
      assert.deepEqual(r.json(), { error: 'rest-read-denied', httpCode: 403, httpReason: 'Forbidden' });
    });
  });

  describe(`a service going down on ${backend}`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend);
    });
    after(() => wiki?.close());

    test('REST answers 503 with Retry-After; the action API says serviceunavailable; /healthz is degraded', async () => {
      assert.equal((await wiki.rest('/v1/page/Main_Page')).status, 200);
      await wiki.stack.services.find((s) => s.name === 'content')!.stop();

      const rest = await wiki.rest('/v1/page/Main_Page');
      assert.equal(rest.status, 503);
      assert.equal(rest.headers.get('retry-after'), '5');
      // A 5xx body names the request id (as MediaWiki's exception records do), the same as its header.
      const { reqId, ...restBody } = rest.json();
      assert.equal(reqId, rest.headers.get('x-request-id'));
      assert.deepEqual(restBody, {
        messageTranslations: { en: 'The wiki is temporarily unavailable. Please try again later.' },
        httpCode: 503,
        httpReason: 'Service Unavailable',
      });

      const action = await wiki.api({ action: 'query', prop: 'revisions', titles: 'Main Page' });
      assert.equal(action.status, 200);
      assert.equal(action.headers.get('mediawiki-api-error'), 'serviceunavailable');
      assert.equal(action.headers.get('retry-after'), '5');
      assert.equal(action.json().error.info, 'A backend service of the wiki is temporarily unavailable. Please try again later.');

      const health = await wiki.get('/healthz');
      assert.equal(health.status, 503);
      assert.equal(health.headers.get('retry-after'), '5');
      assert.equal(health.json().services.content, 'unavailable');
      const ready = await wiki.get('/readyz');
      assert.equal(ready.status, 503);
      assert.equal(ready.headers.get('retry-after'), '5');
    });
  });
}
