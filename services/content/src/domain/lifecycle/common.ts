/* What the page lifecycle operations share: the actor, rights, the target title and the watchlist parameter. */
import { invalidArgument, permissionDenied, type Queryable } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/common';
import { parsePageTitleOrThrow } from '../../title/page-title.js';
import type { LifecycleDeps } from '../../store/lifecycle/common.js';
import { findPage } from '../../store/pages.js';
import { checkApplicableTags } from '../tags.js';
import { applyWatchlistParam, type WatchlistMode } from '../../store/watchlist.js';

export type { LifecycleDeps } from '../../store/lifecycle/common.js';

/** The action-… messages of MediaWiki's `apierror-permissiondenied` ("You don't have permission to …"). */
const ACTION_TEXT: Record<string, string> = {
  delete: 'delete pages',
  undelete: 'undelete pages',
  protect: 'change protection levels',
  move: 'move pages',
  'move-subpages': 'move pages with their subpages',
  rollback: 'quickly rollback the edits of the last user who edited a particular page',
  patrol: "mark others' edits as patrolled",
  suppressredirect: 'not create redirects from source pages when moving pages',
  edit: 'edit this page',
};

export function requireActor(actor: EditActor | undefined): EditActor {
  if (!actor) throw invalidArgument('missingparam', 'The request has no actor.');
  return actor;
}

export function requireRight(actor: EditActor, right: string): void {
  if (!actor.rights.includes(right)) {
    throw permissionDenied('permissiondenied', `You don't have permission to ${ACTION_TEXT[right] ?? right}.`);
  }
}

/**
 * PermissionManager::checkQuickPermissions for `move`: anonymous callers are told to log in
 * (`cantmove-anon`, as the default user group may move), others get the message `movenotallowed`,
 * whose API code is `cantmove` (ApiMessageTrait's map).
 */
export function requireMoveRight(actor: EditActor): void {
  if (actor.rights.includes('move')) return;
  if (actor.id === 0) throw permissionDenied('cantmove-anon', 'You must be a registered user and [[Special:UserLogin|logged in]] to move a page.');
  throw permissionDenied('cantmove', 'You do not have permission to move pages.');
}

/** The actor as its log entries name it; one with the bot right makes bot changes (RecentChange::newLogEntry). */
export const userOf = (actor: EditActor) => ({ id: actor.id, name: actor.name, bot: actor.rights.includes('bot') });

/** The title a request names: by page id (`nosuchpageid`) or text (`invalidtitle`); must name a real namespace. */
export async function targetOf(deps: LifecycleDeps, title: string, pageId: number): Promise<{ ns: number; dbkey: string }> {
  if (pageId > 0) {
    const row = await findPage(deps.db, deps.db.schema, { id: pageId });
    if (!row) throw invalidArgument('nosuchpageid', `There is no page with ID ${pageId}.`);
    return { ns: row.ns, dbkey: row.dbkey };
  }
  const t = parsePageTitleOrThrow(deps.codec, title);
  if (t.ns < 0) throw invalidArgument('invalidtitle', `Bad title "${title}".`);
  return { ns: t.ns, dbkey: t.dbkey };
}

/** requireRight, then the tags the caller asked for (ChangeTags::canAddTagsAccompanyingChange). */
export async function authorize(deps: LifecycleDeps, actor: EditActor, right: string, tags: readonly string[]): Promise<void> {
  requireRight(actor, right);
  if (tags.length > 0) await checkApplicableTags(deps.db, actor, tags);
}

/** The watchlist fields every lifecycle request carries (ApiWatchlistTrait). */
export interface WatchlistFields {
  watchlist: string;
  watchlistExpiry: string;
  watchByPreference: boolean;
}

/** Applies a lifecycle request's `watchlist`/`watchlistexpiry` to the actor's watchlist, in the caller's transaction. */
export async function applyRequestedWatch(deps: LifecycleDeps, q: Queryable, actor: EditActor, target: { ns: number; dbkey: string }, req: WatchlistFields): Promise<void> {
  const expiry = req.watchlistExpiry === '' ? undefined : new Date(req.watchlistExpiry);
  await applyWatchlistParam(q, deps.db, actor.id, target, req.watchlist as WatchlistMode, req.watchByPreference, expiry);
}
