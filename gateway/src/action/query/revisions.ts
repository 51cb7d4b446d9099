/*
 * prop=revisions (MediaWiki's ApiQueryRevisions + ApiQueryRevisionsBase). Three modes, as in
 * MediaWiki: the latest revision of each page, the revisions given by `revids`, or a range of
 * one page's history ("enumeration mode": rvlimit, rvstartid, rvendid, rvdir=newer).
 */
import type { Revision } from '../../clients/types.js';
import { ApiUsageError, META, setArrayType, setContentValue, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { messageOfFailure } from '../params.js';
import { checkIntegerRange, isoFromMwParam, type ParamFailure } from '../../validation/typedefs.js';
import { message } from '../errors.js';
import { badContinue, continueTimestampIso } from './continuation.js';
import { escapeHtmlNoQuotes, isoTimestamp, mwTimestamp } from './encoding.js';
import { addPageSubItem } from './pageset.js';
import { modulePath, queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';
import { CONTENT_OPTION_PARAMS, deriveContent, parseContentOptions, type DerivedContent } from './revisions-content.js';
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_TEXT, DELETED_USER, userCanSee } from '../../revdel.js';

export const REVISION_PROPS = [
  'ids',
  'flags',
  'timestamp',
  'user',
  'userid',
  'size',
  'slotsize',
  'sha1',
  'slotsha1',
  'contentmodel',
  'comment',
  'parsedcomment',
  'content',
  'tags',
  'roles',
  'parsetree',
] as const;
export const SLOT_ROLES = ['main'] as const;

/** ApiBase::LIMIT_BIG1/2, and LIMIT_SML1/2 when content is fetched. */
export function revisionLimits(withContent: boolean): { max: number; highMax: number } {
  return withContent ? { max: 50, highMax: 500 } : { max: 500, highMax: 5000 };
}

const DEFAULT_FORMATS: Record<string, string> = {
  wikitext: 'text/x-wiki',
  javascript: 'text/javascript',
  css: 'text/css',
  json: 'application/json',
  text: 'text/plain',
};

/** MediaWiki stores sha1 in base 36; the API prints it as 40 hex digits. */
export function sha1ToHex(sha1: string): string {
  if (sha1 === '' || /^[0-9a-f]{40}$/.test(sha1)) return sha1;
  let n = 0n;
  for (const ch of sha1.toLowerCase()) n = n * 36n + BigInt(parseInt(ch, 36));
  return n.toString(16).padStart(40, '0');
}

export interface RevisionOutputOptions {
  props: ReadonlySet<string>;
  /** rvslots values; undefined selects the deprecated legacy format. */
  slots: readonly string[] | undefined;
  /** Rights of the caller, for revision-deleted fields. */
  rights: readonly string[];
  /** parsedcomment by revision id (formatted in one batch before the output). */
  parsedComments?: ReadonlyMap<number, string>;
  /** prop=revisions' content options applied (rvsection, the deprecated content fields). */
  derived?: DerivedContent;
}

/** Bits IS_DELETED (1) and CANNOT_VIEW (2) of ApiQueryRevisionsBase::checkRevDel. */
function revDel(rev: Revision, field: number, rights: readonly string[]): { deleted: boolean; cannotView: boolean } {
  if (!(rev.deleted & field)) return { deleted: false, cannotView: false };
  return { deleted: true, cannotView: !userCanSee(rev.deleted, field, rights) };
}

/** ApiQueryRevisionsBase::extractSlotInfo for the main slot. */
function slotInfo(rev: Revision, o: RevisionOutputOptions): ResultObject {
  const vals = setArrayType({} as ResultObject, 'assoc');
  const text = revDel(rev, DELETED_TEXT, o.rights);
  if (o.props.has('slotsize')) vals.size = rev.size;
  if (o.props.has('slotsha1')) {
    if (text.deleted) vals.sha1hidden = true;
    if (!text.cannotView) vals.sha1 = sha1ToHex(rev.sha1);
  }
  if (o.props.has('contentmodel')) vals.contentmodel = rev.contentModel;
  if (o.props.has('content')) {
    if (text.deleted) vals.texthidden = true;
    if (!text.cannotView && rev.content === undefined) vals.textmissing = true;
  }
  return vals;
}

function contentFormat(rev: Revision): string {
  return rev.contentFormat || DEFAULT_FORMATS[rev.contentModel] || 'text/plain';
}

/** ApiQueryRevisionsBase::extractRevisionInfo. */
export function revisionInfo(rev: Revision, o: RevisionOutputOptions): ResultObject {
  const { props } = o;
  const vals: ResultObject = {};
  let anyHidden = false;
  if (props.has('ids')) {
    vals.revid = rev.id;
    vals.parentid = rev.parentId;
  }
  if (props.has('flags')) vals.minor = rev.minor;
  if (props.has('user') || props.has('userid')) {
    const user = revDel(rev, DELETED_USER, o.rights);
    if (user.deleted) {
      vals.userhidden = true;
      anyHidden = true;
    }
    if (!user.cannotView) {
      if (props.has('user')) vals.user = rev.userText;
      if (rev.userId === 0) vals.anon = true;
      if (props.has('userid')) vals.userid = rev.userId;
    }
  }
  if (props.has('timestamp')) vals.timestamp = isoTimestamp(rev.timestamp);
  if (props.has('size')) vals.size = rev.size;
  if (props.has('sha1')) {
    const text = revDel(rev, DELETED_TEXT, o.rights);
    if (text.deleted) {
      vals.sha1hidden = true;
      anyHidden = true;
    }
    if (!text.cannotView) vals.sha1 = sha1ToHex(rev.sha1);
  }
  if (props.has('roles')) vals.roles = setIndexedTagName(['main'], 'role');

  const derived = o.derived;
  const legacyExtra = o.slots === undefined ? derived?.legacy.get(rev.id) : undefined;
  const needSlots = props.has('content') || props.has('contentmodel') || props.has('slotsize') || props.has('slotsha1') || legacyExtra !== undefined;
  if (needSlots) {
    const text = revDel(rev, DELETED_TEXT, o.rights);
    if ((props.has('slotsha1') || props.has('content')) && text.deleted) anyHidden = true;
    const showContent = props.has('content') && !text.cannotView && rev.content !== undefined;
    if (o.slots === undefined) {
      // Legacy format: the main slot's fields merged into the revision (PHP `+=` keeps existing keys).
      for (const [k, v] of Object.entries(slotInfo(rev, o))) if (!k.startsWith('_') && !(k in vals)) vals[k] = v;
      if (derived) {
        // extractDeprecatedContent's fields (content, parsetree, diff…), also `+=`.
        if (legacyExtra && !text.cannotView) for (const [k, v] of Object.entries(legacyExtra)) if (k === META.CONTENT || !(k in vals)) vals[k] = v;
      } else if (showContent) {
        vals.contentformat = contentFormat(rev);
        if (!('contentmodel' in vals)) vals.contentmodel = rev.contentModel;
        setContentValue(vals, 'content', rev.content);
      }
    } else {
      const slots: ResultObject = { [META.KVP_MERGE]: true };
      if (o.slots.includes('main')) {
        const main = slotInfo(rev, o);
        if (derived?.noSuchSection.has(rev.id)) main.nosuchsection = true;
        else if (showContent) {
          main.contentmodel = rev.contentModel;
          main.contentformat = contentFormat(rev);
          setContentValue(main, 'content', derived?.text.get(rev.id) ?? rev.content);
        }
        slots.main = main;
      }
      vals.slots = setIndexedTagName(setArrayType(slots, 'kvp', 'role'), 'slot');
    }
  }
  if (props.has('comment')) {
    const comment = revDel(rev, DELETED_COMMENT, o.rights);
    if (comment.deleted) {
      vals.commenthidden = true;
      anyHidden = true;
    }
    if (!comment.cannotView) vals.comment = rev.comment;
  }
  if (props.has('parsedcomment')) {
    const comment = revDel(rev, DELETED_COMMENT, o.rights);
    if (comment.deleted) {
      vals.commenthidden = true;
      anyHidden = true;
    }
    if (!comment.cannotView) vals.parsedcomment = o.parsedComments?.get(rev.id) ?? escapeHtmlNoQuotes(rev.comment);
  }
  if (props.has('tags')) vals.tags = setIndexedTagName([...rev.tags], 'tag');
  if (anyHidden && rev.deleted & DELETED_RESTRICTED) vals.suppressed = true;
  return vals;
}

const LIST_OPTIONS = '"rvlimit", "rvstartid", "rvendid", "rvdir=newer", "rvuser", "rvexcludeuser", "rvstart", and "rvend"';
export const NOREVIDS_TEXT = `The "revids" parameter may not be used with the list options (${LIST_OPTIONS}).`;
export const SINGLEPAGE_TEXT = `"titles", "pageids" or a generator was used to supply multiple pages, but the ${LIST_OPTIONS} parameters may only be used on a single page.`;
export const DEPRECATION_HELP_TEXT =
  'Subscribe to the mediawiki-api-announce mailing list at <https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/> for notice of API deprecations and breaking changes.';

interface RevisionsParams {
  props: Set<string>;
  slots: string[] | undefined;
  limit: number | undefined;
  startid: number | undefined;
  endid: number | undefined;
  newer: boolean;
  continue: string | undefined;
  /** rvstart/rvend as ISO 8601. */
  start: string | undefined;
  end: string | undefined;
  user: string | undefined;
  excludeUser: string | undefined;
  tag: string | undefined;
}

/** rvtag outside enumeration mode: the revision must carry the tag (an unknown tag matches nothing). */
function hasTag(rev: Revision, tag: string | undefined): boolean {
  return tag === undefined || rev.tags.includes(tag);
}

function readParams(ctx: ContextOf<typeof params>): RevisionsParams {
  const p = ctx.params;
  return {
    props: new Set(p.prop ?? ['ids', 'timestamp', 'flags', 'comment', 'user']),
    slots: p.slots,
    limit: p.limit,
    startid: p.startid,
    endid: p.endid,
    newer: p.dir === 'newer',
    continue: p.continue,
    start: isoFromMwParam(p.start),
    end: isoFromMwParam(p.end),
    user: p.user,
    excludeUser: p.excludeuser,
    tag: p.tag,
  };
}

/**
 * The limit of a revision listing: "max" is the content-aware maximum for the caller (reported
 * under `limits`), a larger value is cut to it with a warning (LIMIT_SML1/2 with content,
 * LIMIT_BIG1/2 without).
 */
export function contentAwareLimit(ctx: ActionContext, requested: number, withContent: boolean): number {
  const { max, highMax } = revisionLimits(withContent);
  const curMax = ctx.highLimits ? highMax : max;
  const name = `${ctx.module.prefix}limit`;
  if (ctx.raw.get(name) === 'max') {
    const limits = (ctx.result.limits ??= {}) as ResultObject;
    limits[ctx.module.name] = curMax;
    return curMax;
  }
  // IntegerDef's range rule against the content-aware maximum: clamped with the validator's warning.
  const warn = (f: ParamFailure) => ctx.addWarning(modulePath(ctx.module), messageOfFailure(f));
  return checkIntegerRange(name, String(requested), requested, { min: 1, max, highMax }, { highLimits: ctx.highLimits, enforce: false, warn });
}

async function checkRevisionIdsExist(ctx: ContextOf<typeof params>, ids: { startid?: number; endid?: number }): Promise<void> {
  const wanted = [ids.startid, ids.endid].filter((id): id is number => id !== undefined);
  if (!wanted.length) return;
  const { badRevIds } = await ctx.deps.clients.content.resolvePages({ revIds: wanted });
  for (const name of ['startid', 'endid'] as const) {
    const id = ids[name];
    if (id !== undefined && badRevIds.includes(id)) {
      const param = `${ctx.module.prefix}${name}`;
      throw new ApiUsageError(`badid_${param}`, `No revision was found for parameter "${param}".`);
    }
  }
}

/** The revisions one run selects (in output order) and where the next run continues. */
interface Selection {
  revisions: Revision[];
  next?: string | number;
}

/** ApiQueryRevisions' three modes; undefined when the page set gives nothing to do. */
type Mode = 'enumeration' | 'revids' | 'latest';

function modeOf(ctx: ContextOf<typeof params>, run: QueryRun, p: RevisionsParams): Mode | undefined {
  const pageCount = run.pageSet.good.length;
  const revCount = run.pageSet.revisionPages.size;
  if (pageCount === 0 && revCount === 0) return undefined;
  const enumMode =
    p.limit !== undefined || p.startid !== undefined || p.endid !== undefined || p.newer || p.start !== undefined || p.end !== undefined || p.user !== undefined || p.excludeUser !== undefined;
  if (p.user !== undefined && p.excludeUser !== undefined) {
    const prefix = ctx.module.prefix;
    throw new ApiUsageError('invalidparammix', `The parameters "${prefix}user" and "${prefix}excludeuser" can not be used together.`);
  }
  if (revCount > 0 && enumMode) throw new ApiUsageError('invalidparammix', NOREVIDS_TEXT);
  if (pageCount > 1 && enumMode) throw new ApiUsageError('invalidparammix', SINGLEPAGE_TEXT);
  if (enumMode) return 'enumeration';
  return revCount > 0 ? 'revids' : 'latest';
}

async function selectEnumeration(ctx: ContextOf<typeof params>, run: QueryRun, p: RevisionsParams, limit: number, withContent: boolean): Promise<Selection> {
  const page = run.pageSet.good[0];
  if (!page) return { revisions: [] };
  await checkRevisionIdsExist(ctx, p);

  let continueId: number | undefined;
  if (p.continue !== undefined) {
    const parts = p.continue.split('|');
    if (parts.length !== 2 || !/^\d+$/.test(parts[1] ?? '')) throw badContinue();
    continueTimestampIso(parts[0] ?? ''); // TS_MW or ISO 8601, else badcontinue
    continueId = Number(parts[1]);
  }
  // Revision ids grow with time, so "from this id on" is MediaWiki's timestamp|id bound.
  const bounds = [p.startid, continueId].filter((id): id is number => id !== undefined);
  const startId = bounds.length ? (p.newer ? Math.max(...bounds) : Math.min(...bounds)) : 0;

  const resp = await ctx.deps.clients.content.getRevisions({
    pageIds: [page.id],
    limit: limit + 1,
    dirNewer: p.newer,
    startId,
    withContent,
    endId: p.endid ?? 0,
    startTimestamp: p.start ?? '',
    endTimestamp: p.end ?? '',
    user: p.user ?? '',
    excludeUser: p.excludeUser ?? '',
    tag: p.tag ?? '',
  });
  const next = resp.revisions[limit];
  return { revisions: resp.revisions.slice(0, limit), ...(next ? { next: `${mwTimestamp(next.timestamp)}|${next.id}` } : {}) };
}

async function selectRevids(ctx: ContextOf<typeof params>, run: QueryRun, p: RevisionsParams, limit: number, withContent: boolean): Promise<Selection> {
  // MediaWiki casts rvcontinue to an integer here without further checks.
  const from = p.continue !== undefined ? parseInt(p.continue, 10) || 0 : 0;
  const ids = [...run.pageSet.revisionPages.keys()].filter((id) => id >= from).sort((a, b) => a - b);
  const next = ids[limit];
  const selected = ids.slice(0, limit);
  const revisions = selected.length ? (await ctx.deps.clients.content.getRevisions({ revIds: selected, withContent })).revisions : [];
  return {
    revisions: [...revisions].sort((a, b) => a.id - b.id).filter((r) => hasTag(r, p.tag)),
    ...(next !== undefined ? { next } : {}),
  };
}

async function selectLatest(ctx: ContextOf<typeof params>, run: QueryRun, p: RevisionsParams, limit: number, withContent: boolean): Promise<Selection> {
  let pages = [...run.pageSet.good].sort((a, b) => a.id - b.id);
  if (p.continue !== undefined) {
    const parts = p.continue.split('|');
    if (parts.length !== 2) throw badContinue();
    const [pageId, revId] = parts.map((s) => parseInt(s, 10) || 0) as [number, number];
    pages = pages.filter((pg) => pg.id > pageId || (pg.id === pageId && pg.latestRevId >= revId));
  }
  const next = pages[limit];
  const selected = pages.slice(0, limit);
  const revisions = selected.length ? (await ctx.deps.clients.content.getRevisions({ pageIds: selected.map((pg) => pg.id), limit: 0, withContent })).revisions : [];
  return {
    revisions: [...revisions].sort((a, b) => a.pageId - b.pageId || a.id - b.id).filter((r) => hasTag(r, p.tag)),
    ...(next ? { next: `${next.id}|${next.latestRevId}` } : {}),
  };
}

const SELECT: Record<Mode, typeof selectLatest> = { enumeration: selectEnumeration, revids: selectRevids, latest: selectLatest };

const params = defineParams({
  prop: {
    type: REVISION_PROPS,
    multi: true,
    default: 'ids|timestamp|flags|comment|user',
    deprecatedValues: ['parsetree'],
    help: 'Which properties to get for each revision (parsetree: the XML parse tree of wikitext content, deprecated).',
  },
  slots: { type: SLOT_ROLES, multi: true, allowAll: true, help: 'Which revision slots to return data for. Without it, the deprecated legacy format is used.' },
  limit: { type: 'limit', min: 1, max: 500, highMax: 5000, help: 'Limit how many revisions will be returned (50 / 500 when content is fetched). Single page only.' },
  ...CONTENT_OPTION_PARAMS,
  startid: { type: 'integer', help: 'Start enumeration from this revision. Single page only.' },
  endid: { type: 'integer', help: 'Stop enumeration at this revision. Single page only.' },
  start: { type: 'timestamp', help: 'From which revision timestamp to start enumeration. Single page only.' },
  end: { type: 'timestamp', help: 'Enumerate up to this timestamp. Single page only.' },
  dir: { type: ['newer', 'older'], default: 'older', help: 'In which direction to enumerate. Single page only.' },
  user: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], help: 'Only include revisions made by user. Single page only.' },
  excludeuser: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], help: 'Exclude revisions made by user. Single page only.' },
  tag: { type: 'string', help: 'Only list revisions tagged with this tag.' },
  continue: { type: 'string', help: 'When more results are available, use this to continue.' },
});

