/*
 * The rules of the whole-wiki lists above their SQL: MediaWiki's continuation values (read back
 * strictly, ApiBase::dieContinueUsageIf) and ApiQueryRandom's wrap-around from a random point.
 */
import { invalidArgument } from '@quire/kit';
import {
  ListStore,
  type AllLinkRow,
  type ForeignLinkTable,
  type CategoryRow,
  type LinkTableName,
  type ListedPageRow,
  type PageFilter,
  type ProtectedTitleRow,
  type RandomPageRow,
} from '../store/lists.js';
import type { Db } from '@quire/kit';

const BAD_CONTINUE = 'Invalid continue param. You should pass the original value returned by the previous query.';
const MAX_LIMIT = 5000;
/** ApiQueryContributors::MAX_PAGES: pages handled per request; the rest wait for the continuation. */
const CONTRIBUTOR_PAGES = 100;

function badContinue(): Error {
  return invalidArgument('badcontinue', BAD_CONTINUE);
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalidArgument('badvalue', `limit must be between 1 and ${MAX_LIMIT}.`);
}

/** The parts of a continuation value, which must be exactly `n`. */
function parts(value: string, n: number): string[] {
  const p = value.split('|');
  if (p.length !== n) throw badContinue();
  return p;
}

/** PHP's (int) of a continuation part (leading digits; anything else is 0). */
function phpInt(s: string): number {
  const m = /^\s*[+-]?\d+/.exec(s);
  return m ? Number(m[0]) : 0;
}

/** MediaWiki's TS_MW ("20261125143808") of a time. */
export function tsMw(d: Date): string {
  return d
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/[-:T]/g, '');
}

function fromTsMw(s: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) throw badContinue();
  return new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
}

/** wfRandom(): a random number in [0, 1) as MediaWiki writes it, twelve decimals. */
function wfRandom(): string {
  return Math.min(Math.random(), 0.999999999999).toFixed(12);
}

/** A page_random value in a continuation: its shortest exact decimal form, never an exponent. */
function randomText(r: number): string {
  const s = String(r);
  return /e/i.test(s) ? r.toFixed(20).replace(/0+$/, '') : s.includes('.') ? s : `${s}.0`;
}

export interface Listing<T> {
  rows: T[];
  /** Where the next batch starts, MediaWiki's format; "" when this was the last. */
  continue: string;
}

export class ListQueries {
  private readonly store: ListStore;

  constructor(db: Db) {
    this.store = new ListStore(db);
  }

  /** ApiQueryAllLinks: continuation "<title>|<from>", or "<title>" when unique. */
  async allLinks(
    table: LinkTableName,
    q: { namespace: number; from?: string; to?: string; prefix?: string; unique: boolean; descending: boolean; limit: number; continue: string },
  ): Promise<Listing<AllLinkRow>> {
    checkLimit(q.limit);
    let after: { dbkey: string; from?: number } | undefined;
    if (q.continue !== '') {
      const p = parts(q.continue, q.unique ? 1 : 2);
      after = q.unique ? { dbkey: p[0]! } : { dbkey: p[0]!, from: phpInt(p[1]!) };
    }
    // The continuation always overrides from.
    const r = await this.store.allLinks(table, { ...q, from: after ? undefined : q.from, after });
    const next = r.next && (q.unique ? r.next.dbkey : `${r.next.dbkey}|${r.next.from}`);
    return { rows: r.rows, continue: next ?? '' };
  }

  /** ApiQueryAllCategories: continuation "<name>". */
  async allCategories(q: { from?: string; to?: string; prefix?: string; min?: number; max?: number; descending: boolean; limit: number; continue: string }): Promise<Listing<CategoryRow>> {
    checkLimit(q.limit);
    const after = q.continue !== '' ? parts(q.continue, 1)[0] : undefined;
    const r = await this.store.allCategories({ ...q, after });
    return { rows: r.rows, continue: r.next?.name ?? '' };
  }

  /**
   * ApiQueryRandom::run: pages from a random point of page_random upwards, then — when they run
   * out — from 0 up to that point, so every page comes once. Continuation
   * "<rand>|<page_random>|<page_id>|<wrapped>".
   */
  async randomPages(q: { namespaces: number[]; redirects: number; limit: number; continue: string }): Promise<Listing<RandomPageRow> & { current: string }> {
    checkLimit(q.limit);
    let rand: string;
    let start: string;
    let startId = 0;
    let end: string | undefined;
    if (q.continue !== '') {
      const [r, s, id, wrapped] = parts(q.continue, 4) as [string, string, string, string];
      if (!/^0\.\d+$/.test(r) || !/^0\.\d+$/.test(s) || id !== String(phpInt(id)) || (wrapped !== '0' && wrapped !== '1')) throw badContinue();
      rand = r;
      start = s;
      startId = phpInt(id);
      end = wrapped === '1' ? r : undefined;
    } else {
      rand = wfRandom();
      start = rand;
    }
    const current = `${rand}|${start}|${startId}|${end === undefined ? 0 : 1}`;
    const first = await this.store.randomPages({ namespaces: q.namespaces, redirects: q.redirects, start: Number(start), startId, end: end === undefined ? undefined : Number(end), limit: q.limit });
    let rows = first.rows;
    let next = first.next;
    if (end === undefined && !next) {
      // Wrap around, even when the batch is full, as MediaWiki does.
      end = rand;
      const second = await this.store.randomPages({ namespaces: q.namespaces, redirects: q.redirects, end: Number(end), limit: q.limit - rows.length });
      rows = [...rows, ...second.rows];
      next = second.next;
    }
    const cont = next ? `${rand}|${randomText(next.random)}|${next.id}|${end === undefined ? 0 : 1}` : '';
    return { rows, continue: cont, current };
  }

