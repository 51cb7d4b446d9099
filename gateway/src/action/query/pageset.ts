/*
 * The page set of action=query (MediaWiki's ApiPageSet + ApiQuery::outputGeneralPageInfo).
 * The content service resolves titles / page ids / revision ids; this file turns its answer
 * into MediaWiki's result: `normalized`, `redirects`, `badrevids`, `pageids` and `pages`
 * (with MediaWiki's negative ids for missing, invalid and special titles).
 */
import { parseSpecialTitle } from '../../pages/paths.js';
import type { PageRecord, ResolvePagesResponse } from '../../clients/types.js';
import { META, setIndexedTagName, type ResultObject } from '../types.js';
import { cleanUpText, isCleanText, rawurlencode } from './encoding.js';

export type PageSetSource = 'titles' | 'pageids' | 'revids' | 'none';

export interface PageSetInput {
  source: PageSetSource;
  /** Titles as the content service receives them (cleaned up, NFC). */
  titles: readonly string[];
  /**
   * The titles as the client sent them, split but neither cleaned up nor deduplicated, when
   * known: those the input cleanup changed get `normalized` entries (`fromencoded`).
   */
  rawTitles?: readonly string[];
  resolveRedirects: boolean;
}

export interface NormalizedTitle {
  fromencoded: boolean;
  from: string;
  to: string;
}

export interface PageSet {
  source: PageSetSource;
  resolvingRedirects: boolean;
  normalized: NormalizedTitle[];
  redirects: ResultObject[];
  badRevIds: number[];
  /** Existing pages; their result key is the page id. */
  good: PageRecord[];
  /** Missing titles with their fake (negative) ids. */
  missing: { id: number; page: PageRecord }[];
  invalid: { id: number; title: string; reason: string }[];
  special: { id: number; page: PageRecord }[];
  missingPageIds: number[];
  /** Good revision ids (revids source) → page id. */
  revisionPages: Map<number, number>;
  /** Archived revision ids of the revids source (for callers with deletedhistory) → their page entry id. */
  deletedRevisionPages?: ReadonlyMap<number, number>;
  /** Titles of other wikis (an interwiki prefix): no page of this one (ApiPageSet's interwiki titles). */
  interwiki?: { title: string; iw: string; url?: string }[];
}

export const EMPTY_PAGE_SET: PageSet = {
  source: 'none',
  resolvingRedirects: false,
  normalized: [],
  redirects: [],
  badRevIds: [],
  good: [],
  missing: [],
  invalid: [],
  special: [],
  missingPageIds: [],
  revisionPages: new Map(),
};

function normalization(from: string, to: string): NormalizedTitle {
  const encode = !isCleanText(from);
  return { fromencoded: encode, from: encode ? rawurlencode(from) : from, to };
}

/**
 * Builds the page set from the content service's answer. Fake ids follow ApiPageSet: invalid
 * titles first, then special pages (both in request order), then missing titles grouped by
 * namespace in order of first appearance, requested titles before redirect targets.
 */
export function buildPageSet(resp: ResolvePagesResponse, input: PageSetInput): PageSet {
  const normalized: NormalizedTitle[] = [];
  const seenFrom = new Set<string>();
  const addNormalization = (n: NormalizedTitle) => {
    if (seenFrom.has(n.from)) return;
    seenFrom.add(n.from);
    normalized.push(n);
  };
  // Input cleanup (ApiPageSet::handleParamNormalization) comes before title normalization.
  for (const raw of input.rawTitles ?? []) {
    const clean = cleanUpText(raw);
    if (raw !== clean) addNormalization(normalization(raw, clean));
  }
  for (const n of resp.normalized) addNormalization(normalization(n.from, n.to));

  const normalizedTo = new Map(resp.normalized.map((n) => [n.from, n.to]));
  let nextFakeId = -1;

  const invalidByTitle = new Map(resp.invalid.map((t) => [t.title, t]));
  const invalid: PageSet['invalid'] = [];
  const invalidDone = new Set<string>();
  const takeInvalid = (title: string) => {
    const t = invalidByTitle.get(title);
    if (!t || invalidDone.has(title)) return;
    invalidDone.add(title);
    invalid.push({ id: nextFakeId--, title: t.title, reason: t.reason });
  };
  input.titles.forEach(takeInvalid);
  for (const t of resp.invalid) takeInvalid(t.title);

  const specialPages = resp.pages.filter((p) => p.special);
  const special: PageSet['special'] = [];
  const specialDone = new Set<string>();
  const takeSpecial = (page: PageRecord | undefined) => {
    if (!page || specialDone.has(page.title)) return;
    specialDone.add(page.title);
    special.push({ id: nextFakeId--, page });
  };
  for (const t of input.titles) {
    const target = normalizedTo.get(t) ?? t;
    takeSpecial(specialPages.find((p) => p.title === target));
  }
  specialPages.forEach(takeSpecial);

  const requested = new Set(input.titles.map((t) => normalizedTo.get(t) ?? t));
  const missingPages = resp.pages.filter((p) => !p.special && (p.missing || p.id === 0));
  const missing: PageSet['missing'] = [];
  const missingDone = new Set<string>();
  const takeMissingByNamespace = (pages: PageRecord[]) => {
    const namespaces = [...new Set(pages.map((p) => p.ns))];
    for (const ns of namespaces) {
      for (const page of pages) {
        if (page.ns !== ns || missingDone.has(page.title)) continue;
        missingDone.add(page.title);
        missing.push({ id: nextFakeId--, page });
      }
    }
  };
  takeMissingByNamespace(missingPages.filter((p) => requested.has(p.title)));
  takeMissingByNamespace(missingPages.filter((p) => !requested.has(p.title)));

  const goodById = new Map<number, PageRecord>();
  for (const p of resp.pages) if (!p.special && !p.missing && p.id > 0) goodById.set(p.id, p);

  const redirects = resp.redirects.map((r) => {
    const out: ResultObject = { from: r.from, to: r.to };
    if (r.tofragment) out.tofragment = r.tofragment;
    return out;
  });

  return {
    source: input.source,
    // ApiPageSet turns redirect resolution off for revids.
    resolvingRedirects: input.resolveRedirects && input.source !== 'revids',
    normalized,
    redirects,
    badRevIds: [...resp.badRevIds],
    good: [...goodById.values()],
    missing,
    invalid,
    special,
    missingPageIds: [...resp.missingPageIds],
    revisionPages: new Map(resp.revisionPages.map((r) => [r.revId, r.pageId])),
  };
}