export const revisionsModule = defineGenerator({
  name: 'revisions',
  group: 'prop',
  prefix: 'rv',
  summary: 'Get revision information.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&prop=revisions&titles=Main%20Page&rvslots=*&rvprop=timestamp|user|comment|content': 'Get the content and metadata of the latest revision of Main Page.',
    'action=query&prop=revisions&titles=Main%20Page&rvlimit=5&rvprop=timestamp|user|comment': 'Get the last 5 revisions of Main Page.',
    'action=query&prop=revisions&titles=Main%20Page&rvlimit=5&rvprop=timestamp|user|comment&rvdir=newer': 'Get the first 5 revisions of Main Page.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = readParams(ctx);
    const mode = modeOf(ctx, run, p);
    if (mode === undefined) return;

    const warn = (text: string, code: string) => ctx.addWarning(modulePath(ctx.module), { code, text });
    const contentOptions = await parseContentOptions(ctx, p.props, p.slots, warn);
    const withContent = contentOptions.fetchContent;
    const needSlots = withContent || ['contentmodel', 'slotsize', 'slotsha1'].some((f) => p.props.has(f));
    if (needSlots && p.slots === undefined) {
      // ApiBase::addDeprecation: the module's warning, then the mailing-list pointer for main.
      ctx.addWarning(modulePath(ctx.module), message('deprecation', 'apiwarn-deprecation-missingparam', ['rvslots'], { feature: 'action=query&prop=revisions&!rvslots' }));
      ctx.addWarning('main', message('deprecation-help', 'api-usage-mailinglist-ref'));
    }
    const out: RevisionOutputOptions = { props: p.props, slots: p.slots, rights: ctx.caller.user.rights };
    // Outside enumeration mode rvlimit does not apply: MediaWiki uses the maximum. rvparse: 1 at most.
    const { max, highMax } = revisionLimits(withContent);
    let limit = mode !== 'enumeration' ? (ctx.highLimits ? highMax : max) : p.limit === undefined ? 10 : contentAwareLimit(ctx, p.limit, withContent);
    if (contentOptions.parse) limit = 1;
    const selection = await SELECT[mode](ctx, run, p, limit, withContent);
    if (selection.next !== undefined) run.continuation.addContinueParam('revisions', 'rvcontinue', selection.next);
    const pageOf = (rev: Revision) => run.pages.get(run.pageSet.revisionPages.get(rev.id) ?? rev.pageId);
    if (p.props.has('parsedcomment')) {
      const shown = selection.revisions.filter((rev) => !revDel(rev, DELETED_COMMENT, out.rights).cannotView && pageOf(rev) !== undefined);
      const html = await ctx.deps.clients.content.formatComments(shown.map((rev) => ({ title: String(pageOf(rev)!.title), comment: rev.comment })));
      out.parsedComments = new Map(shown.map((rev, i) => [rev.id, html[i]!]));
    }
    if (withContent) {
      const titleOf = (rev: Revision) => String(pageOf(rev)?.title ?? '');
      out.derived = await deriveContent(ctx, contentOptions, selection.revisions, titleOf, p.slots === undefined, warn);
    }
    for (const rev of selection.revisions) {
      addPageSubItem(run.pages, run.pageSet.revisionPages.get(rev.id) ?? rev.pageId, 'revisions', 'rev', revisionInfo(rev, out));
    }
  },
  /**
   * ApiQueryRevisions in generator mode: the same three modes over the request's page set, the
   * selected revisions becoming the page set (as `revids` would). No content is read; the limit
   * is grvlimit in enumeration mode and 10 otherwise (ApiQueryRevisions reads the unset
   * parameter there: `getParameter( 'limit' ) ?: 10`).
   */
  async generate(ctx, run) {
    const p = readParams(ctx);
    const mode = modeOf(ctx, run, p);
    if (mode === undefined) return { revIds: [] };
    const limit = mode === 'enumeration' && p.limit !== undefined ? contentAwareLimit(ctx, p.limit, false) : 10;
    if (p.continue !== undefined) run.continuation.addGeneratorNonContinueParam('grvcontinue', p.continue);
    const selection = await SELECT[mode](ctx, run, p, limit, false);
    if (selection.next !== undefined) run.continuation.addGeneratorContinueParam('grvcontinue', selection.next);
    return { revIds: selection.revisions.map((r) => r.id) };
  },
});
