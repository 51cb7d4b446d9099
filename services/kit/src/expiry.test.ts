/*
 * The expiry parser against PHP's strtotime (what MediaWiki's ExpiryDef calls): each expected
 * value below is what `php -r 'echo gmdate("c", strtotime($value, 1700000000));'` printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expiryExceedsMax, InvalidExpiryError, isPastExpiry, normalizeExpiry } from './expiry.js';

const NOW = 1_700_000_000_000; // 2023-11-14T22:13:20Z

const STRTOTIME: [string, string][] = [
  ['1 week', '2023-11-21T22:13:20Z'],
  ['1 week 2 days', '2023-11-23T22:13:20Z'],
  ['1 day, 2 hours', '2023-11-16T00:13:20Z'],
  ['1 day,2 hours', '2023-11-16T00:13:20Z'],
  ['2 weeks', '2023-11-28T22:13:20Z'],
  ['3 months', '2024-02-14T22:13:20Z'],
  ['5 months', '2024-04-14T22:13:20Z'],
  ['1 year', '2024-11-14T22:13:20Z'],
  ['1 year 6 months', '2025-05-14T22:13:20Z'],
  ['+1 week', '2023-11-21T22:13:20Z'],
  ['+ 1 week', '2023-11-21T22:13:20Z'],
  ['-1 week', '2023-11-07T22:13:20Z'],
  ['1 weeks ago', '2023-11-07T22:13:20Z'],
  ['1 week ago 2 days', '2023-11-09T22:13:20Z'],
  ['next month', '2023-12-14T22:13:20Z'],
  ['last year', '2022-11-14T22:13:20Z'],
  ['tomorrow', '2023-11-15T00:00:00Z'],
  ['yesterday', '2023-11-13T00:00:00Z'],
  ['today', '2023-11-14T00:00:00Z'],
  ['noon', '2023-11-14T12:00:00Z'],
  ['now', '2023-11-14T22:13:20Z'],
  ['0 seconds', '2023-11-14T22:13:20Z'],
  ['1 second', '2023-11-14T22:13:21Z'],
  ['1 sec', '2023-11-14T22:13:21Z'],
  ['3 mins', '2023-11-14T22:16:20Z'],
  ['2 hour', '2023-11-15T00:13:20Z'],
  ['10 Days', '2023-11-24T22:13:20Z'],
  ['1 MONTH', '2023-12-14T22:13:20Z'],
  ['1month', '2023-12-14T22:13:20Z'],
  ['1 fortnight', '2023-11-28T22:13:20Z'],
  ['  1 week  ', '2023-11-21T22:13:20Z'],
  ['1 week,', '2023-11-21T22:13:20Z'],
  ['1 week 1 week', '2023-11-28T22:13:20Z'],
  ['2030-01-01', '2030-01-01T00:00:00Z'],
  ['2030-01-01 12:00', '2030-01-01T12:00:00Z'],
  ['2030-01-01 12:00:30', '2030-01-01T12:00:30Z'],
  ['2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z'],
  ['2030-01-01T02:00:00+02:00', '2030-01-01T00:00:00Z'],
  ['20300101000000', '2030-01-01T00:00:00Z'],
  ['@1700000000', '2023-11-14T22:13:20Z'],
  ['2030/01/01', '2030-01-01T00:00:00Z'],
  ['01/02/2030', '2030-01-02T00:00:00Z'],
  ['1 January 2030', '2030-01-01T00:00:00Z'],
  ['1 jan 2030', '2030-01-01T00:00:00Z'],
  ['january 1 2030', '2030-01-01T00:00:00Z'],
  ['Jan 1, 2030', '2030-01-01T00:00:00Z'],
];

/** strtotime returns false for these (so ExpiryDef fails with badexpiry). */
const REFUSED = ['', 'garbage', 'Infinite', 'INFINITY', '1 day and 2 hours', '1 wk', '2 hrs', '1700000000', '1 day 2', '1.5 days', 'one week', '2030-13-01'];

test('normalizeExpiry reads what strtotime reads, as strtotime does', () => {
  for (const [value, expected] of STRTOTIME) assert.equal(normalizeExpiry(value, NOW), expected, value);
});

test('normalizeExpiry: the infinity words exactly as written; the rest of strtotime refused', () => {
  for (const word of ['infinite', 'indefinite', 'infinity', 'never']) assert.equal(normalizeExpiry(word, NOW), 'infinity');
  for (const value of REFUSED) assert.throws(() => normalizeExpiry(value, NOW), InvalidExpiryError, JSON.stringify(value));
});

test('past expiries and the maximum duration', () => {
  assert.equal(isPastExpiry(normalizeExpiry('-1 week', NOW), NOW), true);
  assert.equal(isPastExpiry(normalizeExpiry('1 week', NOW), NOW), false);
  assert.equal(isPastExpiry('infinity', NOW), false);
  assert.equal(expiryExceedsMax(normalizeExpiry('2 years', NOW), '1 year', NOW), true);
  assert.equal(expiryExceedsMax(normalizeExpiry('6 months', NOW), '1 year', NOW), false);
  assert.equal(expiryExceedsMax('infinity', '1 year', NOW), false);
});
