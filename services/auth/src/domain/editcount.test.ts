import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EditCounter } from './editcount.js';

/** A write that waits until released, recording (user, by). */
function gatedWrites() {
  const writes: [number, number][] = [];
  let release: (() => void)[] = [];
  const write = (id: number, by: number) =>
    new Promise<void>((resolve) => {
      writes.push([id, by]);
      release.push(resolve);
    });
  const go = () => {
    const r = release;
    release = [];
    for (const f of r) f();
  };
  return { writes, write, go };
}

const tick = () => new Promise((r) => setImmediate(r));

test('without a delay: increments that arrive while a write runs are written together by the next, per user', async () => {
  const g = gatedWrites();
  const counter = new EditCounter(g.write);
  const first = counter.increment(1);
  await tick(); // its write has begun
  const others = [counter.increment(1), counter.increment(1), counter.increment(2)];
  await tick();
  assert.deepEqual(g.writes, [
    [1, 1],
    [2, 1],
  ]);
  let settled = 0;
  for (const p of others) void p.then(() => settled++);
  g.go();
  await first;
  await tick();
  assert.deepEqual(g.writes.slice(2), [[1, 2]], 'the two that waited, in one write');
  assert.equal(settled, 1, "only user 2's increment is committed so far");
  g.go();
  await Promise.all(others);
  assert.equal(g.writes.length, 3);
});

test('with a delay: the increments of the window are one write, settled when it commits; flush() writes at once', async () => {
  const g = gatedWrites();
  const counter = new EditCounter(g.write, 60);
  const a = [counter.increment(7), counter.increment(7), counter.increment(7)];
  await tick();
  assert.deepEqual(g.writes, [], 'nothing written during the window');
  await new Promise((r) => setTimeout(r, 90));
  assert.deepEqual(g.writes, [[7, 3]]);
  g.go();
  await Promise.all(a);
  const b = counter.increment(7);
  const flushed = counter.flush();
  await tick();
  assert.deepEqual(g.writes.at(-1), [7, 1], 'flush() did not wait for the window');
  g.go();
  await flushed;
  await b;
});

test('a failed write fails its callers only; the increments collected meanwhile are still written', async () => {
  let calls = 0;
  const counter = new EditCounter(async () => {
    calls++;
    if (calls === 1) throw new Error('database went away');
  });
  const aFailed = assert.rejects(counter.increment(5), /went away/);
  await tick();
  const b = counter.increment(5);
  await aFailed;
  await b;
  assert.equal(calls, 2);
});
