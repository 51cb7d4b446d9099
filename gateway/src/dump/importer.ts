/*
 * WikiImporter's driver: pages read from a dump go to the content service in batches (each page
 * one transaction there), with contributors mapped as ExternalUserNames does: an IP stays an IP,
 * a user name becomes "<prefix>>Name" unless known users are assigned and it is a local account.
 * Shared by `npm run admin -- importDump` and action=import.
 */
import crypto from 'node:crypto';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { ImportLog, ImportPageResult, ImportRevision } from '../clients/types.js';
import type { DumpsClient } from '../clients/dumps.js';
import type { ContentClient } from '../clients/index.js';
import { logParamsFromDump } from './log-params.js';
import type { DumpContributor, DumpItem, DumpLogItemIn, DumpPageIn } from './reader.js';

export interface ImportDriverOptions {
  /** ExternalUserNames' prefix without the ">" (importDump's default: "imported"). */
  usernamePrefix: string;
  /** Give edits of names that are local accounts to those accounts. */
  assignKnownUsers: boolean;
  /** Only pages of these namespaces (the dump's <ns>). */
  namespaces?: ReadonlySet<number>;
  /** Pages before this one (1-based, importDump's --skip-to) are read but not imported. */
  skipTo?: number;
  dryRun?: boolean;
  targetNamespace?: number;
  rootPage?: string;
  /** action=import: the null revision and log entry per page (its detail is made per page). */
  log?: ImportLog;
  /** Pages per call (a batch is also cut at batchBytes of text). */
  batchPages?: number;
  batchBytes?: number;
}

export interface ImportProgress {
  /** Pages read from the dump, skipped ones included (the --skip-to / checkpoint position). */
  pagesRead: number;
  pagesImported: number;
  revisionsImported: number;
  revisionsSkipped: number;
  invalid: number;
  uploadsIgnored: number;
  logItemsIgnored: number;
  /** <logitem>s written (those already present are not counted). */
  logItemsImported: number;
  schema: string;
}

/** A log item as the content service records it (RecordLogEntries, log only: no recent change). */
export interface ImportedLogEntry {
  /** The duplicate key: MediaWiki skips an item whose type, action, timestamp, target and parameters are logged already. */
  origin: string;
  type: string;
  action: string;
  timestamp: string;
  userId: number;
  userName: string;
  ns: number;
  dbkey: string;
  comment: string;
  paramsJson: string;
}

export interface ImportDeps {
  dumps: DumpsClient;
  /** Local account ids of these names (absent: no account). */
  localUsers(names: string[]): Promise<Map<string, number>>;
  /** Where <logitem>s go (WikiImporter's importLogItem); without it they are counted as ignored. */
  logs?: {
    /** Namespace and DB key (without the namespace) of each valid title. */
    resolveTitles(titles: string[]): Promise<Map<string, { ns: number; dbkey: string }>>;
    /** Records the entries not logged yet; answers how many were new. */
    record(entries: ImportedLogEntry[]): Promise<number>;
  };
}

/** Log items per call. */
const LOG_BATCH = 500;

/** WikiRevision::importLogItem's duplicate check as a key: type, action, timestamp, target and the raw parameters. */
export function logItemOrigin(item: Pick<DumpLogItemIn, 'type' | 'action' | 'timestamp' | 'params'>, ns: number, dbkey: string): string {
  const hash = crypto
    .createHash('sha1')
    .update(JSON.stringify([item.type, item.action, item.timestamp, ns, dbkey, item.params]))
    .digest('hex');
  return `import:${hash}`;
}

/** Attempts of one batch when the content service is unreachable. */
const RETRIES = 5;