/**
 * MediaWikiTitleCodec::splitTitleString's interwiki case: a title whose prefix is no namespace but
 * an interwiki prefix names a page of another wiki, as `<prefix>:<rest>` (prefix lower-cased, the
 * rest's case kept). Undefined for a title of this wiki.
 */
export function interwikiTitle(title: string, interwikiPrefixes: ReadonlySet<string>, isNamespace: (name: string) => boolean): { title: string; iw: string } | undefined {
  const i = title.indexOf(':');
  if (i <= 0) return undefined;
  const prefix = title.slice(0, i).replace(/_/g, ' ').trim();
  if (isNamespace(prefix)) return undefined;
  const iw = prefix.toLowerCase().replace(/ /g, '_');
  if (!interwikiPrefixes.has(iw)) return undefined;
  return {
    title: `${iw}:${title
      .slice(i + 1)
      .replace(/_/g, ' ')
      .trim()}`,
    iw,
  };
}

/** ApiQueryBase::addTitleInfo. */
function titleInfo(page: PageRecord): ResultObject {
  return { ns: page.ns, title: page.title };
}

export interface PageSetOutput {
  /** Keys to put into `query`, in MediaWiki's order; absent keys are omitted. */
  query: ResultObject;
  /** The page entries by (fake) id, shared with `query.pages` so prop modules can add to them. */
  pages: Map<number, ResultObject>;
}

/** ApiQuery::outputGeneralPageInfo. */
export function pageSetOutput(ps: PageSet, opts: { indexPageIds: boolean }): PageSetOutput {
  const query: ResultObject = {};
  if (ps.normalized.length)
    query.normalized = setIndexedTagName(
      ps.normalized.map((n) => ({ ...n })),
      'n',
    );
  if (ps.interwiki?.length)
    query.interwiki = setIndexedTagName(
      ps.interwiki.map((t) => ({ ...t })),
      'i',
    );
  if (ps.redirects.length)
    query.redirects = setIndexedTagName(
      ps.redirects.map((r) => ({ ...r })),
      'r',
    );
  if (ps.badRevIds.length) {
    query.badrevids = new Map<number | string, unknown>([...ps.badRevIds.map((revid): [number, ResultObject] => [revid, { revid, missing: true }]), [META.INDEXED_TAG_NAME, 'rev']]);
  }

  // Insertion order is MediaWiki's; it is what `pageids` lists.
  const entries: [number, ResultObject][] = [];
  for (const { id, page } of ps.missing) entries.push([id, { ...titleInfo(page), missing: true }]);
  for (const { id, title, reason } of ps.invalid) entries.push([id, { title, invalidreason: reason, invalid: true }]);
  for (const pageid of ps.missingPageIds) entries.push([pageid, { pageid, missing: true }]);
  for (const { id, page } of ps.special) {
    const vals: ResultObject = { ...titleInfo(page), special: true };
    // ApiPageSet::outputPageSet: a special page that exists is known (Title::isKnown), not missing.
    const knownSpecial = (page.ns === -1 && parseSpecialTitle(page.title)?.known === true) || (page.ns === -2 && !page.missing);
    if (page.missing && !knownSpecial) vals.missing = true;
    entries.push([id, vals]);
  }
  for (const page of ps.good) entries.push([page.id, { pageid: page.id, ...titleInfo(page) }]);

  const pages = new Map(entries);
  if (entries.length) {
    if (opts.indexPageIds)
      query.pageids = setIndexedTagName(
        entries.map(([id]) => String(id)),
        'id',
      );
    // A Map keeps MediaWiki's key order. fv1: an object keyed by page id; fv2: a list sorted by key.
    query.pages = new Map<number | string, unknown>([...entries, [META.TYPE, 'BCarray'], [META.INDEXED_TAG_NAME, 'page']]);
  }
  return { query, pages };
}

/** Adds `value` to the list `key` of a page entry (ApiQueryBase::addPageSubItem). */
export function addPageSubItem(pages: Map<number, ResultObject>, pageId: number, key: string, tag: string, value: ResultObject): void {
  const entry = pages.get(pageId);
  if (!entry) return;
  let list = entry[key] as ResultObject[] | undefined;
  if (!list) {
    list = setIndexedTagName([] as ResultObject[], tag);
    entry[key] = list;
  }
  list.push(value);
}
