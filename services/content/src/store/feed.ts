import type { Db } from '@quire/kit';
import type { TitleCodec } from '../title/codec.js';

/** One row of content.page_change_feed (migrations/004_change_feed.sql writes it by trigger). */
export interface FeedRow {
  position: number;
  pageId: number;
  ns: number;
  dbkey: string;
  kind: string;
  changedAt: Date;
  oldNs: number | null;
  oldDbkey: string | null;
}

/** What the search index needs of a page: its title, redirect target and latest content. */
export interface IndexPageRow {
  pageId: number;
  ns: number;
  dbkey: string;
  title: string;
  isRedirect: boolean;
  redirectTitle: string;
  size: number;
  contentModel: string;
  text: string;
  touched: Date;
  created: Date;
  latestRevId: number;
}

export interface FeedStatus {
  latestPosition: number;
  pending: number;
  oldestPendingAt: Date | undefined;
}

export class ChangeFeedStore {
  /**
   * The last status answered, while the database's writes have not moved (embedded: this process
   * is its only writer, and the feed grows only by writes): every search asks for the feed's head
   * (search's freshness check), a statement each on the one embedded connection for an answer
   * that changes only with an edit.
   */
  private lastStatus: { generation: number; after: number; status: FeedStatus } | undefined;

  constructor(
    private readonly db: Db,
    private readonly codec: TitleCodec,
  ) {}

  /** Changes after `after` in position (= commit) order. */
  async after(after: number, limit: number): Promise<FeedRow[]> {
    const r = await this.db.query<{
      position: number;
      page_id: number;
      namespace: number;
      title: string;
      kind: string;
      changed_at: Date;
      old_namespace: number | null;
      old_title: string | null;
    }>(
      `SELECT position, page_id, namespace, title, kind, changed_at, old_namespace, old_title
         FROM ${this.db.schema}.page_change_feed WHERE position > $1 ORDER BY position LIMIT $2`,
      [after, limit],
    );
    return r.rows.map((row) => ({
      position: row.position,
      pageId: row.page_id,
      ns: row.namespace,
      dbkey: row.title,
      kind: row.kind,
      changedAt: row.changed_at,
      oldNs: row.old_namespace,
      oldDbkey: row.old_title,
    }));
  }

  async status(after: number): Promise<FeedStatus> {
    const generation = this.db.writeGeneration();
    const last = this.lastStatus;
    if (generation !== undefined && last?.generation === generation && last.after === after) return last.status;
    const s = this.db.schema;
    // The count's upper bound (always true) keeps it on the primary key: without statistics (the
    // embedded database has no autovacuum) `position > $1` alone was a sequential scan of the
    // whole feed, 17 ms at 100,000 changes, paid by every search (freshness.ts) for 0 rows.
    const r = await this.db.query<{ latest: number | null; pending: number; oldest: Date | null }>(
      `SELECT (SELECT max(position) FROM ${s}.page_change_feed) AS latest,
              (SELECT count(*)::int FROM ${s}.page_change_feed WHERE position > $1 AND position <= (SELECT max(position) FROM ${s}.page_change_feed)) AS pending,
              (SELECT changed_at FROM ${s}.page_change_feed WHERE position > $1 ORDER BY position LIMIT 1) AS oldest`,
      [after],
    );
    const row = r.rows[0]!;
    const status = { latestPosition: row.latest ?? 0, pending: row.pending, oldestPendingAt: row.oldest ?? undefined };
    // Inside a transaction the answer may hold its own uncommitted writes: not kept.
    if (generation !== undefined && !this.db.inTransaction()) this.lastStatus = { generation, after, status };
    return status;
  }

  /** Existing pages among `ids` with their latest revision's content; missing ids are left out. */
  async pagesForIndex(ids: number[]): Promise<IndexPageRow[]> {
    if (ids.length === 0) return [];
    const s = this.db.schema;
    const r = await this.db.query<{
      page_id: number;
      page_namespace: number;
      page_title: string;
      page_is_redirect: boolean;
      page_len: number;
      page_content_model: string;
      page_latest: number;
      content_text: string;
      rev_timestamp: Date;
      created: Date;
      rd_namespace: number | null;
      rd_title: string | null;
    }>(
      `SELECT p.page_id, p.page_namespace, p.page_title, p.page_is_redirect, p.page_len, p.page_content_model, p.page_latest,
              c.content_text, r.rev_timestamp,
              (SELECT min(f.rev_timestamp) FROM ${s}.revision f WHERE f.rev_page = p.page_id) AS created,
              rd.rd_namespace, rd.rd_title
         FROM ${s}.page p
         JOIN ${s}.revision r ON r.rev_id = p.page_latest
         JOIN ${s}.content c ON c.content_id = r.rev_content_id
         LEFT JOIN ${s}.redirect rd ON rd.rd_from = p.page_id AND p.page_is_redirect AND rd.rd_interwiki = ''
        WHERE p.page_id = ANY($1::bigint[])
        ORDER BY p.page_id`,
      [ids],
    );
    return r.rows.map((row) => ({
      pageId: row.page_id,
      ns: row.page_namespace,
      dbkey: row.page_title,
      title: this.codec.prefixedText(row.page_namespace, row.page_title),
      isRedirect: row.page_is_redirect,
      redirectTitle: row.rd_title !== null && row.rd_namespace !== null ? this.codec.prefixedText(row.rd_namespace, row.rd_title) : '',
      size: row.page_len,
      contentModel: row.page_content_model,
      text: row.content_text,
      touched: row.rev_timestamp,
      created: row.created,
      latestRevId: row.page_latest,
    }));
  }
}
