/*
 * Search latency over 10,000 generated pages:
 *   node --import tsx bench/search.ts            # BENCH_PAGES=10000 BENCH_REQUESTS=500 BENCH_CONNECTIONS=1
 * 1. In this process: the stack on a fresh data folder (or a fresh database on DATABASE_URL), 10,000 pages saved by the
 *    content service's saveRevision, then it waits until the search index has applied the feed.
 * 2. The wiki is started again as its own process (scripts/start.ts) on the same data, and
 *    /v1/search/page and /v1/search/title are timed from here: p50/p90/p99 per endpoint.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeClient, unary } from '@quire/kit';
import { makeTestEnv } from '@quire/kit/testing';
import { SearchServiceClient } from '@quire/proto/wiki/search/v1/search';
import { saveRevision } from '@quire/content/store/save';
import { TitleCodec } from '@quire/content/title/codec';
import { NamespaceTable } from '@quire/content/title/namespaces';
import { startStack } from '../scripts/stack.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = Number(process.env.BENCH_PAGES ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);

/** A deterministic pseudo-random generator, so runs are comparable. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rand = rng(42);
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tor', 'vel', 'san', 'qui', 'dar', 'nox', 'bel', 'fen', 'gal', 'hul', 'jin', 'per'];
const word = () => Array.from({ length: 2 + Math.floor(rand() * 2) }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('');
const VOCABULARY = Array.from({ length: 3000 }, word);
const pick = () => VOCABULARY[Math.floor(rand() * VOCABULARY.length)]!;

function pageText(): string {
  const paragraphs = Array.from({ length: 2 + Math.floor(rand() * 4) }, () => `${Array.from({ length: 30 + Math.floor(rand() * 60) }, pick).join(' ')}.`);
  return `'''${pick()}''' ${paragraphs.join('\n\n')}\n[[Category:${pick()}]]\n`;
}

async function generate(env: NodeJS.ProcessEnv): Promise<string[]> {
  const stack = await startStack(env);
  const titles: string[] = [];
  try {
    const content = stack.services.find((s) => s.name === 'content')!;
    const codec = new TitleCodec(new NamespaceTable('Quire'));
    const started = Date.now();
    for (let i = 0; i < PAGES; i++) {
      const title = `${pick()} ${pick()} ${i}`;
      const dbkey = title[0]!.toUpperCase() + title.slice(1).replace(/ /g, '_');
      titles.push(dbkey.replace(/_/g, ' '));
      await saveRevision(content.runtime.db, codec, {
        ns: 0,
        dbkey,
        baseRevId: 0,
        text: pageText(),
        contentModel: 'wikitext',
        contentFormat: 'text/x-wiki',
        user: { id: 0, name: '192.0.2.1' },
        comment: 'bench',
        minor: false,
        tags: [],
      });
      if ((i + 1) % 2000 === 0) console.log(`  ${i + 1} pages saved (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
    const search = makeClient(SearchServiceClient, stack.services.find((s) => s.name === 'search')!.address);
    for (;;) {
      const s = await unary(search, search.getIndexStatus, {});
      if (s.pendingChanges === 0) break;
      await sleep(200);
    }
    search.close();
    console.log(`  indexed: ${PAGES} pages + Main Page in ${((Date.now() - started) / 1000).toFixed(1)} s (save + index)`);
  } finally {
    await stack.stop();
  }
  return titles;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<{ url: string; stop(): void }> {
  const port = String(18000 + Math.floor(Math.random() * 1000));
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: root, env: { ...env, PORT: port, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready in [\d.]+ s: (http:\/\/\S+?)\/ /.exec(out);
      if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`wiki exited with ${code}:\n${out}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(name: string, paths: string[]): Promise<void> {
  const times: number[] = [];
  let next = 0;
  let results = 0;
  const worker = async () => {
    while (next < paths.length) {
      const p = paths[next++]!;
      const t = performance.now();
      const r = await fetch(p);
      const body = (await r.json()) as { pages?: unknown[] };
      times.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${JSON.stringify(body)}`);
      results += body.pages?.length ?? 0;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(18)} n=${times.length} c=${CONNECTIONS}  p50 ${percentile(times, 50).toFixed(1)} ms  p90 ${percentile(times, 90).toFixed(1)} ms  ` +
      `p99 ${percentile(times, 99).toFixed(1)} ms  ${(times.length / seconds).toFixed(0)} req/s  avg results ${(results / times.length).toFixed(1)}`,
  );
}

// A fresh data folder, and a fresh database when DATABASE_URL is set (dropped at the end).
const testEnv = await makeTestEnv(process.env.DATABASE_URL ? 'servers' : 'embedded', { LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1' });
const env = testEnv.env;
const dataDir = testEnv.dataDir;
try {
  console.log(`generating ${PAGES} pages in ${dataDir}`);
  const titles = await generate(env);
  const server = await startServer(env);
  try {
    const base = `${server.url}/w/rest.php/v1/search`;
    const queries = Array.from({ length: REQUESTS }, () => (rand() < 0.5 ? pick() : `${pick()} ${pick()}`));
    const prefixes = Array.from({ length: REQUESTS }, () => {
      const t = titles[Math.floor(rand() * titles.length)]!;
      return t.slice(0, 2 + Math.floor(rand() * 6));
    });
    // Warm-up: plans prepared, caches filled.
    await measure(
      'warm-up',
      queries.slice(0, 50).map((q) => `${base}/page?q=${encodeURIComponent(q)}&limit=10`),
    );
    await measure(
      '/v1/search/page',
      queries.map((q) => `${base}/page?q=${encodeURIComponent(q)}&limit=10`),
    );
    await measure(
      '/v1/search/title',
      prefixes.map((q) => `${base}/title?q=${encodeURIComponent(q)}&limit=10`),
    );
  } finally {
    server.stop();
    await sleep(1000);
  }
} finally {
  await testEnv.cleanup();
}
