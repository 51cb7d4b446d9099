import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, startService, unary, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { CountContributionsRequest, ListContributionsRequest, RevisionServiceClient } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { contentService } from '../server.js';
import { saveRevision } from '../store/save.js';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));
const EVE = { id: 51, name: 'Eve' };
const t0 = Date.UTC(2030, 0, 1);
/** TS_MW of revision i (one per second). */
const ts = (i: number) => new Date(t0 + i * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);

for (const backend of testBackends()) {
  describe(`ListContributions / CountContributions (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    let client: RevisionServiceClient;
    const revIds: number[] = [];
    const list = (r: Partial<ListContributionsRequest>) => unary(client, client.listContributions, ListContributionsRequest.fromPartial({ user: 'Eve', limit: 2, ...r }));
    const count = (r: Partial<CountContributionsRequest>) => unary(client, client.countContributions, CountContributionsRequest.fromPartial({ user: 'Eve', ...r }));
    const ids = (r: { contributions: { revId: number }[] }) => r.contributions.map((c) => revIds.indexOf(c.revId));

    before(async () => {
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0' });
      svc = await startService(contentService, te.env);
      client = makeClient(RevisionServiceClient, svc.address);
      // Eve: five revisions, one per second, alternating between two pages; revision 2 tagged.
      const base = new Map<string, number>();
      for (let i = 0; i < 5; i++) {
        const dbkey = `Eve_page_${i % 2}`;
        const saved = await saveRevision(svc.runtime.db, codec, {
          ns: 0,
          dbkey,
          baseRevId: base.get(dbkey) ?? 0,
          text: 'x'.repeat(1 + i * 2),
          contentModel: 'wikitext',
          contentFormat: 'text/x-wiki',
          user: EVE,
          comment: `eve ${i}`,
          minor: false,
          tags: i === 2 ? ['mw-undo'] : [],
          timestamp: new Date(t0 + i * 1000),
        });
        base.set(dbkey, saved.revId);
        revIds.push(saved.revId);
      }
    });
    after(async () => {
      client?.close();
      await svc?.stop();
      await te?.cleanup();
    });

    test('segments: newest first, ends and shown bounds as IndexPager reports them', async () => {
      const newest = await list({});
      assert.deepEqual(ids(newest), [4, 3]);
      assert.deepEqual([newest.newest, newest.oldest, newest.firstShown, newest.lastShown], [true, false, ts(4), ts(3)]);
      assert.deepEqual(newest.contributions[0], {
        revId: revIds[4],
        pageId: newest.contributions[0]!.pageId,
        ns: 0,
        dbkey: 'Eve_page_0',
        timestamp: new Date(t0 + 4000).toISOString().replace('.000Z', 'Z'),
        comment: 'eve 4',
        deleted: 0,
        size: 9,
        delta: 4,
        tags: [],
      });

      const older = await list({ offset: newest.lastShown });
      assert.deepEqual(ids(older), [2, 1]);
      assert.deepEqual([older.newest, older.oldest], [false, false]);
      assert.deepEqual(older.contributions[0]!.tags, [{ name: 'mw-undo', description: '' }], 'no MediaWiki:Tag-mw-undo page: the gateway supplies the text');

      const last = await list({ offset: older.lastShown });
      assert.deepEqual(ids(last), [0]);
      assert.deepEqual([last.newest, last.oldest], [false, true]);
      assert.equal(last.contributions[0]!.delta, 1, "a page's first revision: its size");

      // "after" segments read the other way and come back newest first.
      const back = await list({ offset: last.firstShown, backwards: true });
      assert.deepEqual(ids(back), [2, 1]);
      assert.deepEqual([back.newest, back.oldest, back.firstShown, back.lastShown], [false, false, ts(2), ts(1)]);
      const top = await list({ offset: back.firstShown, backwards: true });
      assert.deepEqual(ids(top), [4, 3]);
      assert.equal(top.newest, true);
    });

    test('tag filter, hidden authors, counts', async () => {
      assert.deepEqual(ids(await list({ tag: 'mw-undo', limit: 20 })), [2]);
      assert.deepEqual(ids(await list({ tag: 'no-such-tag', limit: 20 })), []);
      assert.equal((await count({})).count, 5);
      assert.equal((await count({ tag: 'mw-undo' })).count, 1);
      await svc.runtime.db.query(`UPDATE ${svc.runtime.db.schema}.revision SET rev_deleted = 12 WHERE rev_id = $1`, [revIds[3]]);
      try {
        assert.deepEqual(ids(await list({ limit: 20, hideBits: 4 })), [4, 2, 1, 0]);
        assert.deepEqual(ids(await list({ limit: 20, hideBits: 12 })), [4, 2, 1, 0], 'suppressed: hidden from deletedhistory too');
        assert.deepEqual(ids(await list({ limit: 20, hideBits: 0 })), [4, 3, 2, 1, 0]);
        assert.equal((await count({ hideBits: 4 })).count, 4);
        assert.deepEqual(ids(await list({ user: 'Nobody' })), []);
      } finally {
        await svc.runtime.db.query(`UPDATE ${svc.runtime.db.schema}.revision SET rev_deleted = 0 WHERE rev_id = $1`, [revIds[3]]);
      }
    });
  });
}
