import { describe, test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from './db.js';
import { openEmbeddedThreadAhead } from './embedded-thread.js';
import { createLogger } from './log.js';
import { makeTestEnv, testBackends, type TestEnv } from './testing.js';

const log = createLogger('test', 'silent');

for (const backend of testBackends()) {
  describe(`db on ${backend}`, () => {
    let te: TestEnv;
    let db: Db;
    const migrations = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-mig-'));
    fs.writeFileSync(path.join(migrations, '001_items.sql'), 'CREATE TABLE ${schema}.item (id bigserial PRIMARY KEY, name text UNIQUE NOT NULL);');
    fs.writeFileSync(path.join(migrations, '002_seed.sql'), "INSERT INTO ${schema}.item (name) VALUES ('seed');");

    before(async () => {
      te = await makeTestEnv(backend);
      db = await openDb({ url: te.env.DATABASE_URL, dataDir: te.dataDir, schema: 'things', migrationsDir: migrations, log });
    });
    after(async () => {
      await db.close();
      await te.cleanup();
    });

    test('migrations run once, in order, in the service schema', async () => {
      const r = await db.query<{ id: number; name: string }>('SELECT id, name FROM things.item');
      assert.deepEqual(r.rows, [{ id: 1, name: 'seed' }]); // int8 comes back as a number
      // Re-applying is a no-op: a second open sees both versions recorded.
      const again = await openDb({ url: te.env.DATABASE_URL, dataDir: te.dataDir, schema: 'things', migrationsDir: migrations, log });
      assert.equal((await again.query('SELECT 1 FROM things.item')).rowCount, 1);
      const versions = await again.query<{ version: string }>('SELECT version FROM things.schema_migrations ORDER BY version');
      assert.deepEqual(
        versions.rows.map((r) => r.version),
        ['001_items.sql', '002_seed.sql'],
      );
      await again.close();
    });

    test('a failed transaction leaves nothing behind; db.query inside tx joins it', async () => {
      await assert.rejects(
        db.tx(async (q) => {
          await q.query("INSERT INTO things.item (name) VALUES ('a')");
          await db.query("INSERT INTO things.item (name) VALUES ('b')"); // same transaction, no deadlock
          await q.query("INSERT INTO things.item (name) VALUES ('a')"); // unique violation
        }),
        /duplicate key/,
      );
      const r = await db.query<{ name: string }>('SELECT name FROM things.item ORDER BY id');
      assert.deepEqual(
        r.rows.map((x) => x.name),
        ['seed'],
      );
      await db.tx(async (q) => {
        await q.query("INSERT INTO things.item (name) VALUES ('c')");
      });
      assert.equal((await db.query('SELECT 1 FROM things.item')).rowCount, 2);
    });

    test('concurrent transactions do not interleave on the embedded connection', async () => {
      const n = 20;
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          db.tx(async (q) => {
            await q.query('INSERT INTO things.item (name) VALUES ($1)', [`p${i}`]);
            await new Promise((r) => setTimeout(r, 1));
            await q.query('UPDATE things.item SET name = name WHERE name = $1', [`p${i}`]);
          }),
        ),
      );
      assert.equal((await db.query("SELECT 1 FROM things.item WHERE name LIKE 'p%'")).rowCount, n);
    });

    test('writeGeneration: moved by a committed transaction or a write outside one, not by a read (embedded); unknown on a server', async () => {
      const g = db.writeGeneration();
      if (backend !== 'embedded') {
        assert.equal(g, undefined);
        return;
      }
      assert.equal(typeof g, 'number');
      await db.query('SELECT count(*) FROM things.item');
      assert.equal(db.writeGeneration(), g);
      await db.query("INSERT INTO things.item (name) VALUES ('gen')");
      const g1 = db.writeGeneration()!;
      assert.ok(g1 > g!);
      await db.tx(async (q) => {
        await q.query("UPDATE things.item SET name = 'gen2' WHERE name = 'gen'");
        assert.equal(db.writeGeneration(), g1, 'not before the commit');
      });
      assert.ok(db.writeGeneration()! > g1);
    });

    test('statements asked at once (pipelined on the embedded connection): each gets its own answer, a failing one fails alone, transactions beside them stay whole', async () => {
      const asked = Array.from({ length: 60 }, (_, i) => {
        if (i % 10 === 3)
          return db.query('SELECT 1 / ($1::int - $1::int) AS x', [i]).then(
            () => 'no error',
            (e: Error) => e.message,
          );
        if (i % 10 === 7)
          return db.query('SELEC broken').then(
            () => 'no error',
            (e: Error) => (/syntax/.test(e.message) ? 'syntax' : e.message),
          );
        if (i % 10 === 5)
          return db
            .tx(async (q) => {
              await q.query('INSERT INTO things.item (name) VALUES ($1)', [`t${i}`]);
              if (i % 20 === 15) throw new Error('rolled back');
              await q.query('UPDATE things.item SET name = $2 WHERE name = $1', [`t${i}`, `tx${i}`]);
              return 'committed';
            })
            .catch((e: Error) => e.message);
        return db.query<{ n: number; t: string }>('SELECT $1::int AS n, repeat($2, $1::int) AS t', [i, 'x']).then((r) => `${r.rows[0]!.n}:${r.rows[0]!.t.length}`);
      });
      const answers = await Promise.all(asked);
      answers.forEach((a, i) => {
        const want = i % 10 === 3 ? 'division by zero' : i % 10 === 7 ? 'syntax' : i % 10 === 5 ? (i % 20 === 15 ? 'rolled back' : 'committed') : `${i}:${i}`;
        assert.equal(a, want, `statement ${i}`);
      });
      const names = await db.query<{ name: string }>("SELECT name FROM things.item WHERE name LIKE 't%' ORDER BY name");
      assert.deepEqual(
        names.rows.map((r) => r.name),
        ['tx25', 'tx45', 'tx5'],
      );
    });
  });
}

