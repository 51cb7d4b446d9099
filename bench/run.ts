/*
 * Load benchmark (autocannon). Starts the wiki as a separate process on a fresh data folder
 * (or targets BENCH_URL), then runs each scenario and prints req/s and latency percentiles.
 *   npm run bench                       # all scenarios, 10 connections, 10 s each
 *   BENCH_CONNECTIONS=20 BENCH_SECONDS=20 npm run bench -- rest-page
 * Extra env for the started stack (e.g. DATABASE_URL) is passed through.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Scenario {
  name: string;
  path: string;
  target?: string;
}

const scenarios: Scenario[] = [
  { name: 'rest-page', path: '/w/rest.php/v1/page/Main_Page', target: '≥ 2,000 req/s (issue 2)' },
  { name: 'rest-page-bare', path: '/w/rest.php/v1/page/Main_Page/bare' },
  { name: 'action-revisions-content', path: '/w/api.php?action=query&prop=revisions&rvprop=content&rvslots=main&titles=Main_Page&format=json&formatversion=2' },
];

async function startWiki(): Promise<{ url: string; child?: ChildProcess; cleanup(): void }> {
  if (process.env.BENCH_URL) return { url: process.env.BENCH_URL.replace(/\/$/, ''), cleanup() {} };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
  const port = String(18000 + Math.floor(Math.random() * 1000));
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: port, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready in [\d.]+ s: (http:\/\/\S+?)\/ /.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`wiki exited with ${code} before it was ready:\n${out}`)));
  });
  return {
    url,
    child,
    cleanup() {
      child.kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function run(url: string, s: Scenario, connections: number, duration: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url: url + s.path, connections, duration, pipelining: 1 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const only = process.argv.slice(2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const wiki = await startWiki();
try {
  console.log(`target ${wiki.url}, ${connections} connections, ${duration} s per scenario, ${os.cpus().length} cores`);
  for (const s of scenarios.filter((x) => only.length === 0 || only.includes(x.name))) {
    await run(wiki.url, s, connections, 2); // warm-up: JIT, caches, connections
    const r = await run(wiki.url, s, connections, duration);
    const bad = r.non2xx + r.errors + r.timeouts;
    console.log(
      `${s.name.padEnd(26)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms` +
        `  (${r.requests.total} requests, ${bad} failed)${s.target ? `  target ${s.target}` : ''}`,
    );
    if (bad > 0) process.exitCode = 1;
  }
} finally {
  wiki.cleanup();
}
