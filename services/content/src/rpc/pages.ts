import type {
  GetPageInfoDetailsRequest,
  GetPageInfoDetailsResponse,
  GetPageRequest,
  GetPageResponse,
  InvalidTitle,
  PageInfoDetails,
  ResolvePagesRequest,
  ResolvePagesResponse,
  TitleNormalization,
} from '@quire/proto/wiki/content/pages/v1/pages';
import type { PageRecord, TitleRedirect } from '@quire/proto/wiki/content/v1/common';
import { MalformedTitleError } from '../title/codec.js';
import { PageInfoStore, type PageRow, type TitleKey } from '../store/pages.js';
import type { ContentContext } from './context.js';
import { isoTimestamp, missingPageRecord, pageRecord, parsePageTitleOrThrow, revisionMessage } from './records.js';

const keyOf = (ns: number, dbkey: string) => `${ns}:${dbkey}`;

/** Page records for existing rows, with the redirect target of redirect pages filled in. */
export async function recordsFor(ctx: ContentContext, rows: PageRow[]): Promise<Map<number, PageRecord>> {
  const targets = new Map((await ctx.pages.redirectTargets(rows.filter((r) => r.isRedirect).map((r) => r.id))).map((t) => [t.from, t]));
  const out = new Map<number, PageRecord>();
  for (const row of rows) {
    const t = targets.get(row.id);
    out.set(row.id, pageRecord(ctx.codec, row, t ? ctx.codec.prefixedText(t.ns, t.dbkey) : ''));
  }
  return out;
}

/** An existing page, or the title of a missing or special one. */
type Resolved = { row: PageRow } | { ns: number; dbkey: string };

/**
 * ApiPageSet::resolvePendingRedirects: each redirect page is replaced by its target, round after
 * round, until no redirect is left; a page already followed is not followed again (loops end).
 */
async function followRedirects(ctx: ContentContext, start: Resolved[], out: TitleRedirect[]): Promise<Resolved[]> {
  const { codec } = ctx;
  let current = start;
  const followed = new Set<number>();
  for (;;) {
    const pending = new Map<number, PageRow>();
    for (const r of current) if ('row' in r && r.row.isRedirect && !followed.has(r.row.id)) pending.set(r.row.id, r.row);
    if (pending.size === 0) return current;
    const targets = new Map((await ctx.pages.redirectTargets([...pending.keys()])).map((t) => [t.from, t]));
    const targetRows = new Map((await ctx.pages.byTitles([...targets.values()].filter((t) => t.ns >= 0))).map((p) => [keyOf(p.ns, p.dbkey), p]));
    for (const p of pending.values()) {
      followed.add(p.id);
      const t = targets.get(p.id);
      if (t) out.push({ from: codec.prefixedText(p.ns, p.dbkey), to: codec.prefixedText(t.ns, t.dbkey), tofragment: t.fragment });
    }
    current = current.map((r) => {
      const t = 'row' in r && pending.has(r.row.id) ? targets.get(r.row.id) : undefined;
      if (!t) return r;
      const row = targetRows.get(keyOf(t.ns, t.dbkey));
      return row ? { row } : { ns: t.ns, dbkey: t.dbkey };
    });
  }
}

/**
 * ApiPageSet in a service: titles, page ids and revision ids become one ordered, duplicate-free
 * list of pages (existing, missing or special), with the normalizations, invalid titles, unknown
 * ids and — when asked — followed redirects that the action API reports.
 */
async function resolvePages(ctx: ContentContext, req: ResolvePagesRequest): Promise<ResolvePagesResponse> {
  const { codec } = ctx;
  const normalized: TitleNormalization[] = [];
  const invalid: InvalidTitle[] = [];
  const seenInput = new Set<string>();
  // Page slots in request order: a title key ("ns:dbkey") or an existing page id.
  const slots: ({ kind: 'title'; ns: number; dbkey: string } | { kind: 'id'; id: number })[] = [];
  const seenSlot = new Set<string>();
  const addSlot = (slot: (typeof slots)[number]) => {
    const key = slot.kind === 'title' ? `t${keyOf(slot.ns, slot.dbkey)}` : `i${slot.id}`;
    if (seenSlot.has(key)) return;
    seenSlot.add(key);
    slots.push(slot);
  };

  for (const text of req.titles) {
    if (seenInput.has(text)) continue;
    seenInput.add(text);
    let parsed;
    try {
      parsed = codec.parse(text);
    } catch (e) {
      if (!(e instanceof MalformedTitleError)) throw e;
      invalid.push({ title: text, reasonCode: e.code, reason: e.message });
      continue;
    }
    const prefixed = codec.prefixedText(parsed.ns, parsed.dbkey);
    if (prefixed !== text) normalized.push({ from: text, to: prefixed });
    // "#section" alone names no page.
    if (parsed.dbkey !== '') addSlot({ kind: 'title', ns: parsed.ns, dbkey: parsed.dbkey });
  }

  const titleSlots = slots.filter((s): s is { kind: 'title'; ns: number; dbkey: string } => s.kind === 'title' && s.ns >= 0);
  const byTitle = new Map((await ctx.pages.byTitles(titleSlots)).map((p) => [keyOf(p.ns, p.dbkey), p]));

  const requestedIds = [...new Set(req.pageIds)];
  const byId = new Map((await ctx.pages.byIds(requestedIds)).map((p) => [p.id, p]));
  const missingPageIds = requestedIds.filter((id) => !byId.has(id));
  for (const id of requestedIds) if (byId.has(id)) addSlot({ kind: 'id', id });

  const requestedRevs = [...new Set(req.revIds)];
  const revisions = await ctx.revisions.byIds(requestedRevs, false);
  const pageOfRev = new Map(revisions.map((r) => [r.id, r.pageId]));
  const badRevIds = requestedRevs.filter((id) => !pageOfRev.has(id));
  const revisionPages = requestedRevs.filter((id) => pageOfRev.has(id)).map((id) => ({ revId: id, pageId: pageOfRev.get(id)! }));
  const revPageIds = [...new Set(revisionPages.map((r) => r.pageId))].filter((id) => !byId.has(id));
  for (const p of await ctx.pages.byIds(revPageIds)) byId.set(p.id, p);
  for (const { pageId } of revisionPages) addSlot({ kind: 'id', id: pageId });

  // Resolve each slot to a row, or to a missing/special page.
  let resolved: Resolved[] = slots.map((s) => {
    if (s.kind === 'id') return { row: byId.get(s.id)! };
    const row = s.ns >= 0 ? byTitle.get(keyOf(s.ns, s.dbkey)) : undefined;
    return row ? { row } : { ns: s.ns, dbkey: s.dbkey };
  });

  const redirects: TitleRedirect[] = [];
  if (req.resolveRedirects) resolved = await followRedirects(ctx, resolved, redirects);

  const rows = resolved.flatMap((r) => ('row' in r ? [r.row] : []));
  const records = await recordsFor(ctx, rows);
  const seenPage = new Set<string>();
  const pages: PageRecord[] = [];
  for (const r of resolved) {
    const key = 'row' in r ? `i${r.row.id}` : `t${keyOf(r.ns, r.dbkey)}`;
    if (seenPage.has(key)) continue;
    seenPage.add(key);
    pages.push('row' in r ? records.get(r.row.id)! : missingPageRecord(codec, r.ns, r.dbkey));
  }
  return { normalized, redirects, invalid, pages, missingPageIds, badRevIds, revisionPages };
}