/** UserNameUtils::getCanonical with RIGOR_USABLE fails for these: they are kept as they are. */
function usableName(name: string): boolean {
  return name !== '' && isIP(name) === 0 && !/[@:>#/|[\]{}<]/.test(name) && !/^\d+\.\d+\.\d+\.xxx$/i.test(name);
}

/**
 * Imports every page of a dump; `onBatch` sees each batch's results and the running totals (for
 * progress and the checkpoint). Throws the reader's DumpError as soon as the input is bad: pages
 * before it are in, the page it is in is not.
 */
export async function importDump(
  items: AsyncIterable<DumpItem> | Iterable<DumpItem>,
  deps: ImportDeps,
  opts: ImportDriverOptions,
  onBatch: (results: ImportPageResult[], progress: ImportProgress) => void | Promise<void> = () => {},
): Promise<ImportProgress> {
  const progress: ImportProgress = { pagesRead: 0, pagesImported: 0, revisionsImported: 0, revisionsSkipped: 0, invalid: 0, uploadsIgnored: 0, logItemsIgnored: 0, logItemsImported: 0, schema: '' };
  const maxPages = opts.batchPages ?? 100;
  const maxBytes = opts.batchBytes ?? 8 << 20;
  const known = new Map<string, number>();
  let batch: DumpPageIn[] = [];
  let bytes = 0;

  let logBatch: DumpLogItemIn[] = [];
  const contributorOf = (r: { contributor: DumpContributor }): { userId: number; userName: string } => {
    const c = r.contributor;
    if (c.ip) return { userId: 0, userName: c.ip };
    const name = c.username ?? '';
    // WikiImporter: a revision without a contributor is "Unknown user" of the source.
    if (name === '') return { userId: 0, userName: `${opts.usernamePrefix}>Unknown user` };
    if (!usableName(name)) return { userId: 0, userName: name };
    const local = known.get(name);
    if (opts.assignKnownUsers && local) return { userId: local, userName: name };
    return { userId: 0, userName: `${opts.usernamePrefix}>${name}`.slice(0, 255) };
  };

  /** Local accounts of the names (assignKnownUsers), looked up once. */
  const learnUsers = async (contributors: DumpContributor[]) => {
    if (!opts.assignKnownUsers) return;
    const names = new Set<string>();
    for (const c of contributors) if (c.username && usableName(c.username) && !known.has(c.username)) names.add(c.username);
    if (names.size) {
      const found = await deps.localUsers([...names]);
      for (const n of names) known.set(n, found.get(n) ?? 0);
    }
  };

  /** WikiImporter::processLogItem + WikiRevision::importLogItem: each item not logged yet, with its target; an invalid target is skipped. */
  const flushLogs = async () => {
    if (logBatch.length === 0) return;
    const items = logBatch;
    logBatch = [];
    const logs = deps.logs;
    if (!logs || opts.dryRun) {
      if (!logs) progress.logItemsIgnored += items.length;
      return;
    }
    await learnUsers(items.map((i) => i.contributor));
    const converted = items.map((item) => ({ item, params: logParamsFromDump(item.actionDeleted ? '' : item.params, item.type) }));
    const titles = new Set<string>();
    for (const { item, params } of converted) {
      if (item.logtitle) titles.add(item.logtitle);
      for (const t of params.titles) if (t.title) titles.add(t.title);
    }
    const resolved = titles.size ? await logs.resolveTitles([...titles]) : new Map<string, { ns: number; dbkey: string }>();
    const entries: ImportedLogEntry[] = [];
    for (const { item, params } of converted) {
      const target = resolved.get(item.logtitle);
      if (!target) {
        progress.invalid++;
        continue;
      }
      for (const t of params.titles) {
        const r = resolved.get(t.title);
        if (r) params.params[`${t.key}_ns`] = r.ns;
      }
      entries.push({
        origin: logItemOrigin(item, target.ns, target.dbkey),
        type: item.type,
        action: item.action,
        timestamp: item.timestamp,
        ...contributorOf(item),
        ns: target.ns,
        dbkey: target.dbkey,
        comment: item.commentDeleted ? '' : item.comment,
        paramsJson: JSON.stringify(params.params),
      });
    }
    if (entries.length) progress.logItemsImported += await logs.record(entries);
  };

  const flush = async () => {
    await flushLogs();
    if (batch.length === 0) return;
    const pages = batch;
    batch = [];
    bytes = 0;
    await learnUsers(pages.flatMap((p) => p.revisions.map((r) => r.contributor)));
    const revisionsOf = (p: DumpPageIn): ImportRevision[] =>
      p.revisions.map((r) => ({
        id: r.id,
        timestamp: r.timestamp,
        ...contributorOf(r),
        comment: r.commentDeleted ? '' : r.comment,
        minor: r.minor,
        model: r.model,
        format: r.format,
        text: r.text,
        deleted: (r.textDeleted ? 1 : 0) | (r.commentDeleted ? 2 : 0) | (r.contributor.deleted ? 4 : 0),
      }));
    const req = {
      pages: pages.map((p) => ({ title: p.title, ns: p.ns, pageId: p.id, revisions: revisionsOf(p) })),
      targetNamespace: opts.targetNamespace ?? -1,
      rootPage: opts.rootPage ?? '',
      log: opts.log,
      dryRun: opts.dryRun ?? false,
    };
    // A dropped connection (a service restarting, a connection aged out) is retried: a batch
    // that was in fact written is skipped the second time (its revisions are there already).
    let results: ImportPageResult[];
    for (let attempt = 1; ; attempt++) {
      try {
        results = (await deps.dumps.importPages(req)).pages;
        break;
      } catch (e) {
        if (attempt >= RETRIES || !(e instanceof ServiceError && e.grpcCode === GrpcStatus.UNAVAILABLE)) throw e;
        await sleep(250 * 2 ** attempt);
      }
    }
    for (const r of results) {
      if (r.invalid) progress.invalid++;
      else progress.pagesImported++;
      progress.revisionsImported += r.revisions;
      progress.revisionsSkipped += r.skipped;
    }
    await onBatch(results, progress);
  };

  try {
    await readAll();
  } catch (e) {
    // The pages read before the fault are complete: they go in, the faulty one does not.
    await flush();
    throw e;
  }
  await flush();
  return progress;

  async function readAll() {
    for await (const item of items) {
      if (item.kind === 'start') progress.schema = item.schema;
      else if (item.kind === 'logitem') {
        logBatch.push(item.item);
        if (logBatch.length >= LOG_BATCH) await flushLogs();
      } else if (item.kind === 'page') {
        progress.pagesRead++;
        const p = item.page;
        progress.uploadsIgnored += p.uploads;
        if (opts.skipTo && progress.pagesRead < opts.skipTo) continue;
        if (opts.namespaces && !opts.namespaces.has(p.ns)) continue;
        batch.push(p);
        for (const r of p.revisions) bytes += r.text.length;
        if (batch.length >= maxPages || bytes >= maxBytes) await flush();
      }
    }
  }
}

/** The log item sink of ImportDeps over the content service: titles by ResolvePages, entries by RecordLogEntries (log only, idempotent on the origin). */
export function contentLogSink(content: Pick<ContentClient, 'resolvePages' | 'recordLogEntries'>): NonNullable<ImportDeps['logs']> {
  return {
    async resolveTitles(titles) {
      const out = new Map<string, { ns: number; dbkey: string }>();
      for (let i = 0; i < titles.length; i += 500) {
        const asked = titles.slice(i, i + 500);
        const r = await content.resolvePages({ titles: asked });
        const byTitle = new Map(r.pages.filter((p) => !p.special || p.ns >= 0).map((p) => [p.title, p] as const));
        const normalized = new Map(r.normalized.map((n) => [n.from, n.to] as const));
        for (const t of asked) {
          const page = byTitle.get(normalized.get(t) ?? t);
          if (!page || page.ns < 0) continue;
          const colon = page.dbkey.indexOf(':');
          out.set(t, { ns: page.ns, dbkey: page.ns !== 0 && colon >= 0 ? page.dbkey.slice(colon + 1) : page.dbkey });
        }
      }
      return out;
    },
    async record(entries) {
      const r = await content.recordLogEntries({ entries: entries.map((e) => ({ ...e, bot: false, logOnly: true, tags: [] })) });
      return r.recorded;
    },
  };
}
