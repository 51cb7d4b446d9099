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
import { findPage } from '../store/pages.js';
import { parserCacheGet, parserCachePut, replaceParserCache, revisionSource, type RevisionSource } from '../store/parser-cache.js';
import type { RenderManyResult, RenderOutput, RenderPool } from '../render/pool.js';
import { preSaveTransform, type PstUser } from '../render/transform/pst.js';
import type { OutputMode, RenderRequest, RenderResult, TitleRef } from '../render/types.js';

export type { RevisionSource };

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

/**
 * Renders of a batch handed to one worker task: large enough that a batch of hundreds of short
 * texts (allmessages) costs a few hand-offs, small enough that other renders queued meanwhile
 * are not held up behind a whole batch, and that several threads share one.
 */
const BATCH_CHUNK = 64;

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

  /**
   * Renders one after the other as one unit under one render deadline (RenderPool.renderSequence):
   * in one worker task, or here inside a transaction on the embedded database (as render()).
   */
  renderSequence(reqs: RenderRequest[]): Promise<RenderManyResult[]> {
    return this.pool.renderSequence(reqs, this.lookup, this.db.embedded && this.db.inTransaction());
  }

  /**
   * Many renders answered in order, in chunks of BATCH_CHUNK per worker task (the chunks run side
   * by side on the pool's threads). A render that fails fails only its own entry.
   */
  async renderBatch(reqs: RenderRequest[]): Promise<RenderManyResult[]> {
    if (reqs.length === 0) return [];
    // As render(): inside a transaction on the embedded database, on the calling thread.
    if (this.db.embedded && this.db.inTransaction()) return this.pool.renderManyInProcess(reqs, this.lookup);
    const chunks: RenderRequest[][] = [];
    for (let i = 0; i < reqs.length; i += BATCH_CHUNK) chunks.push(reqs.slice(i, i + BATCH_CHUNK));
    const results = await Promise.all(
      chunks.map((chunk) =>
        // A task that fails as a whole (its worker thread died) fails the entries of its chunk only.
        this.pool.renderMany(chunk, this.lookup).catch((e: unknown): RenderManyResult[] => chunk.map(() => ({ ok: false, error: e instanceof Error ? e.message : String(e) }))),
      ),
    );
    const out = results.flat();
    const failed = out.filter((r): r is Extract<RenderManyResult, { ok: false }> => !r.ok);
    if (failed.length > 0) this.log.warn({ failed: failed.length, of: out.length, error: failed[0]!.error }, 'renders of a batch failed');
    return out;
  }

  /** A revision with its page and text. */
  revision(revId: number): Promise<RevisionSource | undefined> {
    return revisionSource(this.db, revId);
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
    const row = await parserCacheGet(this.db, src.revId, mode);
    // An entry of an older renderer is rendered again; and cached HTML passes the output stage's
    // safety pass once more, so nothing in the table is served without it.
    if (row && row.meta.rendererVersion === RENDERER_VERSION)
      return { html: removeUnsafeAttributes(row.html), meta: { ...row.meta, displayTitle: removeUnsafeAttributes(row.meta.displayTitle ?? '') }, renderedAt: row.renderedAt, rendered: false };
    const out = await this.render(this.requestFor(src, mode));
    const html = RenderService.htmlOf(out, mode);
    const meta = RenderService.metaOf(out);
    const renderedAt = await parserCachePut(this.db, src.revId, mode, html, RenderService.storedMeta(meta));
    return { html, meta, renderedAt, rendered: true };
  }

  /**
   * The refreshLinks job: renders the page's latest revision, replaces its link tables and its
   * parser cache entries in one transaction, and, when the page itself was edited, queues the
   * same job for every page that transcludes it.
   */
  private async refreshLinks(job: Job): Promise<void> {
    const s = this.db.schema;
    const row = await findPage(this.db, s, { ns: job.ns, dbkey: job.dbkey });
    if (!row || row.latest === 0) return; // deleted meanwhile: nothing to refresh
    const src = await this.revision(row.latest);
    if (!src) return;
    if (src.contentModel !== 'wikitext') return;
    const out = await this.render(this.requestFor(src, 'parsoid'));
    const meta = RenderService.metaOf(out);
    await this.db.tx(async (q) => {
      // The page may have changed while rendering: a newer revision has its own job queued.
      const latest = await findPage(q, s, { id: row.id }, { forUpdate: true });
      if (latest?.latest !== src.revId) return;
      await writeLinks(q, s, { id: src.pageId, ns: src.ns, dbkey: src.dbkey }, meta);
      await replaceParserCache(q, s, src.revId, out.parsoidBody ?? '', RenderService.storedMeta(meta));
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
      titleText: page.dbkey.replaceAll('_', ' '),
      user,
      now,
      expandAll: async (texts) =>
        (await svc.renderSequence(texts.map((text) => ({ text, title: page, pageId: 0, revId: 0, now, expandOnly: true })))).map((r) => {
          if (!r.ok) throw new Error(r.error);
          return r.out.html;
        }),
    });
}
