/*
 * Side-by-side load benchmark. Starts Quire as `npm start` does (package.json's start script, a
 * fresh data folder, default settings) and runs every scenario against it and, with --compare,
 * against another wiki (the reference MediaWiki) right after, so both see the same machine state;
 * prints both figures, the ratio and p50/p99, plus the ceiling: a constant-JSON node:http server
 * measured in the same run.
 *   npm run bench -- --compare http://127.0.0.1:8080          # every scenario
 *   npm run bench -- --compare http://127.0.0.1:8080 rest-page edits-sequential
 *   npm run bench -- --scale [--data DIR]                    # the 100,000-page wiki (scale.ts)
 *   npm run bench -- --start [--runs N]                      # start-up time and memory only (start.ts)
 * Env: BENCH_SECONDS (5, per read scenario and side), BENCH_CONNECTIONS (10), BENCH_EDITS (100
 * sequential edits), BENCH_SESSIONS (10 concurrent edit sessions), BENCH_PORT (8106),
 * BENCH_URL (use a running Quire instead; then give BENCH_BOT_USER/BENCH_BOT_PASSWORD),
 * BENCH_COMPARE_BOT_USER / BENCH_COMPARE_BOT_PASSWORD (default: the reference wiki's Admin@ci), and
 * BENCH_COMPARE_USER / BENCH_COMPARE_PASSWORD (Admin) when that bot password is refused,
 * BENCH_ROUNDS (3: each scenario is measured that many times, alternating the sides; the median
 * round of each side is shown, and every round's ratio), BENCH_EDIT_WARMUP (200 edits of other
 * pages before each edit scenario is timed, on both sides).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { article, TEMPLATES } from './article.js';
import { httpRequest } from './http.js';
import { ensureBuilt, runStartBench, startAsNpmStart, treeMemory } from './start.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// `--scale`: the 100,000-page scenario (scale.ts) instead of the side-by-side run.
if (process.argv.includes('--scale')) {
  const { runScale } = await import('./scale.js');
  process.exit(await runScale(process.argv.slice(2)));
}
// `--start`: start-up time and memory only, over several fresh starts (start.ts).
if (process.argv.includes('--start')) process.exit(await runStartBench(process.argv.slice(2)));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const sequentialEdits = Number(process.env.BENCH_EDITS ?? 100);
const sessions = Number(process.env.BENCH_SESSIONS ?? 10);
/** Rounds per scenario, each measuring Quire then the other side (BENCH_ROUNDS). */
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

interface Side {
  name: string;
  url: string;
  bot?: { user: string; password: string };
  /** Main account to log in with (clientlogin) when the bot password is refused. */
  account?: { user: string; password: string };
}

interface Figures {
  rate: number;
  p50: number;
  p99: number;
  count: number;
  failed: number;
  /** gRPC calls the gateway made per request (Quire only, from its debug header). */
  grpcCalls?: number;
}

interface ReadScenario {
  name: string;
  path: string;
  target: number;
  /** A cookie that is no session: the gateway's response cache is bypassed, the caller stays anonymous. */
  uncached?: boolean;
}

const readScenarios: ReadScenario[] = [
  { name: 'rest-page', path: '/w/rest.php/v1/page/Main_Page', target: 25 },
  { name: 'action-revisions-content', path: '/w/api.php?action=query&prop=revisions&rvprop=content&rvslots=main&titles=Main_Page&format=json&formatversion=2', target: 10 },
  { name: 'action-siteinfo', path: '/w/api.php?action=query&meta=siteinfo&format=json', target: 25 },
];
// The same reads past Quire's response cache (what a logged-in reader or a first read costs).
readScenarios.push(...readScenarios.slice(0, 2).map((s) => ({ ...s, name: `${s.name}-uncached`, uncached: true })));

// ---------------------------------------------------------------- processes

