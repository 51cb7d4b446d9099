/*
 * Rendering RPCs: Parse (action=parse), ExpandTemplates (one text, or many in one call),
 * GetRevisionHtml (REST /html through the parser cache), GetLanguageLinks and RunJobs.
 */
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { invalidArgument, notFound } from '@quire/kit';
import type {
  ExpandTemplatesBatchRequest,
  ExpandTemplatesBatchResponse,
  ExpandTemplatesRequest,
  ExpandTemplatesResponse,
  GetRevisionHtmlRequest,
  GetRevisionHtmlResponse,
  LimitReport,
  ParseRequest,
  ParseResponse,
  RunJobsRequest,
  RunJobsResponse,
} from '@quire/proto/wiki/content/render/v1/render';
import type { GetLanguageLinksRequest, GetLanguageLinksResponse } from '@quire/proto/wiki/content/links/v1/links';
import { getSection } from '../edit/sections.js';
import { jsonTable } from '../content/json-table.js';
import type { JobQueue } from '../store/jobs.js';
import { languageLinksOf } from '../store/links.js';
import { findPage, type PageKeyRow } from '../store/pages.js';
import { revisionHtmlMeta } from '../store/parser-cache.js';
import { redirectTarget } from '../content/wikitext.js';
import { INTERWIKI } from '../render/render.js';
import { parseTreeXml } from '../render/parsetree.js';
import type { RenderOutput } from '../render/pool.js';
import type { RenderService, RevisionSource } from '../domain/render.js';
import type { RenderResult } from '../render/types.js';
import type { ContentContext } from './context.js';
import { parsePageTitleOrThrow } from './records.js';

/** Content models action=parse renders from supplied text: wikitext, the parsed code models, plain text. */
const PARSED_MODELS = new Set(['wikitext', 'css', 'javascript', 'json', 'text']);

/** Texts per ExpandTemplatesBatch call: bounds one call's work and its answer's size. */
export const MAX_BATCH_TEXTS = 5000;

const ts14 = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

function limitsMessage(l: RenderResult['limits'], at: Date): LimitReport {
  return {
    ppVisitedNodes: l.ppVisitedNodes,
    postExpandIncludeSize: l.postExpandIncludeSize,
    templateArgumentSize: l.templateArgumentSize,
    expansionDepth: l.expansionDepth,
    expensiveFunctions: l.expensiveFunctions,
    unstripSize: l.unstripSize,
    cpuSeconds: l.cpuSeconds,
    wallSeconds: l.wallSeconds,
    timingProfile: l.timingProfile,
    volatile: l.volatile,
    ttl: l.ttl,
    cachedTime: ts14(at),
  };
}

function categoriesMessage(r: RenderResult) {
  return r.categories.map((c) => ({ name: c.dbkey, sortkey: c.sortkey, missing: !c.exists }));
}

function propertiesMessage(r: RenderResult) {
  return Object.entries(r.properties).map(([name, value]) => ({ name, value }));
}

interface HtmlRendering {
  body: string;
  displayTitle: string;
  sha1Hex: string;
  renderedAt: string;
}

