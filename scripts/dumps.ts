/*
 * The admin CLI's XML dump commands, like MediaWiki's maintenance scripts:
 *   dumpBackup --full|--current [--namespaces 0,Talk] [--output FILE.xml(.gz)]
 *   importDump FILE|- [--namespaces 0|Talk] [--skip-to N] [--dry-run] [--username-prefix P] [--no-local-users]
 * (namespaces by number or name). importDump imports <logitem>s (log only, each once) and skips
 * <upload>s, as importDump.php does without --uploads.
 * They talk to the content service over gRPC (ImportService); the XML is read and written here
 * with the gateway's dump module.
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { makeClient, unary } from '@quire/kit';
import { SiteServiceClient } from '@quire/proto/wiki/content/site/v1/site';
import { closeClients, connectClients, type AuthClient, type ContentClient } from '@quire/gateway/clients/index';
import { DumpsClient } from '@quire/gateway/clients/dumps';
import { loadGatewayConfig } from '@quire/gateway/config';
import { dumpSiteInfo, exportXml, type ExportCounts } from '@quire/gateway/dump/export';
import { contentLogSink, importDump, type ImportProgress } from '@quire/gateway/dump/importer';
import { decompressed, DumpError, readDump } from '@quire/gateway/dump/reader';

export class DumpUsageError extends Error {}

/** The wiki's namespaces as ListNamespaces gives them (local and canonical names, aliases). */
export interface NamespaceNames {
  namespaces: { id: number; name: string; canonical: string }[];
  aliases: { id: number; alias: string }[];
}

/**
 * `--namespaces`: namespace numbers or names (importDump.php's getNsIndex: local or canonical
 * name or alias, case-insensitively, "_" for " "), separated by "," or "|". An unknown one is
 * refused as MediaWiki refuses it.
 */