test('embedded data survives a restart', async () => {
  const te = await makeTestEnv('embedded');
  const a = await openDb({ dataDir: te.dataDir, schema: 'keep', log });
  await a.query('CREATE TABLE keep.t (v text)');
  await a.query("INSERT INTO keep.t VALUES ('kept')");
  await a.close();
  const b = await openDb({ dataDir: te.dataDir, schema: 'keep', log });
  assert.deepEqual((await b.query('SELECT v FROM keep.t')).rows, [{ v: 'kept' }]);
  await b.close();
  await te.cleanup();
});

test('onCommit callbacks run after commit, never after a rollback', async () => {
  const te = await makeTestEnv('embedded');
  const db = await openDb({ dataDir: te.dataDir, schema: 'cb', log });
  const seen: string[] = [];
  await db.tx(async (q) => {
    db.onCommit(() => seen.push('committed'));
    await db.tx(async () => db.onCommit(() => seen.push('nested'))); // joins the outer transaction
    await q.query('SELECT 1');
    assert.deepEqual(seen, []); // not before the commit
  });
  assert.deepEqual(seen, ['committed', 'nested']);
  await assert.rejects(
    db.tx(async (q) => {
      db.onCommit(() => seen.push('rolled back'));
      await q.query('SELECT 1/0');
    }),
  );
  db.onCommit(() => seen.push('no transaction'));
  assert.deepEqual(seen, ['committed', 'nested', 'no transaction']);
  await db.close();
  await te.cleanup();
});

test('openEmbeddedThreadAhead opens the embedded database ahead: openDb takes it over; the release closes it only when nothing took it', async () => {
  const te = await makeTestEnv('embedded');
  const release = openEmbeddedThreadAhead(te.dataDir, log);
  // The data folder is owned from the start, before any Db.
  assert.ok(fs.existsSync(path.join(te.dataDir, 'owner.lock')));
  const db = await openDb({ dataDir: te.dataDir, schema: 'warm', log });
  await release(); // the Db took it: left open
  assert.deepEqual((await db.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  await db.close();
  const unused = openEmbeddedThreadAhead(te.dataDir, log);
  await unused(); // nothing took it: closed, and the data folder's lock released
  assert.ok(!fs.existsSync(path.join(te.dataDir, 'owner.lock')));
  const again = await openDb({ dataDir: te.dataDir, schema: 'warm', log });
  await again.close();
  await te.cleanup();
});
