import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GOLDEN_DIR } from '@quire/kit/testing';
import { after, before, describe, test } from 'node:test';
import { invalidArgument, notFound } from '@quire/kit';
import { PageRecord, Revision, type GetPageResponse } from '../../clients/types.js';
import { serveRest, testDeps, type TestServer } from '../testing.js';

/** Body and headers of a golden response recorded from MediaWiki 1.39. */
function golden(name: string): { headers: Map<string, string>; body: unknown } {
  const raw = readFileSync(path.join(GOLDEN_DIR, name), 'utf8');
  const [head = '', body = ''] = raw.split(/\r?\n\r?\n/, 2);
  const headers = new Map(
    head
      .split(/\r?\n/)
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as [string, string]),
  );
  return { headers, body: JSON.parse(body) };
}

const SOURCE =
  "Hello from the '''anchor'''. See [[Main Page]] and [[Nowhere yet]].\n\n== Section one ==\nSome text with a [[File:Example.png]] link and a {{Nonexistent template}}.\n\n[[Category:Anchor samples]]\n\n== Section two ==\nA second edit adds this section.";

/** The content service's view of the golden sample page, keyed by the title as it normalizes it. */
const pages = new Map<string, GetPageResponse>([
  [
    'Anchor sample page',
    {
      page: PageRecord.fromPartial({
        id: 2,
        title: 'Anchor sample page',
        dbkey: 'Anchor_sample_page',
        latestRevId: 3,
        latestTimestamp: '2026-11-21T05:13:14Z',
        touched: '2026-11-21T05:13:14Z',
        contentModel: 'wikitext',
      }),
      latest: Revision.fromPartial({ id: 3, pageId: 2, timestamp: '2026-11-21T05:13:14Z', contentModel: 'wikitext', content: SOURCE }),
    },
  ],
  [
    "Talk:Foo (bar)/baz's é",
    {
      page: PageRecord.fromPartial({ id: 9, ns: 1, title: "Talk:Foo (bar)/baz's é", dbkey: "Talk:Foo_(bar)/baz's_é", touched: '2026-11-22T10:00:00Z', contentModel: 'wikitext' }),
      latest: Revision.fromPartial({ id: 12, pageId: 9, timestamp: '2026-11-22T09:00:00.000Z', contentModel: 'css', content: 'a{}' }),
    },
  ],
]);

const requested: { title: string; withContent: boolean }[] = [];
let server: TestServer;

