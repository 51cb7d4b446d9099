/*
 * Import benchmark: a generated dump of PAGES pages with REVS revisions each, imported
 * with `admin importDump` into a fresh Quire (embedded database, or DATABASE_URL), and with
 * --reference the same file through MediaWiki's maintenance/importDump.php on the reference wiki
 * (run as www-data, as ../shared/reference/mediawiki/setup.sh runs maintenance scripts). Prints
 * revisions per second of each and the ratio. Quire runs in a fresh test environment (embedded,
 * or its own database on DATABASE_URL), with its background job runner on unless
 * CONTENT_JOB_POLL_MS holds it off.
 *
 *   node --import tsx bench/dump-import.ts [--pages 2000] [--revs 3] [--reference] [--keep FILE]
 *
 * The reference import writes into the reference wiki: its pages are titled
 * "Bench import <run>/<n>" so a second run adds new pages instead of skipping old ones.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startService, type RunningService } from '@quire/kit';
import { makeTestEnv } from '@quire/kit/testing';
import { authService } from '@quire/auth/server';
import { contentService } from '@quire/content/server';
import { makeClient } from '@quire/kit';
import { AuthServiceClient } from '@quire/proto/wiki/auth/v1/auth';
import { AuthClient } from '@quire/gateway/clients/index';
import { DumpWriter } from '@quire/gateway/dump/writer';
import { sha1Base36 } from '@quire/gateway/dump/reader';
import { importDumpCommand } from '../scripts/dumps.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const PAGES = Number(arg('pages', '2000'));
const REVS = Number(arg('revs', '3'));
const REFERENCE = process.argv.includes('--reference');
const RUN = Date.now().toString(36);

/** A dump as MediaWiki writes one: wikitext pages of a few hundred bytes, a few users and IPs. */
function generate(file: string): number {
  const w = new DumpWriter('0.11');
  const fd = fs.openSync(file, 'w');
  const site = {
    sitename: 'Bench',
    dbname: 'bench',
    base: 'http://bench.test/wiki/Main_Page',
    generator: 'MediaWiki 1.39.17',
    case: 'first-letter',
    namespaces: [{ key: 0, case: 'first-letter', name: '' }],
    lang: 'en',
  };
  fs.writeSync(fd, w.open(site));
  const t0 = Date.UTC(2020, 0, 1) / 1000;
  let revId = 0;
  for (let p = 1; p <= PAGES; p++) {
    fs.writeSync(fd, w.openPage({ pageId: p, ns: 0, title: `Bench import ${RUN}/${p}`, redirectTitle: '' }));
    let text = `'''Page ${p}''' of the import benchmark. See [[Bench import ${RUN}/${(p % PAGES) + 1}]].\n`;
    let parent = 0;
    for (let r = 0; r < REVS; r++) {
      revId++;
      text += `\n== Section ${r} ==\nLorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor ${p * 31 + r}.\n`;
      const anon = r % 3 === 1;
      fs.writeSync(
        fd,
        w.revision({
          id: revId,
          parentId: parent,
          timestamp: new Date((t0 + p * 60 + r) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          userId: anon ? 0 : 1 + (p % 5),
          userName: anon ? `192.0.2.${p % 250}` : `Bench user ${p % 5}`,
          deleted: 0,
          minor: r % 2 === 1,
          comment: `edit ${r}`,
          model: 'wikitext',
          format: 'text/x-wiki',
          text,
          size: Buffer.byteLength(text),
          sha1: sha1Base36(text),
          origin: revId,
        }),
      );
      parent = revId;
    }
    fs.writeSync(fd, w.closePage());
  }
  fs.writeSync(fd, w.close());
  fs.closeSync(fd);
  return revId;
}

async function quire(file: string): Promise<{ seconds: number; revisions: number }> {
  // A fresh data folder, or with DATABASE_URL/REDIS_URL a database and key prefix of its own.
  const te = await makeTestEnv(process.env.DATABASE_URL ? 'servers' : 'embedded', {
    LOG_LEVEL: 'warn',
    AUTH_GRPC_PORT: '0',
    CONTENT_GRPC_PORT: '0',
    AUTH_GRPC_HOST: '127.0.0.1',
    CONTENT_GRPC_HOST: '127.0.0.1',
    ...(process.env.CONTENT_JOB_POLL_MS ? { CONTENT_JOB_POLL_MS: process.env.CONTENT_JOB_POLL_MS } : {}),
  });
  const services: RunningService[] = [];
  try {
    services.push(await startService(authService, te.env));
    services.push(await startService(contentService, te.env));
    const auth = new AuthClient(makeClient(AuthServiceClient, services[0]!.address));
    const started = process.hrtime.bigint();
    const p = await importDumpCommand(
      services[1]!.address,
      auth,
      [file],
      {},
      (l) => console.log(`  ${l}`),
      () => {},
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    auth.close();
    return { seconds, revisions: p.revisionsImported };
  } finally {
    for (const s of services.reverse()) await s.stop();
    await te.cleanup();
  }
}

function reference(file: string): { seconds: number } {
  fs.chmodSync(file, 0o644);
  const started = process.hrtime.bigint();
  const r = spawnSync('runuser', ['-u', 'www-data', '--', 'php', '/usr/share/mediawiki/maintenance/importDump.php', '--report', '1000', file], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`importDump.php failed: ${r.stderr || r.stdout}`);
  return { seconds };
}

const file = process.argv.includes('--keep') ? arg('keep', '') : path.join(os.tmpdir(), `quire-bench-dump-${RUN}.xml`);
const total = generate(file);
console.log(`dump: ${PAGES} pages, ${total} revisions, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB (${file})`);
try {
  const q = await quire(file);
  const qRate = q.revisions / q.seconds;
  console.log(`quire: ${q.revisions} revisions in ${q.seconds.toFixed(1)} s = ${qRate.toFixed(0)} revisions/s (${(PAGES / q.seconds).toFixed(0)} pages/s)`);
  if (REFERENCE) {
    const r = reference(file);
    const rRate = total / r.seconds;
    console.log(`reference importDump.php: ${total} revisions in ${r.seconds.toFixed(1)} s = ${rRate.toFixed(0)} revisions/s`);
    console.log(`ratio: ${(qRate / rRate).toFixed(1)}×`);
  }
} finally {
  if (!process.argv.includes('--keep')) fs.rmSync(file, { force: true });
}
process.exit(0);
