import type { Db, Queryable } from '@quire/kit';

/** A page row's identity and state, as every write path and check reads it. */
export interface PageKeyRow {
  id: number;
  ns: number;
  dbkey: string;
  /** page_latest: 0 only while a page is being created. */
  latest: number;
  model: string;
  isRedirect: boolean;
  touched: Date;
}

/** A page named by title, or by page id. */
export type PageKey = { ns: number; dbkey: string } | { id: number };

/**
 * The one lookup of a single page row by title or id (undefined when there is none). With
 * `forUpdate` the row stays locked until the transaction of `q` ends: the write paths' lock.
 * (The row alone is locked: with a join, READ COMMITTED would recheck a waiting row against a
 * stale joined row and lose it.)
 */
export async function findPage(q: Queryable, schema: string, key: PageKey, opts: { forUpdate?: boolean } = {}): Promise<PageKeyRow | undefined> {
  const byId = 'id' in key;
  const r = await q.query<{ page_id: number; page_namespace: number; page_title: string; page_latest: number; page_content_model: string; page_is_redirect: boolean; page_touched: Date }>(
    `SELECT page_id, page_namespace, page_title, page_latest, page_content_model, page_is_redirect, page_touched FROM ${schema}.page
      WHERE ${byId ? 'page_id = $1' : 'page_namespace = $1 AND page_title = $2'}${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    byId ? [key.id] : [key.ns, key.dbkey],
  );
  const row = r.rows[0];
  return (
    row && {
      id: row.page_id,
      ns: row.page_namespace,
      dbkey: row.page_title,
      latest: row.page_latest,
      model: row.page_content_model,
      isRedirect: row.page_is_redirect,
      touched: row.page_touched,
    }
  );
}

/** Where a redirect page points (its redirect row), read by the page's title; undefined for a non-redirect. */
export async function redirectOfTitle(q: Queryable, schema: string, title: { ns: number; dbkey: string }): Promise<{ ns: number; dbkey: string; fragment: string; interwiki: string } | undefined> {
  const r = await q.query<{ rd_namespace: number; rd_title: string; rd_fragment: string; rd_interwiki: string }>(
    `SELECT rd.rd_namespace, rd.rd_title, rd.rd_fragment, rd.rd_interwiki FROM ${schema}.page p JOIN ${schema}.redirect rd ON rd.rd_from = p.page_id
      WHERE p.page_namespace = $1 AND p.page_title = $2 AND p.page_is_redirect`,
    [title.ns, title.dbkey],
  );
  const rd = r.rows[0];
  return rd && { ns: rd.rd_namespace, dbkey: rd.rd_title, fragment: rd.rd_fragment, interwiki: rd.rd_interwiki };
}

export interface PageRow {
  id: number;
  ns: number;
  dbkey: string;
  isRedirect: boolean;
  isNew: boolean;
  touched: Date;
  latestRevId: number;
  latestTimestamp: Date;
  length: number;
  contentModel: string;
  /** NULL in the table: the wiki's content language. */
  lang: string | null;
}

export interface RedirectRow {
  from: number;
  ns: number;
  dbkey: string;
  fragment: string;
}

interface PageSqlRow {
  page_id: number;
  page_namespace: number;
  page_title: string;
  page_is_redirect: boolean;
  page_is_new: boolean;
  page_touched: Date;
  page_latest: number;
  rev_timestamp: Date;
  page_len: number;
  page_content_model: string;
  page_lang: string | null;
}

const toPage = (r: PageSqlRow): PageRow => ({
  id: r.page_id,
  ns: r.page_namespace,
  dbkey: r.page_title,
  isRedirect: r.page_is_redirect,
  isNew: r.page_is_new,
  touched: r.page_touched,
  latestRevId: r.page_latest,
  latestTimestamp: r.rev_timestamp,
  length: r.page_len,
  contentModel: r.page_content_model,
  lang: r.page_lang,
});

/** Reads of pages and their redirect targets. */
export class PageStore {
  private readonly select: string;

  constructor(private readonly db: Db) {
    const s = db.schema;
    this.select = `SELECT p.page_id, p.page_namespace, p.page_title, p.page_is_redirect, p.page_is_new, p.page_touched,
      p.page_latest, r.rev_timestamp, p.page_len, p.page_content_model, p.page_lang
      FROM ${s}.page p JOIN ${s}.revision r ON r.rev_id = p.page_latest`;
  }

  /** Pages by (namespace, DB key); absent ones are simply not in the result. */
  async byTitles(titles: { ns: number; dbkey: string }[]): Promise<PageRow[]> {
    if (titles.length === 0) return [];
    const r = await this.db.query<PageSqlRow>(`${this.select} JOIN unnest($1::int[], $2::text[]) AS t(ns, title) ON p.page_namespace = t.ns AND p.page_title = t.title`, [
      titles.map((t) => t.ns),
      titles.map((t) => t.dbkey),
    ]);
    return r.rows.map(toPage);
  }

  async byIds(ids: number[]): Promise<PageRow[]> {
    if (ids.length === 0) return [];
    const r = await this.db.query<PageSqlRow>(`${this.select} WHERE p.page_id = ANY($1::bigint[])`, [ids]);
    return r.rows.map(toPage);
  }

  async redirectTargets(pageIds: number[]): Promise<RedirectRow[]> {
    if (pageIds.length === 0) return [];
    const r = await this.db.query<{ rd_from: number; rd_namespace: number; rd_title: string; rd_fragment: string }>(
      `SELECT rd_from, rd_namespace, rd_title, rd_fragment FROM ${this.db.schema}.redirect WHERE rd_from = ANY($1::bigint[])`,
      [pageIds],
    );
    return r.rows.map((x) => ({ from: x.rd_from, ns: x.rd_namespace, dbkey: x.rd_title, fragment: x.rd_fragment }));
  }
}

/** A title as the page and watchlist tables key it. */
export interface TitleKey {
  ns: number;
  dbkey: string;
}

/** One user's watchlist row of a title (an expired row is not watching). */
export interface WatchedTitleRow extends TitleKey {
  expiry: Date | null;
  notificationTimestamp: Date | null;
}

const titleArrays = (titles: readonly TitleKey[]) => [titles.map((t) => t.ns), titles.map((t) => t.dbkey)];
const UNEXPIRED = '(w.wl_expiry IS NULL OR w.wl_expiry > now())';

/**
 * What prop=info reads about titles beyond the page row: page properties and watchlists
 * (MediaWiki's ApiQueryInfo::getDisplayTitle and its WatchedItemStore reads).
 */
export class PageInfoStore {
  constructor(private readonly db: Db) {}

  /** The DISPLAYTITLE page property (HTML) of the pages that set one. */
  async displayTitles(pageIds: number[]): Promise<Map<number, string>> {
    if (pageIds.length === 0) return new Map();
    const r = await this.db.query<{ pp_page: number; pp_value: string }>(
      `SELECT pp_page, pp_value FROM ${this.db.schema}.page_props WHERE pp_page = ANY($1::bigint[]) AND pp_propname = 'displaytitle'`,
      [pageIds],
    );
    return new Map(r.rows.map((x) => [Number(x.pp_page), x.pp_value]));
  }

  /** WatchedItemStore::loadWatchedItemsBatch: the titles `userId` watches, among `titles`. */
  async watchedBy(userId: number, titles: readonly TitleKey[]): Promise<WatchedTitleRow[]> {
    if (userId <= 0 || titles.length === 0) return [];
    const r = await this.db.query<{ wl_namespace: number; wl_title: string; wl_expiry: Date | null; wl_notificationtimestamp: Date | null }>(
      `SELECT w.wl_namespace, w.wl_title, w.wl_expiry, w.wl_notificationtimestamp
       FROM ${this.db.schema}.watchlist w JOIN unnest($2::int[], $3::text[]) AS t(ns, title) ON w.wl_namespace = t.ns AND w.wl_title = t.title
       WHERE w.wl_user = $1 AND ${UNEXPIRED}`,
      [userId, ...titleArrays(titles)],
    );
    return r.rows.map((x) => ({ ns: x.wl_namespace, dbkey: x.wl_title, expiry: x.wl_expiry, notificationTimestamp: x.wl_notificationtimestamp }));
  }

  /**
   * WatchedItemStore::countWatchersMultiple, or with `maxAgeSeconds`
   * countVisitingWatchersMultiple: only the watchers who have seen the page's changes since
   * (latest edit − max age) — no notification timestamp, or one at or after that moment. Every
   * watcher of a missing title counts. Titles nobody watches are absent.
   */
  async watcherCounts(titles: readonly TitleKey[], maxAgeSeconds?: number): Promise<{ ns: number; dbkey: string; count: number }[]> {
    if (titles.length === 0) return [];
    const s = this.db.schema;
    const params: unknown[] = titleArrays(titles);
    let visiting = '';
    let joinLatest = '';
    if (maxAgeSeconds !== undefined) {
      params.push(maxAgeSeconds);
      joinLatest = `LEFT JOIN ${s}.page p ON p.page_namespace = t.ns AND p.page_title = t.title LEFT JOIN ${s}.revision r ON r.rev_id = p.page_latest`;
      visiting = `AND (r.rev_timestamp IS NULL OR w.wl_notificationtimestamp IS NULL
        OR w.wl_notificationtimestamp >= r.rev_timestamp - make_interval(secs => $3::double precision))`;
    }
    const r = await this.db.query<{ ns: number; title: string; n: string | number }>(
      `SELECT t.ns, t.title, count(*) AS n
       FROM unnest($1::int[], $2::text[]) AS t(ns, title)
       JOIN ${s}.watchlist w ON w.wl_namespace = t.ns AND w.wl_title = t.title ${joinLatest}
       WHERE ${UNEXPIRED} ${visiting}
       GROUP BY t.ns, t.title`,
      params,
    );
    return r.rows.map((x) => ({ ns: x.ns, dbkey: x.title, count: Number(x.n) }));
  }
}

/** Touches a page (a purge); answers its id and latest revision, undefined when there is no such page. */
export async function touchPage(q: Queryable, schema: string, title: { ns: number; dbkey: string }, at: Date): Promise<{ page_id: number; page_latest: number } | undefined> {
  const r = await q.query<{ page_id: number; page_latest: number }>(`UPDATE ${schema}.page SET page_touched = $3 WHERE page_namespace = $1 AND page_title = $2 RETURNING page_id, page_latest`, [
    title.ns,
    title.dbkey,
    at,
  ]);
  return r.rows[0];
}
