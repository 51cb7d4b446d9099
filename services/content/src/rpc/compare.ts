import { invalidArgument, notFound, permissionDenied } from '@quire/kit';
import {
  CompareRelative,
  DiffFormat,
  type CompareRequest,
  type CompareResponse,
  type CompareSide,
  type CompareSideResult,
  type CompareWarning,
} from '@quire/proto/wiki/content/revisions/v1/revisions';
import type { PageRecord } from '@quire/proto/wiki/content/v1/common';
import type { ContentContext } from './context.js';
import { pageRecord, parsePageTitleOrThrow, revisionMessage } from './records.js';
import type { RevisionRow } from '../store/revisions.js';
import { defaultModelFor } from '../edit/models.js';
import { tableDiff } from '../diff/table.js';
import { inlineDiff } from '../diff/inline.js';
import { formatInlineJsonDiff, inlineJsonDiff } from '../diff/inline-json.js';
import { flatSections } from '../diff/sections.js';

/*
 * action=compare's resolution of its two sides (ApiComparePages::getDiffRevision and torelative)
 * and the diff of their texts. The error codes and texts are MediaWiki's; `side` in the error
 * data says which side failed (the REST route names it in its message).
 */

/** Revision deletion bits (RevisionRecord::DELETED_*). */
const DELETED_TEXT = 1;
const DELETED_RESTRICTED = 8;

/** One side as the diff sees it: its text, and the stored revision it came from (if any). */
interface Side {
  text: string;
  /** The stored revision holding `text`; undefined for supplied text and dummy revisions. */
  stored?: RevisionRow;
  /** The revision named by the request even when text was supplied (the base of torelative). */
  named?: RevisionRow;
  /** Whose metadata the response reports (MediaWiki's "vals" revision). */
  vals?: RevisionRow;
}

class Comparison {
  readonly warnings: CompareWarning[] = [];
  private readonly pages = new Map<number, PageRecord>();

  constructor(
    private readonly ctx: ContentContext,
    private readonly req: CompareRequest,
  ) {}

  private async revision(id: number, prefix: 'from' | 'to'): Promise<RevisionRow> {
    const [rev] = await this.ctx.revisions.byIds([id], true);
    if (!rev) throw notFound('nosuchrevid', `There is no revision with ID ${id}.`, { side: prefix, revid: id });
    return rev;
  }

  async page(id: number): Promise<PageRecord | undefined> {
    let page = this.pages.get(id);
    if (!page) {
      const [row] = await this.ctx.pages.byIds([id]);
      if (!row) return undefined;
      page = pageRecord(this.ctx.codec, row);
      this.pages.set(id, page);
    }
    return page;
  }

  /** The revision adjacent to `rev` in its page's history, ordered by (timestamp, id) as MediaWiki. */
  async relative(rev: RevisionRow, dir: 'prev' | 'next'): Promise<RevisionRow | undefined> {
    const [cmp, order] = dir === 'prev' ? ['<', 'DESC'] : ['>', 'ASC'];
    const [row] = await this.ctx.revisions.where(
      `r.rev_page = $1 AND (r.rev_timestamp ${cmp} $2 OR (r.rev_timestamp = $2 AND r.rev_id ${cmp} $3))`,
      [rev.pageId, rev.timestamp, rev.id],
      `ORDER BY r.rev_timestamp ${order}, r.rev_id ${order} LIMIT 1`,
      true,
    );
    return row;
  }

  /** ApiComparePages::getDiffRevision. */
  async resolve(side: CompareSide | undefined, prefix: 'from' | 'to'): Promise<Side> {
    const s = side ?? { revId: 0, pageId: 0, title: '', contentModel: '' };
    const supplied = s.text !== undefined;
    let revId = 0;
    let titleModel: string | undefined;
    if (s.revId > 0) revId = s.revId;
    else if (s.title !== '' || s.pageId > 0) {
      if (s.title !== '') {
        const t = parsePageTitleOrThrow(this.ctx.codec, s.title);
        const [row] = await this.ctx.pages.byTitles([{ ns: t.ns, dbkey: t.dbkey }]);
        titleModel = row?.contentModel ?? defaultModelFor(t.ns, t.dbkey);
        if (row) revId = row.latestRevId;
        else if (!supplied) {
          throw notFound('missingtitle', `The page ${this.ctx.codec.prefixedText(t.ns, t.dbkey)} doesn't exist.`, { side: prefix });
        }
      } else {
        const [row] = await this.ctx.pages.byIds([s.pageId]);
        if (!row) throw notFound('nosuchpageid', `There is no page with ID ${s.pageId}.`, { side: prefix });
        titleModel = row.contentModel;
        revId = row.latestRevId;
      }
    }
    const rev = revId > 0 ? await this.revision(revId, prefix) : undefined;
    if (!supplied) return { text: rev?.content ?? '', ...(rev ? { stored: rev, named: rev, vals: rev } : {}) };

    if (s.contentModel === '' && !rev && titleModel === undefined && !(await this.modelGuessable())) {
      // MediaWiki reports a repeated warning once.
      if (!this.warnings.some((w) => w.code === 'compare-nocontentmodel')) {
        this.warnings.push({ code: 'compare-nocontentmodel', text: 'No content model could be determined, assuming wikitext.' });
      }
    }
    return { text: s.text!, ...(rev ? { named: rev } : {}) };
  }

