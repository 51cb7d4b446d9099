/*
 * Conformance with the golden responses recorded from MediaWiki 1.39 (conformance/golden):
 * the same requests, in the same order as the recording (samples.sh: an admin logs in with a bot
 * password, creates "Anchor sample page" with two edits, then reads it every way), and the SHAPE
 * of every answer — status, content type, key paths and value types, by the rules of
 * conformance/golden/shape-compare.cjs — plus the headers clients rely on. Every sample of the golden
 * set is either compared here or named with the test that compares it, so a new sample or a new
 * feature cannot be forgotten silently. Deliberate differences are listed with their reasons.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { runAdmin } from '../scripts/admin.js';
import { png } from './files-helpers.js';
import { GOLDEN_DIR, readGolden, shapeProblems, startWiki, testBackends, WikiClient, type HttpResponse, type TestWiki } from './harness.js';

/** Ids of what the recording created, as this wiki assigned them. */
interface Ids {
  pageId: number;
  firstRev: number;
  secondRev: number;
}

interface Comparison {
  /** Sends the sample's request; `admin` is the bot-password session, `anon` has no cookies. */
  send(c: { admin: WikiClient; anon: WikiClient; ids: Ids; csrf: string }): Promise<HttpResponse>;
  /** Keys left out of the comparison on purpose, with the reason. */
  deliberate?: Record<string, string>;
  /** Response headers of the sample that Quire must send too, with MediaWiki's value where it is not per-request. */
  headers?: readonly string[];
}

const ACTION_HEADERS = ['x-content-type-options', 'x-frame-options', 'content-disposition', 'cache-control'];
const REST_READ_HEADERS = ['x-content-type-options', 'cache-control', 'etag', 'last-modified', 'access-control-allow-origin'];
/** Headers whose value must be MediaWiki's, not just present. */
const FIXED_VALUE_HEADERS = new Set(['x-content-type-options', 'x-frame-options', 'content-disposition', 'access-control-allow-origin']);

const ANCHOR = 'Anchor sample page';
const CREATE_TEXT =
  "Hello from the '''anchor'''. See [[Main Page]] and [[Nowhere yet]].\n\n== Section one ==\nSome text with a [[File:Example.png]] link and a {{Nonexistent template}}.\n\n[[Category:Anchor samples]]";
const APPEND_TEXT = '\n\n== Section two ==\nA second edit adds this section.';

/** Repeats a request until its answer satisfies `done` (at most ~5 s), for work that completes in the background. */
async function until(send: () => Promise<HttpResponse>, done: (r: HttpResponse) => boolean): Promise<HttpResponse> {
  let r = await send();
  for (let i = 0; i < 50 && !done(r); i++) {
    await new Promise((res) => setTimeout(res, 100));
    r = await send();
  }
  return r;
}

