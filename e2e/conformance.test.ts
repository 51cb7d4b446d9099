/*
 * Conformance with the golden responses recorded from MediaWiki 1.39: for every sample whose
 * request Quire can answer today, the SHAPE of Quire's answer (status, content type, keys, value
 * types; /work/shared/tools/shape-compare.js) and the headers clients rely on must match. Every
 * sample of the golden set is either compared or skipped here with its reason, so a new sample
 * or a new feature cannot be forgotten silently. Deliberate differences are listed with theirs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { GOLDEN_DIR, readGolden, shapeCompareSample, startWiki, testBackends, type TestWiki } from './harness.js';

interface Comparison {
  /** The request sent to Quire (path + query). */
  request: string;
  /** Keys whose presence differs on purpose, with the reason (passed to shape-compare --ignore). */
  deliberate?: Record<string, string>;
  /** Response headers the sample has that Quire must send too. */
  headers: readonly string[];
}

const ACTION_HEADERS = ['x-content-type-options', 'x-frame-options', 'content-disposition', 'cache-control', 'x-request-id'];
const REST_READ_HEADERS = ['x-content-type-options', 'cache-control', 'etag', 'last-modified', 'access-control-allow-origin'];

/** "Anchor sample page" does not exist on a fresh Quire: page samples are compared against the Main Page. */
const COMPARED: Record<string, Comparison> = {
  'action_siteinfo.http': {
    request: '/w/api.php?action=query&meta=siteinfo&format=json',
    deliberate: {
      uploadsenabled: 'the reference wiki enables uploads; Quire has no uploads yet, and formatversion 1 drops a false boolean',
    },
    headers: ACTION_HEADERS,
  },
  'action_siteinfo_fv2_all.http': {
    request: '/w/api.php?action=query&meta=siteinfo&siprop=general%7Cnamespaces%7Cnamespacealiases%7Cstatistics%7Cuserinfo&format=json&formatversion=2',
    headers: ACTION_HEADERS,
  },
  'action_tokens_anon.http': { request: '/w/api.php?action=query&meta=tokens&format=json', headers: ACTION_HEADERS },
  'action_revisions_content.http': { request: '/w/api.php?action=query&prop=revisions&rvprop=content&titles=Main_Page&format=json', headers: ACTION_HEADERS },
  'rest_page.http': { request: '/w/rest.php/v1/page/Main_Page', headers: REST_READ_HEADERS },
  'rest_page_bare.http': { request: '/w/rest.php/v1/page/Main_Page/bare', headers: REST_READ_HEADERS },
  'rest_error_404_page.http': { request: '/w/rest.php/v1/page/No_such_page_anywhere', headers: ['x-content-type-options', 'access-control-allow-origin'] },
};

const NEEDS_LOGIN = 'needs logged-in sessions (action=login / bot passwords), not built yet';
const NEEDS_EDIT = 'needs editing (action=edit / REST PUT and POST), not built yet';

/** Samples of features Quire does not have yet. */
const SKIPPED: Record<string, string> = {
  'action_login_token.http': 'an anonymous login token persists a session in MediaWiki (real token + cookie); Quire returns "+\\" until login exists',
  'action_login.http': NEEDS_LOGIN,
  'action_userinfo.http': `recorded logged in as Admin; ${NEEDS_LOGIN}`,
  'action_tokens_csrf.http': `recorded logged in; ${NEEDS_LOGIN}`,
  'action_edit_create.http': NEEDS_EDIT,
  'action_edit_second.http': NEEDS_EDIT,
  'action_error_badtoken.http': 'action=edit does not exist yet',
  'action_upload.http': 'action=upload does not exist yet',
  'action_compare.http': 'action=compare does not exist yet',
  'action_parse_page.http': 'action=parse does not exist yet',
  'action_parse_text.http': 'action=parse does not exist yet',
  'action_opensearch.http': 'compared in e2e/search.test.ts, which first saves and indexes the pages of the samples',
  'action_search.http': 'compared in e2e/search.test.ts, which first saves and indexes the pages of the samples',
  'rest_page_html.http': 'route /v1/page/{title}/html does not exist yet',
  'rest_page_with_html.http': 'route /v1/page/{title}/with_html does not exist yet',
  'rest_page_history.http': 'route /v1/page/{title}/history does not exist yet',
  'rest_page_history_counts_edits.http': 'route /v1/page/{title}/history/counts/{type} does not exist yet',
  'rest_page_links_language.http': 'route /v1/page/{title}/links/language does not exist yet',
  'rest_page_links_media.http': 'route /v1/page/{title}/links/media does not exist yet',
  'rest_revision.http': 'route /v1/revision/{id} does not exist yet',
  'rest_revision_bare.http': 'route /v1/revision/{id}/bare does not exist yet',
  'rest_revision_html.http': 'route /v1/revision/{id}/html does not exist yet',
  'rest_revision_compare.http': 'route /v1/revision/{from}/compare/{to} does not exist yet',
  'rest_error_404_revision.http': 'route /v1/revision/{id} does not exist yet (any path 404s, but with the no-match body)',
  'rest_search_page.http': 'compared in e2e/search.test.ts, which first saves and indexes the pages of the samples',
  'rest_search_title.http': 'compared in e2e/search.test.ts, which first saves and indexes the pages of the samples',
  'rest_file.http': 'route /v1/file/{title} does not exist yet',
  'rest_put_page.http': NEEDS_EDIT,
  'rest_post_page.http': NEEDS_EDIT,
  'rest_error_409_put_conflict.http': NEEDS_EDIT,
  'rest_error_409_post_exists.http': NEEDS_EDIT,
  'rest_error_400_put_anon_no_token.http': NEEDS_EDIT,
};

