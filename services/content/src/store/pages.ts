import type { Db } from '@quire/kit';

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
    const r = await this.db.query<PageSqlRow>(
      `${this.select} JOIN unnest($1::int[], $2::text[]) AS t(ns, title) ON p.page_namespace = t.ns AND p.page_title = t.title`,
      [titles.map((t) => t.ns), titles.map((t) => t.dbkey)],
    );
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
