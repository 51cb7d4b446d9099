/*
 * action=watch (MediaWiki's ApiWatch with $wgWatchlistExpiry on), and what the write modules
 * share about the watchlist: the caller's preferences for watchlist=preferences.
 */
import type { ActionContext, ModuleDecl, ResultObject } from '../types.js';
import { ApiUsageError, setIndexedTagName } from '../types.js';
import { DEFAULT_USER_OPTIONS } from '../query/userinfo.js';
import { parseExpiry } from './protect.js';
import { apiError } from './support.js';

/** ApiWatchlistTrait for `preferences`: bots never watch by preference; others per their option. */
export async function watchByPreference(ctx: ActionContext, options: readonly string[]): Promise<boolean> {
  const user = ctx.caller.user;
  if (user.anonymous || user.id === 0 || user.rights.includes('bot')) return false;
  const details = (await ctx.deps.clients.auth.getUsers({ ids: [user.id] })).users[0];
  const own = details ? (JSON.parse(details.optionsJson || '{}') as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { ...DEFAULT_USER_OPTIONS, ...own };
  return options.some((o) => merged[o] !== undefined && merged[o] !== 0 && merged[o] !== '0' && merged[o] !== false && merged[o] !== '');
}

/** The watchlist expiry of a request ("" = indefinite), refused as MediaWiki's ExpiryDef does. */
export function watchlistExpiryOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  const e = parseExpiry(value);
  return e === 'infinity' ? '' : e;
}

/**
 * The watchlist fields of a lifecycle write (delete, undelete, protect, move, rollback), as
 * ApiWatchlistTrait::setWatch: `preferences` follows the module's own user option.
 */
export async function lifecycleWatchlist(ctx: ActionContext, preferenceOption: string) {
  const p = ctx.params;
  const watchlist = typeof p.watchlist === 'string' ? p.watchlist : 'preferences';
  return {
    watchlist,
    watchlistExpiry: watchlist === 'unwatch' ? '' : watchlistExpiryOf(p.watchlistexpiry),
    watchByPreference: watchlist === 'preferences' ? await watchByPreference(ctx, [preferenceOption]) : false,
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

export const watchModule: ModuleDecl = {
  name: 'watch',
  group: 'action',
  prefix: '',
  summary: "Add or remove pages from the current user's watchlist.",
  params: {
    title: { type: 'string', deprecated: true, help: 'The page to (un)watch. Use titles instead.' },
    expiry: {
      type: 'string',
      help: 'Expiry timestamp to be applied to all given pages. Omit this parameter entirely to leave any existing expiries unchanged.',
    },
    unwatch: { type: 'boolean', default: false, help: 'If set the page will be unwatched rather than watched.' },
    titles: { type: 'string', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of titles to work on.' },
  },
  flags: { mustBePosted: true, needsToken: 'watch', writeMode: true },
  examples: {
    'action=watch&titles=Main_Page&token=123ABC': 'Watch the page Main Page.',
    'action=watch&titles=Main_Page&expiry=1%20month&token=123ABC': 'Watch Main Page for one month.',
    'action=watch&titles=Main_Page&unwatch=&token=123ABC': 'Unwatch the page Main Page.',
  },
  async execute(ctx) {
    const p = ctx.params;
    requireWatchlistUser(ctx, 'editmywatchlist');
    const single = typeof p.title === 'string';
    if (single && p.titles !== undefined) throw apiError('invalidparammix', 'apierror-invalidparammix', ['<var>title</var> and <var>titles</var>', 2]);
    const titles = single ? [p.title as string] : ((p.titles as string[] | undefined) ?? []);
    if (titles.length === 0) throw new ApiUsageError('missingparam', 'The "titles" parameter must be set.');
    const expiry = p.unwatch === true ? '' : watchlistExpiryOf(p.expiry);
    const resp = await ctx.deps.clients.content.watch({ userId: ctx.caller.user.id, titles, unwatch: p.unwatch === true, expiry });
    const entryOf = (t: (typeof resp.titles)[number]): ResultObject => {
      if (t.invalid) return { title: t.title, invalidreason: t.invalidReason, invalid: true };
      if (t.special) return { ns: t.ns, title: t.title, special: true, missing: true };
      const e: ResultObject = { title: t.title, ns: t.ns };
      if (p.unwatch === true) e.unwatched = true;
      else {
        e.watched = true;
        if (t.expiry) e.watchlistexpiry = t.expiry;
      }
      if (t.missing) e.missing = true;
      return e;
    };
    if (single) {
      ctx.result.watch = entryOf(resp.titles[0]!);
      return;
    }
    // ApiPageSet order: invalid titles, special pages, missing pages, then existing ones.
    const rank = (t: (typeof resp.titles)[number]) => (t.invalid ? 0 : t.special ? 1 : t.missing ? 2 : 3);
    const ordered = [...resp.titles].sort((a, b) => rank(a) - rank(b));
    ctx.result.watch = setIndexedTagName(ordered.map(entryOf), 'w');
  },
};