test('every golden sample is either compared or skipped with a reason', () => {
  const samples = fs.readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.http')).sort();
  const accounted = [...Object.keys(COMPARED), ...Object.keys(SKIPPED)].sort();
  assert.deepEqual(accounted, samples);
  for (const name of Object.keys(COMPARED)) assert.ok(!(name in SKIPPED), `${name} is both compared and skipped`);
});

for (const backend of testBackends()) {
  describe(`golden samples on ${backend}`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend);
    });
    after(() => wiki?.close());

    for (const [name, c] of Object.entries(COMPARED)) {
      test(`${name}: same shape as MediaWiki 1.39`, async () => {
        const { code, output } = await shapeCompareSample(path.join(GOLDEN_DIR, name), wiki.baseUrl + c.request, Object.keys(c.deliberate ?? {}));
        assert.equal(code, 0, `shape differs from ${name}:\n${output}`);
      });

      test(`${name}: the headers clients rely on`, async () => {
        const golden = await readGolden(name);
        const r = await wiki.get(c.request);
        for (const h of c.headers) {
          assert.ok(h in golden.headers, `the sample has ${h}`);
          assert.ok(r.headers.has(h), `Quire sends ${h}`);
        }
        // Values that are not per-request must be MediaWiki's.
        for (const h of ['content-type', 'x-content-type-options', 'x-frame-options', 'content-disposition', 'cache-control', 'access-control-allow-origin']) {
          if (c.headers.includes(h) || h === 'content-type') assert.equal(r.headers.get(h), golden.headers[h], h);
        }
      });
    }

    test('the deliberate differences are real: MediaWiki has those keys, Quire does not', async () => {
      for (const [name, c] of Object.entries(COMPARED)) {
        for (const key of Object.keys(c.deliberate ?? {})) {
          const golden = await readGolden(name);
          assert.ok(golden.body.includes(`"${key}":`), `${name} has ${key}`);
          const r = await wiki.get(c.request);
          assert.ok(!r.text.includes(`"${key}":`), `Quire's answer to ${name} has no ${key}`);
        }
      }
    });

    test('action_revisions_content.http: the warnings are MediaWiki\'s, in its order', async () => {
      const golden = JSON.parse((await readGolden('action_revisions_content.http')).body);
      const ours = (await wiki.get(COMPARED['action_revisions_content.http']!.request)).json();
      assert.deepEqual(Object.keys(ours), Object.keys(golden));
      assert.deepEqual(Object.keys(ours.warnings), Object.keys(golden.warnings));
      assert.deepEqual(ours.warnings, golden.warnings);
      assert.deepEqual(ours.query.normalized, golden.query.normalized);
    });

    test('rest_error_404_page.http: the same body, byte for byte', async () => {
      const golden = await readGolden('rest_error_404_page.http');
      const r = await wiki.get(COMPARED['rest_error_404_page.http']!.request);
      assert.equal(r.text, golden.body);
    });
  });
}
