/*
 * The embedded database's cache when EMBEDDED_DB_SHARED_BUFFERS_MB is unset: sized to the
 * cluster, so a new wiki keeps its small, fast start and a large one gets a cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBuffersFor } from './embedded-thread.js';

const MB = 1024 * 1024;
const GB = 1024 * MB;

test('a new or small database gets 16 MB; a large one an eighth of its size up to 256 MB', () => {
  assert.equal(sharedBuffersFor(0, 24 * GB), 16, 'a data folder not seeded yet');
  assert.equal(sharedBuffersFor(27 * MB, 24 * GB), 16, 'the template of a new wiki');
  assert.equal(sharedBuffersFor(800 * MB, 24 * GB), 100);
  assert.equal(sharedBuffersFor(3.1 * GB, 24 * GB), 256, 'the 100,000-page wiki');
  assert.equal(sharedBuffersFor(50 * GB, 24 * GB), 256);
});

test('never more than an eighth of the machine, never under 16 MB', () => {
  assert.equal(sharedBuffersFor(3 * GB, 1 * GB), 128);
  assert.equal(sharedBuffersFor(3 * GB, 64 * MB), 16);
});
