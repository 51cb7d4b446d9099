import type { Db, Queryable } from '@quire/kit';
import { type PageProtection, pageProtectionFromRows, pageProtectionRows, type ProtectionRow } from './protection.js';

export interface RevisionRow {
  id: number;
  pageId: number;
  /** 0 for a page's first revision. */
  parentId: number;
  timestamp: Date;
  /** 0 for an anonymous editor. */
  userId: number;
  userText: string;
  comment: string;
  minor: boolean;
  deleted: number;
  size: number;
  sha1: string;
  contentModel: string;
  contentFormat: string;
  /** Present only when content was asked for. */
  content?: string;
  tags: string[];
  /** undefined when there is no parent revision. */
  parentSize?: number;
}

interface RevisionSqlRow {
  rev_id: number;
  rev_page: number;
  rev_parent_id: number | null;
  rev_timestamp: Date;
  actor_user: number | null;
  actor_name: string;
  rev_comment: string;
  rev_minor_edit: boolean;
  rev_deleted: number;
  rev_len: number;
  rev_sha1: string;
  content_model: string;
  content_format: string;
  content_text?: string;
  parent_len: number | null;
  tags: string[];
}

const toRevision = (r: RevisionSqlRow): RevisionRow => ({
  id: r.rev_id,
  pageId: r.rev_page,
  parentId: r.rev_parent_id ?? 0,
  timestamp: r.rev_timestamp,
  userId: r.actor_user ?? 0,
  userText: r.actor_name,
  comment: r.rev_comment,
  minor: r.rev_minor_edit,
  deleted: r.rev_deleted,
  size: r.rev_len,
  sha1: r.rev_sha1,
  contentModel: r.content_model,
  contentFormat: r.content_format,
  ...(r.content_text !== undefined ? { content: r.content_text } : {}),
  tags: r.tags,
  ...(r.parent_len !== null ? { parentSize: r.parent_len } : {}),
});

export interface PageForEdit {
  pageId: number;
  /** page_content_model as stored. */
  model: string;
  /** With content; undefined only for a page row without its revision (never after a save). */
  latest: RevisionRow | undefined;
  /** SHA-1s of the revisions before the latest, newest first. */
  sha1sBefore: string[];
  /** Whether the user asked about watches the page (false for user 0). */
  watch: { watched: boolean; expiry: Date | undefined };
  /** The page's own restrictions and cascading sources (checkProtection's reads, read along). */
  protection: PageProtection;
}

export interface RevisionRange {
  revisions: RevisionRow[];
  /** Id to continue from (inclusive), 0 when the range is exhausted. */
  nextId: number;
}

/** Reads of revisions with their actor, tags, parent size and (on request) content. */
export class RevisionStore {
  constructor(private readonly db: Db) {}

  private select(withContent: boolean): string {
    const s = this.db.schema;
    return `SELECT r.rev_id, r.rev_page, r.rev_parent_id, r.rev_timestamp, a.actor_user, a.actor_name, r.rev_comment,
        r.rev_minor_edit, r.rev_deleted, r.rev_len, r.rev_sha1, c.content_model, c.content_format,
        ${withContent ? 'c.content_text,' : ''} parent.rev_len AS parent_len,
        ARRAY(SELECT d.ctd_name FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id
              WHERE ct.ct_rev_id = r.rev_id ORDER BY d.ctd_name) AS tags
      FROM ${s}.revision r
      JOIN ${s}.actor a ON a.actor_id = r.rev_actor
      JOIN ${s}.content c ON c.content_id = r.rev_content_id
      LEFT JOIN ${s}.revision parent ON parent.rev_id = r.rev_parent_id`;
  }

  /** Revisions by id in ascending id order; unknown ids are absent. */
  async byIds(revIds: number[], withContent: boolean): Promise<RevisionRow[]> {
    if (revIds.length === 0) return [];
    const r = await this.db.query<RevisionSqlRow>(`${this.select(withContent)} WHERE r.rev_id = ANY($1::bigint[]) ORDER BY r.rev_id`, [revIds]);
    return r.rows.map(toRevision);
  }

  /** The latest revision of each existing page, in ascending page id order. */
  async latestOf(pageIds: number[], withContent: boolean): Promise<RevisionRow[]> {
    if (pageIds.length === 0) return [];
    const r = await this.db.query<RevisionSqlRow>(
      `${this.select(withContent)} JOIN ${this.db.schema}.page p ON p.page_latest = r.rev_id
       WHERE p.page_id = ANY($1::bigint[]) ORDER BY p.page_id`,
      [pageIds],
    );
    return r.rows.map(toRevision);
  }

