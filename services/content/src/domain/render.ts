/*
 * Rendering in the content service: renders through the worker pool, keeps the parser cache
 * (HTML per revision and mode; a cached revision is never rendered again), and refreshes the link
 * tables from refreshLinks jobs, queueing re-renders of the pages that transclude a changed page.
 */
import type { Db, Logger } from '@quire/kit';
import { removeUnsafeAttributes } from '@quire/kit/html-safety';
import type { TitleCodec } from '../title/codec.js';
import { transcluders, writeLinks } from '../store/links.js';
import type { Job, JobQueue } from '../store/jobs.js';
import { DbPageLookup } from '../store/render-lookup.js';
import type { RenderOutput, RenderPool } from '../render/pool.js';
import { preSaveTransform, type PstUser } from '../render/transform/pst.js';
import type { OutputMode, RenderRequest, RenderResult, TitleRef } from '../render/types.js';

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

export interface CachedRender {
  html: string;
  meta: RenderResult;
  renderedAt: Date;
  /** Whether this read rendered (false: served from the parser cache). */
  rendered: boolean;
}

/**
 * Bumped when the renderer's output changes for the same wikitext, so parser-cache entries of an
 * older renderer are rendered again on their next read. 2: image link= as Parser::makeImage and
 * the HTML safety pass.
 */
const RENDERER_VERSION = 2;

export class RenderService {
  readonly lookup: DbPageLookup;

  constructor(
    private readonly db: Db,
    readonly codec: TitleCodec,
    private readonly pool: RenderPool,
    private readonly jobs: JobQueue,
    private readonly log: Logger,
  ) {
    this.lookup = new DbPageLookup(db);
    jobs.on('refreshLinks', (job) => this.refreshLinks(job));
  }

  render(req: RenderRequest): Promise<RenderOutput> {
    // Inside a transaction on the embedded database (an edit's pre-save transform), the worker
    // pool could deadlock: a render queued there behind another (the job runner's) whose lookups
    // wait for the one connection this transaction holds. Rendered here, lookups join the transaction.
    if (this.db.embedded && this.db.inTransaction()) return this.pool.renderInProcess(req, this.lookup);
    return this.pool.render(req, this.lookup);
  }

  /** A revision with its page and text. */
  async revision(revId: number): Promise<RevisionSource | undefined> {
    const s = this.db.schema;
    const r = await this.db.query<{ rev_id: number; page_id: number; page_namespace: number; page_title: string; content_text: string; rev_timestamp: Date; content_model: string; actor_name: string | null }>(
      `SELECT r.rev_id, p.page_id, p.page_namespace, p.page_title, c.content_text, r.rev_timestamp, c.content_model, a.actor_name
       FROM ${s}.revision r JOIN ${s}.page p ON p.page_id = r.rev_page JOIN ${s}.content c ON c.content_id = r.rev_content_id
       LEFT JOIN ${s}.actor a ON a.actor_id = r.rev_actor
       WHERE r.rev_id = $1`,
      [revId],
    );
    const row = r.rows[0];
    return row && { revId: row.rev_id, pageId: row.page_id, ns: row.page_namespace, dbkey: row.page_title, text: row.content_text, timestamp: row.rev_timestamp, contentModel: row.content_model, userName: row.actor_name ?? '' };
  }

  private requestFor(src: RevisionSource, mode: OutputMode): RenderRequest {
    return { text: src.text, title: { ns: src.ns, dbkey: src.dbkey }, pageId: src.pageId, revId: src.revId, revTimestamp: src.timestamp.toISOString(), revUser: src.userName, mode };
  }

  private static htmlOf(out: RenderOutput, mode: OutputMode): string {
    return mode === 'parsoid' ? (out.parsoidBody ?? '') : out.html;
  }

  private static metaOf(out: RenderOutput): RenderResult {
    const { html: _html, parsoidBody: _body, expanded: _expanded, ...meta } = out;
    return { ...meta, html: '' };
  }

  /** pc_meta as stored: the metadata and the renderer version that produced the entry. */
  private static storedMeta(meta: RenderResult): string {
    return JSON.stringify({ ...meta, rendererVersion: RENDERER_VERSION });
  }

