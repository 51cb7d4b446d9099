/*
 * Edit throughput: action=edit POSTs against the whole wiki started in this process
 * (scripts/stack.ts, embedded PGlite unless DATABASE_URL is set — give it a database of its own:
 * the wiki's schemas are created in it), or against BENCH_URL.
 *   npx tsx bench/edit.ts              # 1 client appending to one page, then 10 clients on 10 pages
 *   BENCH_SECONDS=20 npx tsx bench/edit.ts
 * Rate limits are lifted for the run (RATE_LIMITS), as $wgRateLimits is on the reference wiki.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startStack } from '../scripts/stack.js';

const duration = Number(process.env.BENCH_SECONDS ?? 10);

async function target(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.BENCH_URL) return { url: process.env.BENCH_URL.replace(/\/$/, ''), stop: async () => {} };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-edit-'));
  const stack = await startStack({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMITS: JSON.stringify({ edit: { ip: [1_000_000_000, 60] } }),
  });
  return {
    url: stack.url,
    async stop() {
      await stack.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Appends (never an edit conflict) to the pages of `pageOf`, taken in turn by the requests. */
function run(url: string, connections: number, pageOf: (n: number) => string): Promise<autocannon.Result> {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/w/api.php`,
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            setupRequest: (req) => {
              const body = new URLSearchParams({ action: 'edit', format: 'json', token: '+\\', title: pageOf(next++), appendtext: `\nline ${next}` });
              return { ...req, body: body.toString() };
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

const wiki = await target();
try {
  console.log(`target ${wiki.url}, ${duration} s per scenario, ${os.cpus().length} cores`);
  for (const [name, connections, pageOf] of [
    ['edit-sequential-1-client', 1, () => 'Bench one page'],
    ['edit-10-clients-10-pages', 10, (n: number) => `Bench page ${n % 10}`],
  ] as const) {
    const r = await run(wiki.url, connections, pageOf);
    const bad = r.non2xx + r.errors + r.timeouts;
    console.log(`${name.padEnd(26)} ${r.requests.average.toFixed(0).padStart(6)} edits/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  (${r.requests.total} edits, ${bad} failed)`);
  }
} finally {
  await wiki.stop();
}
