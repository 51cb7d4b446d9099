import test, { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type Db, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { contentService } from '../server.js';
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

for (const backend of testBackends()) {
  describe(`job settling (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    before(async () => {
      // The background runner is off: this test runs the queue itself.
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0', CONTENT_JOB_POLL_MS: '0' });
      svc = await startService(contentService, te.env);
    });
    after(async () => {
      await svc.stop();
      await te.cleanup();
    });

    test('a run with settledMs leaves young jobs, which absorb the same job queued again; RunJobs (0) takes them at once', async () => {
      const db = svc.runtime.db;
      const queue = new JobQueue(db);
      const ran: string[] = [];
      queue.on('settleTest', async (job) => {
        ran.push(job.dbkey);
      });
      for (let i = 0; i < 3; i++) await queue.push(db, 'settleTest', 0, 'Hot_page', { n: i });
      const waiting = async () => (await queue.backlog()).find((b) => b.cmd === 'settleTest')?.n ?? 0;
      assert.equal(await waiting(), 1, 'queued three times, waiting once');
      const early = await queue.run(20, 5000, 60_000);
      assert.equal(early.reached, 'none-ready');
      assert.deepEqual(ran, [], 'too young for a settled run');
      const now = await queue.run(20, 5000);
      assert.deepEqual(ran, ['Hot_page']);
      assert.equal(now.jobs.filter((j) => j.type === 'settleTest' && j.status === 'ok').length, 1);
      assert.equal(await waiting(), 0);
      await queue.push(db, 'settleTest', 0, 'Hot_page', {});
      await new Promise((r) => setTimeout(r, 120));
      await queue.run(20, 5000, 100);
      assert.deepEqual(ran, ['Hot_page', 'Hot_page'], 'settled once old enough');
    });
  });
}