  /** The revision's HTML from the parser cache, rendering and storing it on a miss. */
  async cached(src: RevisionSource, mode: OutputMode): Promise<CachedRender> {
    const s = this.db.schema;
    const hit = await this.db.query<{ pc_html: string; pc_meta: RenderResult; pc_rendered_at: Date }>(
      `SELECT pc_html, pc_meta, pc_rendered_at FROM ${s}.parser_cache WHERE pc_rev_id = $1 AND pc_mode = $2`,
      [src.revId, mode],
    );
    const row = hit.rows[0];
    // An entry of an older renderer is rendered again; and cached HTML passes the output stage's
    // safety pass once more, so nothing in the table is served without it.
    if (row && (row.pc_meta as RenderResult & { rendererVersion?: number }).rendererVersion === RENDERER_VERSION) return { html: removeUnsafeAttributes(row.pc_html), meta: { ...row.pc_meta, displayTitle: removeUnsafeAttributes(row.pc_meta.displayTitle ?? '') }, renderedAt: row.pc_rendered_at, rendered: false };
    const out = await this.render(this.requestFor(src, mode));
    const html = RenderService.htmlOf(out, mode);
    const meta = RenderService.metaOf(out);
    const stored = await this.db.query<{ pc_rendered_at: Date }>(
      `INSERT INTO ${s}.parser_cache (pc_rev_id, pc_mode, pc_html, pc_meta) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (pc_rev_id, pc_mode) DO UPDATE SET pc_html = EXCLUDED.pc_html, pc_meta = EXCLUDED.pc_meta, pc_rendered_at = now() RETURNING pc_rendered_at`,
      [src.revId, mode, html, RenderService.storedMeta(meta)],
    );
    return { html, meta, renderedAt: stored.rows[0]?.pc_rendered_at ?? new Date(), rendered: true };
  }

  /**
   * The refreshLinks job: renders the page's latest revision, replaces its link tables and its
   * parser cache entries in one transaction, and, when the page itself was edited, queues the
   * same job for every page that transcludes it.
   */
  private async refreshLinks(job: Job): Promise<void> {
    const s = this.db.schema;
    const page = await this.db.query<{ page_id: number; page_latest: number }>(`SELECT page_id, page_latest FROM ${s}.page WHERE page_namespace = $1 AND page_title = $2`, [job.ns, job.dbkey]);
    const row = page.rows[0];
    if (!row || row.page_latest === 0) return; // deleted meanwhile: nothing to refresh
    const src = await this.revision(row.page_latest);
    if (!src) return;
    if (src.contentModel !== 'wikitext') return;
    const out = await this.render(this.requestFor(src, 'parsoid'));
    const meta = RenderService.metaOf(out);
    await this.db.tx(async (q) => {
      // The page may have changed while rendering: a newer revision has its own job queued.
      const latest = await q.query<{ page_latest: number }>(`SELECT page_latest FROM ${s}.page WHERE page_id = $1 FOR UPDATE`, [row.page_id]);
      if (latest.rows[0]?.page_latest !== src.revId) return;
      await writeLinks(q, s, { id: src.pageId, ns: src.ns, dbkey: src.dbkey }, meta);
      await q.query(`DELETE FROM ${s}.parser_cache WHERE pc_rev_id = $1`, [src.revId]);
      await q.query(`INSERT INTO ${s}.parser_cache (pc_rev_id, pc_mode, pc_html, pc_meta) VALUES ($1, 'parsoid', $2, $3::jsonb)`, [src.revId, out.parsoidBody ?? '', RenderService.storedMeta(meta)]);
      if (job.params.cause !== 'template') {
        for (const p of await transcluders(q, s, src.ns, src.dbkey)) {
          if (p.id !== src.pageId) await this.jobs.push(q, 'refreshLinks', p.ns, p.dbkey, { pageId: p.id, cause: 'template' });
        }
      }
    });
    this.log.debug({ page: src.dbkey, rev: src.revId }, 'links refreshed');
  }
}

/** The pre-save transform of wikitext saved to a page by a user at a time (also what edits save). */
export type WikitextPst = (text: string, page: TitleRef, user: PstUser, now: Date) => Promise<string>;

export function wikitextPst(codec: TitleCodec, svc: RenderService): WikitextPst {
  return (text, page, user, now) =>
    preSaveTransform(text, {
      title: codec.prefixedText(page.ns, page.dbkey),
      user,
      now,
      expand: async (wikitext) => (await svc.render({ text: wikitext, title: page, pageId: 0, revId: 0, now, expandOnly: true })).html,
    });
}
