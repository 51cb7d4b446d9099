/*
 * action=compare (MediaWiki's ApiComparePages with wikidiff2): the gateway checks the parameter
 * combinations; the content service's Compare RPC resolves both sides and makes the HTML table
 * diff. Before it, the gateway applies the deprecated fromsection/tosection (the section of a
 * side's content) and frompst/topst (the pre-save transform of supplied text). Section
 * replacement (fromsection-main) is not offered; difftype=inline is wikidiff2's inline HTML.
 */
import { CompareRelative, DiffFormat, type CompareSide, type CompareSideResult } from '../../clients/types.js';
import { escapeHtml } from '../errors.js';
import { ApiUsageError, setContentValue, type ActionContext, type ParamDecl, type Params, type ResultObject } from '../types.js';
import { apiError } from './support.js';
import { defineModule } from '../define.js';
import { CONTENT_FORMAT_VALUES as CONTENT_FORMATS, CONTENT_MODEL_VALUES as CONTENT_MODELS, supportsFormat } from '../content-formats.js';
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_TEXT, DELETED_USER, textAccess, userCanSee } from '../../revdel.js';
import { signaturePreference } from '../../signature.js';

/** ContentHandlerFactory::getContentModels and getAllContentFormats of MediaWiki 1.39 core. */
/** SlotRoleRegistry::getKnownRoles: only the main slot exists. */
const SLOT_ROLES = ['main'] as const;

const PROPS = ['diff', 'diffsize', 'rel', 'ids', 'title', 'user', 'comment', 'parsedcomment', 'size', 'timestamp'] as const;

const RELATIVE: Record<string, CompareRelative> = {
  prev: CompareRelative.COMPARE_RELATIVE_PREV,
  next: CompareRelative.COMPARE_RELATIVE_NEXT,
  cur: CompareRelative.COMPARE_RELATIVE_CUR,
};

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
    [`${prefix}pst`]: { type: 'boolean', default: false, help: `Do a pre-save transform on ${prefix}text-{slot}.` },
    [`${prefix}text`]: { type: 'text', deprecated: true, help: `Specify ${prefix}slots=main and use ${prefix}text-main instead.` },
    [`${prefix}contentformat`]: { type: CONTENT_FORMATS, deprecated: true, help: `Specify ${prefix}slots=main and use ${prefix}contentformat-main instead.` },
    [`${prefix}contentmodel`]: { type: CONTENT_MODELS, deprecated: true, help: `Specify ${prefix}slots=main and use ${prefix}contentmodel-main instead.` },
    [`${prefix}section`]: { type: 'string', deprecated: true, help: `Only use the specified section of the specified '${prefix}' content.` },
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

/** The text and model of what a side names without supplied text (a revision, or a page's latest); undefined when there is none. */
async function sideContent(ctx: ActionContext, side: CompareSide): Promise<{ text: string; model: string; revId: number; reported: CompareSideResult } | undefined> {
  const { content } = ctx.deps.clients;
  let pageId = side.pageId;
  if (!side.revId && !pageId && side.title) pageId = (await content.resolvePages({ titles: [side.title] })).pages[0]?.id ?? 0;
  if (!side.revId && !pageId) return undefined;
  const rev = (await content.getRevisions(side.revId ? { revIds: [side.revId], withContent: true } : { pageIds: [pageId], limit: 0, withContent: true })).revisions[0];
  if (rev?.content === undefined) return undefined;
  const page = (await content.resolvePages({ pageIds: [rev.pageId] })).pages[0];
  const { content: text, ...meta } = rev;
  return { text, model: rev.contentModel, revId: rev.id, reported: { revision: meta, ...(page ? { page } : {}), prevRevId: 0, nextRevId: 0, sections: [] } };
}

/** The prefixed title a side belongs to, for the pre-save transform ('' when none). */
async function sideTitle(ctx: ActionContext, side: CompareSide): Promise<string> {
  if (side.title) return side.title;
  const pageId = side.pageId || (side.revId ? ((await ctx.deps.clients.content.getRevisions({ revIds: [side.revId] })).revisions[0]?.pageId ?? 0) : 0);
  if (!pageId) return '';
  const page = (await ctx.deps.clients.content.resolvePages({ pageIds: [pageId] })).pages[0];
  return page && !page.missing ? page.title : '';
}

/**
 * ApiComparePages::getDiffRevision's content options of one side: the supplied text's format
 * (a mismatch is `badmodelformat` — MediaWiki 1.39 throws an internal error there), the
 * deprecated fromsection/tosection (the section of the side's content, its revision still
 * reported) and frompst/topst (the pre-save transform of supplied wikitext, which needs a title).
 */