export function namespaceList(v: string | undefined, known: NamespaceNames): number[] | undefined {
  if (v === undefined) return undefined;
  const norm = (s: string) => s.trim().replace(/[ _]+/g, '_').toLowerCase();
  const byName = new Map<string, number>();
  for (const n of known.namespaces) {
    if (n.name) byName.set(norm(n.name), n.id);
    if (n.canonical) byName.set(norm(n.canonical), n.id);
  }
  for (const a of known.aliases) byName.set(norm(a.alias), a.id);
  const ids = new Set<number>();
  for (const item of v
    .split(/[,|]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const id = /^-?\d+$/.test(item) ? Number(item) : byName.get(norm(item));
    if (id === undefined || !known.namespaces.some((n) => n.id === id)) throw new DumpUsageError(`Unknown namespace text / index specified: ${item}`);
    ids.add(id);
  }
  return [...ids];
}

/** The content service's typed client at an address (connectClients makes all three; only content's channel is used, and channels connect when first used). */
function contentClient(address: string): { content: ContentClient; close(): void } {
  const clients = connectClients({ content: address, auth: address, search: address });
  return { content: clients.content, close: () => closeClients(clients) };
}

/** --max-article-size-kb, $wgMaxArticleSize for the import (its default, 2048, when not given). */
function maxRevisionKb(options: Record<string, string>): number | undefined {
  const v = options['max-article-size-kb'];
  if (v === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(v)) throw new DumpUsageError('--max-article-size-kb takes a positive number of KiB');
  return Number(v);
}

function rate(n: number, ms: number): string {
  return (n / Math.max(ms / 1000, 0.001)).toFixed(1);
}

/** dumpBackup.php --full|--current: the wiki (or some namespaces) in the 0.11 format, to a file (gzip by .gz) or stdout. */
export async function dumpBackup(
  contentAddress: string,
  env: NodeJS.ProcessEnv,
  options: Record<string, string>,
  out: (line: string) => void,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<ExportCounts> {
  const full = options.full === 'true';
  const current = options.current === 'true';
  if (full === current) throw new DumpUsageError('dumpBackup needs exactly one of --full and --current');
  const content = makeClient(SiteServiceClient, contentAddress);
  const dumps = DumpsClient.connect(contentAddress);
  try {
    const ns = await unary(content, content.listNamespaces, {});
    const namespaces = namespaceList(options.namespaces, ns);
    const site = dumpSiteInfo(loadGatewayConfig(env), ns);
    const counts: ExportCounts = { pages: 0, revisions: 0 };
    const started = Date.now();
    const source = Readable.from(exportXml(dumps, site, { namespaces, currentOnly: current }, '0.11', counts));
    const file = options.output;
    if (file) {
      const sink = fs.createWriteStream(file);
      if (file.endsWith('.gz')) await pipeline(source, zlib.createGzip(), sink);
      else await pipeline(source, sink);
    } else {
      await pipeline(source, stdout, { end: false });
    }
    const ms = Date.now() - started;
    out(`${counts.pages} pages (${rate(counts.pages, ms)}|s), ${counts.revisions} revs (${rate(counts.revisions, ms)}|s) in ${(ms / 1000).toFixed(1)} s`);
    return counts;
  } finally {
    dumps.close();
    content.close();
  }
}

interface Checkpoint {
  file: string;
  size: number;
  mtimeMs: number;
  pagesRead: number;
}

/** Where a file's import checkpoint lives: beside it (stdin has none). */
function checkpointPath(file: string): string {
  return `${file}.import-checkpoint.json`;
}

function readCheckpoint(file: string, stat: fs.Stats): number {
  try {
    const c = JSON.parse(fs.readFileSync(checkpointPath(file), 'utf8')) as Checkpoint;
    // Another file under the same name starts over.
    if (c.size === stat.size && c.mtimeMs === stat.mtimeMs) return c.pagesRead;
  } catch {
    // none yet
  }
  return 0;
}

/**
 * importDump.php: a dump file (plain, .gz or .bz2, by content) or stdin ("-"), streamed. Each page
 * is one transaction; after every batch the number of pages done goes to a checkpoint file beside
 * the dump, so a killed import started again skips them (and a revision already present is
 * skipped anyway, so nothing is doubled). Progress (pages/s, revs/s, ETA) goes to `progress`.
 */
export async function importDumpCommand(
  contentAddress: string,
  auth: AuthClient,
  args: string[],
  options: Record<string, string>,
  out: (line: string) => void,
  progressLine: (line: string) => void = (l) => process.stderr.write(`\r${l}`),
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<ImportProgress> {
  const file = args[0];
  if (!file) throw new DumpUsageError('importDump needs a file name, or - for standard input');
  const skipTo = options['skip-to'] === undefined ? 0 : Number(options['skip-to']);
  if (!Number.isInteger(skipTo) || skipTo < 0) throw new DumpUsageError('--skip-to takes a page number');
  const dryRun = options['dry-run'] === 'true';
  let stat: fs.Stats | undefined;
  let input: NodeJS.ReadableStream;
  if (file === '-') input = stdin;
  else {
    try {
      stat = fs.statSync(file);
    } catch {
      throw new DumpUsageError(`cannot read ${file}`);
    }
    input = fs.createReadStream(file);
  }
  const resumeFrom = stat && !dryRun && options['skip-to'] === undefined ? readCheckpoint(file, stat) : 0;
  if (resumeFrom > 0) out(`Resuming after page ${resumeFrom} (checkpoint ${checkpointPath(file)}).`);
  let bytesRead = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytesRead += chunk.length;
      cb(null, chunk);
    },
  });
  (input as Readable).on('error', (e) => counter.destroy(e));
  (input as Readable).pipe(counter);

  const dumps = DumpsClient.connect(contentAddress);
  const content = contentClient(contentAddress);
  const started = Date.now();
  try {
    const namespaces = namespaceList(options.namespaces, await content.content.listNamespaces());
    const progress = await importDump(
      readDump(decompressed(counter), { maxRevisionKb: maxRevisionKb(options) }),
      {
        dumps,
        localUsers: async (names) => {
          const r = await auth.getUsers({ names });
          return new Map(r.users.map((u) => [u.user!.name, u.user!.id]));
        },
        logs: contentLogSink(content.content),
      },
      {
        usernamePrefix: (options['username-prefix'] ?? 'imported').replace(/[:>]+$/, ''),
        assignKnownUsers: options['no-local-users'] !== 'true',
        namespaces: namespaces && new Set(namespaces),
        skipTo: Math.max(skipTo, resumeFrom + 1),
        dryRun,
      },
      (_results, p) => {
        const ms = Date.now() - started;
        const eta = stat && bytesRead > 0 ? ((ms / bytesRead) * (stat.size - bytesRead)) / 1000 : undefined;
        progressLine(
          `${p.pagesRead} pages (${rate(p.pagesImported, ms)} pages/s), ${p.revisionsImported} revisions (${rate(p.revisionsImported, ms)} revs/s)` +
            (eta === undefined ? '' : `, ETA ${Math.max(0, eta).toFixed(0)} s`),
        );
        if (stat && !dryRun) {
          const c: Checkpoint = { file, size: stat.size, mtimeMs: stat.mtimeMs, pagesRead: p.pagesRead };
          fs.writeFileSync(checkpointPath(file), `${JSON.stringify(c)}\n`);
        }
      },
    );
    const ms = Date.now() - started;
    progressLine('\n');
    if (dryRun) out(`Dry run: ${progress.pagesImported} pages, ${progress.revisionsImported} revisions read and checked in ${(ms / 1000).toFixed(1)} s; nothing written.`);
    else {
      out(
        `Done: ${progress.pagesImported} pages, ${progress.revisionsImported} revisions imported (${progress.revisionsSkipped} already present), ` +
          `${rate(progress.revisionsImported, ms)} revs/s in ${(ms / 1000).toFixed(1)} s; schema ${progress.schema}.`,
      );
    }
    if (progress.invalid) out(`${progress.invalid} pages with invalid titles were not imported.`);
    if (progress.logItemsImported) out(`${progress.logItemsImported} log items imported.`);
    // importDump.php processes <upload>s only with --uploads (experimental), which Quire does not offer.
    if (progress.uploadsIgnored) out(`${progress.uploadsIgnored} <upload>s skipped (as importDump.php without --uploads); the file description pages are imported as pages.`);
    if (!dryRun) {
      const f = await dumps.finishImport();
      out(`Recent changes rebuilt: ${f.recentChanges} added; ${f.pendingJobs} refreshLinks jobs queued for the link tables.`);
      if (stat) fs.rmSync(checkpointPath(file), { force: true });
    }
    return progress;
  } catch (e) {
    if (e instanceof DumpError) throw new Error(`${file === '-' ? 'stdin' : file}, ${e.message}; nothing of that page was written`);
    throw e;
  } finally {
    dumps.close();
    content.close();
  }
}
