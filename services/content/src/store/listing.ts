/*
 * Pages of a namespace in title order (MediaWiki's ApiQueryAllPages): titles compare as bytes, as
 * page_title (varbinary) does in MediaWiki, and pages are read in keyset order on
 * (page_namespace, page_title) so a continuation costs the same however far into the list it is.
 */
import type { Db } from '@quire/kit';
import type { PageRow, PageStore } from './pages.js';

export interface ListPagesQuery {
  ns: number;
  /** DB keys (no namespace prefix), inclusive bounds in title order. */
  from?: string;
  to?: string;
  /** Only titles starting with this DB key prefix. */
  prefix?: string;
  redirects?: 'only' | 'none';
  minSize?: number;
  maxSize?: number;
  descending: boolean;
  limit: number;
}

export interface PageListing {
  pages: PageRow[];
  /** DB key of the next page to list (where a continuation starts), or undefined at the end. */
  continueFrom?: string;
}

export class ListingStore {
  constructor(
    private readonly db: Db,
    private readonly pages: PageStore,
  ) {}

  async listPages(q: ListPagesQuery): Promise<PageListing> {
    const params: unknown[] = [q.ns];
    const arg = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const title = 'page_title COLLATE "C"';
    const conds = ['page_namespace = $1'];
    // In descending order `from` is the upper bound (apfrom=Z&apdir=descending starts at Z).
    const [low, high] = q.descending ? [q.to, q.from] : [q.from, q.to];
    if (low !== undefined) conds.push(`${title} >= ${arg(low)}`);
    if (high !== undefined) conds.push(`${title} <= ${arg(high)}`);
    if (q.prefix) {
      // The range lets the index find the first match; starts_with keeps exactly the prefixed titles.
      conds.push(`${title} >= ${arg(q.prefix)}`, `starts_with(page_title, ${arg(q.prefix)})`);
    }
    if (q.redirects) conds.push(q.redirects === 'only' ? 'page_is_redirect' : 'NOT page_is_redirect');
    if (q.minSize !== undefined) conds.push(`page_len >= ${arg(q.minSize)}`);
    if (q.maxSize !== undefined) conds.push(`page_len <= ${arg(q.maxSize)}`);
    const r = await this.db.query<{ page_id: number; page_title: string }>(
      `SELECT page_id, page_title FROM ${this.db.schema}.page WHERE ${conds.join(' AND ')}
       ORDER BY ${title} ${q.descending ? 'DESC' : 'ASC'} LIMIT ${arg(q.limit + 1)}`,
      params,
    );
    const next = r.rows.length > q.limit ? r.rows[q.limit] : undefined;
    const ids = r.rows.slice(0, q.limit).map((x) => x.page_id);
    const byId = new Map((await this.pages.byIds(ids)).map((p) => [p.id, p]));
    // A page deleted between the two reads is simply left out.
    const pages = ids.flatMap((id) => {
      const p = byId.get(id);
      return p ? [p] : [];
    });
    return { pages, ...(next ? { continueFrom: next.page_title } : {}) };
  }
}
