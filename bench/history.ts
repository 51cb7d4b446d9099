/*
 * History paging speed: a page with 10,000 revisions, then /v1/page/{title}/history at
 * the newest revisions, 5,000 revisions deep and at the oldest end. Keyset pagination makes every
 * depth cost the same; this prints req/s and p50/p99 per depth to show it.
 *   node --import tsx bench/history.ts                 # embedded PGlite
 *   DATABASE_URL=postgres://… node --import tsx bench/history.ts
 * BENCH_REVISIONS (10000), BENCH_CONNECTIONS (10), BENCH_SECONDS (5) adjust the run. The wiki runs
 * in this process (the setup writes through the content service's own saveRevision).
 */
import autocannon from 'autocannon';
import { makeTestEnv } from '@quire/kit/testing';
import { startStack } from '../scripts/stack.js';
import { saveRevision } from '../services/content/src/store/save.js';
import { TitleCodec } from '../services/content/src/title/codec.js';
import { NamespaceTable } from '../services/content/src/title/namespaces.js';

const revisions = Number(process.env.BENCH_REVISIONS ?? 10_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const duration = Number(process.env.BENCH_SECONDS ?? 5);

const te = await makeTestEnv(process.env.DATABASE_URL ? 'servers' : 'embedded', { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
const stack = await startStack(te.env);
try {
  const content = stack.services.find((s) => s.name === 'content');
  if (!content) throw new Error('no content service in the stack');
  const codec = new TitleCodec(new NamespaceTable(te.env.WIKI_NAME ?? 'Quire'));
  const ids: number[] = [];
  const started = Date.now();
  let base = 0;
  const t0 = Date.UTC(2025, 0, 1);
  for (let i = 0; i < revisions; i++) {
    const saved = await saveRevision(content.runtime.db, codec, {
      ns: 0,
      dbkey: 'Long_history',
      baseRevId: base,
      text: `revision ${i}`,
      contentModel: 'wikitext',
      contentFormat: 'text/x-wiki',
      user: { id: 0, name: `192.0.2.${i % 250}` },
      comment: `edit ${i}`,
      minor: i % 10 === 0,
      tags: [],
      timestamp: new Date(t0 + i * 1000),
    });
    base = saved.revId;
    ids.push(saved.revId);
  }
  console.log(`setup: ${revisions} revisions in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const newestFirst = [...ids].reverse();
  const depths = [
    { name: 'newest', query: '' },
    { name: `${Math.floor(revisions / 2)} deep`, query: `?older_than=${newestFirst[Math.floor(revisions / 2)]}` },
    { name: 'oldest end', query: `?older_than=${newestFirst[revisions - 20]}` },
  ];
  console.log(`GET /w/rest.php/v1/page/Long_history/history, ${connections} connections, ${duration} s each`);
  console.log('depth              req/s     p50 ms   p99 ms   revisions/response');
  for (const d of depths) {
    const url = `${stack.url}/w/rest.php/v1/page/Long_history/history${d.query}`;
    const sample = (await (await fetch(url)).json()) as { revisions: unknown[] };
    const res = await new Promise<autocannon.Result>((resolve, reject) => autocannon({ url, connections, duration }, (err, r) => (err ? reject(err) : resolve(r))));
    if (res.non2xx > 0 || res.errors > 0) throw new Error(`${d.name}: ${res.non2xx} non-2xx responses, ${res.errors} errors`);
    console.log(`${d.name.padEnd(18)} ${res.requests.average.toFixed(0).padStart(6)}   ${String(res.latency.p50).padStart(6)}   ${String(res.latency.p99).padStart(6)}   ${sample.revisions.length}`);
  }
} finally {
  await stack.stop();
  await te.cleanup();
}
