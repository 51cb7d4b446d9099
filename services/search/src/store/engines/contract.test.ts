/*
 * The engine contract: every SearchBackend answers the same cases through the query layer
 * (search.ts). The SQL engine always runs (on every test backend); Meilisearch runs when
 * MEILISEARCH_URL is set.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import { createLogger, openDb, type Db } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { CompleteTitlesRequest, SearchPagesRequest } from '@quire/proto/wiki/search/v1/search';
import { countWords, type IndexDoc, type SearchBackend } from '../../backend.js';
import { SearchIndex } from '../../search.js';
import { SqlBackend } from './sql.js';
import { MeilisearchBackend } from './meilisearch.js';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'migrations');
const NAMESPACES: Record<string, number> = { talk: 1, user: 2, help: 12 };
const NS_PREFIX: Record<number, string> = { 0: '', 1: 'Talk:', 2: 'User:', 12: 'Help:' };

let nextId = 1;
function doc(ns: number, titleText: string, text: string, extra: Partial<IndexDoc> = {}): IndexDoc {
  const redirect = /^#REDIRECT \[\[(.+)\]\]/i.exec(text);
  return {
    pageId: nextId++,
    namespace: ns,
    title: NS_PREFIX[ns]! + titleText,
    titleText,
    isRedirect: redirect !== null,
    redirectTitle: redirect?.[1] ?? '',
    size: Buffer.byteLength(text),
    wordCount: countWords(text),
    text,
    touched: new Date('2024-01-01T00:00:00Z'),
    created: new Date('2023-01-01T00:00:00Z'),
    ...extra,
  };
}

const DOCS = {
  anchor: doc(0, 'Anchor sample page', "Hello from the '''anchor'''. See [[Main Page]] and <b>bold</b>.\n[[Category:Anchor samples]]\n", {
    touched: new Date('2024-03-01T00:00:00Z'),
  }),
  alphaBeta: doc(0, 'Greek letters', 'alpha and beta are letters', { touched: new Date('2024-02-01T00:00:00Z') }),
  alphaOnly: doc(0, 'First letter', 'alpha comes first', { touched: new Date('2024-04-01T00:00:00Z') }),
  gamma: doc(0, 'Gamma rays', 'radiation of high energy; the quick brown fox jumps'),
  alphaTitle: doc(0, 'Alpha', 'a page whose title is the word'),
  talk: doc(1, 'Alpha', 'discussion about alpha'),
  help: doc(12, 'Editing help', 'how to edit alpha pages'),
  redirect: doc(0, 'Gamma radiation', '#REDIRECT [[Gamma rays]]'),
  doomed: doc(0, 'Temporary page', 'zebra crossing'),
  subpage: doc(0, 'Orchard/Cherry tree', 'see orchard/plum too'),
};

interface EngineCase {
  name: string;
  open(te: TestEnv): Promise<{ backend: SearchBackend; close(): Promise<void> }>;
}

const engines: EngineCase[] = [
  {
    name: 'sql',
    async open(te) {
      const db: Db = await openDb({
        url: te.env.DATABASE_URL,
        dataDir: te.dataDir,
        schema: 'search',
        migrationsDir,
        log: createLogger('test', 'silent'),
      });
      return { backend: new SqlBackend(db), close: () => db.close() };
    },
  },
];
if (process.env.MEILISEARCH_URL) {
  engines.push({
    name: 'meilisearch',
    async open() {
      const backend = new MeilisearchBackend(process.env.MEILISEARCH_URL!, process.env.MEILISEARCH_API_KEY, `quire-test-${crypto.randomBytes(4).toString('hex')}`);
      return { backend, close: async () => undefined };
    },
  });
}

for (const backendKind of testBackends()) {
  for (const engine of engines) {
    describe(`search engine contract: ${engine.name} (${backendKind})`, () => {
      let te: TestEnv;
      let opened: { backend: SearchBackend; close(): Promise<void> };
      let index: SearchIndex;
      const search = (query: string, extra: Partial<SearchPagesRequest> = {}) => index.search(SearchPagesRequest.fromPartial({ query, limit: 10, withSnippets: true, ...extra }));
      const titles = async (query: string, extra: Partial<SearchPagesRequest> = {}) => (await search(query, extra)).hits.map((h) => h.title);
      const complete = (prefix: string, extra: Partial<CompleteTitlesRequest> = {}) => index.complete(CompleteTitlesRequest.fromPartial({ prefix, limit: 10, resolveRedirects: true, ...extra }));

      before(async () => {
        te = await makeTestEnv(backendKind);
        opened = await engine.open(te);
        await opened.backend.init();
        index = new SearchIndex(opened.backend, async () => (name) => NAMESPACES[name]);
        await opened.backend.apply(Object.values(DOCS), []);
      });
      after(async () => {
        await opened.close();
        await te.cleanup();
      });

      test('a body word finds its page, with an escaped snippet that marks the matches', async () => {
        const r = await search('anchor');
        assert.deepEqual(
          r.hits.map((h) => h.title),
          ['Anchor sample page'],
        );
        assert.equal(r.totalHits, 1);
        const hit = r.hits[0]!;
        assert.equal(hit.pageId, DOCS.anchor.pageId);
        assert.equal(hit.size, DOCS.anchor.size);
        assert.equal(hit.wordCount, DOCS.anchor.wordCount);
        assert.equal(hit.timestamp, '2024-03-01T00:00:00Z');
        assert.match(hit.snippet, /<span class='searchmatch'>anchor<\/span>/);
        assert.match(hit.snippet, /&#039;&#039;&#039;/);
        assert.match(hit.snippet, /&lt;b&gt;bold&lt;\/b&gt;/);
        assert.match(hit.titleSnippet, /<span class='searchmatch'>Anchor<\/span> sample page/);
      });

      test('words are ANDed; OR joins groups; - and NOT exclude', async () => {
        assert.deepEqual(await titles('alpha beta'), ['Greek letters']);
        assert.deepEqual((await titles('beta OR radiation')).sort(), ['Gamma rays', 'Greek letters']);
        assert.deepEqual((await titles('alpha -beta')).sort(), ['Alpha', 'First letter']);
        assert.deepEqual((await titles('alpha NOT beta')).sort(), ['Alpha', 'First letter']);
      });

      test('words on many pages: the pages with all of them, most occurrences first; a total only when asked', async () => {
        // More pages than the SQL engine reads of a word's postings at first (100), few with both words.
        const many = [
          ...Array.from({ length: 130 }, (_, i) => doc(0, `Quokka ${i}`, `About a quokka, number ${i}.`)),
          ...Array.from({ length: 130 }, (_, i) => doc(0, `Wombat ${i}`, `About a wombat, number ${i}.`)),
          doc(0, 'Both once', 'A quokka met a wombat.'),
          doc(0, 'Both often', 'A quokka and a wombat, a wombat and a quokka, and a quokka again.'),
          doc(1, 'Both in talk', 'A quokka met a wombat.'),
        ];
        await opened.backend.apply(many, []);
        try {
          assert.deepEqual(await titles('quokka wombat'), ['Both often', 'Both once']);
          assert.equal((await search('wombat quokka')).totalHits, 2);
          assert.match((await search('quokka', { limit: 5 })).hits[0]!.title, /^Quokka \d+$/, 'a title match first');
          assert.equal((await search('quokka', { limit: 5 })).totalHits, 132);
          assert.ok((await search('quokka', { limit: 5, withoutTotal: true })).totalHits >= 5);
          assert.deepEqual(await titles('Quokka 7'), ['Quokka 7'], 'the page titled as the query first');
        } finally {
          await opened.backend.apply(
            [],
            many.map((d) => d.pageId),
          );
        }
      });

      test('"phrases" match words in order', async () => {
        assert.deepEqual(await titles('"brown fox"'), ['Gamma rays']);
        assert.deepEqual(await titles('"fox brown"'), []);
      });

      test('intitle: matches titles only; srwhat=title likewise', async () => {
        assert.deepEqual(await titles('intitle:first'), ['First letter']);
        assert.deepEqual(await titles('intitle:comes'), []);
        assert.deepEqual(await titles('comes'), ['First letter']);
        assert.deepEqual(await titles('greek', { what: 'title' }), ['Greek letters']);
        assert.deepEqual(await titles('comes', { what: 'title' }), []);
      });

      test('a slash separates words, as in MediaWiki: subpages are found by either part', async () => {
        for (const q of ['cherry', 'orchard', 'Orchard/Cherry', 'plum', 'intitle:cherry']) assert.deepEqual(await titles(q), ['Orchard/Cherry tree'], q);
        assert.deepEqual(await titles('cherry', { what: 'title' }), ['Orchard/Cherry tree']);
        assert.deepEqual(await titles('Cherry/Orchard'), []);
      });

      test('prefix: restricts to titles starting with the text', async () => {
        assert.deepEqual(await titles('alpha prefix:Fir'), ['First letter']);
      });

      test('a namespace prefix picks the namespace; all: searches every namespace', async () => {
        assert.deepEqual(await titles('Talk:alpha'), ['Talk:Alpha']);
        assert.deepEqual(await titles('alpha', { namespaces: [12] }), ['Help:Editing help']);
        assert.deepEqual((await titles('all:alpha')).sort(), ['Alpha', 'First letter', 'Greek letters', 'Help:Editing help', 'Talk:Alpha']);
      });

      test('an exact title match ranks first; word* matches word prefixes', async () => {
        assert.equal((await titles('alpha'))[0], 'Alpha');
        assert.deepEqual((await titles('radiat*')).sort(), ['Gamma rays']);
      });

      test('a hit on a redirect answers the target with the redirect title', async () => {
        const r = await search('intitle:radiation');
        assert.equal(r.hits.length, 1);
        assert.equal(r.hits[0]!.title, 'Gamma rays');
        assert.equal(r.hits[0]!.redirectTitle, 'Gamma radiation');
        assert.match(r.hits[0]!.redirectSnippet, /searchmatch/);
      });

      test('date sorts and offsets page through the results', async () => {
        assert.deepEqual(await titles('alpha', { sort: 'last_edit_desc' }), ['First letter', 'Greek letters', 'Alpha']);
        assert.deepEqual(await titles('alpha', { sort: 'last_edit_asc' }), ['Alpha', 'Greek letters', 'First letter']);
        const second = await search('alpha', { sort: 'last_edit_desc', limit: 1, offset: 1 });
        assert.deepEqual(
          second.hits.map((h) => h.title),
          ['Greek letters'],
        );
        assert.equal(second.totalHits, 3);
      });

      test('nearmatch finds the page titled as the query, case-insensitively', async () => {
        assert.deepEqual(await titles('gamma RAYS', { what: 'nearmatch' }), ['Gamma rays']);
        assert.deepEqual(await titles('gamma', { what: 'nearmatch' }), []);
      });

      test('title completion: prefix after a capitalised first letter, title order, namespaces, redirects resolved', async () => {
        assert.deepEqual(
          (await complete('gam')).matches.map((m) => [m.title, m.redirectFrom]),
          [['Gamma rays', '']],
        );
        assert.deepEqual(
          (await complete('gamma r', { resolveRedirects: false })).matches.map((m) => m.title),
          ['Gamma radiation', 'Gamma rays'],
        );
        assert.deepEqual(
          (await complete('gamma rad')).matches.map((m) => [m.title, m.redirectFrom]),
          [['Gamma rays', 'Gamma radiation']],
        );
        assert.deepEqual(
          (await complete('talk:al')).matches.map((m) => m.title),
          ['Talk:Alpha'],
        );
        assert.deepEqual(
          (await complete('E', { namespaces: [12] })).matches.map((m) => m.title),
          ['Help:Editing help'],
        );
        // Only the first letter's case is free (titles are capitalised): the rest must match.
        assert.deepEqual(
          (await complete('gamma R', { resolveRedirects: false })).matches.map((m) => m.title),
          [],
        );
        assert.deepEqual(
          (await complete('gAmma', { resolveRedirects: false })).matches.map((m) => m.title),
          [],
        );
        const page = await complete('', { namespaces: [0], limit: 2, resolveRedirects: false });
        assert.equal(page.matches.length, 0);
        const first = await complete('g', { limit: 1, resolveRedirects: false });
        assert.deepEqual(
          first.matches.map((m) => m.title),
          ['Gamma radiation'],
        );
        assert.equal(first.hasMore, true);
      });

      test('apply is idempotent and deletes remove pages', async () => {
        const before = await opened.backend.count();
        await opened.backend.apply([DOCS.doomed, { ...DOCS.gamma }], []);
        assert.equal(await opened.backend.count(), before);
        assert.deepEqual(await titles('zebra'), ['Temporary page']);
        await opened.backend.apply([], [DOCS.doomed.pageId]);
        assert.deepEqual(await titles('zebra'), []);
        assert.equal(await opened.backend.count(), before - 1);
      });

      test('queries with nothing positive, or only stop words, find nothing', async () => {
        assert.deepEqual(await titles('-alpha'), []);
        assert.deepEqual(await titles('the'), []);
        assert.deepEqual(await titles('"" ***'), []);
      });
    });
  }
}
