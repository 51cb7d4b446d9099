/*
 * The watchlist side of the write modules (MediaWiki's ApiWatchlistTrait with $wgWatchlistExpiry
 * on): the `watchlist` and `watchlistexpiry` parameters, the caller's preferences for
 * watchlist=preferences, and who may use a watchlist at all. Imported by action=edit, watch,
 * upload, the lifecycle modules and list=watchlist; it imports no module.
 */
import { defineParam, defineParams, type ContextOf } from '../define.js';
import { DEFAULT_USER_OPTIONS } from '../query/userinfo.js';
import { ApiUsageError, type ActionContext } from '../types.js';
import { apiError } from './support.js';

/** $wgWatchlistExpiryMaxDuration: a longer watch is cut to it (ExpiryDef PARAM_USE_MAX). */
export const WATCHLIST_EXPIRY_MAX = '1 year';

export const WATCHLIST_PARAM = defineParam({
  type: ['nochange', 'preferences', 'unwatch', 'watch'],
  default: 'preferences',
  help: "Unconditionally add or remove the page from the current user's watchlist, use preferences (ignored for bot users) or do not change watch.",
});

/** ApiWatchlistTrait's expiry: an `expiry` parameter ('infinity' or ISO 8601 once validated). */
export const WATCHLIST_EXPIRY_PARAM = defineParam({
  type: 'expiry',
  maxExpiry: WATCHLIST_EXPIRY_MAX,
  help: 'Watchlist expiry timestamp. Omit this parameter entirely to leave the current expiry unchanged.',
});

/** The two parameters of ApiWatchlistTrait::getWatchlistParams. */
export const WATCHLIST_PARAMS = defineParams({ watchlist: WATCHLIST_PARAM, watchlistexpiry: WATCHLIST_EXPIRY_PARAM });

/** ApiWatchlistTrait for `preferences`: bots never watch by preference; others per their option. */
export async function watchByPreference(ctx: ActionContext, options: readonly string[]): Promise<boolean> {
  const user = ctx.caller.user;
  if (user.anonymous || user.id === 0 || user.rights.includes('bot')) return false;
  const details = (await ctx.deps.clients.auth.getUsers({ ids: [user.id] })).users[0];
  const own = details ? (JSON.parse(details.optionsJson || '{}') as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { ...DEFAULT_USER_OPTIONS, ...own };
  return options.some((o) => merged[o] !== undefined && merged[o] !== 0 && merged[o] !== '0' && merged[o] !== false && merged[o] !== '');
}

/** A validated expiry as the content service takes it: "" = indefinite (or none given). */
export function watchlistExpiryOf(validated: string | undefined): string {
  return validated === undefined || validated === 'infinity' ? '' : validated;
}

/**
 * The watchlist fields of a write, as ApiWatchlistTrait::setWatch: `preferences` follows the
 * given user options (the module's own, e.g. watchdeletion); `watchlist` may be overridden by a
 * module's deprecated watch/unwatch flags.
 */
export async function watchlistFields(ctx: ContextOf<typeof WATCHLIST_PARAMS>, preferenceOptions: readonly string[], watchlist: string = ctx.params.watchlist) {
  return {
    watchlist,
    watchlistExpiry: watchlist === 'unwatch' ? '' : watchlistExpiryOf(ctx.params.watchlistexpiry),
    watchByPreference: watchlist === 'preferences' ? await watchByPreference(ctx, preferenceOptions) : false,
  };
}

/** Watching needs a registered user with editmywatchlist (ApiWatch::execute). */
export function requireWatchlistUser(ctx: ActionContext, right: 'editmywatchlist' | 'viewmywatchlist'): void {
  const user = ctx.caller.user;
  if (user.anonymous || user.id === 0) throw new ApiUsageError('notloggedin', 'Please log in to view or edit items on your watchlist.');
  if (!user.rights.includes(right)) {
    throw apiError('permissiondenied', 'apierror-permissiondenied', [right === 'editmywatchlist' ? 'edit your watchlist' : 'view your watchlist']);
  }
}
