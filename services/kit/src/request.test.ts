import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acceptRequestId, newRequestId } from './request.js';

test('request ids are 24 hex digits, distinct, and pass as ids received from a peer', () => {
  const ids = Array.from({ length: 1000 }, () => newRequestId());
  for (const id of ids) {
    assert.match(id, /^[0-9a-f]{24}$/);
    assert.equal(acceptRequestId(id), id);
  }
  assert.equal(new Set(ids).size, ids.length);
});
