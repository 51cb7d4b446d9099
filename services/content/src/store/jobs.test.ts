import test from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '@quire/kit';
import { JobQueue } from './jobs.js';

/**
 * A queue whose only job is held by another runner for `heldMs`: the store is replaced by a
 * double answering the three statements run() issues (claim, in-flight count, delete).
 */
function queueWithJobHeldElsewhere(heldMs: number) {
  const releasedAt = Date.now() + heldMs;
  const db = {
    schema: 'content',
    async query(sql: string) {
      if (sql.includes('UPDATE')) return { rows: [] }; // nothing claimable: the job is taken
      if (sql.includes("job_token <> ''")) return { rows: [{ n: Date.now() < releasedAt ? 1 : 0 }] };
      throw new Error(`unexpected statement: ${sql}`);
    },
  } as unknown as Db;
  return new JobQueue(db);
}

test('run() waits for a job another runner is running, so none-ready means drained', async () => {
  const t0 = Date.now();
  const r = await queueWithJobHeldElsewhere(200).run(10, 5000);
  assert.equal(r.reached, 'none-ready');
  assert.ok(Date.now() - t0 >= 190, 'returned only once the other runner finished');
});

test('run() stops waiting at its time limit', async () => {
  const r = await queueWithJobHeldElsewhere(60_000).run(10, 150);
  assert.equal(r.reached, 'time-limit');
  assert.ok(r.elapsed < 1000);
});
