/*
 * What one edit costs: SQL statements (by schema and kind, from the process's /metrics)
 * and gRPC calls of the gateway (its debug header) per action=edit, sequential appends from one
 * bot session. Starts the wiki as `npm start`'s child does (scripts/serve.ts, a fresh data folder).
 *   npx tsx bench/edit-cost.ts            # 50 edits
 *   BENCH_EDITS=200 BENCH_PORT=18200 npx tsx bench/edit-cost.ts
 *   BENCH_SESSIONS=10 BENCH_EDITS=1000 npx tsx bench/edit-cost.ts   # 10 sessions at once, a page each
 *   BENCH_WARMUP=150 ...   # edits a session makes of other pages first (5)
 * BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to the wiki's node;
 * SQL_TRACE=file writes every SQL text sent (with BEGIN/COMMIT) and its count there (bench/sql-trace.mjs).
 *
 * Measured 2026-11-27 (2 cores shared with other work; wall-clock rates swing with the load, the
 * counts do not). One bot edit (appendtext, bot=1, watchlist=preferences):
 *
 *                                  before (5c30496)           after (27bf847)
 *   gRPC calls (gateway)           4                          3  (token checked with the session)
 *   SQL statements while editing   27.5-28.5 + 1.5 BEGIN/COMMIT   7.9-10.2, no BEGIN/COMMIT for the edit
 *     content, the edit itself     20 + BEGIN/COMMIT          3  (page+latest+sha1s+watch; protection; save)
 *     auth (session, edit count)   5                          3
 *     refreshLinks job (when run)  17-19                      ~11
 *   CPU of the process per edit    31-36 ms                   20-33 ms (load 12-17)
 *
 * Where an edit's time goes now (cpu-prof, 400 edits): the services' thread ~11 ms (a quarter of it
 * writev of pg's queries to PGlite's socket), PGlite's thread ~10 ms (a quarter writing answers to
 * the socket), the gateway thread ~8 ms (HTTP, three gRPC calls). They run one after the other for
 * a sequential edit, so its latency is their sum: each statement and each gRPC call left costs
 * about a millisecond of syscalls and wake-ups.
 *
 * 2026-11-27 (3), a quiet machine, 300 edits, clean clone: 54.9/s, 24.4 ms CPU per edit (3.8 system)
 * before; 77.6/s, 16.1 ms CPU (1.1 system), 5.4 statements after: the PGlite thread answers a
 * statement with one write (it wrote each protocol message's output as PostgreSQL produced it), the
 * session's block comes with its account, the protection with the edit's page read, the edit count
 * is not awaited. What is left per edit (cpu-prof, 400 edits): PostgreSQL's WASM ~4.7 ms (a trivial
 * prepared SELECT is ~360 µs from pg and back, ~200 µs of it in PGlite: Emscripten's setjmp
 * trampolines), the services' thread ~5.8 ms (pg, grpc-js server), the gateway ~5 ms (HTTP, express,
 * the action pipeline, grpc-js client), a render worker ~1.2 ms (the refreshLinks job).
 * STRACE=file counts the system calls of the timed edits (strace -c); the statement time per kind
 * (sent to answered, as the services' thread sees it) is printed too.
 */
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const edits = Number(process.env.BENCH_EDITS ?? 50);
/** Bot sessions editing at once, each its own page (BENCH_SESSIONS; 1: sequential edits of one page). */
const sessions = Number(process.env.BENCH_SESSIONS ?? 1);
const port = Number(process.env.BENCH_PORT ?? 18200);
const metricsPort = port + 1;
const url = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-edit-cost-'));

