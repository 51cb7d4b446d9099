/*
 * Whole-wiki enumerations (MediaWiki's ApiQueryAllLinks, ApiQueryAllCategories, ApiQueryRandom,
 * ApiQueryPagePropNames, ApiQueryPagesWithProp, ApiQueryProtectedTitles, ApiQueryAllPages'
 * protection and language-link filters). Each list is read in keyset order with one row more
 * than asked for: that row is where the continuation starts. Titles compare as bytes
 * (COLLATE "C"), as MediaWiki's varbinary columns do.
 */
import type { Db } from '@quire/kit';
import { NS_CATEGORY } from '../title/namespaces.js';

/** Positional parameters of one statement. */
class Bind {
  readonly values: unknown[] = [];
  $(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** The rows asked for and, when there are more, the first row beyond them. */
export interface Batch<T> {
  rows: T[];
  next?: T;
}

function batch<T>(rows: T[], limit: number): Batch<T> {
  return rows.length > limit ? { rows: rows.slice(0, limit), next: rows[limit] } : { rows };
}

/** LIKE pattern for a prefix: the prefix with its wildcards escaped, then anything. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, '\\$&')}%`;
}

export type LinkTableName = 'pagelinks' | 'templatelinks' | 'imagelinks' | 'redirect';

/** Columns of each table ApiQueryAllLinks reads: the source page, the target's namespace and title. */
const LINK_COLUMNS: Record<LinkTableName, { from: string; ns?: string; title: string }> = {
  pagelinks: { from: 'pl_from', ns: 'pl_namespace', title: 'pl_title' },
  templatelinks: { from: 'tl_from', ns: 'tl_namespace', title: 'tl_title' },
  imagelinks: { from: 'il_from', title: 'il_to' },
  redirect: { from: 'rd_from', ns: 'rd_namespace', title: 'rd_title' },
};

export type ForeignLinkTable = 'langlinks' | 'iwlinks';

/** Columns of the tables of links to other wikis: the source page, the language or prefix, the title there. */
const FOREIGN_COLUMNS: Record<ForeignLinkTable, { from: string; prefix: string; title: string }> = {
  langlinks: { from: 'll_from', prefix: 'll_lang', title: 'll_title' },
  iwlinks: { from: 'iwl_from', prefix: 'iwl_prefix', title: 'iwl_title' },
};

export interface AllLinkRow {
  from: number;
  dbkey: string;
  fragment: string;
  interwiki: string;
}

export interface ListedPageRow {
  id: number;
  ns: number;
  dbkey: string;
  redirect: boolean;
}

export interface CategoryRow {
  name: string;
  size: number;
  subcats: number;
  files: number;
  hidden: boolean;
}

export interface RandomPageRow extends ListedPageRow {
  random: number;
}

export interface ProtectedTitleRow {
  ns: number;
  dbkey: string;
  timestamp: Date;
  userName: string;
  userId: number;
  reason: string;
  expiry: Date | null;
  level: string;
}

export interface PageFilter {
  namespace: number;
  from?: string;
  to?: string;
  prefix?: string;
  /** 0 all, 1 redirects, 2 nonredirects. */
  redirects: number;
  minSize?: number;
  maxSize?: number;
  descending: boolean;
  limit: number;
  protection?: { types: string[]; levels: string[]; cascade: number; expiry: number };
  /** 0 all, 1 with language links, 2 without. */
  langlinks: number;
}

interface PageDbRow {
  id: number;
  ns: number;
  t: string;
  r: boolean;
}

const pageRow = (x: PageDbRow): ListedPageRow => ({ id: x.id, ns: x.ns, dbkey: x.t, redirect: x.r });

function redirectCondition(filter: number): string[] {
  if (filter === 1) return ['page_is_redirect'];
  if (filter === 2) return ['NOT page_is_redirect'];
  return [];
}

export class ListStore {
  constructor(private readonly db: Db) {}

  private get s(): string {
    return this.db.schema;
  }

  /**
   * The targets of one link table in one namespace, ordered by (title, from); `unique` lists
   * each title once. `after` is the row the continuation names (included).
   */
  async allLinks(
    table: LinkTableName,
    q: { namespace: number; from?: string; to?: string; prefix?: string; unique: boolean; after?: { dbkey: string; from?: number }; descending: boolean; limit: number },
  ): Promise<Batch<AllLinkRow>> {
    const c = LINK_COLUMNS[table];
    const b = new Bind();
    const title = `${c.title} COLLATE "C"`;
    const conds: string[] = [];
    if (c.ns) conds.push(`${c.ns} = ${b.$(q.namespace)}`);
    if (q.from !== undefined) conds.push(`${title} >= ${b.$(q.from)}`);
    if (q.to !== undefined) conds.push(`${title} <= ${b.$(q.to)}`);
    if (q.prefix !== undefined) conds.push(`${c.title} LIKE ${b.$(likePrefix(q.prefix))}`);
    const op = q.descending ? '<' : '>';
    if (q.after && q.unique) conds.push(`${title} ${op}= ${b.$(q.after.dbkey)}`);
    else if (q.after) conds.push(`(${title}, ${c.from}) ${op}= (${b.$(q.after.dbkey)}, ${b.$(q.after.from ?? 0)})`);
    const dir = q.descending ? ' DESC' : '';
    const where = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
    const extra = table === 'redirect' ? ', rd_fragment AS frag, rd_interwiki AS iw' : `, '' AS frag, '' AS iw`;
    const sql = q.unique
      ? `SELECT DISTINCT ${title} AS t, 0 AS f, '' AS frag, '' AS iw FROM ${this.s}.${table} ${where} ORDER BY 1${dir} LIMIT ${b.$(q.limit + 1)}`
      : `SELECT ${c.title} AS t, ${c.from} AS f${extra} FROM ${this.s}.${table} ${where} ORDER BY ${title}${dir}, ${c.from}${dir} LIMIT ${b.$(q.limit + 1)}`;
    const r = await this.db.query<{ t: string; f: number; frag: string; iw: string }>(sql, b.values);
    return batch(
      r.rows.map((x) => ({ from: Number(x.f), dbkey: x.t, fragment: x.frag, interwiki: x.iw })),
      q.limit,
    );
  }

  /**
   * Categories with members or a page (MediaWiki's category table), counted from categorylinks,
   * ordered by name; min/max bound the member count.
   */
  async allCategories(q: { from?: string; to?: string; prefix?: string; after?: string; min?: number; max?: number; descending: boolean; limit: number }): Promise<Batch<CategoryRow>> {
    const b = new Bind();
    const name = `c.name COLLATE "C"`;
    const conds: string[] = [];
    const op = q.descending ? '<' : '>';
    if (q.after !== undefined) conds.push(`${name} ${op}= ${b.$(q.after)}`);
    // addWhereRange('cat_title', dir, from, to): from is the first title in the listing's direction.
    if (q.from !== undefined) conds.push(`${name} ${op}= ${b.$(q.from)}`);
    if (q.to !== undefined) conds.push(`${name} ${q.descending ? '>' : '<'}= ${b.$(q.to)}`);
    if (q.prefix !== undefined) conds.push(`c.name LIKE ${b.$(likePrefix(q.prefix))}`);
    if (q.min !== undefined) conds.push(`coalesce(k.size, 0) >= ${b.$(q.min)}`);
    if (q.max !== undefined) conds.push(`coalesce(k.size, 0) <= ${b.$(q.max)}`);
    const r = await this.db.query<{ name: string; size: number; subcats: number; files: number; hidden: boolean }>(
      `SELECT c.name, coalesce(k.size, 0)::int AS size, coalesce(k.subcats, 0)::int AS subcats, coalesce(k.files, 0)::int AS files,
         EXISTS (SELECT 1 FROM ${this.s}.page hp JOIN ${this.s}.page_props hpp ON hpp.pp_page = hp.page_id AND hpp.pp_propname = 'hiddencat'
                 WHERE hp.page_namespace = ${NS_CATEGORY} AND hp.page_title = c.name) AS hidden
       FROM (SELECT cl_to AS name FROM ${this.s}.categorylinks UNION SELECT page_title FROM ${this.s}.page WHERE page_namespace = ${NS_CATEGORY}) c
       LEFT JOIN (SELECT cl_to, count(*) AS size, count(*) FILTER (WHERE cl_type = 'subcat') AS subcats, count(*) FILTER (WHERE cl_type = 'file') AS files
                  FROM ${this.s}.categorylinks GROUP BY cl_to) k ON k.cl_to = c.name
       ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''}
       ORDER BY ${name}${q.descending ? ' DESC' : ''} LIMIT ${b.$(q.limit + 1)}`,
      b.values,
    );
    return batch(r.rows, q.limit);
  }

  /**
   * Pages by (page_random, page_id) from `start` (at `startId` or after it) and below `end`
   * (ApiQueryRandom::runQuery).
   */
  async randomPages(q: { namespaces: number[]; redirects: number; start?: number; startId?: number; end?: number; limit: number }): Promise<Batch<RandomPageRow>> {
    const b = new Bind();
    const conds = redirectCondition(q.redirects);
    if (q.namespaces.length) conds.push(`page_namespace = ANY(${b.$(q.namespaces)}::int[])`);
    if (q.start !== undefined) {
      const start = b.$(q.start);
      conds.push(q.startId ? `(page_random = ${start} AND page_id >= ${b.$(q.startId)} OR page_random > ${start})` : `page_random >= ${start}`);
    }
    if (q.end !== undefined) conds.push(`page_random < ${b.$(q.end)}`);
    const r = await this.db.query<PageDbRow & { rnd: number }>(
      `SELECT page_id AS id, page_namespace AS ns, page_title AS t, page_is_redirect AS r, page_random AS rnd FROM ${this.s}.page
       ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''} ORDER BY page_random, page_id LIMIT ${b.$(q.limit + 1)}`,
      b.values,
    );
    return batch(
      r.rows.map((x) => ({ ...pageRow(x), random: x.rnd })),
      q.limit,
    );
  }

  /** The distinct page property names from `after` on. */
  async pagePropNames(q: { after?: string; limit: number }): Promise<Batch<string>> {
    const b = new Bind();
    const cond = q.after !== undefined ? `WHERE pp_propname COLLATE "C" >= ${b.$(q.after)}` : '';
    const r = await this.db.query<{ n: string }>(`SELECT DISTINCT pp_propname COLLATE "C" AS n FROM ${this.s}.page_props ${cond} ORDER BY 1 LIMIT ${b.$(q.limit + 1)}`, b.values);
    return batch(
      r.rows.map((x) => x.n),
      q.limit,
    );
  }

  /** Pages with a property, by page id from `afterId` (included). */
  async pagesWithProp(q: { propname: string; afterId?: number; descending: boolean; limit: number }): Promise<Batch<ListedPageRow & { value: string }>> {
    const b = new Bind();
    const conds = ['pp_page = page_id', `pp_propname = ${b.$(q.propname)}`];
    if (q.afterId !== undefined) conds.push(`pp_page ${q.descending ? '<=' : '>='} ${b.$(q.afterId)}`);
    const r = await this.db.query<PageDbRow & { v: string }>(
      `SELECT page_id AS id, page_namespace AS ns, page_title AS t, page_is_redirect AS r, pp_value AS v FROM ${this.s}.page_props, ${this.s}.page
       WHERE ${conds.join(' AND ')} ORDER BY pp_page${q.descending ? ' DESC' : ''} LIMIT ${b.$(q.limit + 1)}`,
      b.values,
    );
    return batch(
      r.rows.map((x) => ({ ...pageRow(x), value: x.v })),
      q.limit,
    );
  }

  /** Create protections ordered by (timestamp to the second, namespace, title). */
  async protectedTitles(q: {
    namespaces: number[];
    levels: string[];
    newer: boolean;
    start?: Date;
    end?: Date;
    after?: { timestamp: Date; ns: number; dbkey: string };
    limit: number;
  }): Promise<Batch<ProtectedTitleRow>> {
    const b = new Bind();
    const ts = `date_trunc('second', pt_timestamp)`;
    const conds: string[] = [];
    const [first, last] = q.newer ? ['>=', '<='] : ['<=', '>='];
    if (q.start) conds.push(`${ts} ${first} ${b.$(q.start)}`);
    if (q.end) conds.push(`${ts} ${last} ${b.$(q.end)}`);
    if (q.namespaces.length) conds.push(`pt_namespace = ANY(${b.$(q.namespaces)}::int[])`);
    if (q.levels.length) conds.push(`pt_create_perm = ANY(${b.$(q.levels)}::text[])`);
    const key = [ts, 'pt_namespace', 'pt_title COLLATE "C"'];
    if (q.after) conds.push(`(${key.join(', ')}) ${q.newer ? '>=' : '<='} (${b.$(q.after.timestamp)}, ${b.$(q.after.ns)}, ${b.$(q.after.dbkey)})`);
    const dir = q.newer ? '' : ' DESC';
    const r = await this.db.query<{ ns: number; t: string; ts: Date; un: string; uid: number | null; reason: string; expiry: Date | null; level: string }>(
      `SELECT pt_namespace AS ns, pt_title AS t, pt_timestamp AS ts, a.actor_name AS un, a.actor_user AS uid, pt_reason AS reason, pt_expiry AS expiry, pt_create_perm AS level
       FROM ${this.s}.protected_titles JOIN ${this.s}.actor a ON a.actor_id = pt_actor
       ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''} ORDER BY ${key.map((k) => k + dir).join(', ')} LIMIT ${b.$(q.limit + 1)}`,
      b.values,
    );
    return batch(
      r.rows.map((x) => ({ ns: x.ns, dbkey: x.t, timestamp: x.ts, userName: x.un, userId: Number(x.uid ?? 0), reason: x.reason, expiry: x.expiry, level: x.level })),
      q.limit,
    );
  }

  /** list=allpages with its protection and language-link filters (ApiQueryAllPages). */
  async filteredPages(f: PageFilter): Promise<Batch<ListedPageRow>> {
    const b = new Bind();
    const title = `page_title COLLATE "C"`;
    const conds = [`page_namespace = ${b.$(f.namespace)}`, ...redirectCondition(f.redirects)];
    // apfrom is the first title in the listing's direction, apto the last.
    const [first, last] = f.descending ? ['<=', '>='] : ['>=', '<='];
    if (f.from !== undefined) conds.push(`${title} ${first} ${b.$(f.from)}`);
    if (f.to !== undefined) conds.push(`${title} ${last} ${b.$(f.to)}`);
    if (f.prefix !== undefined) conds.push(`page_title LIKE ${b.$(likePrefix(f.prefix))}`);
    if (f.minSize !== undefined) conds.push(`page_len >= ${b.$(f.minSize)}`);
    if (f.maxSize !== undefined) conds.push(`page_len <= ${b.$(f.maxSize)}`);
    const pr = f.protection;
    if (pr) {
      const prConds = ['pr_page = page_id', '(pr_expiry IS NULL OR pr_expiry > now())'];
      if (pr.types.length) prConds.push(`pr_type = ANY(${b.$(pr.types)}::text[])`);
      if (pr.levels.length) prConds.push(`pr_level = ANY(${b.$(pr.levels)}::text[])`);
      if (pr.cascade === 1) prConds.push('pr_cascade');
      if (pr.cascade === 2) prConds.push('NOT pr_cascade');
      if (pr.expiry === 1) prConds.push('pr_expiry IS NULL');
      if (pr.expiry === 2) prConds.push('pr_expiry IS NOT NULL');
      conds.push(`EXISTS (SELECT 1 FROM ${this.s}.page_restrictions WHERE ${prConds.join(' AND ')})`);
    }
    if (f.langlinks === 1) conds.push(`EXISTS (SELECT 1 FROM ${this.s}.langlinks WHERE ll_from = page_id)`);
    if (f.langlinks === 2) conds.push(`NOT EXISTS (SELECT 1 FROM ${this.s}.langlinks WHERE ll_from = page_id)`);
    const r = await this.db.query<PageDbRow>(
      `SELECT page_id AS id, page_namespace AS ns, page_title AS t, page_is_redirect AS r FROM ${this.s}.page
       WHERE ${conds.join(' AND ')} ORDER BY ${title}${f.descending ? ' DESC' : ''} LIMIT ${b.$(f.limit + 1)}`,
      b.values,
    );
    return batch(r.rows.map(pageRow), f.limit);
  }

  /**
   * Language or interwiki links with their pages, by (language or prefix, title, page); the
   * filters narrow to one language/prefix and one title. `after` is the row the continuation
   * names (included).
   */
  async foreignBacklinks(
    table: ForeignLinkTable,
    q: { prefix?: string; title?: string; after?: { prefix: string; title: string; from: number }; descending: boolean; limit: number },
  ): Promise<Batch<ListedPageRow & { prefix: string; title: string }>> {
    const c = FOREIGN_COLUMNS[table];
    const b = new Bind();
    const conds = [`${c.from} = page_id`];
    if (q.prefix !== undefined) conds.push(`${c.prefix} = ${b.$(q.prefix)}`);
    if (q.title !== undefined) conds.push(`${c.title} = ${b.$(q.title)}`);
    const key = [`${c.prefix} COLLATE "C"`, `${c.title} COLLATE "C"`, c.from];
    if (q.after) conds.push(`(${key.join(', ')}) ${q.descending ? '<=' : '>='} (${b.$(q.after.prefix)}, ${b.$(q.after.title)}, ${b.$(q.after.from)})`);
    const dir = q.descending ? ' DESC' : '';
    const r = await this.db.query<PageDbRow & { p: string; lt: string }>(
      `SELECT page_id AS id, page_namespace AS ns, page_title AS t, page_is_redirect AS r, ${c.prefix} AS p, ${c.title} AS lt FROM ${this.s}.${table}, ${this.s}.page
       WHERE ${conds.join(' AND ')} ORDER BY ${key.map((k) => k + dir).join(', ')} LIMIT ${b.$(q.limit + 1)}`,
      b.values,
    );
    return batch(
      r.rows.map((x) => ({ ...pageRow(x), prefix: x.p, title: x.lt })),
      q.limit,
    );
  }

  /** Interwiki links of pages by (page, prefix, title); `after` is the row the continuation names (included). */
  async interwikiLinks(q: {
    pageIds: number[];
    prefix?: string;
    title?: string;
    after?: { from: number; prefix: string; title: string };
    descending: boolean;
    limit: number;
  }): Promise<Batch<{ from: number; prefix: string; title: string }>> {
    const b = new Bind();
    const conds = [`iwl_from = ANY(${b.$(q.pageIds)}::bigint[])`];
    if (q.prefix !== undefined) conds.push(`iwl_prefix = ${b.$(q.prefix)}`);
    if (q.title !== undefined) conds.push(`iwl_title = ${b.$(q.title)}`);
    const key = ['iwl_from', 'iwl_prefix COLLATE "C"', 'iwl_title COLLATE "C"'];
    if (q.after) conds.push(`(${key.join(', ')}) ${q.descending ? '<=' : '>='} (${b.$(q.after.from)}, ${b.$(q.after.prefix)}, ${b.$(q.after.title)})`);
    const dir = q.descending ? ' DESC' : '';
    const r = await this.db.query<{ f: number; p: string; t: string }>(
      `SELECT iwl_from AS f, iwl_prefix AS p, iwl_title AS t FROM ${this.s}.iwlinks WHERE ${conds.join(' AND ')}
       ORDER BY ${key.map((k) => k + dir).join(', ')} LIMIT ${b.$(q.limit + 1)}`,
      b.values,
    );
    return batch(
      r.rows.map((x) => ({ from: Number(x.f), prefix: x.p, title: x.t })),
      q.limit,
    );
  }

  /** Distinct anonymous editors per page whose user is not hidden (rev_deleted bit 4). */
  async anonContributors(pageIds: number[]): Promise<{ page: number; count: number }[]> {
    const r = await this.db.query<{ page: number; n: number }>(
      `SELECT rev_page AS page, count(DISTINCT rev_actor)::int AS n FROM ${this.s}.revision JOIN ${this.s}.actor ON actor_id = rev_actor
       WHERE rev_page = ANY($1::bigint[]) AND actor_user IS NULL AND rev_deleted & 4 = 0 GROUP BY rev_page ORDER BY rev_page`,
      [pageIds],
    );
    return r.rows.map((x) => ({ page: Number(x.page), count: x.n }));
  }

  /**
   * Registered editors per page by (page, actor), user not hidden; `users` narrows to (or, with
   * `exclude`, away from) those user ids. `after` is the row the continuation names (included).
   */
  async userContributors(q: {
    pageIds: number[];
    users?: { ids: number[]; exclude: boolean };
    after?: { page: number; actor: number };
    limit: number;
  }): Promise<Batch<{ page: number; actor: number; userId: number; name: string }>> {
    const b = new Bind();
    const conds = [`rev_page = ANY(${b.$(q.pageIds)}::bigint[])`, 'actor_user IS NOT NULL', 'rev_deleted & 4 = 0'];
    if (q.users) conds.push(`${q.users.exclude ? 'NOT ' : ''}(actor_user = ANY(${b.$(q.users.ids)}::bigint[]))`);
    if (q.after) conds.push(`(rev_page, rev_actor) >= (${b.$(q.after.page)}, ${b.$(q.after.actor)})`);
    const r = await this.db.query<{ page: number; actor: number; uid: number; name: string }>(
      `SELECT rev_page AS page, rev_actor AS actor, max(actor_user) AS uid, max(actor_name) AS name FROM ${this.s}.revision JOIN ${this.s}.actor ON actor_id = rev_actor
       WHERE ${conds.join(' AND ')} GROUP BY rev_page, rev_actor ORDER BY rev_page, rev_actor LIMIT ${b.$(q.limit + 1)}`,
      b.values,
    );
    return batch(
      r.rows.map((x) => ({ page: Number(x.page), actor: Number(x.actor), userId: Number(x.uid), name: x.name })),
      q.limit,
    );
  }
}
