import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EditCounter } from './editcount.js';

test('increments that arrive while a write runs are written together by the next, per user', async () => {
  const writes: [number, number][] = [];
  let release: (() => void)[] = [];
  const counter = new EditCounter(
    (id, by) =>
      new Promise<void>((resolve) => {
        writes.push([id, by]);
        release.push(resolve);
      }),
  );
  const first = counter.increment(1);
  const others = [counter.increment(1), counter.increment(1), counter.increment(2)];
  assert.deepEqual(writes, [
    [1, 1],
    [2, 1],
  ]);
  let settled = 0;
  for (const p of others) void p.then(() => settled++);
  const go = () => {
    const r = release;
    release = [];
    for (const f of r) f();
  };
  go();
  await first;
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(writes.slice(2), [[1, 2]], 'the two that waited, in one write');
  assert.equal(settled, 1, "only user 2's increment is committed so far");
  go();
  await Promise.all(others);
  assert.equal(writes.length, 3);
  // Nothing waits: the next increment writes at once.
  void counter.increment(1);
  assert.deepEqual(writes.at(-1), [1, 1]);
  go();
});

test('a failed write fails its callers only; the increments queued meanwhile are still written', async () => {
  let calls = 0;
  const counter = new EditCounter(async () => {
    calls++;
    if (calls === 1) throw new Error('database went away');
  });
  const a = counter.increment(5);
  const b = counter.increment(5);
  await assert.rejects(a, /went away/);
  await b;
  assert.equal(calls, 2);
});