  /**
   * An edit's starting point in one statement: the page by title with its latest
   * revision and content, the SHA-1s of the `radius` revisions before that one (a manual revert
   * restores one of them), whether `userId` watches the page (and until when) and its protection.
   */
  async pageForEdit(ns: number, dbkey: string, radius: number, userId: number): Promise<PageForEdit | undefined> {
    const s = this.db.schema;
    const r = await this.db.query<
      RevisionSqlRow & { edit_page_id: number; edit_page_model: string; edit_sha1s: string[]; edit_watched: boolean; edit_watch_expiry: Date | null; edit_protection: ProtectionRow[] }
    >(
      `SELECT sub.*, pg.page_id AS edit_page_id, pg.page_content_model AS edit_page_model,
          ARRAY(SELECT b.rev_sha1 FROM ${s}.revision b WHERE b.rev_page = pg.page_id AND b.rev_id < pg.page_latest ORDER BY b.rev_id DESC LIMIT ${Number(radius)}) AS edit_sha1s,
          w.wl_user IS NOT NULL AS edit_watched, w.wl_expiry AS edit_watch_expiry,
          (SELECT COALESCE(json_agg(pp ORDER BY pp.own DESC, pp.ord, pp.page_namespace, pp.page_title), '[]'::json) FROM (${pageProtectionRows(s, 'pg.page_id', 'pg.page_namespace', 'pg.page_title')}) pp) AS edit_protection
        FROM ${s}.page pg
        LEFT JOIN LATERAL (${this.select(true)} WHERE r.rev_id = pg.page_latest) sub ON true
        LEFT JOIN ${s}.watchlist w ON w.wl_user = $3 AND w.wl_namespace = pg.page_namespace AND w.wl_title = pg.page_title
          AND (w.wl_expiry IS NULL OR w.wl_expiry > now())
       WHERE pg.page_namespace = $1 AND pg.page_title = $2`,
      [ns, dbkey, userId],
    );
    const row = r.rows[0];
    if (!row) return undefined;
    return {
      pageId: row.edit_page_id,
      model: row.edit_page_model,
      latest: row.rev_id === null ? undefined : toRevision(row),
      sha1sBefore: row.edit_sha1s,
      watch: { watched: row.edit_watched, expiry: row.edit_watch_expiry ?? undefined },
      protection: pageProtectionFromRows(row.edit_protection),
    };
  }

  /** RevisionStore::getPreviousRevision / getNextRevision: the id of the revision before (or after) `rev` on its page. */
  async neighbourId(rev: { pageId: number; id: number }, direction: 'previous' | 'next'): Promise<number | undefined> {
    const [cmp, order] = direction === 'previous' ? ['<', 'DESC'] : ['>', 'ASC'];
    const r = await this.db.query<{ rev_id: number }>(`SELECT rev_id FROM ${this.db.schema}.revision WHERE rev_page = $1 AND rev_id ${cmp} $2 ORDER BY rev_id ${order} LIMIT 1`, [rev.pageId, rev.id]);
    return r.rows[0]?.rev_id;
  }

  /** The revision of a page saved at a time (the base of an edit given by basetimestamp). */
  async idAt(pageId: number, timestamp: Date): Promise<number | undefined> {
    const r = await this.db.query<{ rev_id: number }>(`SELECT rev_id FROM ${this.db.schema}.revision WHERE rev_page = $1 AND rev_timestamp = $2 ORDER BY rev_id DESC LIMIT 1`, [pageId, timestamp]);
    return r.rows[0]?.rev_id;
  }

  /** The user ids (null: anonymous) of the first `limit` revisions of a page saved after `since`, oldest first. */
  /** The user ids of the first `limit` revisions of a page after revision `afterId`, oldest first. */
  async authorIdsAfterRevision(pageId: number, afterId: number, limit: number): Promise<(number | null)[]> {
    const s = this.db.schema;
    const r = await this.db.query<{ actor_user: number | null }>(
      `SELECT a.actor_user FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor
        WHERE r.rev_page = $1 AND r.rev_id > $2 ORDER BY r.rev_id ASC LIMIT ${Number(limit)}`,
      [pageId, afterId],
    );
    return r.rows.map((row) => row.actor_user);
  }

  async authorIdsSince(pageId: number, since: Date, limit: number): Promise<(number | null)[]> {
    const s = this.db.schema;
    const r = await this.db.query<{ actor_user: number | null }>(
      `SELECT a.actor_user FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor
        WHERE r.rev_page = $1 AND r.rev_timestamp > $2 ORDER BY r.rev_timestamp ASC LIMIT ${Number(limit)}`,
      [pageId, since],
    );
    return r.rows.map((row) => row.actor_user);
  }

