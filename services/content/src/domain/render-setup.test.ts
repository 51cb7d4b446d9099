import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultRenderThreads } from './render-setup.js';

test('render threads are sized to the machine: a core left to the service thread, at most 4', () => {
  assert.equal(defaultRenderThreads(1), 0);
  assert.equal(defaultRenderThreads(2), 1);
  assert.equal(defaultRenderThreads(4), 3);
  assert.equal(defaultRenderThreads(64), 4);
});
