/*
 * Rendering: p50 render time of a ~50 KB article (headings, templates, tables, links,
 * references, lists) through the renderer, and the throughput of cached REST /html reads against
 * the whole wiki started in this process (or BENCH_URL).
 *   npx tsx bench/render.ts
 *   BENCH_SECONDS=20 BENCH_RENDERS=50 npx tsx bench/render.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startStack } from '../scripts/stack.js';
import { MemoryLookup, renderTest } from '../services/content/src/render/testing.js';
import { article, TEMPLATES } from './article.js';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const renders = Number(process.env.BENCH_RENDERS ?? 30);

async function renderP50(): Promise<{ bytes: number; p50: number; p90: number }> {
  const pages = new MemoryLookup({ 'Main Page': 'x', ...TEMPLATES });
  const text = article();
  const times: number[] = [];
  for (let i = 0; i < renders; i++) {
    const t0 = performance.now();
    await renderTest(text, { pages, title: 'Sample' });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { bytes: Buffer.byteLength(text), p50: at(0.5), p90: at(0.9) };
}

async function target(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.BENCH_URL) return { url: process.env.BENCH_URL.replace(/\/$/, ''), stop: async () => {} };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-render-'));
  const stack = await startStack({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: JSON.stringify({ edit: { ip: [1_000_000_000, 60] } }) });
  return {
    url: stack.url,
    async stop() {
      await stack.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function cachedHtmlThroughput(): Promise<autocannon.Result> {
  const t = await target();
  try {
    for (const [title, text] of Object.entries({ ...TEMPLATES, Sample: article() })) {
      const r = await fetch(`${t.url}/w/api.php`, { method: 'POST', body: new URLSearchParams({ action: 'edit', title, text, token: '+\\', format: 'json' }) });
      if (!r.ok) throw new Error(`edit ${title}: ${r.status}`);
    }
    // The first read renders and stores; the measured reads are cache hits.
    const first = await fetch(`${t.url}/w/rest.php/v1/page/Sample/html`);
    if (!first.ok) throw new Error(`html: ${first.status}`);
    return await new Promise((resolve, reject) => {
      autocannon({ url: `${t.url}/w/rest.php/v1/page/Sample/html`, connections: 10, duration }, (err, res) => (err ? reject(err) : resolve(res)));
    });
  } finally {
    await t.stop();
  }
}

const r = await renderP50();
console.log(`render: ${(r.bytes / 1024).toFixed(1)} KB article, ${renders} renders, p50 ${r.p50.toFixed(1)} ms, p90 ${r.p90.toFixed(1)} ms`);
const h = await cachedHtmlThroughput();
console.log(`cached /html: ${h.requests.average.toFixed(0)} req/s average, p50 latency ${h.latency.p50} ms, ${h.non2xx} non-2xx, ${h.errors} errors`);