class RenderRpc {
  /** Recent renderings by "revision:rendered-at" (immutable, so never stale). */
  private readonly htmlMemory = new LRUCache<string, HtmlRendering>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (v) => v.body.length * 2 + 200 });

  constructor(
    private readonly ctx: ContentContext,
    private readonly svc: RenderService,
    private readonly jobs: JobQueue,
  ) {}

  private prefixed(ns: number, dbkey: string): string {
    return this.ctx.codec.prefixedText(ns, dbkey);
  }

  private toResponse(out: RenderResult, html: string, src: { ns: number; dbkey: string; pageId: number; revId: number; text: string }, at: Date): ParseResponse {
    const link = (l: { ns: number; dbkey: string; exists: boolean }) => ({ ns: l.ns, title: this.prefixed(l.ns, l.dbkey), exists: l.exists });
    return {
      title: this.prefixed(src.ns, src.dbkey),
      ns: src.ns,
      pageId: src.pageId,
      revId: src.revId,
      html,
      wikitext: src.text,
      displayTitle: out.displayTitle,
      links: out.links.map(link),
      templates: out.templates.map(link),
      categories: categoriesMessage(out),
      images: out.images,
      externalLinks: out.externalLinks,
      langLinks: out.langLinks.map((l) => ({ lang: l.lang, title: l.title, url: l.url, autonym: INTERWIKI[l.lang]?.language ?? '' })),
      iwLinks: out.interwikiLinks.map((l) => ({ prefix: l.prefix, title: l.title, url: l.url })),
      sections: out.sections.map((s) => ({ ...s, fromtitle: s.fromtitle ?? '', byteoffset: s.byteoffset ?? -1 })),
      showToc: out.showToc,
      properties: propertiesMessage(out),
      warnings: out.warnings,
      limits: limitsMessage(out.limits, at),
      redirects: [],
      revisionNotOf: '',
    };
  }

  /** The revision a parse request names (page, page id or revision id), following a redirect when asked. */
  private async sourceOf(req: ParseRequest): Promise<{ src: RevisionSource; redirects: ParseResponse['redirects'] }> {
    const { db } = this.ctx;
    let revId = req.revId;
    const redirects: ParseResponse['redirects'] = [];
    if (!revId) {
      let row: PageKeyRow | undefined;
      if (req.pageId) {
        row = await findPage(db, db.schema, { id: req.pageId });
        if (!row) throw notFound('nosuchpageid', `There is no page with ID ${req.pageId}.`);
      } else {
        const t = parsePageTitleOrThrow(this.ctx.codec, req.page);
        row = await findPage(db, db.schema, t);
        if (!row) throw notFound('missingtitle', "The page you specified doesn't exist.");
      }
      revId = row.latest;
      if (req.redirects) {
        const src = await this.svc.revision(revId);
        const to = src && redirectTarget(this.ctx.codec, src.text);
        if (to) {
          const target = await findPage(db, db.schema, to);
          if (target) {
            redirects.push({ from: this.prefixed(row.ns, row.dbkey), to: this.prefixed(to.ns, to.dbkey), tofragment: to.fragment });
            revId = target.latest;
          }
        }
      }
    }
    const src = await this.svc.revision(revId);
    if (!src) throw notFound('nosuchrevid', `There is no revision with ID ${revId}.`);
    return { src, redirects };
  }

  async parse(req: ParseRequest): Promise<ParseResponse> {
    if (req.contentModel && !PARSED_MODELS.has(req.contentModel))
      throw invalidArgument('badformat', `The requested format text/x-wiki is not supported for content model ${req.contentModel} used by ${req.title || 'API'}.`);
    const options = { limitReport: !req.disableLimitReport, editSections: !req.disableEditSection, ...(req.hasWrapClass ? { wrapClass: req.wrapClass } : {}) };
    if (req.hasText && (req.contentModel === 'css' || req.contentModel === 'javascript')) {
      const t = parsePageTitleOrThrow(this.ctx.codec, req.title || 'API');
      const at = new Date();
      const out = await this.svc.render({ text: req.text, title: { ns: t.ns, dbkey: t.dbkey }, pageId: 0, revId: 0, now: at, ...options, codeLanguage: req.contentModel === 'css' ? 'css' : 'js' });
      return this.toResponse(out, out.html, { ns: t.ns, dbkey: t.dbkey, pageId: 0, revId: 0, text: req.text }, at);
    }
    if (req.hasText && (req.contentModel === 'text' || req.contentModel === 'json')) {
      // TextContentHandler: not parsed; the text escaped (htmlspecialchars ENT_COMPAT), in ApiParse's
      // wrapper. JsonContentHandler: the value's tables, or the invalid-json-data message as is.
      const t = parsePageTitleOrThrow(this.ctx.codec, req.title || 'API');
      const escaped = req.contentModel === 'json' ? (jsonTable(req.text) ?? 'Invalid JSON: $1') : req.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      const wrap = req.hasWrapClass ? req.wrapClass : 'mw-parser-output';
      const html = wrap ? `<div class="${wrap.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}">${escaped}</div>` : escaped;
      // The page's other facts (display title, no links) are those of an empty parse.
      const at = new Date();
      const none = await this.svc.render({ text: '', title: { ns: t.ns, dbkey: t.dbkey }, pageId: 0, revId: 0, now: at, limitReport: false });
      return this.toResponse(none, html, { ns: t.ns, dbkey: t.dbkey, pageId: 0, revId: 0, text: req.text }, at);
    }
    const defaults = !req.disableLimitReport && !req.disableEditSection && !req.hasWrapClass && req.section === '';
    if (req.hasText) {
      const t = parsePageTitleOrThrow(this.ctx.codec, req.title || 'API');
      const text = this.section(req.text, req.section);
      const at = new Date();
      if (req.textRevId) {
        // ApiParse: the text is parsed as that revision of its page (its id, author and time).
        const rev = await this.svc.revision(req.textRevId);
        if (!rev) throw notFound('nosuchrevid', `There is no revision with ID ${req.textRevId}.`);
        const page = { ns: rev.ns, dbkey: rev.dbkey };
        const out = await this.svc.render({ text, title: page, pageId: rev.pageId, revId: rev.revId, revTimestamp: rev.timestamp.toISOString(), revUser: rev.userName, now: at, ...options });
        const otherPage = req.title !== '' && (t.ns !== rev.ns || t.dbkey !== rev.dbkey);
        return { ...this.toResponse(out, out.html, { ...page, pageId: rev.pageId, revId: 0, text }, at), revisionNotOf: otherPage ? this.prefixed(t.ns, t.dbkey) : '' };
      }
      const out = await this.svc.render({ text, title: { ns: t.ns, dbkey: t.dbkey }, pageId: 0, revId: 0, now: at, ...options });
      return this.toResponse(out, out.html, { ns: t.ns, dbkey: t.dbkey, pageId: 0, revId: 0, text }, at);
    }
    const { src, redirects } = await this.sourceOf(req);
    if (src.contentModel !== 'wikitext') throw invalidArgument('badformat', `Content model ${src.contentModel} cannot be rendered.`);
    if (defaults) {
      // A saved revision with default options: the parser cache.
      const c = await this.svc.cached(src, 'legacy');
      return { ...this.toResponse(c.meta, c.html, src, c.renderedAt), redirects };
    }
    const text = this.section(src.text, req.section);
    const at = new Date();
    const out: RenderOutput = await this.svc.render({
      text,
      title: { ns: src.ns, dbkey: src.dbkey },
      pageId: src.pageId,
      revId: src.revId,
      revTimestamp: src.timestamp.toISOString(),
      revUser: src.userName,
      now: at,
      ...options,
    });
    return { ...this.toResponse(out, out.html, { ...src, text }, at), redirects };
  }

  private section(text: string, section: string): string {
    if (section === '') return text;
    // ApiParse: a number, "T-" and a number (a template's section), or "new".
    if (!/^(?:(?:T-)?\d+|new)$/.test(section)) throw invalidArgument('invalidsection', 'The section parameter must be a valid section ID or "new".');
    if (section === 'new') return text;
    const found = getSection(text, section);
    if (found === undefined) throw invalidArgument('nosuchsection', `There is no section ${section}.`);
    return found;
  }

  async expandTemplates(req: ExpandTemplatesRequest): Promise<ExpandTemplatesResponse> {
    const t = parsePageTitleOrThrow(this.ctx.codec, req.title || 'API');
    const at = new Date();
    const out = await this.svc.render({ text: req.text, title: { ns: t.ns, dbkey: t.dbkey }, pageId: 0, revId: req.revId, now: at, expandOnly: true });
    return {
      wikitext: out.html,
      categories: categoriesMessage(out),
      properties: propertiesMessage(out),
      volatile: out.limits.volatile,
      ttl: out.limits.ttl,
      parseTree: parseTreeXml(req.text),
      limits: limitsMessage(out.limits, at),
    };
  }

  /** ExpandTemplates' wikitext for many texts of one title's context, in order. */
  async expandTemplatesBatch(req: ExpandTemplatesBatchRequest): Promise<ExpandTemplatesBatchResponse> {
    if (req.texts.length > MAX_BATCH_TEXTS) throw invalidArgument('toomanyvalues', `At most ${MAX_BATCH_TEXTS} texts per call.`);
    const t = parsePageTitleOrThrow(this.ctx.codec, req.title || 'API');
    const now = new Date();
    const title = { ns: t.ns, dbkey: t.dbkey };
    const results = await this.svc.renderBatch(req.texts.map((text) => ({ text, title, pageId: 0, revId: req.revId, now, expandOnly: true })));
    return { results: results.map((r) => (r.ok ? { wikitext: r.out.html, error: '' } : { wikitext: '', error: r.error })) };
  }

  /**
   * Revisions never change and a rendering is identified by its time, so a read needs one small
   * query (metadata and the cached rendering's time) and takes the HTML from memory when it has
   * that rendering; otherwise from the parser cache table, rendering on a miss.
   */
  async getRevisionHtml(req: GetRevisionHtmlRequest): Promise<GetRevisionHtmlResponse> {
    let revId = req.revId;
    if (!revId) {
      const t = parsePageTitleOrThrow(this.ctx.codec, req.title);
      const row = await findPage(this.ctx.db, this.ctx.db.schema, t);
      if (!row) throw notFound('missingtitle', "The page you specified doesn't exist.");
      revId = row.latest;
    }
    const meta = await revisionHtmlMeta(this.ctx.db, revId);
    if (!meta) throw notFound('nosuchrevid', `There is no revision with ID ${revId}.`);
    if (meta.content_model !== 'wikitext') throw invalidArgument('badformat', `Content model ${meta.content_model} cannot be rendered as HTML.`);
    const key = `${revId}:${meta.pc_rendered_at?.toISOString() ?? ''}`;
    let rendering = meta.pc_rendered_at ? this.htmlMemory.get(key) : undefined;
    if (!rendering) {
      const src = await this.svc.revision(revId);
      if (!src) throw notFound('nosuchrevid', `There is no revision with ID ${revId}.`);
      const c = await this.svc.cached(src, 'parsoid');
      rendering = { body: c.html, displayTitle: c.meta.displayTitle, sha1Hex: crypto.createHash('sha1').update(src.text).digest('hex'), renderedAt: c.renderedAt.toISOString() };
      this.htmlMemory.set(`${revId}:${c.renderedAt.toISOString()}`, rendering);
    }
    return {
      pageId: meta.page_id,
      ns: meta.page_namespace,
      dbkey: meta.page_title,
      title: this.prefixed(meta.page_namespace, meta.page_title),
      revId,
      parentId: meta.rev_parent_id ?? 0,
      revTimestamp: meta.rev_timestamp.toISOString(),
      sha1Hex: rendering.sha1Hex,
      contentModel: meta.content_model,
      body: rendering.body,
      renderedAt: rendering.renderedAt,
      displayTitle: rendering.displayTitle,
      latestRevId: meta.page_latest,
      touched: meta.page_touched.toISOString(),
    };
  }

  async getLanguageLinks(req: GetLanguageLinksRequest): Promise<GetLanguageLinksResponse> {
    const t = parsePageTitleOrThrow(this.ctx.codec, req.title);
    const page = await findPage(this.ctx.db, this.ctx.db.schema, t);
    if (!page) throw notFound('missingtitle', "The page you specified doesn't exist.");
    const links = await languageLinksOf(this.ctx.db, page.id);
    return {
      pageId: page.id,
      latestRevId: page.latest,
      touched: page.touched.toISOString(),
      links: links.map((r) => {
        const iw = INTERWIKI[r.ll_lang];
        return { lang: r.ll_lang, title: r.ll_title, url: iw ? iw.url.replace('$1', encodeURIComponent(r.ll_title.replaceAll(' ', '_'))) : '', autonym: iw?.language ?? r.ll_lang };
      }),
    };
  }

  async runJobs(req: RunJobsRequest): Promise<RunJobsResponse> {
    const r = await this.jobs.run(req.maxJobs > 0 ? req.maxJobs : 10, req.maxTimeMs > 0 ? req.maxTimeMs : 30_000);
    return { jobs: r.jobs.map((j) => ({ type: j.type, status: j.status, error: j.error ?? '', timeMs: j.time })), reached: r.reached, elapsedMs: r.elapsed };
  }
}

export function renderHandlers(ctx: ContentContext, svc: RenderService, jobs: JobQueue) {
  const rpc = new RenderRpc(ctx, svc, jobs);
  return {
    parse: (req: ParseRequest) => rpc.parse(req),
    expandTemplates: (req: ExpandTemplatesRequest) => rpc.expandTemplates(req),
    expandTemplatesBatch: (req: ExpandTemplatesBatchRequest) => rpc.expandTemplatesBatch(req),
    getRevisionHtml: (req: GetRevisionHtmlRequest) => rpc.getRevisionHtml(req),
    getLanguageLinks: (req: GetLanguageLinksRequest) => rpc.getLanguageLinks(req),
    runJobs: (req: RunJobsRequest) => rpc.runJobs(req),
  };
}