const api = (params: Record<string, string>) => `/w/api.php?${new URLSearchParams({ format: 'json', ...params })}`;
const json = (c: WikiClient, method: 'PUT' | 'POST', path: string, body: unknown) => c.request(method, `/w/rest.php${path}`, JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** In recording order. The edits create the page every later sample reads. */
const COMPARED: [string, Comparison][] = [
  [
    'action_siteinfo.http',
    {
      send: ({ anon }) => anon.get(api({ action: 'query', meta: 'siteinfo' })),
      headers: ACTION_HEADERS,
    },
  ],
  [
    'action_siteinfo_fv2_all.http',
    { send: ({ anon }) => anon.get(api({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases|statistics|userinfo', formatversion: '2' })), headers: ACTION_HEADERS },
  ],
  ['action_tokens_anon.http', { send: ({ anon }) => anon.get(api({ action: 'query', meta: 'tokens' })), headers: ACTION_HEADERS }],
  ['action_userinfo.http', { send: ({ admin }) => admin.get(api({ action: 'query', meta: 'userinfo', uiprop: 'groups|rights' })), headers: ACTION_HEADERS }],
  ['action_tokens_csrf.http', { send: ({ admin }) => admin.get(api({ action: 'query', meta: 'tokens' })), headers: ACTION_HEADERS }],
  [
    'action_edit_create.http',
    { send: ({ admin, csrf }) => admin.post('/w/api.php', { action: 'edit', title: ANCHOR, text: CREATE_TEXT, summary: 'create sample page', token: csrf, format: 'json' }) },
  ],
  ['action_edit_second.http', { send: ({ admin, csrf }) => admin.post('/w/api.php', { action: 'edit', title: ANCHOR, appendtext: APPEND_TEXT, summary: 'second edit', token: csrf, format: 'json' }) }],
  [
    'action_upload.http',
    {
      send: ({ admin, csrf }) =>
        admin.postMultipart('/w/api.php', {
          action: 'upload',
          filename: 'Example.png',
          file: new File([new Uint8Array(png(32, 24, 3, 3780))], 'example.png', { type: 'image/png' }),
          comment: 'sample upload',
          text: 'A 32x24 sample image.',
          ignorewarnings: '1',
          token: csrf,
          format: 'json',
        }),
      deliberate: { html: "MediaWiki's rendered upload-form notice (iiprop uploadwarning) for its own HTML form; Quire has no upload form" },
    },
  ],
  ['action_compare.http', { send: ({ anon, ids }) => anon.get(api({ action: 'compare', fromrev: String(ids.firstRev), torev: String(ids.secondRev) })) }],
  ['action_parse_page.http', { send: ({ anon }) => anon.get(api({ action: 'parse', page: 'Anchor_sample_page' })) }],
  ['action_parse_text.http', { send: ({ anon }) => anon.post('/w/api.php', { action: 'parse', text: "''Hi'' [[Main Page]]", contentmodel: 'wikitext', format: 'json' }) }],
  ['action_revisions_content.http', { send: ({ anon }) => anon.get(api({ action: 'query', prop: 'revisions', rvprop: 'content', titles: 'Main_Page' })), headers: ACTION_HEADERS }],
  ['action_error_badtoken.http', { send: ({ admin }) => admin.post('/w/api.php', { action: 'edit', title: ANCHOR, text: 'x', token: 'bogus', format: 'json' }) }],
  ['rest_page.http', { send: ({ anon }) => anon.rest('/v1/page/Anchor_sample_page'), headers: REST_READ_HEADERS }],
  ['rest_page_bare.http', { send: ({ anon }) => anon.rest('/v1/page/Anchor_sample_page/bare'), headers: REST_READ_HEADERS }],
  ['rest_page_html.http', { send: ({ anon }) => anon.rest('/v1/page/Anchor_sample_page/html') }],
  ['rest_page_with_html.http', { send: ({ anon }) => anon.rest('/v1/page/Anchor_sample_page/with_html') }],
  ['rest_page_history.http', { send: ({ anon }) => anon.rest('/v1/page/Anchor_sample_page/history') }],
  ['rest_page_history_counts_edits.http', { send: ({ anon }) => anon.rest('/v1/page/Anchor_sample_page/history/counts/edits') }],
  ['rest_page_links_language.http', { send: ({ anon }) => anon.rest('/v1/page/Anchor_sample_page/links/language') }],
  // The page's media links fill when the re-render queued by the upload has run.
  [
    'rest_page_links_media.http',
    {
      send: ({ anon }) =>
        until(
          () => anon.rest('/v1/page/Anchor_sample_page/links/media'),
          (r) => r.json().files?.length > 0,
        ),
    },
  ],
  ['rest_file.http', { send: ({ anon }) => anon.rest('/v1/file/File:Example.png') }],
  ['rest_revision.http', { send: ({ anon, ids }) => anon.rest(`/v1/revision/${ids.secondRev}`) }],
  ['rest_revision_bare.http', { send: ({ anon, ids }) => anon.rest(`/v1/revision/${ids.secondRev}/bare`) }],
  ['rest_revision_html.http', { send: ({ anon, ids }) => anon.rest(`/v1/revision/${ids.secondRev}/html`) }],
  ['rest_revision_compare.http', { send: ({ anon, ids }) => anon.rest(`/v1/revision/${ids.firstRev}/compare/${ids.secondRev}`) }],
  ['rest_error_404_page.http', { send: ({ anon }) => anon.rest('/v1/page/No_such_page_anywhere'), headers: ['x-content-type-options', 'access-control-allow-origin'] }],
  ['rest_error_404_revision.http', { send: ({ anon }) => anon.rest('/v1/revision/999999') }],
  [
    'rest_put_page.http',
    {
      send: ({ admin, ids, csrf }) =>
        json(admin, 'PUT', '/v1/page/Anchor_sample_page', { source: 'Replaced via REST PUT. [[Main Page]]', comment: 'REST PUT edit', latest: { id: ids.secondRev }, token: csrf }),
    },
  ],
  ['rest_post_page.http', { send: ({ admin, csrf }) => json(admin, 'POST', '/v1/page', { title: 'Anchor_REST_page', source: 'Created via REST POST.', comment: 'REST POST create', token: csrf }) }],
  // A stale base whose change overlaps the newer revision cannot merge: 409.
  [
    'rest_error_409_put_conflict.http',
    { send: ({ admin, ids, csrf }) => json(admin, 'PUT', '/v1/page/Anchor_sample_page', { source: 'Conflicting text.', comment: 'stale base', latest: { id: ids.firstRev }, token: csrf }) },
  ],
  ['rest_error_409_post_exists.http', { send: ({ admin, csrf }) => json(admin, 'POST', '/v1/page', { title: 'Anchor_REST_page', source: 'again', comment: 'dup', token: csrf }) }],
  ['rest_error_400_put_anon_no_token.http', { send: ({ anon }) => json(anon, 'PUT', '/v1/page/Anchor_sample_page', { source: 'anon', comment: 'anon' }) }],
];

/** Samples compared by another suite (which first creates what they need), with that suite. */
const COMPARED_ELSEWHERE: Record<string, string> = {
  'action_login_token.http': 'compared below with the login it belongs to (the token and cookie are the login flow)',
  'action_login.http': "compared below: logging in is the recording's first step",
  'action_opensearch.http': 'e2e/search.test.ts (it saves and indexes the pages of the samples first)',
  'action_search.http': 'e2e/search.test.ts',
  'rest_search_page.http': 'e2e/search.test.ts',
  'rest_search_title.http': 'e2e/search.test.ts',
};

test('every golden sample is compared or accounted for', () => {
  const samples = fs
    .readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith('.http'))
    .sort();
  const accounted = [...COMPARED.map(([n]) => n), ...Object.keys(COMPARED_ELSEWHERE)].sort();
  assert.deepEqual(accounted, samples);
});

for (const backend of testBackends()) {
  describe(`golden samples on ${backend}`, () => {
    let wiki: TestWiki;
    const admin = () => new WikiClient(wiki.baseUrl);
    let adminClient: WikiClient;
    let anon: WikiClient;
    const ids: Ids = { pageId: 0, firstRev: 0, secondRev: 0 };
    let csrf = '';
    let loginToken: HttpResponse;
    let login: HttpResponse;
    const answers = new Map<string, HttpResponse>();

    before(async () => {
      wiki = await startWiki(backend);
      const lines: string[] = [];
      const env = wiki.testEnv.env;
      await runAdmin(['createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,bureaucrat,interface-admin,bot'], env, () => undefined);
      await runAdmin(['createBotPassword', 'Admin', 'ci', '--grants', 'basic,highvolume,editpage,createeditmovepage,editprotected,delete,protect,rollback,patrol,uploadfile,blockusers'], env, (l) =>
        lines.push(l),
      );
      const botPassword = lines[1]!;
      adminClient = admin();
      anon = new WikiClient(wiki.baseUrl);
      loginToken = await adminClient.get(api({ action: 'query', meta: 'tokens', type: 'login' }));
      login = await adminClient.post('/w/api.php', { action: 'login', lgname: 'Admin@ci', lgpassword: botPassword, lgtoken: loginToken.json().query.tokens.logintoken, format: 'json' });
      csrf = (await adminClient.get(api({ action: 'query', meta: 'tokens' }))).json().query.tokens.csrftoken;
      for (const [name, c] of COMPARED) {
        const r = await c.send({ admin: adminClient, anon, ids, csrf });
        answers.set(name, r);
        if (name === 'action_edit_create.http') Object.assign(ids, { pageId: r.json().edit.pageid, firstRev: r.json().edit.newrevid });
        if (name === 'action_edit_second.http') ids.secondRev = r.json().edit.newrevid;
      }
    });
    after(() => wiki?.close());

    test("the recording's login: login token, then a bot-password login", async () => {
      assert.deepEqual(shapeProblems(await readGolden('action_login_token.http'), loginToken), []);
      assert.match(loginToken.json().query.tokens.logintoken, /^[0-9a-f]+\+\\$/);
      assert.deepEqual(shapeProblems(await readGolden('action_login.http'), login), []);
      assert.equal(login.json().login.result, 'Success');
      assert.match(csrf, /^[0-9a-f]{40}\+\\$/);
    });

    for (const [name, c] of COMPARED) {
      test(`${name}: same shape as MediaWiki 1.39`, async () => {
        const golden = await readGolden(name);
        const ours = answers.get(name)!;
        assert.deepEqual(shapeProblems(golden, ours, Object.keys(c.deliberate ?? {})), [], `${name}: ${ours.text.slice(0, 400)}`);
        for (const h of c.headers ?? []) {
          assert.ok(h in golden.headers, `the sample has ${h}`);
          assert.ok(ours.headers.has(h), `Quire sends ${h}`);
          if (FIXED_VALUE_HEADERS.has(h)) assert.equal(ours.headers.get(h), golden.headers[h], h);
        }
      });
    }

    test('the edits and reads agree with each other', () => {
      const page = answers.get('rest_page.http')!.json();
      assert.equal(page.id, ids.pageId);
      assert.equal(page.latest.id, ids.secondRev);
      assert.equal(page.source, CREATE_TEXT + APPEND_TEXT);
      assert.equal(answers.get('rest_revision.http')!.json().id, ids.secondRev);
      assert.equal(answers.get('action_error_badtoken.http')!.json().error.code, 'badtoken');
      assert.equal(answers.get('rest_page_history_counts_edits.http')!.json().count, 2);
    });

    test("action_revisions_content.http: the warnings are MediaWiki's, in its order", async () => {
      const golden = JSON.parse((await readGolden('action_revisions_content.http')).body);
      const ours = answers.get('action_revisions_content.http')!.json();
      assert.deepEqual(Object.keys(ours), Object.keys(golden));
      assert.deepEqual(ours.warnings, golden.warnings);
      assert.deepEqual(ours.query.normalized, golden.query.normalized);
    });

    for (const name of ['rest_error_404_page.http', 'rest_error_404_revision.http', 'rest_error_409_post_exists.http']) {
      test(`${name}: the same body, byte for byte`, async () => {
        assert.equal(answers.get(name)!.text, (await readGolden(name)).body);
      });
    }
  });
}