/** The wiki as `npm start` runs it (start.ts); resolves once it answered its first request (start-up time). */
async function startQuire(): Promise<{ side: Side; child: ChildProcess; startSeconds: number; rssMb(): number; stop(): void }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
  const port = process.env.BENCH_PORT ?? '8106';
  const url = `http://127.0.0.1:${port}`;
  ensureBuilt();
  const { child, startSeconds } = await startAsNpmStart(
    {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Default settings, rate limits included: the bot (sysop, bot group and the highvolume grant)
      // holds noratelimit, as the reference wiki's bot does.
      GATEWAY_DEBUG_GRPC_CALLS: '1',
    },
    port,
  );
  const side: Side = { name: 'quire', url };
  const admin = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });
  await admin('createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,bureaucrat,bot');
  const { stdout } = await admin('createBotPassword', 'Admin', 'ci', '--grants', 'basic,highvolume,editpage,createeditmovepage');
  side.bot = { user: 'Admin@ci', password: stdout.trim().split('\n').at(-1)!.trim() };
  return {
    side,
    child,
    startSeconds,
    rssMb: () => treeMemory(child.pid!).rssMb,
    stop() {
      child.kill('SIGTERM');
      child.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
    },
  };
}

/** The machine's ceiling: node:http answering a constant JSON, in a process of its own. */
async function startCeiling(): Promise<{ url: string; stop(): void }> {
  const code = `const body = JSON.stringify({ batchcomplete: true, query: { pages: [{ pageid: 1, ns: 0, title: 'Main Page' }] } });
require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); })
  .listen(0, '127.0.0.1', function () { process.send(this.address().port); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(Number(m))));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

// ---------------------------------------------------------------- measuring

function load(url: string, opts: Partial<autocannon.Options> = {}): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, pipelining: 1, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

async function measureRead(side: Side, s: ReadScenario): Promise<Figures> {
  const headers: Record<string, string> = s.uncached ? { cookie: 'bench=1' } : {};
  await load(side.url + s.path, { duration: 1, headers }); // warm-up: JIT, caches, connections
  const r = await load(side.url + s.path, { headers });
  const figures: Figures = { rate: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, count: r.requests.total, failed: r.non2xx + r.errors + r.timeouts };
  const calls = (await fetch(side.url + s.path, { headers: { ...headers, 'X-Quire-Count-Grpc-Calls': '1' } })).headers.get('x-quire-grpc-calls');
  if (calls !== null) figures.grpcCalls = Number(calls);
  return figures;
}

/**
 * action=parse of the ~50 KB article posted as text (no parser cache on either side: each request
 * is a whole render, templates, references and table of contents included), after its templates
 * are saved on that side. Sequential requests from one connection: the time of one render.
 */
async function measureParse(side: Side): Promise<Figures> {
  const s = await Session.login(side);
  for (const [title, text] of Object.entries(TEMPLATES)) {
    const r = await s.api({ action: 'edit', title, text, summary: 'bench', bot: '1', token: s.csrf }, true);
    if (r.edit?.result !== 'Success') throw new Error(`${side.name}: saving ${title} failed: ${JSON.stringify(r)}`);
  }
  const body = new URLSearchParams({ action: 'parse', format: 'json', formatversion: '2', title: 'Sample', contentmodel: 'wikitext', prop: 'text|sections', text: article() }).toString();
  const opts = { method: 'POST' as const, body, headers: { 'content-type': 'application/x-www-form-urlencoded' }, connections: 1 };
  await load(`${side.url}/w/api.php`, { ...opts, duration: 2 }); // warm-up
  const r = await load(`${side.url}/w/api.php`, opts);
  return { rate: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, count: r.requests.total, failed: r.non2xx + r.errors + r.timeouts };
}

// Logins and warm-up edits go through node:http (http.ts); the timed edits through autocannon (loadEdits).

/** A logged-in API session (cookies kept by hand). */
class Session {
  private cookies = new Map<string, string>();
  csrf = '';
  constructor(private readonly url: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async api(params: Record<string, string>, post = false): Promise<any> {
    const body = new URLSearchParams({ format: 'json', formatversion: '2', ...params }).toString();
    const headers: Record<string, string> = { cookie: this.cookieHeader() };
    const res = post
      ? await httpRequest('POST', `${this.url}/w/api.php`, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body)
      : await httpRequest('GET', `${this.url}/w/api.php?${body}`, headers);
    for (const c of res.setCookies) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    return JSON.parse(res.body);
  }

  static async login(side: Side): Promise<Session> {
    const s = new Session(side.url);
    const lt = (await s.api({ action: 'query', meta: 'tokens', type: 'login' })).query.tokens.logintoken;
    const r = await s.api({ action: 'login', lgname: side.bot!.user, lgpassword: side.bot!.password, lgtoken: lt }, true);
    if (r.login?.result !== 'Success') {
      // A bot password that must be reset (the reference wiki's, after a grant change): the main account.
      if (!side.account) throw new Error(`${side.name}: login failed: ${JSON.stringify(r)}`);
      const lt2 = (await s.api({ action: 'query', meta: 'tokens', type: 'login' })).query.tokens.logintoken;
      const c = await s.api({ action: 'clientlogin', username: side.account.user, password: side.account.password, loginreturnurl: side.url, logintoken: lt2 }, true);
      if (c.clientlogin?.status !== 'PASS') throw new Error(`${side.name}: login failed: ${JSON.stringify(r)} ${JSON.stringify(c)}`);
    }
    s.csrf = (await s.api({ action: 'query', meta: 'tokens' })).query.tokens.csrftoken;
    return s;
  }

  /** One untimed edit (warm-up, a page's first line); the timed ones go through loadEdits. */
  async edit(title: string, line: number): Promise<void> {
    const r = await this.api(editParams(title, line, this.csrf), true);
    if (r.edit?.result !== 'Success') throw new Error(`edit failed: ${JSON.stringify(r)}`);
  }
}

/** The parameters of every benchmark edit: a numbered line appended as a bot. */
function editParams(title: string, line: number, token: string): Record<string, string> {
  return { action: 'edit', title, appendtext: `\nline ${line}`, summary: 'bench', bot: '1', token };
}

const runId = Date.now().toString(36);
/** Edits made before an edit scenario is timed (BENCH_EDIT_WARMUP), on both sides. */
const editWarmup = Number(process.env.BENCH_EDIT_WARMUP ?? 200);

/**
 * Timed edits through autocannon, as the read scenarios are: each connection is one logged-in
 * session (its cookie) appending numbered lines to its own page. On the 2 cores the wiki under
 * test also uses, a request cost the client ~0.15 ms of CPU through autocannon, ~0.3 ms through
 * node:http and ~1.2 ms through fetch (bench/README.md). Every answer must say
 * `"result":"Success"`, or the scenario counts it failed.
 */
function loadEdits(side: Side, timed: { session: Session; title: string; line: number }[], limit: { duration: number } | { amount: number }): Promise<Figures> {
  const byCookie = new Map(timed.map((t) => [t.session.cookieHeader(), t]));
  let failed = 0;
  let firstFailure = '';
  return new Promise((resolve, reject) => {
    let next = 0;
    // The rate is counted from the first request to the last answer: autocannon's own duration
    // for an `amount` run ends at its next one-second tick (100 sequential edits took "2 s").
    const started = performance.now();
    let answered = 0;
    let lastAnswer = started;
    autocannon(
      {
        url: `${side.url}/w/api.php`,
        connections: timed.length,
        pipelining: 1,
        ...limit,
        // One session per connection, in order (setupClient runs once for each connection as it is made).
        setupClient: (client) => {
          const t = timed[next++]!;
          client.setHeaders({ cookie: t.session.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' });
        },
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              // Also called once as the connection is set up, before setupClient gave it its session.
              const t = byCookie.get((req.headers as Record<string, string>).cookie ?? '');
              if (!t) return req;
              req.body = new URLSearchParams({ format: 'json', formatversion: '2', ...editParams(t.title, ++t.line, t.session.csrf) }).toString();
              return req;
            },
            onResponse: (status, body) => {
              answered++;
              lastAnswer = performance.now();
              if (status === 200 && body.includes('"result":"Success"')) return;
              failed++;
              firstFailure ||= `${status} ${body.slice(0, 300)}`;
            },
          },
        ],
      },
      (err, r) => {
        if (err) return reject(err);
        if (firstFailure) console.error(`${side.name}: ${failed} edits failed, the first: ${firstFailure}`);
        resolve({ rate: (answered * 1000) / (lastAnswer - started), p50: r.latency.p50, p99: r.latency.p99, count: answered, failed: failed + r.errors + r.timeouts });
      },
    );
  });
}

/** N edits one after the other from one bot session, appending to one page. */
async function measureSequentialEdits(side: Side): Promise<Figures> {
  const s = await Session.login(side);
  // Warm-up, as the read scenarios have (the JIT: V8 was still optimizing the edit path's functions
  // after a thousand edits), on pages of its own so that the timed page is as small as ever.
  for (let i = 0; i < editWarmup; i++) await s.edit(`Bench ${runId} warm-up ${i % 10}`, i);
  await s.edit(`Bench ${runId} sequential`, 0);
  return loadEdits(side, [{ session: s, title: `Bench ${runId} sequential`, line: 0 }], { amount: sequentialEdits });
}

/** `sessions` bot sessions at once, each appending to its own page, for BENCH_SECONDS. */
async function measureConcurrentEdits(side: Side): Promise<Figures> {
  // One after the other: parallel logins would trip the login throttle before a success clears it.
  const all: Session[] = [];
  for (let i = 0; i < sessions; i++) all.push(await Session.login(side));
  await Promise.all(
    all.map(async (s, i) => {
      for (let n = 0; n < editWarmup / sessions; n++) await s.edit(`Bench ${runId} warm-up ${i}`, n);
      await s.edit(`Bench ${runId} session ${i}`, 0);
    }),
  );
  return loadEdits(
    side,
    all.map((session, i) => ({ session, title: `Bench ${runId} session ${i}`, line: 0 })),
    { duration: seconds },
  );
}

// ---------------------------------------------------------------- report

function fmt(f: Figures | undefined): string {
  if (!f) return '—'.padStart(30);
  const rate = f.rate >= 100 ? f.rate.toFixed(0) : f.rate.toFixed(1);
  return `${rate.padStart(7)}/s p50 ${String(f.p50).padStart(4)} p99 ${String(f.p99).padStart(4)} ms${f.failed ? ` (${f.failed} failed)` : ''}`;
}

const argv = process.argv.slice(2);
const compareIndex = argv.indexOf('--compare');
const compareUrl = compareIndex >= 0 ? argv.splice(compareIndex, 2)[1]?.replace(/\/$/, '') : undefined;
const only = argv;
const wanted = (name: string) => only.length === 0 || only.includes(name);

// The reference wiki's bot password, as its setup wrote it (the repository's copy of the setup, or the shared one).
const botPasswordFiles = [path.join(root, 'conformance/reference/.state/botpassword'), path.join(root, '../shared/reference/mediawiki/.state/botpassword')];
function compareBot(): Side['bot'] {
  if (process.env.BENCH_COMPARE_BOT_PASSWORD) return { user: process.env.BENCH_COMPARE_BOT_USER ?? 'Admin@ci', password: process.env.BENCH_COMPARE_BOT_PASSWORD };
  const file = botPasswordFiles.find((f) => fs.existsSync(f));
  const text = file ? fs.readFileSync(file, 'utf8') : '';
  const field = (k: string) => new RegExp(`^${k}=(.*)$`, 'm').exec(text)?.[1]?.trim();
  return field('password') ? { user: field('name') ?? 'Admin@ci', password: field('password')! } : undefined;
}

const quire = process.env.BENCH_URL
  ? {
      side: { name: 'quire', url: process.env.BENCH_URL.replace(/\/$/, ''), bot: { user: process.env.BENCH_BOT_USER ?? 'Admin@ci', password: process.env.BENCH_BOT_PASSWORD ?? '' } },
      startSeconds: undefined,
      rssMb: () => undefined,
      stop() {},
    }
  : await startQuire();
const compare: Side | undefined = compareUrl
  ? { name: 'compare', url: compareUrl, bot: compareBot(), account: { user: process.env.BENCH_COMPARE_USER ?? 'Admin', password: process.env.BENCH_COMPARE_PASSWORD ?? 'adminpass123456' } }
  : undefined;
const ceiling = await startCeiling();
const rows: { name: string; quire?: Figures; other?: Figures; target?: number; rounds: (number | undefined)[] }[] = [];
try {
  const rssAfterStart = quire.rssMb();
  console.log(
    `${os.cpus().length} cores, ${connections} connections, ${seconds} s per read scenario and side, ${sequentialEdits} sequential edits, ${sessions} edit sessions\n` +
      `quire ${quire.side.url}${compare ? `  vs  ${compare.url}` : ''}`,
  );
  const ceilingFigures = await measureRead({ name: 'ceiling', url: ceiling.url }, { name: 'ceiling', path: '/', target: 0 });
  const measure = async (name: string, target: number, fn: (side: Side) => Promise<Figures>) => {
    if (!wanted(name)) return;
    // Rounds alternate the two sides, so that a change of the machine's speed during the run
    // (a shared host's drifts by a third within minutes) weighs on both; each side's median round counts.
    const ours: Figures[] = [];
    const theirs: Figures[] = [];
    for (let round = 0; round < rounds; round++) {
      ours.push(await fn(quire.side));
      if (compare) theirs.push(await fn(compare));
    }
    const row = { name, target, quire: median(ours), other: compare ? median(theirs) : undefined, rounds: ours.map((f, i) => (theirs[i] ? f.rate / theirs[i]!.rate : undefined)) };
    rows.push(row);
    printRow(row);
  };
  const header = `${'scenario'.padEnd(34)} ${'quire'.padEnd(34)} ${'compare'.padEnd(34)} ratio   target  gRPC/req`;
  console.log(`${header}\n${'-'.repeat(header.length)}`);
  for (const s of readScenarios) await measure(s.name, s.target, (side) => measureRead(side, s));
  await measure('action-parse-article', 1, measureParse);
  await measure('edits-sequential', 5, measureSequentialEdits);
  await measure(`edits-${sessions}-sessions`, 10, measureConcurrentEdits);
  console.log(`${'ceiling (node:http)'.padEnd(34)} ${fmt(ceilingFigures)}`);
  if (quire.startSeconds !== undefined) console.log(`start to first answer: ${quire.startSeconds.toFixed(1)} s (target ≤ 2 s)`);
  if (rssAfterStart !== undefined) console.log(`resident memory: ${rssAfterStart.toFixed(0)} MB after start, ${quire.rssMb()!.toFixed(0)} MB after the run (target ≤ 350 MB)`);
  if (rows.some((r) => (r.quire?.failed ?? 0) + (r.other?.failed ?? 0) > 0)) process.exitCode = 1;
} finally {
  ceiling.stop();
  quire.stop();
}

function printRow(r: (typeof rows)[number]): void {
  const ratio = r.quire && r.other ? r.quire.rate / r.other.rate : undefined;
  const perRound = r.rounds.length > 1 && r.rounds.every((x) => x !== undefined) ? `  rounds ${r.rounds.map((x) => `${x!.toFixed(2)}×`).join(' ')}` : '';
  console.log(
    `${r.name.padEnd(34)} ${fmt(r.quire).padEnd(34)} ${fmt(r.other).padEnd(34)} ${ratio === undefined ? '  —   ' : `${ratio.toFixed(2).padStart(5)}×`}  ≥ ${String(r.target).padStart(2)}×  ${r.quire?.grpcCalls ?? ''}${perRound}`,
  );
}

/** The round with the median rate (the lower middle one of an even count). */
function median(figures: Figures[]): Figures {
  return [...figures].sort((a, b) => a.rate - b.rate)[Math.floor((figures.length - 1) / 2)]!;
}
