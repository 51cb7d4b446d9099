import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IndexFreshness, type FreshnessSources } from './freshness.js';

const LIMITS = { maxWaitMs: 300, pollMs: 5, maxBacklog: 100 };

/** A feed at `head` and an index that applies one position every `stepMs` while an indexer runs. */
function fakeIndex(opts: { head: number; through: number; stepMs?: number; active?: boolean; contentDown?: boolean }) {
  const started = Date.now();
  const calls = { cursorReads: 0, headAsks: 0 };
  const through = () => (opts.stepMs === undefined ? opts.through : Math.min(opts.head, opts.through + Math.floor((Date.now() - started) / opts.stepMs)));
  const sources: FreshnessSources = {
    async indexedThrough() {
      calls.cursorReads++;
      return through();
    },
    async feedHead(after) {
      calls.headAsks++;
      assert.equal(after, opts.through, 'asks for the status after the cursor it read');
      if (opts.contentDown) throw new Error('UNAVAILABLE');
      return opts.head;
    },
    async indexerActive() {
      return opts.active ?? true;
    },
  };
  return { sources, calls, through };
}

describe('IndexFreshness.caughtUp', () => {
  test('an index already at the head: one cursor read, one status call, no waiting', async () => {
    const f = fakeIndex({ head: 7, through: 7 });
    const t0 = Date.now();
    await new IndexFreshness(f.sources, LIMITS).caughtUp();
    assert.ok(Date.now() - t0 < 50);
    assert.deepEqual(f.calls, { cursorReads: 1, headAsks: 1 });
  });

  test('concurrent queries share a check, but only one that began after they did', async () => {
    const f = fakeIndex({ head: 7, through: 7 });
    const fresh = new IndexFreshness(f.sources, LIMITS);
    const first = fresh.caughtUp(); // under way: the calls below may have writes it did not see
    await Promise.all([first, fresh.caughtUp(), fresh.caughtUp(), fresh.caughtUp()]);
    assert.deepEqual(f.calls, { cursorReads: 2, headAsks: 2 });
  });

  test('a few changes behind: waits until the index has applied the head committed before the query', async () => {
    const f = fakeIndex({ head: 10, through: 7, stepMs: 20 });
    const t0 = Date.now();
    await new IndexFreshness(f.sources, LIMITS).caughtUp();
    assert.equal(f.through(), 10);
    const waited = Date.now() - t0;
    assert.ok(waited >= 55 && waited < LIMITS.maxWaitMs, `waited ${waited} ms`);
  });

  test('an index that does not move: gives up after maxWaitMs', async () => {
    const f = fakeIndex({ head: 10, through: 7 });
    const t0 = Date.now();
    await new IndexFreshness(f.sources, LIMITS).caughtUp();
    const waited = Date.now() - t0;
    assert.ok(waited >= LIMITS.maxWaitMs && waited < LIMITS.maxWaitMs + 200, `waited ${waited} ms`);
    assert.ok(f.calls.cursorReads > 10);
  });

  test('no waiting when it cannot help: no indexer, content unreachable, or a rebuild-sized backlog', async () => {
    for (const opts of [
      { head: 10, through: 7, active: false },
      { head: 10, through: 7, contentDown: true },
      { head: 500, through: 7 },
    ]) {
      const f = fakeIndex(opts);
      const t0 = Date.now();
      await new IndexFreshness(f.sources, LIMITS).caughtUp();
      assert.ok(Date.now() - t0 < 50, JSON.stringify(opts));
      assert.equal(f.calls.cursorReads, 1, JSON.stringify(opts));
    }
  });
});

describe('IndexFreshness.head and stale (the search reads its cursor with its matches)', () => {
  test('a search at the head: one status call, shared by concurrent searches that began before it', async () => {
    const f = fakeIndex({ head: 7, through: 7 });
    const fresh = new IndexFreshness(f.sources, LIMITS);
    const heads = await Promise.all([fresh.head(), fresh.head(), fresh.head()]);
    assert.deepEqual(heads, [7, 7, 7]);
    assert.equal(await fresh.stale(7, 7), false);
    // The first status call needs a cursor to count from; later ones use the highest seen.
    assert.deepEqual(f.calls, { cursorReads: 1, headAsks: 2 });
    await fresh.head();
    assert.deepEqual(f.calls, { cursorReads: 1, headAsks: 3 });
  });

  test('a search that read the index before a write it must see: waits for the index, then searches again', async () => {
    const f = fakeIndex({ head: 10, through: 7, stepMs: 20 });
    const fresh = new IndexFreshness(f.sources, LIMITS);
    assert.equal(await fresh.stale(await fresh.head(), 7), true);
    assert.equal(f.through(), 10);
  });

  test('no waiting when it cannot help: no indexer, content unreachable, a rebuild-sized backlog', async () => {
    for (const opts of [
      { head: 10, through: 7, active: false },
      { head: 10, through: 7, contentDown: true },
      { head: 500, through: 7 },
    ]) {
      const f = fakeIndex(opts);
      const fresh = new IndexFreshness(f.sources, LIMITS);
      assert.equal(await fresh.stale(await fresh.head(), 7), false, JSON.stringify(opts));
    }
  });
});

describe('IndexFreshness and the indexer of this process', () => {
  test('a query that waits asks the indexer to hurry; one at the head does not', async () => {
    let hurried = 0;
    const behind = fakeIndex({ head: 10, through: 7, stepMs: 5 });
    await new IndexFreshness({ ...behind.sources, hurry: () => hurried++ }, LIMITS).caughtUp();
    assert.equal(hurried, 1);
    const atHead = fakeIndex({ head: 7, through: 7 });
    await new IndexFreshness({ ...atHead.sources, hurry: () => hurried++ }, LIMITS).caughtUp();
    assert.equal(hurried, 1);
  });
});
