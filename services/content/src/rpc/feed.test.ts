import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, startService, unary, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { type PageChange, FeedServiceClient } from '@quire/proto/wiki/content/feed/v1/feed';
import { contentService } from '../server.js';
import { saveRevision, type SaveRevisionInput } from '../store/save.js';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));

function edit(dbkey: string, baseRevId: number, text: string, ns = 0): SaveRevisionInput {
  return {
    ns,
    dbkey,
    baseRevId,
    text,
    contentModel: 'wikitext',
    contentFormat: 'text/x-wiki',
    user: { id: 0, name: '192.0.2.1' },
    comment: '',
    minor: false,
    tags: [],
  };
}

/** Reads a StreamChanges call until `count` changes arrived (or it ends). */
function collect(client: FeedServiceClient, from: number, count: number, maxWaitMs = 3000): Promise<PageChange[]> {
  return new Promise((resolve, reject) => {
    const out: PageChange[] = [];
    const stream = client.streamChanges({ fromPosition: from, maxBatch: 2, maxWaitMs });
    stream.on('data', (c: PageChange) => {
      out.push(c);
      if (out.length >= count) {
        stream.cancel();
        resolve(out);
      }
    });
    stream.on('end', () => resolve(out));
    stream.on('error', (e: Error & { code?: number }) => (e.code === 1 ? resolve(out) : reject(e)));
  });
}

for (const backend of testBackends()) {
  describe(`content change feed (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    let client: FeedServiceClient;
    const db = () => svc.runtime.db;

    before(async () => {
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0' });
      svc = await startService(contentService, te.env);
      client = makeClient(FeedServiceClient, svc.address);
    });
    after(async () => {
      client.close();
      await svc.stop();
      await te.cleanup();
    });

    test('the trigger records the Main Page, creates and edits once each, in commit order', async () => {
      const first = await collect(client, 0, 1);
      assert.equal(first[0]?.kind, 'create');
      assert.equal(first[0]?.dbkey, 'Main_Page');
      const start = first[0]!.position;
      const created = await saveRevision(db(), codec, edit('Feed_page', 0, 'one'));
      await saveRevision(db(), codec, edit('Feed_page', created.revId, 'two'));
      const changes = await collect(client, start, 2);
      assert.deepEqual(
        changes.map((c) => [c.kind, c.pageId, c.namespace, c.dbkey]),
        [
          ['create', created.pageId, 0, 'Feed_page'],
          ['edit', created.pageId, 0, 'Feed_page'],
        ],
      );
      assert.ok(changes[1]!.position > changes[0]!.position);
      assert.ok(!Number.isNaN(Date.parse(changes[0]!.changedAt)));
    });

    test('moves, model changes and deletes are captured whatever writes them; touch-only updates are not', async () => {
      const s = db().schema;
      const p = await saveRevision(db(), codec, edit('Trigger_target', 0, 'text'));
      const before = (await unary(client, client.getChangeFeedStatus, { afterPosition: 0 })).latestPosition;
      await db().query(`UPDATE ${s}.page SET page_touched = now() WHERE page_id = $1`, [p.pageId]);
      await db().query(`UPDATE ${s}.page SET page_namespace = 1, page_title = 'Moved' WHERE page_id = $1`, [p.pageId]);
      await db().query(`UPDATE ${s}.page SET page_content_model = 'text' WHERE page_id = $1`, [p.pageId]);
      // A page deletion as any future code path would write it (archiving aside).
      await db().tx(async (q) => {
        await q.query(`DELETE FROM ${s}.redirect WHERE rd_from = $1`, [p.pageId]);
        await q.query(`DELETE FROM ${s}.change_tag WHERE ct_rev_id IN (SELECT rev_id FROM ${s}.revision WHERE rev_page = $1)`, [p.pageId]);
        await q.query(`DELETE FROM ${s}.revision WHERE rev_page = $1`, [p.pageId]);
        await q.query(`DELETE FROM ${s}.page WHERE page_id = $1`, [p.pageId]);
      });
      const changes = await collect(client, before, 3);
      assert.deepEqual(
        changes.map((c) => [c.kind, c.namespace, c.dbkey, c.oldNamespace, c.oldDbkey]),
        [
          ['move', 1, 'Moved', 0, 'Trigger_target'],
          ['model', 1, 'Moved', 0, ''],
          ['delete', 1, 'Moved', 0, ''],
        ],
      );
      const status = await unary(client, client.getChangeFeedStatus, { afterPosition: before });
      assert.equal(status.pending, 3);
      assert.equal(status.latestPosition, changes[2]!.position);
    });

    test('a rolled-back change leaves no feed row', async () => {
      const { latestPosition } = await unary(client, client.getChangeFeedStatus, { afterPosition: 0 });
      await assert.rejects(
        db().tx(async () => {
          await saveRevision(db(), codec, edit('Rolled_back', 0, 'x'));
          throw new Error('abort');
        }),
        /abort/,
      );
      const s = await unary(client, client.getChangeFeedStatus, { afterPosition: latestPosition });
      assert.equal(s.pending, 0);
      assert.equal(s.oldestPendingAt, '');
    });

    test('the status asked again answers each write since: a save, a save in a transaction, a move by a statement of its own', async () => {
      const ask = async (after: number) => unary(client, client.getChangeFeedStatus, { afterPosition: after });
      const start = (await ask(0)).latestPosition;
      assert.equal((await ask(start)).pending, 0);
      assert.equal((await ask(start)).pending, 0);
      const saved = await saveRevision(db(), codec, edit('Status_page', 0, 'one'));
      const afterSave = await ask(start);
      assert.equal(afterSave.pending, 1);
      assert.ok(afterSave.latestPosition > start);
      await db().tx(async () => {
        await saveRevision(db(), codec, edit('Status_page', saved.revId, 'two'));
      });
      assert.equal((await ask(start)).pending, 2);
      await db().query(`UPDATE ${db().schema}.page SET page_title = 'Status_page_moved' WHERE page_id = $1`, [saved.pageId]);
      const afterMove = await ask(start);
      assert.equal(afterMove.pending, 3, 'the trigger wrote the move to the feed');
      assert.equal((await ask(afterMove.latestPosition)).pending, 0);
    });

    test('a stream delivers changes committed after it started (live tail)', async () => {
      const { latestPosition } = await unary(client, client.getChangeFeedStatus, { afterPosition: 0 });
      const pending = collect(client, latestPosition, 1, 5000);
      await new Promise((r) => setTimeout(r, 300));
      const saved = await saveRevision(db(), codec, edit('Live_page', 0, 'live'));
      const [change] = await pending;
      assert.equal(change?.pageId, saved.pageId);
      assert.equal(change?.kind, 'create');
    });

    test('GetPagesForIndex returns current title, redirect target and text; missing ids are left out', async () => {
      const target = await saveRevision(db(), codec, edit('Index_target', 0, 'Body of the target'));
      const redirect = await saveRevision(db(), codec, edit('Index_redirect', 0, '#REDIRECT [[Index target]]', 1));
      const r = await unary(client, client.getPagesForIndex, { pageIds: [target.pageId, redirect.pageId, 999_999] });
      assert.equal(r.pages.length, 2);
      const [t, rd] = r.pages;
      assert.equal(t!.title, 'Index target');
      assert.equal(t!.text, 'Body of the target');
      assert.equal(t!.isRedirect, false);
      assert.equal(t!.latestRevId, target.revId);
      assert.equal(rd!.title, 'Talk:Index redirect');
      assert.equal(rd!.isRedirect, true);
      assert.equal(rd!.redirectTitle, 'Index target');
    });
  });
}
