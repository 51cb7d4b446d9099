/* What the page lifecycle operations share: their dependencies, the actor, rights and page locking. */
import { invalidArgument, notFound, permissionDenied, type Db, type Queryable } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/content';
import { checkApplicableTags } from '../tags.js';
import { parsePageTitleOrThrow } from '../../title/page-title.js';
import type { TitleCodec } from '../../title/codec.js';
import { applyWatchlistParam, type WatchlistMode } from '../watchlist.js';
import { saveRevision, type SavedRevision } from '../save.js';
import { findPage, type PageKeyRow } from '../pages.js';

export interface LifecycleDeps {
  db: Db;
  codec: TitleCodec;
}

/** A page row locked for the rest of a lifecycle transaction. */
export type LockedPage = PageKeyRow;

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
 * (`cantmove-anon`, as the default user group may move), others get `movenotallowed`.
 */
export function requireMoveRight(actor: EditActor): void {
  if (actor.rights.includes('move')) return;
  if (actor.id === 0) throw permissionDenied('cantmove-anon', 'You must be a registered user and [[Special:UserLogin|logged in]] to move a page.');
  throw permissionDenied('movenotallowed', 'You do not have permission to move pages.');
}

export const userOf = (actor: EditActor) => ({ id: actor.id, name: actor.name });

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

/** Locks a page row for the rest of the transaction; undefined when the page does not exist. */
export async function lockPage(q: Queryable, db: Db, ns: number, dbkey: string): Promise<LockedPage | undefined> {
  return findPage(q, db.schema, { ns, dbkey }, { forUpdate: true });
}

export async function lockExistingPage(q: Queryable, db: Db, ns: number, dbkey: string): Promise<LockedPage> {
  const page = await lockPage(q, db, ns, dbkey);
  if (!page) throw notFound('missingtitle', "The page you specified doesn't exist.");
  return page;
}

/** The latest text of a locked page. */
export async function latestContent(q: Queryable, db: Db, page: Pick<LockedPage, 'latest'>): Promise<{ text: string; model: string; format: string }> {
  const r = await q.query<{ content_text: string; content_model: string; content_format: string }>(
    `SELECT c.content_text, c.content_model, c.content_format FROM ${db.schema}.revision r JOIN ${db.schema}.content c ON c.content_id = r.rev_content_id
      WHERE r.rev_id = $1`,
    [page.latest],
  );
  const row = r.rows[0]!;
  return { text: row.content_text, model: row.content_model, format: row.content_format };
}

/**
 * A null revision (same content as the latest, minor, no recent change of its own) recording a
 * change of the page itself — a move or a protection — in the history, as MediaWiki writes one.
 */
export async function saveNullRevision(
  q: Queryable,
  db: Db,
  codec: TitleCodec,
  page: LockedPage,
  at: { ns: number; dbkey: string },
  actor: EditActor,
  comment: string,
  timestamp: Date,
): Promise<SavedRevision> {
  const content = await latestContent(q, db, page);
  return saveRevision(db, codec, {
    ns: at.ns,
    dbkey: at.dbkey,
    baseRevId: page.latest,
    text: content.text,
    contentModel: content.model,
    contentFormat: content.format,
    user: userOf(actor),
    comment,
    minor: true,
    tags: [],
    timestamp,
    nullRevision: true,
  });
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
