/*
 * Continuation parts are client input: whatever a client sends back, the databases get a real date
 * and a real integer, or the client gets badcontinue (found by the fuzzer: `lecontinue=99999999999999|1`,
 * a 20-digit rc id and `wrcontinue=x|y` reached PostgreSQL as NaN and answered internal_api_error).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { continueInt, continueTimestampIso } from './continuation.js';
import { ApiUsageError } from '../types.js';

const isBadContinue = (e: unknown) => e instanceof ApiUsageError && e.code === 'badcontinue';

test('timestamps: TS_MW and ISO 8601 read as ISO; out-of-range fields roll over as PHP does', () => {
  assert.equal(continueTimestampIso('20240131235959'), '2024-01-31T23:59:59Z');
  assert.equal(continueTimestampIso('2024-01-31T23:59:59Z'), '2024-01-31T23:59:59Z');
  assert.equal(continueTimestampIso('20200231000000'), '2020-03-02T00:00:00Z');
  assert.equal(continueTimestampIso('00010101000000'), '0001-01-01T00:00:00Z');
});

test('timestamps that cannot be a date of years 0000–9999 are badcontinue', () => {
  for (const bad of ['99999999999999', '', 'x', '2024013123595', '20240131235959x', 'NaN', '0NaN-NaN-NaNTNaN:NaN:NaN']) {
    assert.throws(() => continueTimestampIso(bad), isBadContinue, bad);
  }
});

test('integers: what PHP reads back equal; anything else (or beyond 2^53) is badcontinue', () => {
  assert.equal(continueInt('123'), 123);
  assert.equal(continueInt('0123'), 123);
  assert.equal(continueInt('-4'), -4);
  for (const bad of ['', 'x', '1.5', '99999999999999999999', '9007199254740993', ' 1', '1e3']) {
    assert.throws(() => continueInt(bad), isBadContinue, bad);
  }
});
