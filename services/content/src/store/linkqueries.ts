/*
 * Reads of the link tables (MediaWiki's ApiQueryLinks, ApiQueryCategories, ApiQueryLangLinks,
 * ApiQueryImages, ApiQueryExternalLinks, ApiQueryBacklinks, ApiQueryCategoryMembers,
 * ApiQueryExtLinksUsage, ApiQueryPageProps, ApiQueryCategoryInfo). Every list is read in keyset
 * order with one row more than asked for: that row is where the continuation starts. Titles
 * compare as bytes (COLLATE "C"), as MediaWiki's varbinary columns do; an equality on an indexed
 * title column says COLLATE "C" too, as the index does, or the planner cannot use it (a category's
 * members were a scan of all categorylinks).
 */
import type { Db } from '@quire/kit';
import { NS_CATEGORY, NS_FILE } from '../title/namespaces.js';
import { findPage } from './pages.js';

/** Collects positional parameters for one statement. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

export interface TitleKey {
  ns: number;
  dbkey: string;
}

/** A keyset bound: the row tuple compared with `op` to the given values (a row comparison in SQL). */
function rowBound(columns: string[], values: string[], descending: boolean, strict = false): string {
  const op = descending ? (strict ? '<' : '<=') : strict ? '>' : '>=';
  return `(${columns.join(', ')}) ${op} (${values.join(', ')})`;
}

function order(columns: string[], descending: boolean): string {
  return columns.map((c) => `${c}${descending ? ' DESC' : ''}`).join(', ');
}

/**
 * The sort key of an external link: protocol-relative links sort (and are filtered) as their
 * http form, as MediaWiki's el_index_60 lists them under http.
 */
const EL_KEY = `(CASE WHEN el_to LIKE '//%' THEN 'http:' || el_to ELSE el_to END)`;