  /** ApiQueryPagePropNames: continuation "<name>". */
  async pagePropNames(q: { limit: number; continue: string }): Promise<Listing<string>> {
    checkLimit(q.limit);
    const after = q.continue !== '' ? parts(q.continue, 1)[0] : undefined;
    const r = await this.store.pagePropNames({ after, limit: q.limit });
    return { rows: r.rows, continue: r.next ?? '' };
  }

  /** ApiQueryPagesWithProp: continuation "<page id>". */
  async pagesWithProp(q: { propname: string; descending: boolean; limit: number; continue: string }): Promise<Listing<ListedPageRow & { value: string }>> {
    checkLimit(q.limit);
    const afterId = q.continue !== '' ? phpInt(parts(q.continue, 1)[0]!) : undefined;
    const r = await this.store.pagesWithProp({ ...q, afterId });
    return { rows: r.rows, continue: r.next ? String(r.next.id) : '' };
  }

  /** ApiQueryProtectedTitles: continuation "<TS_MW>|<ns>|<title>". */
  async protectedTitles(q: { namespaces: number[]; levels: string[]; newer: boolean; start?: Date; end?: Date; limit: number; continue: string }): Promise<Listing<ProtectedTitleRow>> {
    checkLimit(q.limit);
    let after: { timestamp: Date; ns: number; dbkey: string } | undefined;
    if (q.continue !== '') {
      const [ts, ns, dbkey] = parts(q.continue, 3) as [string, string, string];
      if (String(phpInt(ns)) !== ns) throw badContinue();
      after = { timestamp: fromTsMw(ts), ns: phpInt(ns), dbkey };
    }
    const r = await this.store.protectedTitles({ ...q, after });
    const n = r.next;
    return { rows: r.rows, continue: n ? `${tsMw(n.timestamp)}|${n.ns}|${n.dbkey}` : '' };
  }

  /** ApiQueryAllPages with filters ListPages lacks: continuation is the next page's title. */
  async filteredPages(f: PageFilter): Promise<Listing<ListedPageRow>> {
    checkLimit(f.limit);
    const r = await this.store.filteredPages(f);
    return { rows: r.rows, continue: r.next?.dbkey ?? '' };
  }

  /**
   * ApiQueryLangBacklinks and ApiQueryIWBacklinks: continuation "<lang or prefix>|<title>|<page id>".
   */
  async foreignBacklinks(
    table: ForeignLinkTable,
    q: { prefix?: string; title?: string; descending: boolean; limit: number; continue: string },
  ): Promise<Listing<ListedPageRow & { prefix: string; title: string }>> {
    checkLimit(q.limit);
    let after: { prefix: string; title: string; from: number } | undefined;
    if (q.continue !== '') {
      const [prefix, title, from] = parts(q.continue, 3) as [string, string, string];
      after = { prefix, title, from: phpInt(from) };
    }
    const r = await this.store.foreignBacklinks(table, { ...q, after });
    const n = r.next;
    return { rows: r.rows, continue: n ? `${n.prefix}|${n.title}|${n.id}` : '' };
  }

  /** ApiQueryIWLinks: continuation "<page id>|<prefix>|<title>". */
  async interwikiLinks(q: {
    pageIds: number[];
    prefix?: string;
    title?: string;
    descending: boolean;
    limit: number;
    continue: string;
  }): Promise<Listing<{ from: number; prefix: string; title: string }>> {
    checkLimit(q.limit);
    let after: { from: number; prefix: string; title: string } | undefined;
    if (q.continue !== '') {
      const [from, prefix, title] = parts(q.continue, 3) as [string, string, string];
      after = { from: phpInt(from), prefix, title };
    }
    const r = await this.store.interwikiLinks({ ...q, after });
    const n = r.next;
    return { rows: r.rows, continue: n ? `${n.from}|${n.prefix}|${n.title}` : '' };
  }

  /**
   * ApiQueryContributors: the pages from the continuation's page on (at most 100, in id order),
   * their anonymous editors counted and registered ones listed; continuation "<page>|<actor>".
   */
  async contributors(q: { pageIds: number[]; users?: { ids: number[]; exclude: boolean }; limit: number; continue: string }): Promise<{
    anons: { page: number; count: number }[];
    users: { page: number; userId: number; name: string }[];
    continue: string;
  }> {
    checkLimit(q.limit);
    let after: { page: number; actor: number } | undefined;
    if (q.continue !== '') {
      const [page, actor] = parts(q.continue, 2) as [string, string];
      after = { page: phpInt(page), actor: phpInt(actor) };
    }
    let pages = [...new Set(q.pageIds)].filter((id) => !after || id >= after.page).sort((a, b) => a - b);
    if (!pages.length) return { anons: [], users: [], continue: '' };
    let continuePages = '';
    if (pages.length > CONTRIBUTOR_PAGES) {
      continuePages = `${pages[CONTRIBUTOR_PAGES]}|0`;
      pages = pages.slice(0, CONTRIBUTOR_PAGES);
    }
    const anons = await this.store.anonContributors(pages);
    const r = await this.store.userContributors({ pageIds: pages, users: q.users, after, limit: q.limit });
    return { anons, users: r.rows, continue: r.next ? `${r.next.page}|${r.next.actor}` : continuePages };
  }
}