before(async () => {
  const deps = testDeps(
    {
      content: {
        async getPage(title, withContent) {
          requested.push({ title, withContent });
          const normalized = title.replace(/_/g, ' ');
          if (/[<>[\]{}|#]/.test(normalized)) throw invalidArgument('invalidtitle', `Bad title "${title}"`);
          if (normalized === 'Gone') throw notFound('missingtitle', "The page you specified doesn't exist.");
          if (normalized === 'Special:Version') return { page: PageRecord.fromPartial({ ns: -1, title: normalized, special: true }) };
          const found = pages.get(normalized[0]?.toUpperCase() + normalized.slice(1));
          if (!found) return { page: PageRecord.fromPartial({ title: normalized, missing: true }) };
          return withContent ? found : { ...found, latest: { ...found.latest!, content: undefined } };
        },
      },
    },
    { WIKI_SERVER: 'http://127.0.0.1:8080', REST_MAX_AGE: '5' },
  );
  server = await serveRest(deps);
});
after(() => server.close());

async function get(path: string, headers: Record<string, string> = {}) {
  requested.length = 0;
  const res = await fetch(server.rest + path, { headers, redirect: 'manual' });
  const text = await res.text();
  return { res, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

describe('GET /v1/page/{title}', () => {
  test('matches the MediaWiki golden response body, status and headers', async () => {
    const g = golden('rest_page.http');
    const { res, json } = await get('/v1/page/Anchor_sample_page');
    assert.equal(res.status, 200);
    assert.deepEqual(json, g.body);
    // ETag: sha1 of the revision id and "a1" (readable); Last-Modified: the revision's timestamp.
    for (const h of ['content-type', 'cache-control', 'last-modified', 'etag', 'access-control-allow-origin']) assert.equal(res.headers.get(h), g.headers.get(h), h);
    assert.deepEqual(requested, [{ title: 'Anchor_sample_page', withContent: true }]);
  });

  test('any form of the title is served directly, query ignored: MediaWiki 1.39 does not redirect', async () => {
    for (const path of ['/v1/page/Anchor%20sample%20page', '/v1/page/anchor_sample_page', '/v1/page/Anchor_sample_page?redirect=no', '/v1/page/anchor%20sample_page/bare']) {
      const { res, json } = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('location'), null, path);
      assert.equal(json?.key, 'Anchor_sample_page', path);
      assert.equal(json?.title, 'Anchor sample page', path);
      assert.equal('redirect_target' in (json ?? {}), false, path);
    }
  });

  test('missing page: 404 with the title as requested (golden body)', async () => {
    const { res, json } = await get('/v1/page/No_such_page_anywhere');
    assert.equal(res.status, 404);
    assert.deepEqual(json, golden('rest_error_404_page.http').body);
    assert.equal(res.headers.get('cache-control'), null);
  });

  test('NOT_FOUND from the service, invalid titles and special pages are 404 too, as in MediaWiki', async () => {
    for (const [path, title] of [
      ['/v1/page/Gone', 'Gone'],
      ['/v1/page/%3Cbad%3E', '<bad>'],
      ['/v1/page/%5B%5B', '[['],
      ['/v1/page/Special:Version', 'Special:Version'],
    ]) {
      const { res, json } = await get(path!);
      assert.equal(res.status, 404, path);
      assert.deepEqual(json, { messageTranslations: { en: `The specified title (${title}) does not exist` }, httpCode: 404, httpReason: 'Not Found' });
    }
  });

  test('a slash in a title must be encoded: /v1/page/A/B does not match', async () => {
    const { res, json } = await get('/v1/page/Anchor_sample_page/nope');
    assert.equal(res.status, 404);
    assert.deepEqual(json?.messageTranslations, { en: 'The requested relative path (/v1/page/Anchor_sample_page/nope) did not match any known handler' });
    await get("/v1/page/Talk:Foo_(bar)%2Fbaz's_%C3%A9");
    assert.deepEqual(requested, [{ title: "Talk:Foo_(bar)/baz's_é", withContent: true }]);
  });

  test('empty title: 400 missingparam as MediaWiki', async () => {
    const { res, json } = await get('/v1/page/');
    assert.equal(res.status, 400);
    assert.equal(json?.failureCode, 'missingparam');
    assert.equal(json?.value, '');
  });

  test('ETag and Last-Modified follow the page; conditional GETs get 304', async () => {
    const first = await get('/v1/page/Anchor_sample_page');
    const etag = first.res.headers.get('etag')!;
    assert.equal((await get('/v1/page/Anchor_sample_page', { 'If-None-Match': etag })).res.status, 304);
    assert.equal((await get('/v1/page/Anchor_sample_page', { 'If-Modified-Since': first.res.headers.get('last-modified')! })).res.status, 304);
    const other = await get("/v1/page/Talk:Foo_(bar)%2Fbaz's_%C3%A9");
    assert.notEqual(other.res.headers.get('etag'), etag);
    // The latest revision's timestamp, not the page's touched time (PageContentHelper::getLastModified).
    assert.equal(other.res.headers.get('last-modified'), 'Sun, 22 Nov 2026 09:00:00 GMT');
    assert.equal(other.res.headers.get('etag'), '"d8baaa8dbb57f57053403a6793cdd7c347ce1b97"');
    assert.equal((await get("/v1/page/Talk:Foo_(bar)%2Fbaz's_%C3%A9", { 'If-None-Match': etag })).res.status, 200);
  });

  test('timestamps are ISO 8601 without fractions; content_model is the revision’s', async () => {
    const { json } = await get("/v1/page/Talk:Foo_(bar)%2Fbaz's_%C3%A9");
    assert.deepEqual(json, {
      id: 9,
      key: "Talk:Foo_(bar)/baz's_é",
      title: "Talk:Foo (bar)/baz's é",
      latest: { id: 12, timestamp: '2026-11-22T09:00:00Z' },
      content_model: 'css',
      license: { url: '', title: '' },
      source: 'a{}',
    });
  });
});

describe('GET /v1/page/{title}/bare', () => {
  test('matches the MediaWiki golden response and does not fetch content', async () => {
    const g = golden('rest_page_bare.http');
    const { res, json } = await get('/v1/page/Anchor_sample_page/bare');
    assert.equal(res.status, 200);
    assert.deepEqual(json, g.body);
    assert.equal(res.headers.get('cache-control'), g.headers.get('cache-control'));
    assert.deepEqual(requested, [{ title: 'Anchor_sample_page', withContent: false }]);
  });

  test('html_url rawurlencodes the title text (spaces as %20, slash as %2F)', async () => {
    const { json } = await get("/v1/page/Talk:Foo_(bar)%2Fbaz's_%C3%A9/bare");
    assert.equal(json?.html_url, 'http://127.0.0.1:8080/w/rest.php/v1/page/Talk%3AFoo%20%28bar%29%2Fbaz%27s%20%C3%A9/html');
    assert.equal(json?.source, undefined);
  });

  test('same validators as the full form', async () => {
    const full = await get('/v1/page/Anchor_sample_page');
    const bare = await get('/v1/page/Anchor_sample_page/bare');
    assert.equal(bare.res.headers.get('etag'), full.res.headers.get('etag'));
  });
});
