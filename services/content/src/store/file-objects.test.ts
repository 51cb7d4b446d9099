import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { contentService } from '../server.js';
import { fileStoreFromEnv } from '../files/config.js';
import { LocalFileStore, storageKeyOf } from '../files/store.js';
import { DbFileStore } from './file-objects.js';

test('FILE_STORE: the database by default on a server, the folder embedded, as set otherwise', () => {
  const db = new DbFileStore({ schema: 'content' } as never);
  const option = (isDefault: boolean) => ({ make: () => db, isDefault });
  assert.equal(fileStoreFromEnv({}, '/tmp/x', option(true)).store, db);
  assert.ok(fileStoreFromEnv({}, '/tmp/x', option(false)).store instanceof LocalFileStore);
  assert.ok(fileStoreFromEnv({ FILE_STORE: 'local' }, '/tmp/x', option(true)).store instanceof LocalFileStore);
  assert.equal(fileStoreFromEnv({ FILE_STORE: 'db' }, '/tmp/x', option(false)).store, db);
  assert.throws(() => fileStoreFromEnv({ FILE_STORE: 'disk' }, '/tmp/x', option(true)), ConfigError);
});

for (const backend of testBackends()) {
  describe(`database file store (${backend})`, () => {
    let te: TestEnv;
    let a: RunningService;
    before(async () => {
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0', FILE_STORE: 'db' });
      a = await startService(contentService, te.env);
    });
    after(async () => {
      await a.stop();
      await te.cleanup();
    });

    test('content-addressed, idempotent, absent objects are undefined; bad keys are refused', async () => {
      const store = new DbFileStore(a.runtime.db);
      const data = Buffer.from([0, 1, 2, 255, 0x89, 0x50]);
      const key = storageKeyOf(data);
      assert.equal(await store.has(key), false);
      assert.equal(await store.get(key), undefined);
      // Two replicas storing the same upload at once both succeed.
      await Promise.all([store.put(key, data, 'image/png'), store.put(key, data, 'image/png')]);
      await store.put(key, data, 'image/png');
      assert.equal(await store.has(key), true);
      assert.deepEqual(await store.get(key), data);
      const n = await a.runtime.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${a.runtime.db.schema}.file_object`);
      assert.equal(Number(n.rows[0]!.n), 1);
      await assert.rejects(store.get('../etc/passwd'), /not a storage key/);
    });

    if (backend === 'servers') {
      test('an object one replica stored is read by another', async () => {
        const b = await startService(contentService, { ...te.env, DATA_DIR: `${te.dataDir}/other` });
        try {
          const data = Buffer.from('bytes stored through replica A');
          const key = storageKeyOf(data);
          await new DbFileStore(a.runtime.db).put(key, data, 'text/plain');
          assert.deepEqual(await new DbFileStore(b.runtime.db).get(key), data);
        } finally {
          await b.stop();
        }
      });
    }
  });
}
