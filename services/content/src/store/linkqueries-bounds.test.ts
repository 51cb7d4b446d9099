import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SEARCHED_HOST, MAX_SEARCHED_REST, searchableUrl } from './linkqueries.js';

test('a searched URL becomes a regular expression only within DNS host length and a bounded path', () => {
  assert.equal(searchableUrl('example.org/path'), true);
  assert.equal(searchableUrl(`*.${'a'.repeat(MAX_SEARCHED_HOST)}`), true, 'the *. wildcard is not counted');
  assert.equal(searchableUrl('a'.repeat(MAX_SEARCHED_HOST + 3)), false);
  assert.equal(searchableUrl(`example.org/${'p'.repeat(MAX_SEARCHED_REST - 1)}`), true);
  assert.equal(searchableUrl(`example.org/${'p'.repeat(MAX_SEARCHED_REST)}`), false);
});
