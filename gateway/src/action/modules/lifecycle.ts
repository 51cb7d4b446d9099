/* What the page lifecycle modules (delete, undelete, protect, move, rollback, patrol) share. */
import { ApiUsageError, type ActionContext, type Params } from '../types.js';
import { editActor, editBlock } from './edit.js';
import { apiError } from './support.js';

/** ApiBase::requireOnlyOneParameter for title/pageid (or from/fromid). */
export function titleOrPageId(p: Params, titleParam = 'title', idParam = 'pageid'): { title: string; pageId: number } {
  const title = typeof p[titleParam] === 'string' ? (p[titleParam] as string) : undefined;
  const pageId = typeof p[idParam] === 'number' ? (p[idParam] as number) : undefined;
  if (title !== undefined && pageId !== undefined) {
    throw apiError('invalidparammix', 'apierror-invalidparammix', [`<var>${titleParam}</var>, <var>${idParam}</var>`, 2]);
  }
  if (title === undefined && pageId === undefined) {
    throw new ApiUsageError('missingparam', `One of the parameters "${titleParam}" and "${idParam}" is required.`);
  }
  return { title: title ?? '', pageId: pageId ?? 0 };
}

/** The actor of a lifecycle write, refused when the caller is blocked sitewide (as edits are). */
export function writingActor(ctx: ActionContext) {
  const blockinfo = editBlock(ctx.caller);
  if (blockinfo) throw apiError('blocked', 'apierror-blocked', [], { blockinfo });
  return editActor(ctx.caller);
}

export const tagsOf = (p: Params) => (Array.isArray(p.tags) ? (p.tags as string[]) : []);
export const strOf = (p: Params, name: string) => (typeof p[name] === 'string' ? (p[name] as string) : '');

export const TAGS_PARAM = { type: 'string', multi: true, help: 'Change tags to apply to the entry in the log.' } as const;
export const WATCHLIST_PARAM = {
  type: ['nochange', 'preferences', 'unwatch', 'watch'],
  default: 'preferences',
  help: "Unconditionally add or remove the page from the current user's watchlist, use preferences (ignored for bot users) or do not change watch.",
} as const;
export const WATCHLIST_EXPIRY_PARAM = {
  type: 'string',
  help: 'Watchlist expiry timestamp. Omit this parameter entirely to leave the current expiry unchanged.',
} as const;
