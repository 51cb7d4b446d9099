/*
 * action=compare (MediaWiki's ApiComparePages with wikidiff2): the gateway checks the parameter
 * combinations; the content service's Compare RPC resolves both sides and makes the HTML table
 * diff. Section replacement (fromsection-main, frompst) is not offered.
 */
import { CompareRelative, DiffFormat, type CompareSide, type CompareSideResult } from '@quire/proto/wiki/content/v1/content';
import { escapeHtml } from '../errors.js';
import { ApiUsageError, setContentValue, type ActionContext, type ParamDecl, type Params, type ResultObject } from '../types.js';
import { apiError } from './support.js';
import { defineModule } from '../define.js';

/** ContentHandlerFactory::getContentModels and getAllContentFormats of MediaWiki 1.39 core. */
const CONTENT_MODELS = ['wikitext', 'javascript', 'json', 'css', 'text'] as const;
const CONTENT_FORMATS = ['application/json', 'text/css', 'text/javascript', 'text/plain', 'text/x-wiki'] as const;
/** SlotRoleRegistry::getKnownRoles: only the main slot exists. */
const SLOT_ROLES = ['main'] as const;

const PROPS = ['diff', 'diffsize', 'rel', 'ids', 'title', 'user', 'comment', 'parsedcomment', 'size', 'timestamp'] as const;

const RELATIVE: Record<string, CompareRelative> = {
  prev: CompareRelative.COMPARE_RELATIVE_PREV,
  next: CompareRelative.COMPARE_RELATIVE_NEXT,
  cur: CompareRelative.COMPARE_RELATIVE_CUR,
};

/** RevisionRecord::DELETED_* bits. */
const DELETED_TEXT = 1;
const DELETED_COMMENT = 2;
const DELETED_USER = 4;
const DELETED_RESTRICTED = 8;

type Prefix = 'from' | 'to';

