/*
 * The parser cache and HTML safety: an entry written by an older renderer is rendered again, and
 * whatever the table holds is served only through the output stage's safety pass.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, startService, unary, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { RenderServiceClient } from '@quire/proto/wiki/content/render/v1/render';
import { contentService } from '../server.js';
import { saveRevision } from '../store/save.js';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));

for (const backend of testBackends()) {
  describe(`parser cache (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    let client: RenderServiceClient;
    let revId = 0;
    const html = () => unary(client, client.getRevisionHtml, { title: '', revId });
    // A changed entry gets a new render time, as any rewrite does (the service memoizes per revision and render time).
    const setEntry = (sql: string, params: unknown[]) =>
      svc.runtime.db.query(`UPDATE ${svc.runtime.db.schema}.parser_cache SET ${sql}, pc_rendered_at = pc_rendered_at + interval '1 second' WHERE pc_rev_id = $1 AND pc_mode = 'parsoid'`, [
        revId,
        ...params,
      ]);

    before(async () => {
      // No background jobs: the only writes to the cache are the reads under test.
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0', CONTENT_JOB_POLL_MS: '0' });
      svc = await startService(contentService, te.env);
      client = makeClient(RenderServiceClient, svc.address);
      const saved = await saveRevision(svc.runtime.db, codec, {
        ns: 0,
        dbkey: 'Cached_page',
        baseRevId: 0,
        text: 'see [[Main Page]]',
        contentModel: 'wikitext',
        contentFormat: 'text/x-wiki',
        user: { id: 0, name: '192.0.2.7' },
        comment: '',
        minor: false,
        tags: [],
      });
      revId = saved.revId;
    });
    after(async () => {
      client.close();
      await svc.stop();
      await te.cleanup();
    });

    test('a current entry is served from the cache, through the safety pass', async () => {
      const first = await html();
      assert.match(first.body, /<a rel="mw:WikiLink" href="\.\/Main_Page"/);
      // Tamper with the stored HTML: a refused URL in the table never reaches a reader.
      await setEntry(`pc_html = $2`, ['<p><a href="javascript:alert(1)" onclick="x()">cached</a></p>']);
      const second = await html();
      assert.equal(Date.parse(second.renderedAt) - Date.parse(first.renderedAt), 1000);
      assert.equal(second.body, '<p><a>cached</a></p>');
    });

    test("an older renderer's entry is rendered again", async () => {
      await setEntry(`pc_html = $2, pc_meta = pc_meta - 'rendererVersion'`, ['<p>stale</p>']);
      const again = await html();
      assert.doesNotMatch(again.body, /stale/);
      assert.match(again.body, /href="\.\/Main_Page"/);
      const row = await svc.runtime.db.query<{ v: number }>(`SELECT (pc_meta->>'rendererVersion')::int AS v FROM ${svc.runtime.db.schema}.parser_cache WHERE pc_rev_id = $1 AND pc_mode = 'parsoid'`, [
        revId,
      ]);
      assert.equal(row.rows[0]?.v, 2);
    });
  });
}