  /** ApiComparePages::guessModel: another side names a revision, page or title, or a model. */
  private async modelGuessable(): Promise<boolean> {
    for (const s of [this.req.from, this.req.to]) {
      if (!s) continue;
      if (s.contentModel !== '' || s.title !== '') return true;
      if (s.revId > 0 && (await this.ctx.revisions.byIds([s.revId], false)).length > 0) return true;
      if (s.pageId > 0 && (await this.ctx.pages.byIds([s.pageId])).length > 0) return true;
    }
    return false;
  }

  async titleOf(rev: RevisionRow): Promise<string> {
    return (await this.page(rev.pageId))?.title ?? '';
  }

  /** RevisionRecord::userCan(DELETED_TEXT) for the caller. */
  checkVisible(rev: RevisionRow | undefined, prefix: 'from' | 'to'): void {
    if (!rev || (rev.deleted & DELETED_TEXT) === 0) return;
    const allowed = (rev.deleted & DELETED_RESTRICTED) !== 0 ? this.req.canViewSuppressed : this.req.canViewDeleted;
    if (!allowed) throw permissionDenied('missingcontent', `Missing content for revision ID ${rev.id}.`, { side: prefix, revid: rev.id });
  }

  async sideResult(vals: RevisionRow | undefined, text: string): Promise<CompareSideResult> {
    const result: CompareSideResult = { prevRevId: 0, nextRevId: 0, sections: this.req.withSections ? flatSections(text) : [] };
    if (vals) {
      const { content: _content, ...meta } = revisionMessage(vals);
      result.revision = meta;
      const page = await this.page(vals.pageId);
      if (page) result.page = page;
    }
    return result;
  }
}

async function compare(ctx: ContentContext, req: CompareRequest): Promise<CompareResponse> {
  const c = new Comparison(ctx, req);
  let from = await c.resolve(req.from, 'from');
  let to: Side;
  if (req.toRelative !== CompareRelative.COMPARE_RELATIVE_NONE) {
    const base = from.named;
    if (!base) throw invalidArgument('compare-relative-to-nothing', 'No \'from\' revision for "torelative" to be relative to.');
    if (req.toRelative === CompareRelative.COMPARE_RELATIVE_PREV) {
      to = from;
      const prev = await c.relative(base, 'prev');
      if (prev) from = { text: prev.content ?? '', stored: prev, named: prev, vals: prev };
      else {
        c.warnings.push({
          code: 'compare-no-prev',
          text: `Revision ${base.id} is the earliest revision of ${await c.titleOf(base)}, there is no revision for "torelative=prev" to compare to.`,
        });
        from = { text: '' };
      }
    } else if (req.toRelative === CompareRelative.COMPARE_RELATIVE_NEXT) {
      const next = await c.relative(base, 'next');
      if (next) to = { text: next.content ?? '', stored: next, named: next, vals: next };
      else {
        c.warnings.push({
          code: 'compare-no-next',
          text: `Revision ${base.id} is the latest revision of ${await c.titleOf(base)}, there is no revision for "torelative=next" to compare to.`,
        });
        // The web UI treats "next" as "cur" here: the same content, no metadata repeated.
        to = { text: base.content ?? '' };
      }
    } else {
      const page = await c.page(base.pageId);
      const [latest] = page ? await ctx.revisions.byIds([page.latestRevId], true) : [];
      if (!latest) throw notFound('nosuchrevid', `No current revision of title ${page?.title ?? ''}.`, { side: 'to' });
      to = { text: latest.content ?? '', stored: latest, named: latest, vals: latest };
    }
  } else to = await c.resolve(req.to, 'to');

  c.checkVisible(from.stored, 'from');
  c.checkVisible(to.stored, 'to');

  const response: CompareResponse = {
    from: await c.sideResult(from.vals, from.text),
    to: await c.sideResult(to.vals, to.text),
    tableHtml: '',
    inlineJson: '',
    warnings: c.warnings,
  };
  if (req.withRelatives) {
    if (from.stored) response.from!.prevRevId = (await c.relative(from.stored, 'prev'))?.id ?? 0;
    if (to.stored) response.to!.nextRevId = (await c.relative(to.stored, 'next'))?.id ?? 0;
  }
  if (req.format === DiffFormat.DIFF_FORMAT_INLINE_JSON) response.inlineJson = formatInlineJsonDiff(inlineJsonDiff(from.text, to.text));
  else if (req.format === DiffFormat.DIFF_FORMAT_INLINE) response.tableHtml = inlineDiff(from.text, to.text);
  else response.tableHtml = tableDiff(from.text, to.text);
  return response;
}

export function compareHandlers(ctx: ContentContext) {
  return {
    compare: (req: CompareRequest) => compare(ctx, req),
  };
}