async function refineSide(ctx: ActionContext, p: Params, prefix: Prefix, side: CompareSide): Promise<{ side: CompareSide; reported?: CompareSideResult }> {
  let out = side;
  let reported: CompareSideResult | undefined;
  const format = str(p[`${prefix}contentformat`]) ?? str(p[`${prefix}contentformat-main`]);
  if (out.text !== undefined && format !== undefined) {
    const model = out.contentModel || 'wikitext';
    if (!supportsFormat(model, format)) throw new ApiUsageError('badmodelformat', `The requested format ${format} is not supported for content model ${model}.`);
  }
  const section = str(p[`${prefix}section`]);
  if (section !== undefined) {
    const base = out.text !== undefined ? { text: out.text, model: out.contentModel || 'wikitext', revId: out.revId, reported: undefined } : await sideContent(ctx, out);
    if (base) {
      reported = base.reported;
      const [found] = base.model === 'wikitext' && /^\d+$/.test(section) ? await ctx.deps.clients.archive.extractSections([base.text], section) : [undefined];
      if (found === undefined) throw new ApiUsageError(`nosuch${prefix}section`, `There is no section ${section} in the '${prefix}' content.`);
      // The revision stays the side (reported as such), its content replaced by the section.
      out = { ...out, revId: base.revId, text: found, contentModel: base.model };
    }
  }
  if (p[`${prefix}pst`] === true && side.text !== undefined && out.text !== undefined) {
    const title = await sideTitle(ctx, out);
    if (!title) {
      if (!out.contentModel) ctx.addWarning('compare', { code: 'compare-nocontentmodel', text: 'No content model could be determined, assuming wikitext.' });
      throw new ApiUsageError('compare-no-title', 'Cannot pre-save transform without a title. Try specifying "fromtitle" or "totitle".');
    }
    if ((out.contentModel || 'wikitext') === 'wikitext') {
      const user = ctx.caller.user;
      out = {
        ...out,
        text: (
          await ctx.deps.clients.content.preSaveTransform({
            text: out.text,
            title,
            userName: user.name,
            userAnonymous: user.anonymous,
            signature: await signaturePreference(ctx.deps, ctx.caller, [out.text]),
          })
        ).text,
      };
    }
  }
  return { side: out, ...(reported ? { reported } : {}) };
}

/** DifferenceEngine for a model without a diff engine (FallbackContentHandler's `unknown`). */
const UNSUPPORTED_DIFF = (model: string) => `<tr><td colspan="4" class="error">Diffs are not supported for content model ${model}.</td></tr>`;

/** ApiComparePages::setVals for one side. */
function addSideVals(vals: ResultObject, prefix: Prefix, side: CompareSideResult | undefined, props: Set<string>, rights: readonly string[], parsedComment: string | undefined): void {
  const rev = side?.revision;
  const page = side?.page;
  if (!rev) return;
  const deleted = rev.deleted;
  const canSee = (field: number) => userCanSee(deleted, field, rights);
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
    // ApiComparePages::setVals formats the comment for either prop.
    vals[`${prefix}parsedcomment`] = parsedComment ?? escapeHtml(rev.comment);
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
    toEntries.splice(at, 0, [
      'torelative',
      { type: ['prev', 'next', 'cur'], help: 'Use a revision relative to the revision determined from fromtitle, fromid or fromrev. All of the other "to" options will be ignored.' },
    ]);
    return {
      ...from,
      ...Object.fromEntries(toEntries),
      prop: { type: PROPS, multi: true, default: 'diff|ids|title', help: 'Which pieces of information to get.' },
      slots: { type: SLOT_ROLES, multi: true, allowAll: true, help: 'Return individual diffs for these slots, rather than one combined diff.' },
      // Offered because the diff engine is wikidiff2's (ApiComparePages' inlineSupported).
      difftype: { type: ['table', 'inline'] as const, default: 'table', help: 'Return the comparison formatted as inline HTML.' },
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
    const refinedFrom = await refineSide(ctx, p, 'from', compareSide(p, 'from'));
    const refinedTo = relative === undefined ? await refineSide(ctx, p, 'to', compareSide(p, 'to')) : undefined;
    const from = refinedFrom.side;
    const to = refinedTo?.side;
    // Content of an uninstalled model has no diff engine: the sides are still resolved and reported.
    const unsupported = [from, to].find((side) => side?.contentModel === 'unknown')?.contentModel;
    const known = (side: CompareSide) => (side.contentModel === 'unknown' ? { ...side, contentModel: 'text' } : side);
    const res = await ctx.deps.clients.content.compare({
      from: known(from),
      ...(to ? { to: known(to) } : { toRelative: RELATIVE[relative!]! }),
      format: p.difftype === 'inline' ? DiffFormat.DIFF_FORMAT_INLINE : DiffFormat.DIFF_FORMAT_TABLE,
      withRelatives: props.has('rel'),
      ...textAccess(rights),
    });
    for (const w of res.warnings) ctx.addWarning('compare', { code: w.code, text: w.text });

    const vals: ResultObject = {};
    // Both sides' comments formatted in one call, each linking autocomments to its own page.
    const commented = props.has('parsedcomment') || props.has('comment') ? [refinedFrom.reported ?? res.from, refinedTo?.reported ?? res.to].filter((s) => s?.revision && s.page) : [];
    const parsed = await ctx.deps.clients.content.formatComments(commented.map((s) => ({ title: s!.page!.title, comment: s!.revision!.comment })));
    const parsedOf = (side: CompareSideResult | undefined) => (side ? parsed[commented.indexOf(side)] : undefined);
    // A revision whose content was cut to a section is still reported as that revision.
    const fromSide = refinedFrom.reported ?? res.from;
    const toSide = refinedTo?.reported ?? res.to;
    addSideVals(vals, 'from', fromSide, props, rights, parsedOf(fromSide));
    addSideVals(vals, 'to', toSide, props, rights, parsedOf(toSide));
    if (props.has('rel')) {
      if (res.from?.prevRevId) vals.prev = res.from.prevRevId;
      if (res.to?.nextRevId) vals.next = res.to.nextRevId;
    }
    const body = unsupported ? UNSUPPORTED_DIFF(unsupported) : res.tableHtml;
    if (props.has('diffsize')) vals.diffsize = Buffer.byteLength(body);
    if (props.has('diff')) {
      // With `slots`, one diff per slot under `bodies` (only the main slot exists).
      const slots = ctx.params.slots;
      if (slots !== undefined) vals.bodies = Object.fromEntries(slots.map((role) => [role, body]));
      else setContentValue(vals, 'body', body);
    }
    ctx.result.compare = vals;
  },
});