export interface ExternalLinkFilter {
  /** e.g. "https://"; undefined: every protocol. */
  protocol?: string;
  /** Host and path pattern as LinkFilter takes it: "example.com/x", "*.example.com". */
  query?: string;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * LinkFilter::getQueryConditions as a regular expression on the link: the host exactly (or any
 * subdomain with a leading "*."), case-insensitively, then the path as a prefix.
 */
export function externalLinkPattern(protocol: string, query: string): string {
  let rest = query;
  const slash = rest.search(/[/?#]/);
  let host = slash < 0 ? rest : rest.slice(0, slash);
  rest = slash < 0 ? '' : rest.slice(slash);
  let sub = '';
  if (host.startsWith('*.')) {
    host = host.slice(2);
    sub = '(?:[^/?#@:]+\\.)?';
  }
  const proto = protocol === 'http://' || protocol === 'https://' ? `(?:${escapeRegex(protocol)}|//)` : escapeRegex(protocol);
  const hostRe = host
    .split('')
    .map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegex(c)))
    .join('');
  return `^${proto}(?:[^/?#@]*@)?${sub}${hostRe}(?::\\d+)?${rest ? escapeRegex(rest) : '(?:[/?#]|$)'}`;
}

/**
 * The longest host (DNS: 253) and rest of a searched URL that become a regular expression: the
 * 100k fuzz run found a hostile euquery whose expression kept the embedded database busy for a
 * minute. No link can have a longer host; a longer path is not searchable.
 */
export const MAX_SEARCHED_HOST = 253;
export const MAX_SEARCHED_REST = 2048;

/** Whether a searched URL is within the bounds above. */
export function searchableUrl(query: string): boolean {
  const slash = query.search(/[/?#]/);
  const host = slash < 0 ? query : query.slice(0, slash);
  return host.length <= MAX_SEARCHED_HOST + 2 && query.length - host.length <= MAX_SEARCHED_REST;
}

function externalLinkConditions(f: ExternalLinkFilter, p: Params): string[] {
  if (f.query) return searchableUrl(f.query) ? [`el_to ~ ${p.add(externalLinkPattern(f.protocol ?? 'http://', f.query))}`] : ['FALSE'];
  if (f.protocol) return [`${EL_KEY} LIKE ${p.add(`${f.protocol.replace(/[\\%_]/g, '\\$&')}%`)}`];
  return [];
}

/** MediaWiki escapes `%` and `|` in multi-part continuation values of external links. */
export function encodeContinuePart(v: string | number): string {
  return String(v).replace(/%/g, '%25').replace(/\|/g, '%7C');
}

export interface OutgoingLinkRow {
  from: number;
  ns: number;
  dbkey: string;
}

export interface CategoryLinkRow {
  from: number;
  category: string;
  sortkey: string;
  sortkeyPrefix: string;
  timestamp: Date;
  hidden: boolean;
}

export interface LangLinkRow {
  from: number;
  lang: string;
  title: string;
}

export interface ExternalLinkRow {
  from: number;
  url: string;
  key: string;
  id: number;
}

export interface LinkingPageRow {
  id: number;
  ns: number;
  dbkey: string;
  redirect: boolean;
  /** For pages found through a redirect: the redirect's title (the link target). */
  viaNs?: number;
  viaDbkey?: string;
}

export interface CategoryMemberRow {
  id: number;
  ns: number;
  dbkey: string;
  sortkey: string;
  sortkeyPrefix: string;
  type: string;
  timestamp: Date;
}

export interface CategoryCounts {
  name: string;
  pages: number;
  subcats: number;
  files: number;
  hidden: boolean;
}

/** One page of a keyset-ordered list: the rows, and the row after them when there is one. */
export interface Slice<T> {
  rows: T[];
  next?: T;
}

function slice<T>(rows: T[], limit: number): Slice<T> {
  return rows.length > limit ? { rows: rows.slice(0, limit), next: rows[limit] } : { rows };
}

export const CATEGORY_TYPES = ['page', 'subcat', 'file'] as const;

export class LinkQueryStore {
  constructor(private readonly db: Db) {}

  private get s(): string {
    return this.db.schema;
  }

  /**
   * pagelinks / templatelinks of pages (ApiQueryLinks), ordered by (from, ns, title).
   * `after` is the row the continuation names (included).
   */
  async outgoingLinks(
    table: 'pagelinks' | 'templatelinks',
    q: { pageIds: number[]; namespaces: number[]; targets?: TitleKey[]; after?: OutgoingLinkRow; descending: boolean; limit: number },
  ): Promise<Slice<OutgoingLinkRow>> {
    const pre = table === 'pagelinks' ? 'pl' : 'tl';
    const p = new Params();
    const conds = [`${pre}_from = ANY(${p.add(q.pageIds)}::bigint[])`];
    if (q.targets) {
      conds.push(`(${pre}_namespace, ${pre}_title) IN (SELECT * FROM unnest(${p.add(q.targets.map((t) => t.ns))}::int[], ${p.add(q.targets.map((t) => t.dbkey))}::text[]))`);
    } else if (q.namespaces.length) {
      conds.push(`${pre}_namespace = ANY(${p.add(q.namespaces)}::int[])`);
    }
    const cols = [`${pre}_from`, `${pre}_namespace`, `${pre}_title COLLATE "C"`];
    if (q.after) conds.push(rowBound(cols, [p.add(q.after.from), p.add(q.after.ns), p.add(q.after.dbkey)], q.descending));
    const r = await this.db.query<{ f: number; ns: number; t: string }>(
      `SELECT ${pre}_from AS f, ${pre}_namespace AS ns, ${pre}_title AS t FROM ${this.s}.${table}
       WHERE ${conds.join(' AND ')} ORDER BY ${order(cols, q.descending)} LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return slice(
      r.rows.map((x) => ({ from: x.f, ns: x.ns, dbkey: x.t })),
      q.limit,
    );
  }

  /** imagelinks of pages (ApiQueryImages), ordered by (from, file name). */
  async images(q: { pageIds: number[]; targets?: string[]; after?: { from: number; name: string }; descending: boolean; limit: number }): Promise<Slice<{ from: number; name: string }>> {
    const p = new Params();
    const conds = [`il_from = ANY(${p.add(q.pageIds)}::bigint[])`];
    if (q.targets) conds.push(`il_to = ANY(${p.add(q.targets)}::text[])`);
    const cols = ['il_from', 'il_to COLLATE "C"'];
    if (q.after) conds.push(rowBound(cols, [p.add(q.after.from), p.add(q.after.name)], q.descending));
    const r = await this.db.query<{ f: number; t: string }>(
      `SELECT il_from AS f, il_to AS t FROM ${this.s}.imagelinks WHERE ${conds.join(' AND ')} ORDER BY ${order(cols, q.descending)} LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return slice(
      r.rows.map((x) => ({ from: x.f, name: x.t })),
      q.limit,
    );
  }

  private hiddenExpr(categoryColumn: string): string {
    return `EXISTS (SELECT 1 FROM ${this.s}.page hp JOIN ${this.s}.page_props hpp ON hpp.pp_page = hp.page_id AND hpp.pp_propname = 'hiddencat'
      WHERE hp.page_namespace = ${NS_CATEGORY} AND hp.page_title = ${categoryColumn})`;
  }

  /** categorylinks of pages (ApiQueryCategories), ordered by (from, category). */
  async categories(q: { pageIds: number[]; targets?: string[]; hidden?: boolean; after?: { from: number; category: string }; descending: boolean; limit: number }): Promise<Slice<CategoryLinkRow>> {
    const p = new Params();
    const conds = [`cl_from = ANY(${p.add(q.pageIds)}::bigint[])`];
    if (q.targets) conds.push(`cl_to = ANY(${p.add(q.targets)}::text[])`);
    const hidden = this.hiddenExpr('cl_to');
    if (q.hidden !== undefined) conds.push(q.hidden ? hidden : `NOT ${hidden}`);
    const cols = ['cl_from', 'cl_to COLLATE "C"'];
    if (q.after) conds.push(rowBound(cols, [p.add(q.after.from), p.add(q.after.category)], q.descending));
    const r = await this.db.query<{ f: number; t: string; k: string; kp: string; ts: Date; h: boolean }>(
      `SELECT cl_from AS f, cl_to AS t, cl_sortkey AS k, cl_sortkey_prefix AS kp, cl_timestamp AS ts, ${hidden} AS h
       FROM ${this.s}.categorylinks WHERE ${conds.join(' AND ')} ORDER BY ${order(cols, q.descending)} LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return slice(
      r.rows.map((x) => ({ from: x.f, category: x.t, sortkey: x.k, sortkeyPrefix: x.kp, timestamp: x.ts, hidden: x.h })),
      q.limit,
    );
  }

  /** langlinks of pages (ApiQueryLangLinks), ordered by (from, language). */
  async langLinks(q: { pageIds: number[]; lang?: string; title?: string; after?: { from: number; lang: string }; descending: boolean; limit: number }): Promise<Slice<LangLinkRow>> {
    const p = new Params();
    const conds = [`ll_from = ANY(${p.add(q.pageIds)}::bigint[])`];
    if (q.lang !== undefined) conds.push(`ll_lang = ${p.add(q.lang)}`);
    if (q.title !== undefined) conds.push(`ll_title = ${p.add(q.title)}`);
    const cols = ['ll_from', 'll_lang COLLATE "C"'];
    if (q.after) conds.push(rowBound(cols, [p.add(q.after.from), p.add(q.after.lang)], q.descending));
    const r = await this.db.query<{ f: number; l: string; t: string }>(
      `SELECT ll_from AS f, ll_lang AS l, ll_title AS t FROM ${this.s}.langlinks WHERE ${conds.join(' AND ')} ORDER BY ${order(cols, q.descending)} LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return slice(
      r.rows.map((x) => ({ from: x.f, lang: x.l, title: x.t })),
      q.limit,
    );
  }

  /**
   * externallinks of pages (ApiQueryExternalLinks), ordered by (from, link key, id); with one
   * page the order is the same without `from`, and so is the continuation MediaWiki gives.
   */
  async externalLinks(q: { pageIds: number[]; filter: ExternalLinkFilter; after?: { from: number; key: string; id: number }; limit: number }): Promise<Slice<ExternalLinkRow>> {
    const p = new Params();
    const conds = [`el_from = ANY(${p.add(q.pageIds)}::bigint[])`, ...externalLinkConditions(q.filter, p)];
    const cols = ['el_from', `${EL_KEY} COLLATE "C"`, 'el_id'];
    if (q.after) conds.push(rowBound(cols, [p.add(q.after.from), p.add(q.after.key), p.add(q.after.id)], false));
    const r = await this.db.query<{ f: number; u: string; k: string; id: number }>(
      `SELECT el_from AS f, el_to AS u, ${EL_KEY} AS k, el_id AS id FROM ${this.s}.externallinks WHERE ${conds.join(' AND ')}
       ORDER BY ${order(cols, false)} LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return slice(
      r.rows.map((x) => ({ from: x.f, url: x.u, key: x.k, id: x.id })),
      q.limit,
    );
  }

  /** Pages with external links (ApiQueryExtLinksUsage), ordered by (link key, id). */
  async externalLinkUsage(q: {
    filter: ExternalLinkFilter;
    namespaces: number[];
    after?: { key: string; id: number };
    limit: number;
  }): Promise<Slice<ExternalLinkRow & { ns: number; dbkey: string }>> {
    const p = new Params();
    const conds = ['page_id = el_from', ...externalLinkConditions(q.filter, p)];
    if (q.namespaces.length) conds.push(`page_namespace = ANY(${p.add(q.namespaces)}::int[])`);
    const cols = [`${EL_KEY} COLLATE "C"`, 'el_id'];
    if (q.after) conds.push(rowBound(cols, [p.add(q.after.key), p.add(q.after.id)], false));
    const r = await this.db.query<{ f: number; u: string; k: string; id: number; ns: number; t: string }>(
      `SELECT el_from AS f, el_to AS u, ${EL_KEY} AS k, el_id AS id, page_namespace AS ns, page_title AS t
       FROM ${this.s}.externallinks, ${this.s}.page WHERE ${conds.join(' AND ')} ORDER BY ${order(cols, false)} LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return slice(
      r.rows.map((x) => ({ from: x.f, url: x.u, key: x.k, id: x.id, ns: x.ns, dbkey: x.t })),
      q.limit,
    );
  }

  /**
   * Pages linking to targets (ApiQueryBacklinks' two queries). Ordered by target (when several),
   * the linking page's namespace (when several namespaces are asked for) and its id.
   */
  async linkingPages(
    table: 'pagelinks' | 'templatelinks' | 'imagelinks',
    q: {
      targets: TitleKey[];
      namespaces: number[];
      redirects?: 'only' | 'none';
      after?: { ns: number; dbkey: string; fromNs: number; from: number };
      descending: boolean;
      limit: number;
    },
  ): Promise<Slice<LinkingPageRow>> {
    const pre = { pagelinks: 'pl', templatelinks: 'tl', imagelinks: 'il' }[table];
    const p = new Params();
    const nsCol = table === 'imagelinks' ? `${NS_FILE}` : `${pre}_namespace`;
    const titleCol = table === 'imagelinks' ? 'il_to' : `${pre}_title`;
    const conds = [`${pre}_from = page_id`];
    conds.push(`(${nsCol}, ${titleCol}) IN (SELECT * FROM unnest(${p.add(q.targets.map((t) => t.ns))}::int[], ${p.add(q.targets.map((t) => t.dbkey))}::text[]))`);
    if (q.namespaces.length) conds.push(`page_namespace = ANY(${p.add(q.namespaces)}::int[])`);
    if (q.redirects) conds.push(q.redirects === 'only' ? 'page_is_redirect' : 'NOT page_is_redirect');
    const multiNs = q.namespaces.length > 1;
    const cols = [nsCol, `${titleCol} COLLATE "C"`, ...(multiNs ? ['page_namespace'] : []), 'page_id'];
    if (q.after) {
      const a = q.after;
      conds.push(rowBound(cols, [p.add(a.ns), p.add(a.dbkey), ...(multiNs ? [p.add(a.fromNs)] : []), p.add(a.from)], q.descending));
    }
    const r = await this.db.query<{ id: number; ns: number; t: string; r: boolean; vns: number; vt: string }>(
      `SELECT page_id AS id, page_namespace AS ns, page_title AS t, page_is_redirect AS r, ${nsCol} AS vns, ${titleCol} AS vt
       FROM ${this.s}.${table}, ${this.s}.page WHERE ${conds.join(' AND ')} ORDER BY ${order(cols, q.descending)} LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return slice(
      r.rows.map((x) => ({ id: x.id, ns: x.ns, dbkey: x.t, redirect: x.r, viaNs: x.vns, viaDbkey: x.vt })),
      q.limit,
    );
  }

  /**
   * Local redirects to targets (ApiQueryBacklinksprop for prop=redirects), ordered by target (when
   * several) and redirect page id; `fragment` filters on rd_fragment.
   */
  async redirectsTo(q: {
    targets: TitleKey[];
    namespaces: number[];
    fragment?: 'with' | 'without';
    after?: { ns: number; dbkey: string; from: number };
    limit: number;
  }): Promise<Slice<LinkingPageRow & { fragment: string }>> {
    const p = new Params();
    const conds = ['rd_from = page_id', "rd_interwiki = ''"];
    conds.push(`(rd_namespace, rd_title) IN (SELECT * FROM unnest(${p.add(q.targets.map((t) => t.ns))}::int[], ${p.add(q.targets.map((t) => t.dbkey))}::text[]))`);
    if (q.namespaces.length) conds.push(`page_namespace = ANY(${p.add(q.namespaces)}::int[])`);
    if (q.fragment) conds.push(q.fragment === 'with' ? "rd_fragment <> ''" : "rd_fragment = ''");
    const cols = ['rd_namespace', 'rd_title COLLATE "C"', 'rd_from'];
    if (q.after) conds.push(rowBound(cols, [p.add(q.after.ns), p.add(q.after.dbkey), p.add(q.after.from)], false));
    const r = await this.db.query<{ id: number; ns: number; t: string; r: boolean; vns: number; vt: string; f: string }>(
      `SELECT page_id AS id, page_namespace AS ns, page_title AS t, page_is_redirect AS r, rd_namespace AS vns, rd_title AS vt, rd_fragment AS f
       FROM ${this.s}.redirect, ${this.s}.page WHERE ${conds.join(' AND ')} ORDER BY ${order(cols, false)} LIMIT ${p.add(q.limit + 1)}`,
      p.values,
    );
    return slice(
      r.rows.map((x) => ({ id: x.id, ns: x.ns, dbkey: x.t, redirect: x.r, viaNs: x.vns, viaDbkey: x.vt, fragment: x.f })),
      q.limit,
    );
  }

  /** A page by id (a list's root given as a page id). */
  async pageById(id: number): Promise<TitleKey | undefined> {
    const row = await findPage(this.db, this.s, { id });
    return row ? { ns: row.ns, dbkey: row.dbkey } : undefined;
  }

  /** Members of one type of a category by sort key (ApiQueryCategoryMembers, cmsort=sortkey). */
  async membersBySortkey(q: {
    category: string;
    type: string;
    namespaces: number[];
    start?: string;
    end?: string;
    after?: { sortkey: string; from: number };
    descending: boolean;
    limit: number;
  }): Promise<CategoryMemberRow[]> {
    const p = new Params();
    const conds = ['cl_from = page_id', `cl_to COLLATE "C" = ${p.add(q.category)}`, `cl_type = ${p.add(q.type)}`];
    if (q.namespaces.length) conds.push(`page_namespace = ANY(${p.add(q.namespaces)}::int[])`);
    const key = 'cl_sortkey COLLATE "C"';
    // addWhereRange: the start bound is the lower one when ascending.
    const [low, high] = q.descending ? [q.end, q.start] : [q.start, q.end];
    if (low !== undefined) conds.push(`${key} >= ${p.add(low)}`);
    if (high !== undefined) conds.push(`${key} <= ${p.add(high)}`);
    if (q.after) conds.push(rowBound([key, 'cl_from'], [p.add(q.after.sortkey), p.add(q.after.from)], q.descending));
    return this.members(conds, [key, 'cl_from'], q.descending, q.limit, p);
  }

  /** Members of a category by the time they were added (cmsort=timestamp), to the second. */
  async membersByTimestamp(q: {
    category: string;
    types: string[];
    namespaces: number[];
    start?: string;
    end?: string;
    after?: { timestamp: string; from: number };
    descending: boolean;
    limit: number;
  }): Promise<CategoryMemberRow[]> {
    const p = new Params();
    const conds = ['cl_from = page_id', `cl_to COLLATE "C" = ${p.add(q.category)}`, `cl_type = ANY(${p.add(q.types)}::text[])`];
    if (q.namespaces.length) conds.push(`page_namespace = ANY(${p.add(q.namespaces)}::int[])`);
    const ts = "date_trunc('second', cl_timestamp)";
    const [low, high] = q.descending ? [q.end, q.start] : [q.start, q.end];
    if (low !== undefined) conds.push(`${ts} >= ${p.add(low)}::timestamptz`);
    if (high !== undefined) conds.push(`${ts} <= ${p.add(high)}::timestamptz`);
    if (q.after) conds.push(rowBound([ts, 'cl_from'], [`${p.add(q.after.timestamp)}::timestamptz`, p.add(q.after.from)], q.descending));
    return this.members(conds, [ts, 'cl_from'], q.descending, q.limit, p);
  }

  private async members(conds: string[], cols: string[], descending: boolean, limit: number, p: Params): Promise<CategoryMemberRow[]> {
    const r = await this.db.query<{ id: number; ns: number; t: string; k: string; kp: string; ty: string; ts: Date }>(
      `SELECT page_id AS id, page_namespace AS ns, page_title AS t, cl_sortkey AS k, cl_sortkey_prefix AS kp, cl_type AS ty, cl_timestamp AS ts
       FROM ${this.s}.categorylinks, ${this.s}.page WHERE ${conds.join(' AND ')} ORDER BY ${order(cols, descending)} LIMIT ${p.add(limit + 1)}`,
      p.values,
    );
    return r.rows.map((x) => ({ id: x.id, ns: x.ns, dbkey: x.t, sortkey: x.k, sortkeyPrefix: x.kp, type: x.ty, timestamp: x.ts }));
  }

  /** page_props of pages, by page id then name. */
  async pageProps(pageIds: number[], names: string[]): Promise<{ page: number; name: string; value: string }[]> {
    const p = new Params();
    const conds = [`pp_page = ANY(${p.add(pageIds)}::bigint[])`];
    if (names.length) conds.push(`pp_propname = ANY(${p.add(names)}::text[])`);
    const r = await this.db.query<{ page: number; name: string; value: string }>(
      `SELECT pp_page AS page, pp_propname AS name, pp_value AS value FROM ${this.s}.page_props WHERE ${conds.join(' AND ')} ORDER BY pp_page, pp_propname COLLATE "C"`,
      p.values,
    );
    return r.rows;
  }

  /**
   * Member counts of categories. MediaWiki keeps them in its category table, which has a row for
   * every category page and every category with members; here they are counted from
   * categorylinks (an index range per category).
   */
  async categoryCounts(names: string[]): Promise<CategoryCounts[]> {
    const r = await this.db.query<{ name: string; pages: number; subcats: number; files: number; exists: boolean; hidden: boolean }>(
      `SELECT n.name,
         (SELECT count(*) FROM ${this.s}.categorylinks WHERE cl_to COLLATE "C" = n.name AND cl_type = 'page')::int AS pages,
         (SELECT count(*) FROM ${this.s}.categorylinks WHERE cl_to COLLATE "C" = n.name AND cl_type = 'subcat')::int AS subcats,
         (SELECT count(*) FROM ${this.s}.categorylinks WHERE cl_to COLLATE "C" = n.name AND cl_type = 'file')::int AS files,
         EXISTS (SELECT 1 FROM ${this.s}.page WHERE page_namespace = ${NS_CATEGORY} AND page_title = n.name) AS exists,
         ${this.hiddenExpr('n.name')} AS hidden
       FROM unnest($1::text[]) AS n(name) ORDER BY n.name COLLATE "C"`,
      [names],
    );
    return r.rows.filter((x) => x.exists || x.pages + x.subcats + x.files > 0).map(({ exists: _e, ...c }) => c);
  }
}