const trace = process.env.SQL_TRACE ? ['--import', './bench/sql-trace.mjs'] : [];
const child = spawn(process.execPath, ['--import', 'tsx', ...trace, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), 'scripts/serve.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMITS: JSON.stringify({ edit: { ip: [1_000_000_000, 60], user: [1_000_000_000, 60] } }),
    GATEWAY_DEBUG_GRPC_CALLS: '1',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function ready(): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}/w/api.php?action=query&meta=siteinfo&format=json`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** quire_db_query_duration_seconds_count (or, with `series` "sum", the seconds) by "schema op". */
async function statements(series: 'count' | 'sum' = 'count'): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(new RegExp(`^quire_db_query_duration_seconds_${series}\\{([^}]*)\\} ([\\d.e+-]+)`, 'gm'))) {
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    out.set(`${labels.schema} ${labels.op}`, (out.get(`${labels.schema} ${labels.op}`) ?? 0) + Number(m[2]));
  }
  return out;
}

/** User and system CPU time (ms) in a /proc stat file (clock ticks of 10 ms), and the name in it. */
function statCpu(file: string): { name: string; user: number; sys: number } {
  const stat = fs.readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), user: Number(fields[11]) * 10, sys: Number(fields[12]) * 10 };
}

/** User + system CPU time of a process, all its threads (Linux /proc). */
function cpuMs(pid: number): { user: number; sys: number } {
  return statCpu(`/proc/${pid}/stat`);
}

/**
 * User + system CPU time of each thread of a process, by "tid name". Node's threads are all named
 * "node": the services' thread is the first, V8's four helper threads (optimizing compiler, GC)
 * come right after it, then the gateway's and the database's threads.
 */
function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const t = statCpu(`/proc/${pid}/task/${tid}/stat`);
      out.set(`${tid} ${t.name}`, t.user + t.sys);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** One client's cookie jar and its calls. */
class Client {
  readonly cookies = new Map<string, string>();
  async api(params: Record<string, string>, post = false, extra: Record<string, string> = {}): Promise<{ body: any; grpc: string | null }> {
    const body = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...extra };
    const res = post
      ? await fetch(`${url}/w/api.php`, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } })
      : await fetch(`${url}/w/api.php?${body}`, { headers });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    return { body: await res.json(), grpc: res.headers.get('x-quire-grpc-calls') };
  }
  token = '';
  async login(user: string, password: string): Promise<void> {
    const lt = (await this.api({ action: 'query', meta: 'tokens', type: 'login' })).body.query.tokens.logintoken;
    const login = (await this.api({ action: 'login', lgname: user, lgpassword: password, lgtoken: lt }, true)).body;
    if (login.login?.result !== 'Success') throw new Error(JSON.stringify(login));
    this.token = (await this.api({ action: 'query', meta: 'tokens' })).body.query.tokens.csrftoken;
  }
  async edit(title: string, n: number, count = false): Promise<string | null> {
    const r = await this.api(
      { action: 'edit', title, appendtext: `\nline ${n} [[Link ${n % 5}]]`, summary: 'bench', bot: '1', token: this.token },
      true,
      count ? { 'X-Quire-Count-Grpc-Calls': '1' } : {},
    );
    if (r.body.edit?.result !== 'Success') throw new Error(JSON.stringify(r.body));
    return r.grpc;
  }
}

try {
  await ready();
  const admin = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });
  await admin('createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,bureaucrat,bot');
  const { stdout } = await admin('createBotPassword', 'Admin', 'ci', '--grants', 'basic,highvolume,editpage,createeditmovepage');
  const password = stdout.trim().split('\n').at(-1)!.trim();
  const clients = Array.from({ length: sessions }, () => new Client());
  for (const c of clients) await c.login('Admin@ci', password);
  const title = (i: number) => (sessions === 1 ? 'Edit cost' : `Edit cost ${i}`);
  /** `edits` edits in all: one after the other per session, the sessions at once. */
  const editAll = async (from: number) => {
    await Promise.all(
      clients.map(async (c, i) => {
        for (let n = i; n < edits; n += sessions) await c.edit(title(i), from + n);
      }),
    );
  };
  await Promise.all(clients.map((c, i) => c.edit(title(i), 0)));
  // Warm-up on pages of their own (BENCH_WARMUP edits a session): V8 optimizes the edit path's functions over the first thousands of edits.
  for (let i = 1; i <= Number(process.env.BENCH_WARMUP ?? 5); i++) await Promise.all(clients.map((c, j) => c.edit(`${title(j)} warm-up ${i % 10}`, i)));
  await new Promise((r) => setTimeout(r, 1500)); // background jobs of the warm-up
  const traced = async () => {
    if (!process.env.SQL_TRACE) return new Map<string, number>();
    await new Promise((r) => setTimeout(r, 600));
    return new Map<string, number>(JSON.parse(fs.readFileSync(process.env.SQL_TRACE, 'utf8')));
  };
  // STRACE=file: the system calls of the wiki process (every thread) during the timed edits, counted (strace -c).
  const strace = process.env.STRACE ? spawn('strace', ['-f', '-c', '-o', process.env.STRACE, '-p', String(child.pid)], { stdio: 'ignore' }) : undefined;
  if (strace) await new Promise((r) => setTimeout(r, 1000));
  const traceBefore = await traced();
  const before = await statements();
  const secondsBefore = await statements('sum');
  const cpu0 = cpuMs(child.pid!);
  const threads0 = threadCpuMs(child.pid!);
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  await editAll(100);
  const ms = performance.now() - t0;
  const cpu1 = cpuMs(child.pid!);
  const threads1 = threadCpuMs(child.pid!);
  const client = process.cpuUsage(client0);
  if (strace) {
    strace.kill('SIGINT');
    await new Promise((r) => strace.once('exit', r));
  }
  const cpu = { user: cpu1.user - cpu0.user, sys: cpu1.sys - cpu0.sys };
  const afterEdits = await statements();
  const secondsAfter = await statements('sum');
  const traceAfter = await traced();
  await new Promise((r) => setTimeout(r, 1500)); // the jobs the edits queued
  const after = await statements();
  const grpc = await clients[0]!.edit(title(0), 9999, true);
  const per = (a: Map<string, number>, b: Map<string, number>) => {
    const rows = [...a].map(([k, v]) => [k, (v - (b.get(k) ?? 0)) / edits] as const).filter(([, v]) => v > 0);
    return { total: rows.reduce((s, [, v]) => s + v, 0), rows };
  };
  const during = per(afterEdits, before);
  const all = per(after, before);
  console.log(`${edits} edits (${sessions === 1 ? 'sequential' : `${sessions} sessions at once, a page each`}): ${((edits * 1000) / ms).toFixed(1)}/s, ${(ms / edits).toFixed(1)} ms each`);
  console.log(`CPU time of the wiki process (all threads) per edit: ${((cpu.user + cpu.sys) / edits).toFixed(1)} ms (user ${(cpu.user / edits).toFixed(1)}, system ${(cpu.sys / edits).toFixed(1)})`);
  console.log(
    `  by thread (at least 0.05 ms): ${[...threads1]
      .map(([k, v]) => [k, (v - (threads0.get(k) ?? 0)) / edits] as const)
      .filter(([, v]) => v >= 0.05)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(', ')}`,
  );
  console.log(`CPU time of this client per edit: ${((client.user + client.system) / 1000 / edits).toFixed(2)} ms`);
  console.log(`gRPC calls of one edit (gateway): ${grpc}`);
  console.log(`SQL statements per edit while editing: ${during.total.toFixed(1)}; with the background jobs after: ${all.total.toFixed(1)}`);
  for (const [k, v] of all.rows.sort()) console.log(`  ${k.padEnd(24)} ${v.toFixed(2)}   (during: ${(during.rows.find((r) => r[0] === k)?.[1] ?? 0).toFixed(2)})`);
  // Time from sending a statement to its answer, as the services' thread sees it (queueing for the one embedded connection included).
  const sqlSeconds = per(secondsAfter, secondsBefore);
  console.log(`statement time per edit while editing (sent to answered): ${(sqlSeconds.total * 1000).toFixed(2)} ms`);
  for (const [k, v] of sqlSeconds.rows.sort()) console.log(`  ${k.padEnd(24)} ${(v * 1000).toFixed(2)} ms`);
  if (process.env.SQL_TRACE) {
    console.log('SQL texts per edit while editing (pg, BEGIN/COMMIT included):');
    const rows = [...traceAfter].map(([t, n]) => [t, (n - (traceBefore.get(t) ?? 0)) / edits] as const).filter(([, n]) => n > 0);
    for (const [t, n] of rows.sort((a, b) => b[1] - a[1])) console.log(`  ${n.toFixed(2).padStart(6)}  ${t.replace(/\s+/g, ' ').slice(0, 150)}`);
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
