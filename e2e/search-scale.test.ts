/*
 * How search scales: one indexer follows the feed under a lease while others wait, and
 * the lease passes on when its holder stops or dies; `rebuildSearchIndex` refills the SQL index
 * beside the live one, which answers meanwhile, and swaps it in without losing concurrent edits.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeClient, unary } from '@quire/kit';
import { FeedServiceClient } from '@quire/proto/wiki/content/feed/v1/feed';
import { SqlBackend } from '@quire/search/store/engines/sql';
import { FeedIndexer, LEASE_KEY } from '@quire/search/indexer';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, type TestWiki } from './harness.js';
import { save, service, waitIndexed } from './search-helpers.js';

async function until(what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The page's latest text as the SQL index holds it. */
async function indexedBody(wiki: TestWiki, title: string): Promise<string | undefined> {
  const r = await service(wiki, 'search').runtime.db.query<{ body: string }>(`SELECT body FROM search.page_index WHERE title = $1`, [title]);
  return r.rows[0]?.body;
}

for (const backend of testBackends()) {
  describe(`search indexer lease (${backend})`, () => {
    let wiki: TestWiki;
    // The stack's own search service only answers queries: the two indexers here are the only ones.
    before(async () => (wiki = await startWiki(backend, { SEARCH_ROLE: 'query' })));
    after(() => wiki?.close());

    test('two indexers: one follows the feed; when it stops, or dies holding the lease, the other takes over', async () => {
      const rt = service(wiki, 'search').runtime;
      const content = makeClient(FeedServiceClient, service(wiki, 'content').address);
      const timing = { ttlSeconds: 1, renewMs: 200 };
      const make = (name: string) => new FeedIndexer(rt.db, new SqlBackend(rt.db), content, rt.kv, rt.log.child({ indexer: name }), timing);
      const first = make('first');
      const second = make('second');
      try {
        first.start();
        await until('the first indexer to hold the lease', () => first.active);
        second.start();
        await save(wiki, 0, 'Lease_page', 0, 'written while the first indexer holds the lease');
        await waitIndexed(wiki);
        assert.equal(await indexedBody(wiki, 'Lease page'), 'written while the first indexer holds the lease');
        assert.equal(second.active, false, 'only one indexer follows the feed');

        // A clean stop releases the lease: the second takes over at its next try.
        await first.stop();
        await until('the second indexer to take over', () => second.active);
        await save(wiki, 0, 'Lease_page_2', 0, 'applied by the second indexer');
        await waitIndexed(wiki);
        assert.equal(await indexedBody(wiki, 'Lease page 2'), 'applied by the second indexer');

        // A holder that dies leaves its lease in the store until the TTL: the next one waits it out.
        await second.stop();
        await rt.kv.set(LEASE_KEY, 'a-dead-indexer', timing.ttlSeconds);
        const third = make('third');
        third.start();
        try {
          await sleep(300);
          assert.equal(third.active, false, 'a live lease is respected');
          await until('the lease of the dead holder to expire', () => third.active, 10_000);
          await save(wiki, 0, 'Lease_page_3', 0, 'applied after the dead holder expired');
          await waitIndexed(wiki);
          assert.equal(await indexedBody(wiki, 'Lease page 3'), 'applied after the dead holder expired');
        } finally {
          await third.stop();
        }
        assert.equal(await rt.kv.get(LEASE_KEY), null, 'a stopped indexer releases its lease');
      } finally {
        await first.stop();
        await second.stop();
        content.close();
      }
    });
  });

  describe(`rebuildSearchIndex (${backend})`, () => {
    let wiki: TestWiki;
    const PAGES = 120;
    before(async () => {
      wiki = await startWiki(backend);
      for (let i = 0; i < PAGES; i++) await save(wiki, i % 3 === 0 ? 1 : 0, `Rebuild_page_${i}`, 0, `page ${i} mentions quasar${i % 2 === 0 ? ' nebula' : ''}`);
      await waitIndexed(wiki);
    });
    after(() => wiki?.close());

    test('--engine sql fills page_index_new while the old index answers, swaps it in, and loses no concurrent edit', async () => {
      const db = service(wiki, 'search').runtime.db;
      const before = await db.query<{ generation: number }>(`SELECT generation FROM search.feed_cursors WHERE engine = 'sql'`);
      // A row the content service never had: gone after the rebuild (the index is content's pages only).
      await db.query(
        `INSERT INTO search.page_index (page_id, namespace, title, title_text, size, word_count, body, touched, created)
         VALUES (999999, 0, 'Stale row', 'Stale row', 1, 1, 'stale', now(), now())`,
      );

      const nebula = async () => {
        const r = await wiki.rest('/v1/search/page?q=nebula&limit=100');
        assert.equal(r.status, 200);
        return (r.json().pages as unknown[]).length;
      };
      const baseline = await nebula();
      assert.ok(baseline > 30);
      const lines: string[] = [];
      let finished = false;
      const rebuilding = runAdmin(['rebuildSearchIndex', '--engine', 'sql'], wiki.testEnv.env, (l) => lines.push(l)).finally(() => (finished = true));
      // Meanwhile: searches keep answering from the live index, and edits go on.
      let searches = 0;
      let edits = 0;
      const revs = new Map<string, number>();
      while (!finished) {
        assert.equal(await nebula(), baseline, 'the old index answers during the rebuild');
        searches++;
        const key = `During_rebuild_${edits % 5}`;
        const saved = await save(wiki, 0, key, revs.get(key) ?? 0, `edit ${edits} during the rebuild pulsar${edits}`);
        revs.set(key, saved.revId);
        edits++;
      }
      await rebuilding;
      assert.ok(searches >= 1 && edits >= 1);
      assert.match(lines.join('\n'), /\] \d+\/\d+ pages {2}\d+ pages\/s/);
      assert.match(lines.at(-1)!, /^Rebuilt the sql search index: \d+ pages, swapped in/);

      await waitIndexed(wiki);
      // Every page of content, with its latest text; the stale row went with the old table.
      const expected = await service(wiki, 'content').runtime.db.query<{ page_id: number; content_text: string }>(
        `SELECT p.page_id, c.content_text FROM content.page p JOIN content.revision r ON r.rev_id = p.page_latest
           JOIN content.content c ON c.content_id = r.rev_content_id ORDER BY p.page_id`,
      );
      const indexed = await db.query<{ page_id: number; body: string }>(`SELECT page_id, body FROM search.page_index ORDER BY page_id`);
      assert.deepEqual(
        indexed.rows.map((r) => [Number(r.page_id), r.body]),
        expected.rows.map((r) => [Number(r.page_id), r.content_text]),
      );
      // The swap left one table, with the canonical index names later migrations refer to.
      const tables = await db.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'search' AND tablename LIKE 'page_index%'`);
      assert.deepEqual(
        tables.rows.map((r) => r.t),
        ['page_index'],
      );
      const indexes = await db.query<{ n: string }>(`SELECT indexname AS n FROM pg_indexes WHERE schemaname = 'search' AND tablename = 'page_index' ORDER BY 1`);
      assert.deepEqual(
        indexes.rows.map((r) => r.n),
        ['page_index_completion', 'page_index_created', 'page_index_pkey', 'page_index_title', 'page_index_title_words', 'page_index_touched', 'page_index_tsv'],
      );
      const afterRow = await db.query<{ generation: number }>(`SELECT generation FROM search.feed_cursors WHERE engine = 'sql'`);
      assert.equal(afterRow.rows[0]!.generation, before.rows[0]!.generation + 1);
      // Searches and edits go on against the new table.
      const r = await wiki.rest(`/v1/search/page?q=pulsar${edits - 1}`);
      assert.equal(r.json().pages.length, 1);
      await save(wiki, 0, 'After_rebuild', 0, 'a magnetar appears');
      assert.equal((await wiki.rest('/v1/search/page?q=magnetar')).json().pages.length, 1);
    });

    test('a bad --engine is a usage error; meilisearch without MEILISEARCH_URL is refused', async () => {
      await assert.rejects(
        runAdmin(['rebuildSearchIndex', '--engine', 'lucene'], wiki.testEnv.env, () => undefined),
        /--engine must be sql or meilisearch/,
      );
      await assert.rejects(
        runAdmin(['rebuildSearchIndex', '--engine', 'meilisearch'], wiki.testEnv.env, () => undefined),
        /meilisearch engine is not configured/,
      );
      // Nothing was left behind: the SQL index is whole and no rebuild table exists.
      const db = service(wiki, 'search').runtime.db;
      assert.equal((await db.query(`SELECT 1 FROM pg_tables WHERE schemaname = 'search' AND tablename = 'page_index_new'`)).rowCount, 0);
      const client = makeClient((await import('@quire/proto/wiki/search/v1/search')).SearchServiceClient, service(wiki, 'search').address);
      try {
        assert.equal((await unary(client, client.getIndexStatus, {})).engine, 'sql');
      } finally {
        client.close();
      }
    });
  });
}