  /** The SHA-1s of the `limit` revisions of a page before revision `beforeId`, newest first. */
  async sha1sBefore(pageId: number, beforeId: number, limit: number): Promise<string[]> {
    const r = await this.db.query<{ rev_sha1: string }>(`SELECT rev_sha1 FROM ${this.db.schema}.revision WHERE rev_page = $1 AND rev_id < $2 ORDER BY rev_id DESC LIMIT ${Number(limit)}`, [
      pageId,
      beforeId,
    ]);
    return r.rows.map((row) => row.rev_sha1);
  }

  /**
   * Revisions matching a WHERE clause (over `r` revision, `a` actor), in the given ORDER BY and
   * LIMIT tail. For the stores built on this one (history); `params` are numbered from $1.
   */
  async where(where: string, params: unknown[], tail: string, withContent: boolean): Promise<RevisionRow[]> {
    const r = await this.db.query<RevisionSqlRow>(`${this.select(withContent)} WHERE ${where} ${tail}`, params);
    return r.rows.map(toRevision);
  }

  /**
   * Up to `limit` revisions of one page, newest first (or oldest first with `newer`), starting at
   * `startId` inclusive (0: from the end), within the optional filters of prop=revisions. Keyset
   * pagination on (rev_page, rev_id): the cost of a page does not grow with its depth in the history.
   */
  async range(pageId: number, opts: RangeOptions): Promise<RevisionRange> {
    const s = this.db.schema;
    const params: unknown[] = [pageId];
    const arg = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const [from, to] = opts.newer ? ['>=', '<='] : ['<=', '>='];
    const conds = ['r.rev_page = $1'];
    if (opts.startId > 0) conds.push(`r.rev_id ${from} ${arg(opts.startId)}`);
    if (opts.endId) conds.push(`r.rev_id ${to} ${arg(opts.endId)}`);
    if (opts.start) conds.push(`r.rev_timestamp ${from} ${arg(opts.start)}`);
    if (opts.end) conds.push(`r.rev_timestamp ${to} ${arg(opts.end)}`);
    if (opts.user) conds.push(`a.actor_name = ${arg(opts.user)}`);
    if (opts.excludeUser) conds.push(`a.actor_name <> ${arg(opts.excludeUser)}`);
    if (opts.tag) {
      conds.push(`EXISTS (SELECT 1 FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id
        WHERE ct.ct_rev_id = r.rev_id AND d.ctd_name = ${arg(opts.tag)})`);
    }
    const rows = await this.where(conds.join(' AND '), params, `ORDER BY r.rev_id ${opts.newer ? 'ASC' : 'DESC'} LIMIT ${arg(opts.limit + 1)}`, opts.withContent);
    const next = rows.length > opts.limit ? rows.pop() : undefined;
    return { revisions: rows, nextId: next?.id ?? 0 };
  }
}

export interface RangeOptions {
  limit: number;
  /** Oldest first. */
  newer: boolean;
  /** Start at this revision id (inclusive); 0 from the end. */
  startId: number;
  /** Stop at this revision id (inclusive). */
  endId?: number;
  /** Timestamps bounding the range (inclusive), in the direction of travel. */
  start?: Date;
  end?: Date;
  /** Only revisions by / not by this user name or IP. */
  user?: string;
  excludeUser?: string;
  /** Only revisions with this change tag. */
  tag?: string;
  withContent: boolean;
}

/** The newest `limit` revisions of a page with their author's name and content id, newest first. */
export async function latestAuthors(q: Queryable, schema: string, pageId: number, limit: number): Promise<{ rev_id: number; actor_name: string; rev_content_id: number }[]> {
  const r = await q.query<{ rev_id: number; actor_name: string; rev_content_id: number }>(
    `SELECT r.rev_id, a.actor_name, r.rev_content_id FROM ${schema}.revision r JOIN ${schema}.actor a ON a.actor_id = r.rev_actor
      WHERE r.rev_page = $1 ORDER BY r.rev_timestamp DESC, r.rev_id DESC LIMIT ${Number(limit)}`,
    [pageId],
  );
  return r.rows;
}

/** A content row's text, model and format. */
export async function contentById(q: Queryable, schema: string, contentId: number): Promise<{ content_text: string; content_model: string; content_format: string } | undefined> {
  const r = await q.query<{ content_text: string; content_model: string; content_format: string }>(`SELECT content_text, content_model, content_format FROM ${schema}.content WHERE content_id = $1`, [
    contentId,
  ]);
  return r.rows[0];
}
