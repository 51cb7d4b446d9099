/*
 * Found by the fuzzer: a text parameter holding U+0000 is refused by PostgreSQL, and
 * PGlite's socket server drops the connection on such an error; the embedded database then
 * answered "prepared statement already exists" to every later query, for good.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from './db.js';
import { createLogger } from './log.js';

let dataDir: string;
let db: Db;
before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-db-recovery-'));
  db = await openDb({ dataDir, schema: 'recovery', log: createLogger('db-recovery', 'silent') });
  await db.query('CREATE TABLE recovery.note (body text NOT NULL)');
});
after(async () => {
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a text parameter with U+0000 is stored and matched with U+FFFD instead of failing', async () => {
  await db.query('INSERT INTO recovery.note (body) VALUES ($1)', ['a\u0000b']);
  const found = await db.query<{ body: string }>('SELECT body FROM recovery.note WHERE body = $1', ['a\u0000b']);
  assert.deepEqual(found.rows, [{ body: 'a\ufffdb' }]);
  const inArray = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM recovery.note WHERE body = ANY($1)', [['a\u0000b']]);
  assert.equal(inArray.rows[0]!.n, 1);
});

test('after the embedded connection is dropped by an error, named statements work again on the new connection', async () => {
  const read = () => db.query<{ n: number }>('SELECT count(*)::int AS n FROM recovery.note WHERE body <> $1', ['zzz']);
  assert.equal((await read()).rows[0]!.n, 1, 'prepared on the first connection');
  // An encoding error raised by the server itself: PGlite's socket server closes the connection.
  await assert.rejects(db.query("SELECT convert_from('\\x00'::bytea, 'UTF8')"), /invalid byte sequence/);
  // The pool may still hand out the dead connection once or twice before it is replaced.
  let answer: number | undefined;
  for (let attempt = 0; attempt < 5 && answer === undefined; attempt++) {
    try {
      answer = (await read()).rows[0]!.n;
    } catch (e) {
      assert.doesNotMatch((e as Error).message, /already exists/);
    }
  }
  assert.equal(answer, 1);
  for (let i = 0; i < 3; i++) assert.equal((await read()).rows[0]!.n, 1, 'and stays usable');
});