async function getPage(ctx: ContentContext, req: GetPageRequest): Promise<GetPageResponse> {
  const title = parsePageTitleOrThrow(ctx.codec, req.title);
  const cached = ctx.pageCache.get(title.ns, title.dbkey, req.withContent);
  if (cached) return cached;
  const readAt = ctx.pageCache.begin();
  const [row] = title.ns >= 0 ? await ctx.pages.byTitles([title]) : [];
  const res: GetPageResponse = row ? await existingPage(ctx, row, req.withContent) : { page: missingPageRecord(ctx.codec, title.ns, title.dbkey) };
  ctx.pageCache.set(title.ns, title.dbkey, req.withContent, res, readAt);
  return res;
}

async function existingPage(ctx: ContentContext, row: PageRow, withContent: boolean): Promise<GetPageResponse> {
  const [record] = (await recordsFor(ctx, [row])).values();
  const [latest] = await ctx.revisions.latestOf([row.id], withContent);
  return { page: record, ...(latest ? { latest: revisionMessage(latest) } : {}) };
}

/** What prop=info shows beyond the page rows: display titles and watchlist facts, per title. */
async function getPageInfoDetails(ctx: ContentContext, store: PageInfoStore, req: GetPageInfoDetailsRequest): Promise<GetPageInfoDetailsResponse> {
  const parsed = new Map<string, TitleKey>();
  for (const text of req.titles) {
    try {
      const t = ctx.codec.parse(text);
      if (t.dbkey !== '' && t.ns >= 0) parsed.set(text, { ns: t.ns, dbkey: t.dbkey });
    } catch (e) {
      if (!(e instanceof MalformedTitleError)) throw e;
    }
  }
  const unique = [...new Map([...parsed.values()].map((t) => [keyOf(t.ns, t.dbkey), t])).values()];
  const rows = req.displayTitles ? await ctx.pages.byTitles(unique) : [];
  const pageIdOf = new Map(rows.map((r) => [keyOf(r.ns, r.dbkey), r.id]));
  const [displayTitles, watched, watchers, visiting] = await Promise.all([
    store.displayTitles(rows.map((r) => r.id)),
    store.watchedBy(req.watchUserId, unique),
    req.watchers ? store.watcherCounts(unique) : [],
    req.visitingWatchers ? store.watcherCounts(unique, Math.max(0, req.watchersMaxAgeSeconds)) : [],
  ]);
  const watchedByKey = new Map(watched.map((w) => [keyOf(w.ns, w.dbkey), w]));
  const count = (counts: { ns: number; dbkey: string; count: number }[]) => new Map(counts.map((c) => [keyOf(c.ns, c.dbkey), c.count]));
  const watcherCount = count(watchers);
  const visitingCount = count(visiting);
  const pages: PageInfoDetails[] = [];
  for (const [title, t] of parsed) {
    const key = keyOf(t.ns, t.dbkey);
    const pageId = pageIdOf.get(key);
    const display = pageId === undefined ? undefined : displayTitles.get(pageId);
    const w = watchedByKey.get(key);
    pages.push({
      title,
      ...(display !== undefined ? { displayTitle: display } : {}),
      watched: w !== undefined,
      watchExpiry: w?.expiry ? isoTimestamp(w.expiry) : '',
      notificationTimestamp: w?.notificationTimestamp ? isoTimestamp(w.notificationTimestamp) : '',
      watchers: watcherCount.get(key) ?? 0,
      visitingWatchers: visitingCount.get(key) ?? 0,
    });
  }
  return { pages };
}

export function pageHandlers(ctx: ContentContext) {
  const info = new PageInfoStore(ctx.db);
  return {
    resolvePages: (req: ResolvePagesRequest) => resolvePages(ctx, req),
    getPage: (req: GetPageRequest) => getPage(ctx, req),
    getPageInfoDetails: (req: GetPageInfoDetailsRequest) => getPageInfoDetails(ctx, info, req),
  };
}
