/*
 * The durable job queue (MediaWiki's JobQueueDB): jobs are rows, claimed with a token so that
 * concurrent runners never run one job twice, deleted when done, retried (up to MAX_ATTEMPTS)
 * when a runner died holding them.
 */
import crypto from 'node:crypto';
import { counter, type Db, type Queryable } from '@quire/kit';

const jobsRun = counter('quire_jobs_run_total', 'Jobs the runners finished, by type and outcome (ok, failed)', ['type', 'status']);

export interface Job {
  id: number;
  cmd: string;
  ns: number;
  dbkey: string;
  params: Record<string, unknown>;
  attempts: number;
}

export interface JobOutcome {
  type: string;
  status: 'ok' | 'failed';
  error: string | null;
  time: number;
}

export type JobHandler = (job: Job) => Promise<void>;

const MAX_ATTEMPTS = 3;
/** A claim older than this belongs to a runner that died. */
const CLAIM_TTL_SECONDS = 3600;
/** A claim younger than this is waited for by run() (bounded by its time limit). */
const IN_FLIGHT_SECONDS = 60;
const IN_FLIGHT_POLL_MS = 25;

interface JobRow {
  job_id: number;
  job_cmd: string;
  job_namespace: number;
  job_title: string;
  job_params: Record<string, unknown>;
  job_attempts: number;
}

export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();

  constructor(private readonly db: Db) {}

  on(cmd: string, handler: JobHandler): void {
    this.handlers.set(cmd, handler);
  }

  async push(q: Queryable, cmd: string, ns: number, dbkey: string, params: Record<string, unknown>): Promise<void> {
    await queueJob(q, this.db.schema, cmd, ns, dbkey, params);
  }

  async pending(): Promise<number> {
    const r = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.db.schema}.job WHERE job_token = '' AND job_attempts < $1`, [MAX_ATTEMPTS]);
    return r.rows[0]?.n ?? 0;
  }

  /** Waiting jobs by type, with the age of the oldest (for the job-queue metrics). */
  async backlog(): Promise<{ cmd: string; n: number; oldestAgeSeconds: number }[]> {
    const r = await this.db.query<{ cmd: string; n: number; age: number }>(
      `SELECT job_cmd AS cmd, count(*)::int AS n, EXTRACT(EPOCH FROM now() - min(job_timestamp))::float8 AS age
       FROM ${this.db.schema}.job WHERE job_token = '' AND job_attempts < $1 GROUP BY job_cmd`,
      [MAX_ATTEMPTS],
    );
    return r.rows.map((x) => ({ cmd: x.cmd, n: x.n, oldestAgeSeconds: Math.max(0, x.age) }));
  }

  /** Jobs claimed by a runner recently enough that it is presumably still running them. */
  private async runningElsewhere(): Promise<number> {
    const r = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.db.schema}.job WHERE job_token <> '' AND job_token_timestamp > now() - make_interval(secs => $1)`, [
      IN_FLIGHT_SECONDS,
    ]);
    return r.rows[0]?.n ?? 0;
  }

  /** Claims the oldest runnable job queued at least `settledMs` ago. */
  private async claim(settledMs: number): Promise<Job | undefined> {
    const s = this.db.schema;
    const token = crypto.randomBytes(16).toString('hex');
    const r = await this.db.query<JobRow>(
      `UPDATE ${s}.job SET job_token = $1, job_token_timestamp = now(), job_attempts = job_attempts + 1
       WHERE job_id = (
         SELECT job_id FROM ${s}.job
         WHERE (job_token = '' OR job_token_timestamp < now() - make_interval(secs => $2)) AND job_attempts < $3
           AND job_timestamp <= now() - make_interval(secs => $4)
         ORDER BY job_id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING job_id, job_cmd, job_namespace, job_title, job_params, job_attempts`,
      [token, CLAIM_TTL_SECONDS, MAX_ATTEMPTS, settledMs / 1000],
    );
    const row = r.rows[0];
    return row && { id: row.job_id, cmd: row.job_cmd, ns: row.job_namespace, dbkey: row.job_title, params: row.job_params, attempts: row.job_attempts };
  }

  /**
   * Runs up to `maxJobs` jobs within `maxTimeMs`; MediaWiki's JobRunner::run result shape.
   * `settledMs` leaves jobs younger than that for a later run (the background runner): while a job
   * waits, the same job queued again is absorbed by it (queueJob), so a page saved many times in a
   * row is re-rendered for its links once, not once per save.
   */
  async run(maxJobs: number, maxTimeMs: number, settledMs = 0): Promise<{ jobs: JobOutcome[]; reached: string; elapsed: number }> {
    const started = Date.now();
    const jobs: JobOutcome[] = [];
    let reached = 'none-ready';
    while (true) {
      if (jobs.length >= maxJobs) {
        reached = 'job-limit';
        break;
      }
      if (Date.now() - started >= maxTimeMs) {
        reached = 'time-limit';
        break;
      }
      const job = await this.claim(settledMs);
      if (!job) {
        // Another runner (the background one) may be running a job this moment. Waiting for it
        // makes "none-ready" mean the queue is drained: callers of Special:RunJobs (MediaWiki's
        // own test suite after every edit) then read link tables that include their edit.
        if ((await this.runningElsewhere()) > 0) {
          await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
          continue;
        }
        break;
      }
      const t0 = Date.now();
      const handler = this.handlers.get(job.cmd);
      try {
        if (!handler) throw new Error(`no handler for job type ${job.cmd}`);
        await handler(job);
        await this.db.query(`DELETE FROM ${this.db.schema}.job WHERE job_id = $1`, [job.id]);
        jobs.push({ type: job.cmd, status: 'ok', error: null, time: Date.now() - t0 });
        jobsRun.inc({ type: job.cmd, status: 'ok' });
      } catch (e) {
        // Released for a retry unless attempts are used up (then it stays, for inspection).
        await this.db.query(`UPDATE ${this.db.schema}.job SET job_token = '' WHERE job_id = $1`, [job.id]);
        jobs.push({ type: job.cmd, status: 'failed', error: e instanceof Error ? e.message : String(e), time: Date.now() - t0 });
        jobsRun.inc({ type: job.cmd, status: 'failed' });
      }
    }
    return { jobs, reached, elapsed: Date.now() - started };
  }
}

/** Queues a job in the caller's transaction, unless an identical one still waits (MediaWiki's job de-duplication). */
export async function queueJob(q: Queryable, schema: string, cmd: string, ns: number, dbkey: string, params: Record<string, unknown>): Promise<void> {
  await q.query(
    `INSERT INTO ${schema}.job (job_cmd, job_namespace, job_title, job_params)
     SELECT $1, $2, $3, $4::jsonb WHERE NOT EXISTS (
       SELECT 1 FROM ${schema}.job WHERE job_cmd = $1 AND job_token = '' AND job_namespace = $2 AND job_title = $3)`,
    [cmd, ns, dbkey, JSON.stringify(params)],
  );
}
