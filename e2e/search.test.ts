/*
 * Search end to end: pages saved in the content service reach the index through the change feed
 * and are found through both APIs; the next search after an edit sees it; an outage of the search
 * service during 500 edits loses nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startService } from '@quire/kit';
import { searchService } from '@quire/search/server';
import { runAdmin } from '../scripts/admin.js';
import { loggedIn } from './files-helpers.js';
import { GOLDEN_DIR, shapeCompareSample, startWiki, testBackends, type TestWiki } from './harness.js';
import { save, service, waitIndexed } from './search-helpers.js';

const ANON_TOKEN = '+\\';
const ANCHOR_TEXT = "Hello from the '''anchor'''. See [[Main Page]] and [[Nowhere yet]].\n[[Category:Anchor samples]]\n";

for (const backend of testBackends()) {
  describe(`search (${backend})`, () => {
    let wiki: TestWiki;

    before(async () => {
      wiki = await startWiki(backend);
      await save(wiki, 0, 'Anchor_sample_page', 0, ANCHOR_TEXT);
      await save(wiki, 0, 'Anchor_redirect', 0, '#REDIRECT [[Anchor sample page]]');
      await save(wiki, 1, 'Anchor_talk', 0, 'Talk about the anchor');
      for (let i = 1; i <= 12; i++) await save(wiki, 0, `Listed_page_${String(i).padStart(2, '0')}`, 0, `common words number ${i}`);
      await waitIndexed(wiki);
    });
    after(() => wiki?.close());

    test('read-your-writes: an edit, a deletion and a redirect are seen by the very next search, as in MediaWiki', async () => {
      const word = `zqx${Date.now().toString(36)}`;
      const edit = (title: string, text: string) => wiki.post('/w/api.php', { action: 'edit', format: 'json', title, text, token: ANON_TOKEN });
      assert.equal((await edit('Fresh page', `It mentions ${word} once.`)).json().edit?.result, 'Success');
      // No retries: the query waits for the index to apply what was committed before it.
      const found = (await wiki.rest(`/v1/search/page?q=${word}`)).json().pages;
      assert.deepEqual(
        found.map((p: any) => [p.title, p.excerpt]),
        // The matching lines, each ending in a newline, as MediaWiki's highlighter shows them.
        [['Fresh page', `It mentions <span class='searchmatch'>${word}</span> once.\n`]],
      );
      const prefixed = (await wiki.api({ action: 'query', list: 'prefixsearch', pssearch: 'Fresh pa', formatversion: '2' })).json();
      assert.deepEqual(
        prefixed.query.prefixsearch.map((p: any) => p.title),
        ['Fresh page'],
      );

      // A hit by its title only has no excerpt (MediaWiki's highlighter finds nothing in the text).
      const byTitle = (await wiki.rest('/v1/search/page?q=Fresh%20page')).json().pages;
      assert.deepEqual(
        byTitle.map((p: any) => [p.title, p.excerpt]),
        [['Fresh page', null]],
      );

      // A redirect made right now is resolved to its target by the next completion.
      assert.equal((await edit(`Via ${word}`, '#REDIRECT [[Fresh page]]')).json().edit?.result, 'Success');
      const via = (await wiki.rest(`/v1/search/title?q=Via%20${word}`)).json().pages;
      assert.deepEqual(
        via.map((p: any) => [p.title, p.matched_title]),
        [['Fresh page', `Via ${word}`]],
      );

      await runAdmin(['createAndPromote', 'Searchsysop', 'sysoppass123456', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
      const sysop = await loggedIn(wiki, 'Searchsysop', 'sysoppass123456');
      const deleted = await sysop.post('/w/api.php', { action: 'delete', format: 'json', title: 'Fresh page', token: sysop.csrf });
      assert.ok(deleted.json().delete, deleted.text);
      assert.deepEqual((await wiki.rest(`/v1/search/page?q=${word}`)).json().pages, []);
      assert.deepEqual((await wiki.rest('/v1/search/title?q=Fresh%20pa')).json().pages, []);
    });

    test('REST /v1/search/page: page objects with excerpts, shaped as MediaWiki', async () => {
      const r = await wiki.rest('/v1/search/page?q=anchor&limit=10');
      assert.equal(r.status, 200);
      const { pages } = r.json();
      assert.deepEqual(pages[0], {
        id: pages[0].id,
        key: 'Anchor_sample_page',
        title: 'Anchor sample page',
        excerpt:
          "Hello from the &#039;&#039;&#039;<span class='searchmatch'>anchor</span>&#039;&#039;&#039;. See [[Main Page]] and [[Nowhere yet]].\n[[Category:<span class='searchmatch'>Anchor</span> samples]]\n",
        matched_title: null,
        description: null,
        thumbnail: null,
      });
      assert.equal(pages.length, 1, 'the talk page is outside the main namespace; the redirect is its target');
      const { code, output } = await shapeCompareSample(path.join(GOLDEN_DIR, 'rest_search_page.http'), `${wiki.baseUrl}/w/rest.php/v1/search/page?q=anchor&limit=10`);
      assert.equal(code, 0, output);
    });

    test('REST /v1/search/title: completion with Cache-Control; a redirect answers its target with matched_title', async () => {
      const r = await wiki.rest('/v1/search/title?q=anch&limit=10');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('cache-control'), 'public, max-age=1200');
      assert.deepEqual(
        r.json().pages.map((p: any) => [p.key, p.excerpt, p.matched_title]),
        // "Anchor redirect" sorts first and leads to the page, which keeps it as matched_title while the
        // page's own later suggestion gives the excerpt (SearchHandler::buildPageObjects, as the reference wiki).
        [['Anchor_sample_page', 'Anchor sample page', 'Anchor redirect']],
      );
      const viaRedirect = (await wiki.rest('/v1/search/title?q=Anchor%20red')).json().pages;
      assert.deepEqual(
        viaRedirect.map((p: any) => [p.title, p.excerpt, p.matched_title]),
        [['Anchor sample page', 'Anchor redirect', 'Anchor redirect']],
      );
      // The golden wiki had no redirect under "Anch": compare the shape on a prefix without one here too.
      const { code, output } = await shapeCompareSample(path.join(GOLDEN_DIR, 'rest_search_title.http'), `${wiki.baseUrl}/w/rest.php/v1/search/title?q=Anchor%20s&limit=10`);
      assert.equal(code, 0, output);
    });

    test('REST search parameters are validated as MediaWiki does', async () => {
      const zero = await wiki.rest('/v1/search/page?q=anchor&limit=0');
      assert.equal(zero.status, 400);
      assert.deepEqual(zero.json(), {
        error: 'parameter-validation-failed',
        name: 'limit',
        value: '0',
        failureCode: 'outofrange',
        failureData: { min: 1, curmax: 100, max: 100, highmax: 100 },
        messageTranslations: { en: 'The value "0" for parameter "limit" must be between 1 and 100.' },
        httpCode: 400,
        httpReason: 'Bad Request',
      });
      const missing = await wiki.rest('/v1/search/title?limit=5');
      assert.equal(missing.status, 400);
      assert.equal(missing.json().failureCode, 'missingparam');
      assert.equal((await wiki.rest('/v1/search/page?q=common&limit=101')).status, 400);
      const fifty = (await wiki.rest('/v1/search/page?q=common')).json().pages;
      assert.equal(fifty.length, 12, 'default limit 50 covers all 12');
    });

    test('GET /v1/search is the OpenSearch description document', async () => {
      const r = await wiki.rest('/v1/search');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/opensearchdescription+xml');
      assert.equal(r.headers.get('cache-control'), 'max-age=600');
      assert.match(r.text, /^<\?xml version="1.0"\?><OpenSearchDescription xmlns="http:\/\/a9.com\/-\/spec\/opensearch\/1.1\/"/);
      assert.match(r.text, /<ShortName>Quire \(en\)<\/ShortName>/);
      assert.match(r.text, /template="[^"]*\/w\/api.php\?action=opensearch&amp;format=xml&amp;search=\{searchTerms\}&amp;namespace=0"/);
    });

    test('list=search: totalhits, snippets, continuation, namespaces, srwhat and shape', async () => {
      const j = (await wiki.api({ action: 'query', list: 'search', srsearch: 'anchor' })).json();
      assert.equal(j.batchcomplete, '');
      assert.equal(j.query.searchinfo.totalhits, 1);
      const [hit] = j.query.search;
      assert.deepEqual(Object.keys(hit), ['ns', 'title', 'pageid', 'size', 'wordcount', 'snippet', 'timestamp']);
      assert.equal(hit.title, 'Anchor sample page');
      assert.equal(hit.size, Buffer.byteLength(ANCHOR_TEXT));
      assert.match(hit.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const { code, output } = await shapeCompareSample(path.join(GOLDEN_DIR, 'action_search.http'), `${wiki.baseUrl}/w/api.php?action=query&list=search&srsearch=anchor&format=json`);
      assert.equal(code, 0, output);

      const page1 = (await wiki.api({ action: 'query', list: 'search', srsearch: 'common', srwhat: 'text', srlimit: '5', srsort: 'create_timestamp_asc' })).json();
      assert.equal(page1.query.searchinfo.totalhits, 12);
      // The offset is a number, as MediaWiki sends it.
      assert.deepEqual(page1.continue, { sroffset: 5, continue: '-||' });
      const page3 = (await wiki.api({ action: 'query', list: 'search', srsearch: 'common', srwhat: 'text', srlimit: '5', sroffset: '10', srsort: 'create_timestamp_asc' })).json();
      assert.equal(page3.query.search.length, 2);
      assert.equal(page3.continue, undefined);

      const talk = (await wiki.api({ action: 'query', list: 'search', srsearch: 'anchor', srwhat: 'text', srnamespace: '1', srprop: 'titlesnippet|isfilematch', formatversion: '2' })).json();
      assert.deepEqual(talk.query.search, [
        { ns: 1, title: 'Talk:Anchor talk', pageid: talk.query.search[0].pageid, titlesnippet: "Talk:<span class='searchmatch'>Anchor</span> talk", isfilematch: false },
      ]);
      const viaRedirect = (await wiki.api({ action: 'query', list: 'search', srsearch: 'redirect', srprop: 'redirecttitle', formatversion: '2' })).json();
      assert.deepEqual(
        viaRedirect.query.search.map((h: any) => [h.title, h.redirecttitle]),
        [['Anchor sample page', 'Anchor redirect']],
      );
      const near = (await wiki.api({ action: 'query', list: 'search', srsearch: 'anchor SAMPLE page', srwhat: 'nearmatch', formatversion: '2' })).json();
      assert.deepEqual(
        near.query.search.map((h: any) => h.title),
        ['Anchor sample page'],
      );
      const missing = (await wiki.api({ action: 'query', list: 'search' })).json();
      assert.equal(missing.error.code, 'missingparam');
    });

    test('list=prefixsearch and generators', async () => {
      const j = (await wiki.api({ action: 'query', list: 'prefixsearch', pssearch: 'listed page', pslimit: '10' })).json();
      assert.equal(j.query.prefixsearch.length, 10);
      assert.deepEqual(Object.keys(j.query.prefixsearch[0]), ['ns', 'title', 'pageid']);
      assert.equal(j.query.prefixsearch[0].title, 'Listed page 01');
      assert.deepEqual(j.continue, { psoffset: 10, continue: '-||' });
      const rest = (await wiki.api({ action: 'query', list: 'prefixsearch', pssearch: 'listed page', pslimit: '10', psoffset: '10' })).json();
      assert.deepEqual(
        rest.query.prefixsearch.map((p: any) => p.title),
        ['Listed page 11', 'Listed page 12'],
      );
      const talk = (await wiki.api({ action: 'query', list: 'prefixsearch', pssearch: 'Talk:anc' })).json();
      assert.deepEqual(
        talk.query.prefixsearch.map((p: any) => p.title),
        ['Talk:Anchor talk'],
      );

      const gen = (await wiki.api({ action: 'query', generator: 'search', gsrsearch: 'anchor', gsrwhat: 'text', prop: 'info', formatversion: '2' })).json();
      // Each generated page with its place in the results (ApiPageSet::setGeneratorData), after its title.
      assert.deepEqual(
        gen.query.pages.map((p: any) => [p.title, p.index]),
        [['Anchor sample page', 1]],
      );
      assert.deepEqual(Object.keys(gen.query.pages[0]).slice(0, 5), ['pageid', 'ns', 'title', 'index', 'contentmodel']);
      const genPrefix = (await wiki.api({ action: 'query', generator: 'prefixsearch', gpssearch: 'Anchor', formatversion: '2' })).json();
      assert.deepEqual(genPrefix.query.pages.map((p: any) => p.title).sort(), ['Anchor redirect', 'Anchor sample page']);
      assert.deepEqual(genPrefix.query.pages.map((p: any) => p.index).sort(), [1, 2]);
      const genNext = (await wiki.api({ action: 'query', generator: 'prefixsearch', gpssearch: 'listed page', gpslimit: '10' })).json();
      assert.deepEqual(genNext.continue, { gpsoffset: 10, continue: 'gpsoffset||' });
      const genLater = (await wiki.api({ action: 'query', generator: 'prefixsearch', gpssearch: 'listed page', gpslimit: '10', gpsoffset: '10', formatversion: '2' })).json();
      assert.ok(genLater.query.pages.length > 0 && genLater.query.pages.every((p: any) => p.index > 10), JSON.stringify(genLater.query.pages));
      // generator= names generator modules of both groups in paraminfo (prop and list).
      const info = (await wiki.api({ action: 'paraminfo', modules: 'query', formatversion: '2' })).json();
      const generator = info.paraminfo.modules[0].parameters.find((p: any) => p.name === 'generator');
      assert.deepEqual(Object.keys(generator.submodules), generator.type);
      const generators = (await wiki.api({ action: 'paraminfo', modules: Object.values(generator.submodules).join('|'), formatversion: '2' })).json().paraminfo.modules;
      assert.equal(generators.length, generator.type.length);
      for (const m of generators) assert.ok(['prop', 'list'].includes(m.group) && m.generator === true, m.path);
    });

    test('action=opensearch: the 4-array JSON (redirects returned) and the XML (redirects resolved)', async () => {
      const r = await wiki.api({ action: 'opensearch', search: 'Anchor' });
      assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
      // Cacheable by anyone for $wgSearchSuggestCacheExpiry when asked without a session, as MediaWiki sends it.
      assert.equal(r.headers.get('cache-control'), 'max-age=1200, s-maxage=1200, public');
      assert.ok(r.headers.get('expires'));
      assert.match(r.headers.get('vary') ?? '', /Cookie/);
      const [query, titles, descriptions, urls] = r.json();
      assert.deepEqual([query, titles, descriptions], ['Anchor', ['Anchor redirect', 'Anchor sample page'], ['', '']]);
      assert.match(urls[0], /^http:\/\/[^/]+\/wiki\/Anchor_redirect$/);
      assert.match(r.json()[3][1], /\/wiki\/Anchor_sample_page$/);
      const { code, output } = await shapeCompareSample(path.join(GOLDEN_DIR, 'action_opensearch.http'), `${wiki.baseUrl}/w/api.php?action=opensearch&search=Anchor&format=json`);
      assert.equal(code, 0, output);
      const resolved = (await wiki.api({ action: 'opensearch', search: 'Anchor', redirects: 'resolve' })).json();
      assert.deepEqual(resolved[1], ['Anchor sample page']);
      const xml = await wiki.api({ action: 'opensearch', search: 'Anchor red', format: 'xml' });
      assert.equal(xml.headers.get('content-type'), 'text/xml; charset=utf-8');
      assert.match(
        xml.text,
        /^<\?xml version="1.0"\?><SearchSuggestion version="2.0" xmlns="http:\/\/opensearch.org\/searchsuggest2"><Query xml:space="preserve">Anchor red<\/Query><Section><Item><Text xml:space="preserve">Anchor sample page<\/Text><Url xml:space="preserve">[^<]*\/wiki\/Anchor_sample_page<\/Url><\/Item><\/Section><\/SearchSuggestion>$/,
      );
      const none = await wiki.api({ action: 'opensearch', search: 'Nothing like this', format: 'xml' });
      assert.match(none.text, /<Section \/><\/SearchSuggestion>$/);
    });

    test('/healthz shows the index lag', async () => {
      await waitIndexed(wiki);
      const h = (await wiki.get('/healthz')).json();
      assert.equal(h.search_index.engine, 'sql');
      assert.equal(h.search_index.pending_changes, 0);
      assert.equal(h.search_index.lag_seconds, 0);
      assert.equal(h.search_index.indexer_active, true);
      assert.ok(h.search_index.indexed_through > 0);
    });
  });

  describe(`search indexing across an outage (${backend})`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend);
    });
    after(() => wiki?.close());

    test('stopping the search service during 500 edits loses nothing', async () => {
      const latest = new Map<string, number>();
      const edit = async (i: number) => {
        const dbkey = `Outage_page_${i % 100}`;
        const saved = await save(wiki, 0, dbkey, latest.get(dbkey) ?? 0, `revision ${i} of the page mark${i}x`);
        latest.set(dbkey, saved.revId);
      };
      for (let i = 0; i < 150; i++) await edit(i);
      // The outage: the service stops (its indexer with it) while edits go on.
      const old = service(wiki, 'search');
      await old.stop(0);
      wiki.stack.services.splice(wiki.stack.services.indexOf(old), 1);
      for (let i = 150; i < 400; i++) await edit(i);
      const restarted = await startService(searchService, {
        ...wiki.testEnv.env,
        SEARCH_GRPC_PORT: String(old.port),
        CONTENT_GRPC_ADDR: service(wiki, 'content').address,
      });
      wiki.stack.services.push(restarted);
      for (let i = 400; i < 500; i++) await edit(i);
      await waitIndexed(wiki);

      // Every page is indexed with its latest text.
      const content = service(wiki, 'content').runtime.db;
      const expected = await content.query<{ page_id: number; content_text: string }>(
        `SELECT p.page_id, c.content_text FROM content.page p JOIN content.revision r ON r.rev_id = p.page_latest
           JOIN content.content c ON c.content_id = r.rev_content_id ORDER BY p.page_id`,
      );
      const indexed = await restarted.runtime.db.query<{ page_id: number; body: string }>(`SELECT page_id, body FROM search.page_index ORDER BY page_id`);
      assert.equal(expected.rows.length, 101);
      assert.deepEqual(
        indexed.rows.map((r) => [r.page_id, r.body]),
        expected.rows.map((r) => [r.page_id, r.content_text]),
      );
      // The latest revision of each page is what search finds; older words are gone.
      const hits = (await wiki.rest('/v1/search/page?q=mark499x')).json().pages;
      assert.deepEqual(
        hits.map((p: any) => p.title),
        ['Outage page 99'],
      );
      assert.deepEqual((await wiki.rest('/v1/search/page?q=mark99x')).json().pages, []);
    });
  });
}
