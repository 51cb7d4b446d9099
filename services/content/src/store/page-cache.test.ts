import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, startService, unary, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { PageServiceClient } from '@quire/proto/wiki/content/pages/v1/pages';
import { contentService } from '../server.js';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import { PageReadCache, pageCacheOf } from './page-cache.js';
import { saveRevision, type SaveRevisionInput } from './save.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));
const page = (text: string): Omit<SaveRevisionInput, 'baseRevId'> => ({
  ns: 0,
  dbkey: 'Cached_page',
  text,
  contentModel: 'wikitext',
  contentFormat: 'text/x-wiki',
  user: { id: 0, name: '192.0.2.9' },
  comment: '',
  minor: false,
  tags: [],
});

test('a read that started before an invalidation does not store its result', () => {
  const cache = new PageReadCache(1024 * 1024);
  const value = { page: undefined, latest: undefined };
  const readAt = cache.begin();
  cache.invalidate(0, 'X'); // a write committed while the read was in flight
  cache.set(0, 'X', false, value, readAt);
  assert.equal(cache.get(0, 'X', false), undefined);
  cache.set(0, 'X', false, value, cache.begin());
  assert.equal(cache.get(0, 'X', false), value);
  cache.suspend();
  assert.equal(cache.get(0, 'X', false), undefined);
  cache.set(0, 'X', false, value, cache.begin());
  assert.equal(cache.size, 0, 'nothing is cached while suspended');
  cache.resume();
  cache.set(0, 'X', false, value, cache.begin());
  assert.equal(cache.size, 1);
  assert.equal(new PageReadCache(0).size, 0);
});

for (const backend of testBackends()) {
  describe(`page cache (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    let client: PageServiceClient;
    const getPage = (c: PageServiceClient) => unary(c, c.getPage, { title: 'Cached page', withContent: true });

    before(async () => {
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0' });
      svc = await startService(contentService, te.env);
      client = makeClient(PageServiceClient, svc.address);
    });
    after(async () => {
      client.close();
      await svc.stop();
      await te.cleanup();
    });

    test('reads are served from memory and a save is visible to the next read', async () => {
      const first = await saveRevision(svc.runtime.db, codec, { ...page('one'), baseRevId: 0 });
      const a = await getPage(client);
      assert.equal(a.latest?.content, 'one');
      // On a Postgres server this instance also hears its own save's NOTIFY, asynchronously: a
      // read that began before it arrived is rightly not stored, so read again until one is.
      const cached = () => pageCacheOf(svc.runtime.db).get(0, 'Cached_page', true)?.latest?.id;
      for (let i = 0; i < 50 && cached() === undefined; i++) {
        await new Promise((r) => setTimeout(r, 10));
        await getPage(client);
      }
      assert.equal(cached(), first.revId, 'cached after a read');
      const second = await saveRevision(svc.runtime.db, codec, { ...page('two'), baseRevId: first.revId });
      assert.equal(pageCacheOf(svc.runtime.db).get(0, 'Cached_page', true), undefined, 'dropped on commit');
      const b = await getPage(client);
      assert.equal(b.latest?.id, second.revId);
      assert.equal(b.latest?.content, 'two');
    });

    if (backend === 'servers') {
      test("another instance's save reaches this instance's cache through NOTIFY", async () => {
        const other = await startService(contentService, { ...te.env, DATA_DIR: `${te.dataDir}/other` });
        try {
          const before = await getPage(client); // cached here
          const saved = await saveRevision(other.runtime.db, codec, { ...page('from the other instance'), baseRevId: before.latest!.id });
          let seen = 0;
          for (let i = 0; i < 50 && seen !== saved.revId; i++) {
            seen = (await getPage(client)).latest!.id;
            if (seen !== saved.revId) await new Promise((r) => setTimeout(r, 20));
          }
          assert.equal(seen, saved.revId);
        } finally {
          await other.stop();
        }
      });
    }
  });
}