function sideParams(prefix: Prefix): Record<string, ParamDecl> {
  const which = prefix === 'from' ? 'First' : 'Second';
  return {
    [`${prefix}title`]: { type: 'string', help: `${which} title to compare.` },
    [`${prefix}id`]: { type: 'integer', help: `${which} page ID to compare.` },
    [`${prefix}rev`]: { type: 'integer', help: `${which} revision to compare.` },
    [`${prefix}slots`]: {
      type: SLOT_ROLES,
      multi: true,
      help: `Override content of the revision specified by ${prefix}title, ${prefix}id or ${prefix}rev. This parameter specifies the slots that are to be modified. Use ${prefix}text-{slot}, ${prefix}contentmodel-{slot}, and ${prefix}contentformat-{slot} to specify content for each slot.`,
    },
    [`${prefix}text-main`]: { type: 'text', help: `Text of the main slot. If omitted, the slot is removed from the revision.` },
    [`${prefix}contentformat-main`]: { type: CONTENT_FORMATS, help: `Content serialization format of ${prefix}text-main.` },
    [`${prefix}contentmodel-main`]: { type: CONTENT_MODELS, help: `Content model of ${prefix}text-main. If not supplied, it will be guessed based on the other parameters.` },
    [`${prefix}text`]: { type: 'text', deprecated: true, help: `Specify ${prefix}slots=main and use ${prefix}text-main instead.` },
    [`${prefix}contentformat`]: { type: CONTENT_FORMATS, deprecated: true, help: `Specify ${prefix}slots=main and use ${prefix}contentformat-main instead.` },
    [`${prefix}contentmodel`]: { type: CONTENT_MODELS, deprecated: true, help: `Specify ${prefix}slots=main and use ${prefix}contentmodel-main instead.` },
  };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** A multi-value parameter of a computed name (its type is not known statically). */
const strList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

/** ApiBase::requireAtLeastOneParameter, in MediaWiki's wording. */
function requireOneOf(p: Params, names: string[]): void {
  if (names.some((n) => p[n] !== undefined)) return;
  const quoted = names.map((n) => `<var>${n}</var>`);
  const list = `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
  throw apiError('missingparam', 'apierror-missingparam-at-least-one-of', [list, names.length]);
}

/** ApiComparePages::getDiffRevision's parameter checks, as one side of the RPC request. */
function compareSide(p: Params, prefix: Prefix): CompareSide {
  const text = str(p[`${prefix}text`]);
  const slots = strList(p[`${prefix}slots`]);
  if (text !== undefined && slots !== undefined) {
    throw apiError('invalidparammix', 'apierror-invalidparammix', [`<var>${prefix}slots</var> and <var>${prefix}text</var>`, 2]);
  }
  const revId = num(p[`${prefix}rev`]);
  const title = str(p[`${prefix}title`]);
  const pageId = num(p[`${prefix}id`]);
  // Ids that cannot exist never reach the service (which reads 0 as "not given").
  if (revId !== undefined && revId <= 0) throw new ApiUsageError('nosuchrevid', `There is no revision with ID ${revId}.`);
  if (revId === undefined && title === undefined && pageId !== undefined && pageId <= 0) throw new ApiUsageError('nosuchpageid', `There is no page with ID ${pageId}.`);
  const side: CompareSide = { revId: revId ?? 0, pageId: pageId ?? 0, title: title ?? '', contentModel: '' };
  if (text !== undefined) {
    side.text = text;
    side.contentModel = str(p[`${prefix}contentmodel`]) ?? '';
  } else if (slots?.includes('main')) {
    const slotText = str(p[`${prefix}text-main`]);
    if (slotText === undefined) {
      throw new ApiUsageError('compare-maintextrequired', `Parameter "${prefix}text-main" is required when "${prefix}slots" contains "main" (cannot delete the main slot).`);
    }
    side.text = slotText;
    side.contentModel = str(p[`${prefix}contentmodel-main`]) ?? '';
  }
  return side;
}

/** ApiComparePages::setVals for one side. */
function addSideVals(vals: ResultObject, prefix: Prefix, side: CompareSideResult | undefined, props: Set<string>, rights: readonly string[], parsedComment: string | undefined): void {
  const rev = side?.revision;
  const page = side?.page;
  if (!rev) return;
  const deleted = rev.deleted;
  const canSee = (field: number) =>
    (deleted & field) === 0 || (deleted & DELETED_RESTRICTED ? ['suppressrevision', 'viewsuppressed'] : field === DELETED_TEXT ? ['deletedtext'] : ['deletedhistory']).some((r) => rights.includes(r));
  if (props.has('ids')) {
    vals[`${prefix}id`] = page?.id ?? rev.pageId;
    vals[`${prefix}revid`] = rev.id;
  }
  if (props.has('title') && page) {
    vals[`${prefix}ns`] = page.ns;
    vals[`${prefix}title`] = page.title;
  }
  if (props.has('size')) vals[`${prefix}size`] = rev.size;
  if (props.has('timestamp')) vals[`${prefix}timestamp`] = rev.timestamp;
  if (deleted & DELETED_TEXT) vals[`${prefix}texthidden`] = true;
  if (deleted & DELETED_USER) vals[`${prefix}userhidden`] = true;
  if (props.has('user') && canSee(DELETED_USER)) {
    vals[`${prefix}user`] = rev.userText;
    vals[`${prefix}userid`] = rev.userId;
  }
  if (deleted & DELETED_COMMENT) vals[`${prefix}commenthidden`] = true;
  if ((props.has('comment') || props.has('parsedcomment')) && canSee(DELETED_COMMENT)) {
    if (props.has('comment')) vals[`${prefix}comment`] = rev.comment;
    if (props.has('parsedcomment')) vals[`${prefix}parsedcomment`] = parsedComment ?? escapeHtml(rev.comment);
  }
  if (deleted & (DELETED_TEXT | DELETED_USER | DELETED_COMMENT) && deleted & DELETED_RESTRICTED) vals[`${prefix}suppressed`] = true;
}

export const compareModule = defineModule({
  name: 'compare',
  group: 'action',
  prefix: '',
  summary: 'Get the difference between two pages.',
  params: (() => {
    const from = sideParams('from');
    const to = sideParams('to');
    // MediaWiki inserts torelative right after torev.
    const toEntries = Object.entries(to);
    const at = toEntries.findIndex(([k]) => k === 'torev') + 1;
    toEntries.splice(at, 0, ['torelative', { type: ['prev', 'next', 'cur'], help: 'Use a revision relative to the revision determined from fromtitle, fromid or fromrev. All of the other "to" options will be ignored.' }]);
    return {
      ...from,
      ...Object.fromEntries(toEntries),
      prop: { type: PROPS, multi: true, default: 'diff|ids|title', help: 'Which pieces of information to get.' },
    };
  })(),
  flags: {},
  examples: { 'action=compare&fromrev=1&torev=2': 'Create a diff between revision 1 and 2.' },
  async execute(ctx) {
    // The side parameters have computed names (fromtitle, totext-main…): read through Params.
    const p: Params = ctx.params;
    requireOneOf(p, ['fromtitle', 'fromid', 'fromrev', 'fromtext', 'fromslots']);
    requireOneOf(p, ['totitle', 'toid', 'torev', 'totext', 'torelative', 'toslots']);
    const props = new Set<string>(ctx.params.prop);
    const relative = str(p.torelative);
    const rights = ctx.caller.user.rights;
    const res = await ctx.deps.clients.content.compare({
      from: compareSide(p, 'from'),
      ...(relative === undefined ? { to: compareSide(p, 'to') } : { toRelative: RELATIVE[relative]! }),
      format: DiffFormat.DIFF_FORMAT_TABLE,
      withRelatives: props.has('rel'),
      canViewDeleted: rights.includes('deletedtext'),
      canViewSuppressed: rights.includes('suppressrevision') || rights.includes('viewsuppressed'),
    });
    for (const w of res.warnings) ctx.addWarning('compare', { code: w.code, text: w.text });

    const vals: ResultObject = {};
    // Both sides' comments formatted in one call, each linking autocomments to its own page.
    const commented = props.has('parsedcomment') ? [res.from, res.to].filter((s) => s?.revision && s.page) : [];
    const parsed = await ctx.deps.clients.content.formatComments(commented.map((s) => ({ title: s!.page!.title, comment: s!.revision!.comment })));
    const parsedOf = (side: CompareSideResult | undefined) => (side ? parsed[commented.indexOf(side)] : undefined);
    addSideVals(vals, 'from', res.from, props, rights, parsedOf(res.from));
    addSideVals(vals, 'to', res.to, props, rights, parsedOf(res.to));
    if (props.has('rel')) {
      if (res.from?.prevRevId) vals.prev = res.from.prevRevId;
      if (res.to?.nextRevId) vals.next = res.to.nextRevId;
    }
    if (props.has('diffsize')) vals.diffsize = Buffer.byteLength(res.tableHtml);
    if (props.has('diff')) setContentValue(vals, 'body', res.tableHtml);
    ctx.result.compare = vals;
  },
});
