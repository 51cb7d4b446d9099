/*
 * The SQL engine's postings (page_words): kept in step when a page is indexed again, and
 * backfilled in the background for pages indexed before migration 005 while searches answer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, openDb, type Db } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { SearchPagesRequest } from '@quire/proto/wiki/search/v1/search';
import { countWords, type IndexDoc } from '../../backend.js';
import { SearchIndex } from '../../search.js';
import { parseQuery } from '../../query/parser.js';
import { SqlBackend, toTsqueryText } from './sql.js';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'migrations');

function doc(pageId: number, title: string, text: string): IndexDoc {
  return {
    pageId,
    namespace: 0,
    title,
    titleText: title,
    isRedirect: false,
    redirectTitle: '',
    size: Buffer.byteLength(text),
    wordCount: countWords(text),
    text,
    touched: new Date('2024-01-01T00:00:00Z'),
    created: new Date('2023-01-01T00:00:00Z'),
  };
}

for (const backendKind of testBackends()) {
  describe(`SQL engine postings (${backendKind})`, () => {
    let te: TestEnv;
    let db: Db;
    before(async () => {
      te = await makeTestEnv(backendKind);
      db = await openDb({ url: te.env.DATABASE_URL, dataDir: te.dataDir, schema: 'search', migrationsDir, log: createLogger('test', 'silent') });
    });
    after(async () => {
      await db.close();
      await te.cleanup();
    });
    const postings = async (pageId: number) =>
      Object.fromEntries((await db.query<{ word: string; score: number }>(`SELECT word, score FROM search.page_words WHERE page_id = $1 ORDER BY word`, [pageId])).rows.map((r) => [r.word, r.score]));
    const titlesOf = async (index: SearchIndex, query: string) => (await index.search(SearchPagesRequest.fromPartial({ query, limit: 10 }))).hits.map((h) => h.title);

    test('a page indexed again: changed scores updated, words gone removed, new words added, the rest kept', async () => {
      const engine = new SqlBackend(db);
      await engine.init();
      const index = new SearchIndex(engine, async () => () => undefined);
      await engine.apply([doc(1, 'Fruit', 'apple banana banana'), doc(2, 'Other', 'banana')], []);
      const first = await postings(1);
      assert.deepEqual(Object.keys(first), ['appl', 'banana', 'fruit']);
      const banana = (await db.query<{ ctid: string }>(`SELECT ctid::text FROM search.page_words WHERE page_id = 1 AND word = 'banana'`)).rows[0]!.ctid;
      await engine.apply([doc(1, 'Fruit', 'banana banana cherry cherry cherry')], []);
      const second = await postings(1);
      assert.deepEqual(Object.keys(second), ['banana', 'cherri', 'fruit']);
      assert.equal(second.banana, first.banana);
      assert.ok(second.cherri! > second.banana!);
      // An unchanged posting is not rewritten (its row stays where it was).
      assert.equal((await db.query<{ ctid: string }>(`SELECT ctid::text FROM search.page_words WHERE page_id = 1 AND word = 'banana'`)).rows[0]!.ctid, banana);
      assert.deepEqual(await titlesOf(index, 'apple'), []);
      assert.deepEqual(await titlesOf(index, 'cherry'), ['Fruit']);
      assert.deepEqual(await titlesOf(index, 'banana'), ['Fruit', 'Other']);
      await engine.apply([], [1]);
      assert.deepEqual(await postings(1), {});
      assert.deepEqual(await titlesOf(index, 'banana'), ['Other']);
    });

    test('posting_score: the weights of the occurrences summed (title A 1.0, body B 0.4, C 0.2, D 0.1), as migration 005 defined it', async () => {
      const r = await db.query<{ fast: number; sum: number }>(
        `SELECT search.posting_score(w) AS fast,
                (SELECT sum(CASE x WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.4 WHEN 'C' THEN 0.2 ELSE 0.1 END) FROM unnest(w) x)::real AS sum
           FROM unnest(ARRAY['{A}', '{B}', '{A,B,B,D}', '{C,C,C}', '{B,B,B,B,B,B,B}']::text[]) AS t(w_text), LATERAL (SELECT w_text::text[] AS w) l`,
      );
      assert.equal(r.rows.length, 5);
      for (const row of r.rows) assert.equal(row.fast, row.sum);
      assert.equal(r.rows[2]!.fast, 1.9);
    });

    test('two words: the best sums of their postings, the page titled as the query first; more in another namespace than the first 200 sums', async () => {
      const engine = new SqlBackend(db);
      await engine.init();
      const index = new SearchIndex(engine, async () => () => undefined);
      // 210 talk pages where both words weigh most (titles), then the main namespace's pages.
      const talk = Array.from({ length: 210 }, (_, i) => ({ ...doc(5000 + i, `Talk:Ibex yak ${i}`, 'ibex yak ibex yak'), namespace: 1, titleText: `Ibex yak ${i}` }));
      const main = [
        doc(6001, 'Herd', 'An ibex and a yak. The ibex and the yak.'),
        doc(6002, 'Pair', 'An ibex met a yak.'),
        doc(6003, 'Yak ibex', 'A page titled as the query.'),
        doc(6004, 'Lone', 'An ibex alone.'),
      ];
      await engine.apply([...talk, ...main], []);
      try {
        assert.deepEqual(await titlesOf(index, 'yak ibex'), ['Yak ibex', 'Herd', 'Pair']);
        const all = await index.search(SearchPagesRequest.fromPartial({ query: 'all:ibex yak', limit: 3 }));
        assert.deepEqual(
          all.hits.map((h) => h.namespace),
          [1, 1, 1],
          'every namespace: the talk pages rank first',
        );
      } finally {
        await engine.apply(
          [],
          [...talk, ...main].map((d) => d.pageId),
        );
      }
    });

    test('two words on hundreds of pages: the same pages in the same order as the whole join, in one namespace and in all, with ties', async () => {
      const engine = new SqlBackend(db);
      await engine.init();
      const index = new SearchIndex(engine, async () => () => undefined);
      // Scores are multiples of 0.4 (body occurrences), so sums tie often. Seed 1: a few pages
      // with both words many times; seed 2: each word's best pages lack the other; seed 3: small
      // counts, many ties; seed 4: different counts whose sums are equal float8s (5+3 and 4+4)
      // around the tenth place, where the page id decides.
      const shapes: Record<number, (rand: () => number, i: number) => [number, number]> = {
        1: (rand, i) => (i < 15 ? [6, 6] : [Math.floor(rand() * 4), Math.floor(rand() * 4)]),
        2: (rand, i) => (i < 120 ? [5 + Math.floor(rand() * 3), 0] : i < 240 ? [0, 5 + Math.floor(rand() * 3)] : [1 + Math.floor(rand() * 2), 1 + Math.floor(rand() * 2)]),
        3: (rand) => [Math.floor(rand() * 3), Math.floor(rand() * 3)],
        4: (_, i) => (i < 90 ? [9, 0] : i < 98 ? [6, 3] : i < 104 ? [4, 4] : i < 203 ? [0, 9] : i === 203 ? [5, 3] : [0, 0]),
      };
      for (const [seed, shape] of Object.entries(shapes)) {
        let x = Number(seed) * 7919;
        const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
        const docs = Array.from({ length: 300 }, (_, i) => {
          const [a, b] = shape(rand, i);
          const words = [...Array(a).fill('ibex'), ...Array(b).fill('yak'), 'filler'];
          return { ...doc(7000 + i, `Page ${seed} ${i}`, words.join(' ')), namespace: seed !== '4' && rand() < 0.2 ? 1 : 0 };
        });
        await engine.apply(docs, []);
        try {
          const joined = async (nsList: readonly number[] | null) =>
            (
              await db.query<{ page_id: string }>(
                `SELECT x.page_id FROM search.page_words x JOIN search.page_words y ON y.page_id = x.page_id AND y.word = 'yak'
                  WHERE x.word = 'ibex' ${nsList ? 'AND x.namespace = ANY($1::int[])' : ''} ORDER BY x.score::float8 + y.score::float8 DESC, x.page_id`,
                nsList ? [nsList] : [],
              )
            ).rows.map((r) => `Page ${seed} ${Number(r.page_id) - 7000}`);
          for (const [prefix, nsList] of [
            ['', [0]],
            ['all:', null],
          ] as const) {
            const expected = await joined(nsList);
            assert.ok(expected.length >= 15, `seed ${seed}: pages with both words (${expected.length})`);
            for (const offset of [0, 10, 20]) {
              const r = await index.search(SearchPagesRequest.fromPartial({ query: `${prefix}ibex yak`, limit: 10, offset }));
              assert.deepEqual(
                r.hits.map((h) => h.title),
                expected.slice(offset, offset + 10),
                `seed ${seed}, ${prefix || 'main namespace'}, offset ${offset}`,
              );
            }
          }
        } finally {
          await engine.apply(
            [],
            docs.map((d) => d.pageId),
          );
        }
      }
    });

    test("title searches read the titles' index and match exactly what the A-weighted lexemes of tsv match: words, phrases, prefixes, negations, OR", async () => {
      const engine = new SqlBackend(db);
      await engine.init();
      const index = new SearchIndex(engine, async () => () => undefined);
      const titles = [
        'Running water',
        'Water running uphill',
        'Runner of the water',
        'Dry land',
        'Waterfalls of the north',
        'The north wind',
        'Wind and water',
        'Notes/Water wheel',
        "Miller's pond.notes",
      ];
      // Each body has the words of another title: a body match must never count.
      const docs = titles.map((t, i) => doc(8000 + i, t, `${titles[(i + 3) % titles.length]} and more text`));
      await engine.apply(docs, []);
      try {
        const queries = ['water', 'notes', 'wheel', 'pond', "miller's", 'run', 'running water', '"running water"', 'water -running', 'wat*', 'north OR dry', 'wind -north', '"north wind"', 'the'];
        for (const q of queries) {
          const byEngine = (await index.search(SearchPagesRequest.fromPartial({ query: q, limit: 50, what: 'title' }))).hits.map((h) => h.title).sort();
          const parsed = parseQuery(q, () => undefined);
          const byTsv = (
            await db.query<{ title: string }>(`SELECT title FROM search.page_index WHERE page_id >= 8000 AND page_id < 9000 AND tsv @@ to_tsquery('english', $1) ORDER BY title`, [
              toTsqueryText(parsed, true),
            ])
          ).rows.map((r) => r.title);
          assert.deepEqual(byEngine, byTsv, q);
          const intitle = (
            await index.search(
              SearchPagesRequest.fromPartial({
                query: q
                  .split(' ')
                  .map((w) => (w === 'OR' || w.startsWith('"') ? w : w.startsWith('-') ? `-intitle:${w.slice(1)}` : `intitle:${w}`))
                  .join(' '),
                limit: 50,
              }),
            )
          ).hits
            .map((h) => h.title)
            .sort();
          if (!q.includes('"')) assert.deepEqual(intitle, byTsv, `intitle: ${q}`);
        }
        // The expression is the index's (a few rows: sequential scans off, as the engine asks).
        const plan = await db.tx(async (q) => {
          await q.query('SET LOCAL enable_seqscan = off');
          return q.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN SELECT page_id FROM search.page_index WHERE to_tsvector('english', regexp_replace(title_text, '[^A-Za-z0-9_''.\\u0080-\\uFFFF-]+', ' ', 'g')) @@ to_tsquery('english', 'water')`,
          );
        });
        assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /page_index_title_words/);
      } finally {
        await engine.apply(
          [],
          docs.map((d) => d.pageId),
        );
      }
    });

    test('pages indexed before the postings: searches answer at once, the backfill runs behind them', async () => {
      await db.query(`DELETE FROM search.page_words`);
      await db.query(`INSERT INTO search.page_words_backfill (id, through) VALUES (1, -1) ON CONFLICT (id) DO UPDATE SET through = -1`);
      const engine = new SqlBackend(db);
      await engine.init();
      const index = new SearchIndex(engine, async () => () => undefined);
      assert.deepEqual(await titlesOf(index, 'banana'), ['Other']);
      for (let i = 0; ; i++) {
        const left = await db.query(`SELECT 1 FROM search.page_words_backfill`);
        if (left.rows.length === 0) break;
        assert.ok(i < 200, 'the backfill finished');
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(Object.keys(await postings(2)), ['banana']); // the title's "other" is a stop word
      assert.deepEqual(await titlesOf(index, 'banana'), ['Other']);
    });
  });
}
