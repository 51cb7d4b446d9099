/*
 * What the write modules share — action=edit and the REST page writes, the page lifecycle modules
 * (delete, undelete, protect, move, rollback, patrol, revisiondelete), uploads and change tags:
 * who is writing (the actor, a sitewide block), the target given by title or page id, change tags,
 * and the edit itself as the content service takes it (saveEdit). Modules import this file; it
 * imports no module, so the modules never import each other.
 */
import type { BlockInfo, EditRequest, EditResponse, MovePageResponse } from '../../clients/types.js';
import { signaturePreference } from '../../signature.js';
import type { Caller, GatewayDeps } from '../../context.js';
import { blockAppliesTo, blockedError } from '../blockinfo.js';
import { defineParam } from '../define.js';
import { ApiUsageError, type ActionContext, type Params } from '../types.js';
import { apiError } from './support.js';

/**
 * What an edit by this caller is refused for before any page is looked at: a sitewide block
 * (a partial block is checked against the page, `partialBlockOf`).
 */
export function editBlock(caller: Caller): BlockInfo | undefined {
  const block = caller.user.block;
  return block && !block.partial ? block : undefined;
}

/** The actor of an edit as the content service takes it. */
export function editActor(caller: Caller) {
  const { user } = caller;
  return { id: user.id, name: user.name, rights: user.rights, groups: user.groups, ip: caller.ip };
}

/** The actor of a lifecycle write, refused when the caller is blocked sitewide (as edits are). */
export function writingActor(ctx: ActionContext) {
  const blockinfo = editBlock(ctx.caller);
  if (blockinfo) throw apiError('blocked', 'apierror-blocked', [], { blockinfo });
  return editActor(ctx.caller);
}

/** The caller's partial block when it applies to the page edited (by title or id; a page to be created only by its namespace). */
export async function partialBlockOf(deps: GatewayDeps, caller: Caller, target: { title?: string; pageId?: number }): Promise<BlockInfo | undefined> {
  const block = caller.user.block;
  if (!block?.partial) return undefined;
  const r = await deps.clients.content.resolvePages(target.pageId ? { pageIds: [target.pageId] } : { titles: [target.title ?? ''] });
  const page = r.pages[0];
  // A bad title or page id is the edit's own error to report.
  if (!page) return undefined;
  return blockAppliesTo(block, { id: page.missing ? 0 : page.id, ns: page.ns }) ? block : undefined;
}

/**
 * The block that refuses this caller's write to these pages: a sitewide block, or a partial one
 * that applies to any of them (PermissionManager::checkUserBlock: a partial block covers every
 * write to its pages and namespaces — edits, moves from and to them, content model changes, rollback).
 */
export async function pageWriteBlock(deps: GatewayDeps, caller: Caller, pages: readonly { title?: string; pageId?: number }[]): Promise<BlockInfo | undefined> {
  const sitewide = editBlock(caller);
  if (sitewide) return sitewide;
  for (const page of pages) {
    const partial = await partialBlockOf(deps, caller, page);
    if (partial) return partial;
  }
  return undefined;
}

/** The actor of a write to these pages, refused (`blocked`) when a block applies to any of them. */
export async function pageWritingActor(ctx: ActionContext, pages: readonly { title?: string; pageId?: number }[]) {
  const block = await pageWriteBlock(ctx.deps, ctx.caller, pages);
  if (block) throw blockedError(block);
  return editActor(ctx.caller);
}

/**
 * Revisions a registered user saved that MediaWiki counts as edits (PageUpdater and MovePage
 * increment user_editcount): the auth client collects the count and sends it later.
 */
export function countEdits(deps: GatewayDeps, caller: Caller, revisions: number): void {
  if (caller.user.anonymous || caller.user.id === 0) return;
  for (let i = 0; i < revisions; i++) deps.clients.auth.incrementEditCount(caller.user.id);
}

/**
 * The revisions a move saves that count as edits (MovePage::moveToInternal, once per page moved:
 * the page, its talk page, their subpages): each moved page's null revision, and the redirect
 * left behind when one is.
 */
export function moveEdits(res: MovePageResponse): number {
  const moved = [res.page, res.talk, ...res.subpages, ...res.talkSubpages].filter((m) => m && !m.errorCode);
  return moved.reduce((n, m) => n + 1 + (m!.redirectCreated ? 1 : 0), 0);
}

/** After a saved edit: the registered user's edit count. */
function countEdit(deps: GatewayDeps, caller: Caller, res: EditResponse): void {
  if (!res.nochange) countEdits(deps, caller, 1);
}

/** An edit as action=edit and the REST page writes describe it; the actor and limits are added by saveEdit. */
export type EditFields = Omit<Partial<EditRequest>, 'actor' | 'maxArticleSizeKb'>;

/**
 * The one way the gateway saves an edit (action=edit, PUT/POST /v1/page): refused for a sitewide
 * block, sent with the caller as actor and the wiki's size limit, then counted for the editor.
 */
export async function saveEdit(deps: GatewayDeps, caller: Caller, fields: EditFields): Promise<EditResponse> {
  const block = await pageWriteBlock(deps, caller, [fields]);
  if (block) throw blockedError(block);
  const signature = await signaturePreference(deps, caller, [fields.text, fields.appendText, fields.prependText]);
  const res = await deps.clients.content.edit({ ...fields, actor: { ...editActor(caller), signature }, maxArticleSizeKb: deps.config.maxArticleSizeKb });
  // Not awaited: MediaWiki counts the edit in a deferred update after the response too
  // (UserEditCountUpdate), and an edit's answer need not wait for the auth service's write.
  countEdit(deps, caller, res);
  return res;
}

/** ApiBase::requireOnlyOneParameter for title/pageid (or from/fromid). */
export function titleOrPageId(p: Params, titleParam = 'title', idParam = 'pageid'): { title: string; pageId: number } {
  const title = p[titleParam];
  const pageId = p[idParam];
  const hasTitle = typeof title === 'string';
  const hasPageId = typeof pageId === 'number';
  if (hasTitle && hasPageId) {
    throw apiError('invalidparammix', 'apierror-invalidparammix', [`<var>${titleParam}</var>, <var>${idParam}</var>`, 2]);
  }
  if (!hasTitle && !hasPageId) {
    throw new ApiUsageError('missingparam', `One of the parameters "${titleParam}" and "${idParam}" is required.`);
  }
  return { title: hasTitle ? title : '', pageId: hasPageId ? pageId : 0 };
}

/** Change tags of a write (each module words its help). */
export const TAGS_PARAM = defineParam({ type: 'string', multi: true, help: 'Change tags to apply to the entry in the log.' });
