/*
 * The parser cache table (HTML per revision and output mode) and the revision reads that renders
 * start from. The rules (renderer version, safety pass, when to render) are the render domain's
 * (`domain/render.ts`).
 */
import type { Db, Queryable } from '@quire/kit';
import type { OutputMode, RenderResult } from '../render/types.js';

/** A revision with its page and text: what a render of it needs. */
export interface RevisionSource {
  revId: number;
  pageId: number;
  ns: number;
  dbkey: string;
  text: string;
  timestamp: Date;
  contentModel: string;
  /** The revision's author (REVISIONUSER). */
  userName: string;
}

export interface ParserCacheRow {
  html: string;
  /** pc_meta as stored: the render's metadata and the renderer version that made the entry. */
  meta: RenderResult & { rendererVersion?: number };
  renderedAt: Date;
}

/** A revision with its page and text. */
export async function revisionSource(db: Db, revId: number): Promise<RevisionSource | undefined> {
  const s = db.schema;
  const r = await db.query<{
    rev_id: number;
    page_id: number;
    page_namespace: number;
    page_title: string;
    content_text: string;
    rev_timestamp: Date;
    content_model: string;
    actor_name: string | null;
  }>(
    `SELECT r.rev_id, p.page_id, p.page_namespace, p.page_title, c.content_text, r.rev_timestamp, c.content_model, a.actor_name
     FROM ${s}.revision r JOIN ${s}.page p ON p.page_id = r.rev_page JOIN ${s}.content c ON c.content_id = r.rev_content_id
     LEFT JOIN ${s}.actor a ON a.actor_id = r.rev_actor
     WHERE r.rev_id = $1`,
    [revId],
  );
  const row = r.rows[0];
  return (
    row && {
      revId: row.rev_id,
      pageId: row.page_id,
      ns: row.page_namespace,
      dbkey: row.page_title,
      text: row.content_text,
      timestamp: row.rev_timestamp,
      contentModel: row.content_model,
      userName: row.actor_name ?? '',
    }
  );
}

export async function parserCacheGet(db: Db, revId: number, mode: OutputMode): Promise<ParserCacheRow | undefined> {
  const r = await db.query<{ pc_html: string; pc_meta: ParserCacheRow['meta']; pc_rendered_at: Date }>(
    `SELECT pc_html, pc_meta, pc_rendered_at FROM ${db.schema}.parser_cache WHERE pc_rev_id = $1 AND pc_mode = $2`,
    [revId, mode],
  );
  const row = r.rows[0];
  return row && { html: row.pc_html, meta: row.pc_meta, renderedAt: row.pc_rendered_at };
}

/** Stores (or replaces) a rendering; answers the time it is stored with. */
export async function parserCachePut(db: Db, revId: number, mode: OutputMode, html: string, storedMeta: string): Promise<Date> {
  const r = await db.query<{ pc_rendered_at: Date }>(
    `INSERT INTO ${db.schema}.parser_cache (pc_rev_id, pc_mode, pc_html, pc_meta) VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (pc_rev_id, pc_mode) DO UPDATE SET pc_html = EXCLUDED.pc_html, pc_meta = EXCLUDED.pc_meta, pc_rendered_at = now() RETURNING pc_rendered_at`,
    [revId, mode, html, storedMeta],
  );
  return r.rows[0]?.pc_rendered_at ?? new Date();
}

/** Drops every rendering of a revision and stores its Parsoid one (the refreshLinks job's render), in the caller's transaction. */
export async function replaceParserCache(q: Queryable, schema: string, revId: number, parsoidHtml: string, storedMeta: string): Promise<void> {
  // One statement: the other modes go, the Parsoid row is replaced (rendered now).
  await q.query(
    `WITH d AS (DELETE FROM ${schema}.parser_cache WHERE pc_rev_id = $1 AND pc_mode <> 'parsoid')
     INSERT INTO ${schema}.parser_cache (pc_rev_id, pc_mode, pc_html, pc_meta) VALUES ($1, 'parsoid', $2, $3::jsonb)
     ON CONFLICT (pc_rev_id, pc_mode) DO UPDATE SET pc_html = EXCLUDED.pc_html, pc_meta = EXCLUDED.pc_meta, pc_rendered_at = now()`,
    [revId, parsoidHtml, storedMeta],
  );
}

/** What a revision's HTML read needs besides the HTML: revision, page and content model, and when its Parsoid rendering was cached. */
export async function revisionHtmlMeta(db: Db, revId: number) {
  const s = db.schema;
  const r = await db.query<{
    rev_parent_id: number | null;
    rev_timestamp: Date;
    page_id: number;
    page_namespace: number;
    page_title: string;
    page_latest: number;
    page_touched: Date;
    content_model: string;
    pc_rendered_at: Date | null;
  }>(
    `SELECT r.rev_parent_id, r.rev_timestamp, p.page_id, p.page_namespace, p.page_title, p.page_latest, p.page_touched, c.content_model, pc.pc_rendered_at
     FROM ${s}.revision r JOIN ${s}.page p ON p.page_id = r.rev_page JOIN ${s}.content c ON c.content_id = r.rev_content_id
     LEFT JOIN ${s}.parser_cache pc ON pc.pc_rev_id = r.rev_id AND pc.pc_mode = 'parsoid'
     WHERE r.rev_id = $1`,
    [revId],
  );
  return r.rows[0];
}

/** Drops every cached rendering of a revision. */
export async function dropParserCache(q: Queryable, schema: string, revId: number): Promise<void> {
  await q.query(`DELETE FROM ${schema}.parser_cache WHERE pc_rev_id = $1`, [revId]);
}
