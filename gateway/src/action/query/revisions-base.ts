/*
 * What the revision-listing modules share with prop=revisions (MediaWiki's ApiQueryRevisionsBase):
 * the prop/slots/limit parameters, parseParameters' content-aware limit and legacy-format
 * deprecation, and the output of one revision with its parsed comment.
 */
import type { Revision } from '../../clients/types.js';
import { ApiUsageError, type ActionContext, type ResultObject } from '../types.js';
import { defineParams, type ContextOf } from '../define.js';
import { message } from '../errors.js';
import { escapeHtmlNoQuotes } from './encoding.js';
import { contentAwareLimit, REVISION_PROPS, SLOT_ROLES, revisionInfo, type RevisionOutputOptions } from './revisions.js';
import { modulePath } from './run.js';
import { CONTENT_OPTION_PARAMS, deriveContent, parseContentOptions, type ContentOptions } from './revisions-content.js';
import { hiddenAuthorBits } from '../../revdel.js';

/** ApiQueryRevisionsBase::getAllowedParams (the parameters this wiki implements). */
export const REVISION_BASE_PARAMS = defineParams({
  prop: { type: REVISION_PROPS, multi: true, default: 'ids|timestamp|flags|comment|user', deprecatedValues: ['parsetree'], help: 'Which properties to get for each revision.' },
  slots: { type: SLOT_ROLES, multi: true, allowAll: true, help: 'Which revision slots to return data for. Without it, the deprecated legacy format is used.' },
  limit: { type: 'limit', min: 1, max: 500, highMax: 5000, help: 'Limit how many revisions will be returned.' },
  ...CONTENT_OPTION_PARAMS,
});

/** ApiQueryBase's direction and timestamp parameters of the listing modules. */
export const DIRECTION_PARAMS = defineParams({
  start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
  end: { type: 'timestamp', help: 'The timestamp to stop enumerating at.' },
  dir: { type: ['newer', 'older'], default: 'older', help: 'In which direction to enumerate: newer lists oldest first, older lists newest first.' },
});

/** The user filters of the listing modules (their declarations differ in the user types they take). */
type UserFilterContext = ActionContext<{ user?: string | undefined; excludeuser?: string | undefined }>;

export interface RevisionBase {
  props: Set<string>;
  slots: string[] | undefined;
  /** Content is read (ApiQueryRevisionsBase's fetchContent). */
  withContent: boolean;
  limit: number;
  contentOptions: ContentOptions;
  out: RevisionOutputOptions;
}

/**
 * ApiQueryRevisionsBase::parseParameters: the limit (default 10; "max" and values above the
 * maximum follow the content-aware LIMIT_SML/LIMIT_BIG) and the legacy-format deprecation.
 */
export async function parseRevisionBase(ctx: ContextOf<typeof REVISION_BASE_PARAMS>): Promise<RevisionBase> {
  const p = ctx.params;
  const props = new Set<string>(p.prop);
  const slots = p.slots;
  const contentOptions = await parseContentOptions(ctx, props, slots, warnOf(ctx));
  // Content is read for rvprop=content or parsetree and for diffs (fetchContent); rvparse: 1 at most.
  const withContent = contentOptions.fetchContent;
  const limit = contentOptions.parse ? 1 : contentAwareLimit(ctx, p.limit ?? 10, withContent);
  const needSlots = withContent || ['contentmodel', 'slotsize', 'slotsha1'].some((f) => props.has(f));
  if (needSlots && slots === undefined) {
    const groupParam = ctx.module.group;
    ctx.addWarning(
      modulePath(ctx.module),
      message('deprecation', 'apiwarn-deprecation-missingparam', [`${ctx.module.prefix}slots`], { feature: `action=query&${groupParam}=${ctx.module.name}&!${ctx.module.prefix}slots` }),
    );
    ctx.addWarning('main', message('deprecation-help', 'api-usage-mailinglist-ref'));
  }
  return { props, slots, withContent, limit, contentOptions, out: { props, slots, rights: ctx.caller.user.rights } };
}

/** Warnings of the module, as ApiBase::addWarning. */
const warnOf = (ctx: ActionContext) => (text: string, code: string) => ctx.addWarning(modulePath(ctx.module), { code, text });

/**
 * The stricter rules of deleted revisions (ApiQueryDeletedRevisions and
 * ApiQueryAllDeletedRevisions): comments need `deletedhistory`, content `deletedtext` or `undelete`.
 */
export function checkDeletedRevisionRights(ctx: ActionContext, base: RevisionBase): void {
  const rights = ctx.caller.user.rights;
  if ((base.props.has('comment') || base.props.has('parsedcomment')) && !rights.includes('deletedhistory')) {
    throw new ApiUsageError('permissiondenied', "You don't have permission to view deleted comments.");
  }
  if (base.withContent && !rights.includes('deletedtext') && !rights.includes('undelete')) {
    throw new ApiUsageError('permissiondenied', "You don't have permission to view content of deleted revisions.");
  }
}

/** The "paranoia" mask of a user/excludeuser filter (T19342): revisions whose author the caller may not see are left out. */
export function hiddenUserMask(ctx: UserFilterContext): number {
  const p = ctx.params;
  if (p.user === undefined && p.excludeuser === undefined) return 0;
  return hiddenAuthorBits(ctx.caller.user.rights);
}

/** ApiBase::requireMaxOneParameter for user and excludeuser. */
export function requireOneUserFilter(ctx: UserFilterContext): void {
  if (ctx.params.user !== undefined && ctx.params.excludeuser !== undefined) {
    const p = ctx.module.prefix;
    throw new ApiUsageError('invalidparammix', `The parameters "${p}user" and "${p}excludeuser" can not be used together.`);
  }
}

/** The output of revisions, their parsedcomment formatted in one call (revisions with the title their autocomments link to). */
export async function revisionsInfo(ctx: ActionContext, base: RevisionBase, revisions: { rev: Revision; title: string }[]): Promise<ResultObject[]> {
  const out = { ...base.out };
  if (base.props.has('parsedcomment')) {
    const html = await ctx.deps.clients.content.formatComments(revisions.map(({ rev, title }) => ({ title, comment: rev.comment })));
    out.parsedComments = new Map(revisions.map(({ rev }, i) => [rev.id, html[i] ?? escapeHtmlNoQuotes(rev.comment)]));
  }
  if (base.withContent) {
    const titleOf = new Map(revisions.map(({ rev, title }) => [rev.id, title]));
    out.derived = await deriveContent(
      ctx,
      base.contentOptions,
      revisions.map(({ rev }) => rev),
      (rev) => titleOf.get(rev.id) ?? '',
      base.slots === undefined,
      warnOf(ctx),
    );
  }
  return revisions.map(({ rev }) => revisionInfo(rev, out));
}
