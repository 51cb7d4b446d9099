import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createLogger, openDb, type Db } from '@quire/kit';
import { makeTestEnv, type TestEnv } from '@quire/kit/testing';
import { cannotMatch, loadStemmer } from './stem.js';

const words = fs
  .readFileSync(new URL('./fixtures/english-words.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean);

describe('cannotMatch: English stems in process (stem.ts) against the database', () => {
  let te: TestEnv;
  let db: Db;
  before(async () => {
    te = await makeTestEnv('embedded');
    db = await openDb({ dataDir: te.dataDir, schema: 'stemtest', log: createLogger('test', 'silent') });
  });
  after(async () => {
    await db.close();
    await te.cleanup();
  });

  test('before the stemmer is loaded every word is left to the database', () => {
    assert.equal(cannotMatch('categories', new Set(['cat'])), false);
  });

  test(`never rules out a word's own lexeme (${words.length} words, PostgreSQL's to_tsvector('english', word)), and rules out the rest`, async () => {
    await loadStemmer();
    const r = await db.query<{ t: string; lexemes: string[] }>(`SELECT t, tsvector_to_array(to_tsvector('english', t)) AS lexemes FROM unnest($1::text[]) t`, [words]);
    const wrong = r.rows.filter((row) => row.lexemes.length > 0 && cannotMatch(row.t, new Set(row.lexemes))).map((row) => `${row.t} -> ${row.lexemes.join(',')}`);
    assert.deepEqual(wrong, []);
    // Snowball 3 keeps these doubled; the stemmer here does not: the database is asked.
    for (const w of ['added', 'ebbing', 'offings']) assert.equal(cannotMatch(w, new Set(['ad', 'eb', 'of'])), false, w);
    // Another word's lexeme: ruled out, but for the words the database must see.
    const ruledOut = words.filter((w) => cannotMatch(w, new Set(['zzzq'])));
    assert.ok(ruledOut.length > 0.99 * words.length, `${ruledOut.length} of ${words.length}`);
    assert.equal(cannotMatch('Caf\u00e9', new Set(['zzzq'])), false, 'letters outside ASCII');
    assert.equal(cannotMatch('abc123', new Set(['zzzq'])), false, 'letters and digits');
    assert.equal(cannotMatch('Categories', new Set(['categori'])), false);
    assert.equal(cannotMatch('Categories', new Set(['cat'])), true);
  });
});
