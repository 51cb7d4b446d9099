/*
 * The 100k fuzz run stalled the whole wiki: the embedded database runs on its own
 * thread, so a runaway statement leaves this thread serving, and the watchdog ends it by opening
 * the database again, with the committed data intact.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from './db.js';
import { GrpcStatus, ServiceError } from './errors.js';
import { createLogger } from './log.js';

/** A lost connection reaches callers as UNAVAILABLE (503 with Retry-After at the gateway), never as the pg error. */
function unavailable(e: unknown): boolean {
  assert.ok(e instanceof ServiceError, `a ServiceError, got ${String(e)}`);
  assert.equal(e.grpcCode, GrpcStatus.UNAVAILABLE);
  assert.equal(e.mwCode, 'serviceunavailable');
  return true;
}

let dataDir: string;
let db: Db;
before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-db-watchdog-'));
  process.env.EMBEDDED_DB_STATEMENT_TIMEOUT_SECONDS = '5';
  try {
    db = await openDb({ dataDir, schema: 'watchdog', log: createLogger('db-watchdog', process.env.LOG_LEVEL ?? 'silent') });
  } finally {
    delete process.env.EMBEDDED_DB_STATEMENT_TIMEOUT_SECONDS;
  }
  await db.query('CREATE TABLE watchdog.note (body text NOT NULL)');
  await db.tx(async (q) => {
    await q.query('INSERT INTO watchdog.note (body) VALUES ($1)', ['kept']);
  });
});
after(async () => {
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a runaway statement leaves the event loop free and is ended by the watchdog; committed rows survive', async () => {
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 100);
  const started = Date.now();
  try {
    // Counts for hours if nothing stops it.
    await assert.rejects(db.query('SELECT count(*) FROM generate_series(1, 100000000000) a'), unavailable);
  } finally {
    clearInterval(ticker);
  }
  const seconds = (Date.now() - started) / 1000;
  assert.ok(seconds >= 4.5 && seconds < 60, `ended after ${seconds} s (limit 5 s)`);
  assert.ok(ticks >= seconds * 5, `the event loop kept running while the statement ran (${ticks} ticks in ${seconds} s)`);
  // The database opens again (seconds; more on a loaded machine); the pool may hand out the dead
  // connection once before replacing it.
  let rows: { body: string }[] | undefined;
  for (const until = Date.now() + 120_000; !rows && Date.now() < until; ) {
    rows = await db
      .query<{ body: string }>('SELECT body FROM watchdog.note ORDER BY body')
      .then((r) => r.rows)
      .catch(() => new Promise<undefined>((r) => setTimeout(() => r(undefined), 200)));
  }
  assert.deepEqual(rows, [{ body: 'kept' }]);
});

test('a transaction whose connection is lost fails cleanly and the next one commits', async () => {
  await assert.rejects(
    db.tx(async (q) => {
      await q.query('INSERT INTO watchdog.note (body) VALUES ($1)', ['lost']);
      await q.query('SELECT count(*) FROM generate_series(1, 100000000000) a');
    }),
    unavailable,
  );
  let done = false;
  for (const until = Date.now() + 120_000; !done && Date.now() < until; ) {
    done = await db
      .tx(async (q) => {
        await q.query('INSERT INTO watchdog.note (body) VALUES ($1)', ['after']);
      })
      .then(() => true)
      .catch(() => new Promise<boolean>((r) => setTimeout(() => r(false), 200)));
  }
  const rows = (await db.query<{ body: string }>('SELECT body FROM watchdog.note ORDER BY body')).rows;
  assert.deepEqual(rows, [{ body: 'after' }, { body: 'kept' }], 'the rolled-back insert is gone, the later one is there');
});

test('a database that refuses connections answers UNAVAILABLE, with the setting read through loadConfig', async () => {
  // Nothing listens on port 1.
  await assert.rejects(openDb({ url: 'postgresql://postgres@127.0.0.1:1/test', dataDir: os.tmpdir(), schema: 'refused', log: createLogger('db-refused', 'silent') }), unavailable);
  const badDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-db-bad-'));
  process.env.EMBEDDED_DB_STATEMENT_TIMEOUT_SECONDS = '0';
  try {
    await assert.rejects(openDb({ dataDir: badDir, schema: 'bad', log: createLogger('db-bad', 'silent') }), /EMBEDDED_DB_STATEMENT_TIMEOUT_SECONDS/);
  } finally {
    delete process.env.EMBEDDED_DB_STATEMENT_TIMEOUT_SECONDS;
    fs.rmSync(badDir, { recursive: true, force: true });
  }
});
