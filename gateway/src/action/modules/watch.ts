/* action=watch (MediaWiki's ApiWatch with $wgWatchlistExpiry on): watches or unwatches pages, with an optional expiry. */
import { defineModule } from '../define.js';
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { apiError } from './support.js';
import { requireWatchlistUser, WATCHLIST_EXPIRY_MAX, watchlistExpiryOf } from './watchlist-params.js';

export const watchModule = defineModule({
  name: 'watch',
  group: 'action',
  prefix: '',
  summary: "Add or remove pages from the current user's watchlist.",
  params: {
    title: { type: 'string', deprecated: true, help: 'The page to (un)watch. Use titles instead.' },
    expiry: {
      type: 'expiry',
      maxExpiry: WATCHLIST_EXPIRY_MAX,
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
    const single = p.title !== undefined;
    if (single && p.titles !== undefined) throw apiError('invalidparammix', 'apierror-invalidparammix', ['<var>title</var> and <var>titles</var>', 2]);
    const titles = p.title !== undefined ? [p.title] : (p.titles ?? []);
    if (titles.length === 0) throw new ApiUsageError('missingparam', 'The "titles" parameter must be set.');
    const expiry = p.unwatch ? '' : watchlistExpiryOf(p.expiry);
    const resp = await ctx.deps.clients.content.watch({ userId: ctx.caller.user.id, titles, unwatch: p.unwatch, expiry });
    const entryOf = (t: (typeof resp.titles)[number]): ResultObject => {
      if (t.invalid) return { title: t.title, invalidreason: t.invalidReason, invalid: true };
      if (t.special) return { ns: t.ns, title: t.title, special: true, missing: true };
      const e: ResultObject = { title: t.title, ns: t.ns };
      if (p.unwatch) e.unwatched = true;
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
});
