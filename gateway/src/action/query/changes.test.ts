/* The log parameters as the API gives them (LogFormatter::formatParametersForApi). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiLogParams } from './changes.js';

test('apiLogParams: an upload entry gives its img_timestamp in ISO 8601; the associated revision stays out', () => {
  assert.deepEqual(apiLogParams(JSON.stringify({ img_sha1: 'abc', img_timestamp: '20261129143301', associated_rev_id: 7 }), 'upload'), {
    img_sha1: 'abc',
    img_timestamp: '2026-11-29T14:33:01Z',
  });
  assert.deepEqual(apiLogParams(JSON.stringify({ img_timestamp: '2026-11-29T14:33:01Z' }), 'upload'), { img_timestamp: '2026-11-29T14:33:01Z' });
});
