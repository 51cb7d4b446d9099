/* action=watch (MediaWiki's ApiWatch with $wgWatchlistExpiry on): watches or unwatches pages, with an optional expiry. */
import { defineModule } from '../define.js';
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { actionPageSet, addPageSetContinuation, invalidEntries, PAGE_SET_EXTRA_PARAMS } from '../query/action-pageset.js';
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
    pageids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of page IDs to work on.' },
    redirects: { type: 'boolean', default: false, help: 'Automatically resolve redirects in titles, pageids, and revids, and in pages returned by generator.' },
    ...PAGE_SET_EXTRA_PARAMS,
  },
  flags: { mustBePosted: true, needsToken: 'watch', writeMode: true },
  examples: {
    'action=watch&titles=Main_Page&token=123ABC': 'Watch the page Main Page.',
    'action=watch&titles=Main_Page&expiry=1%20month&token=123ABC': 'Watch Main Page for one month.',
    'action=watch&titles=Main_Page&unwatch=&token=123ABC': 'Unwatch the page Main Page.',
    'action=watch&generator=allpages&gapnamespace=0&token=123ABC': 'Watch the first few pages in the main namespace.',
  },
  async execute(ctx) {
    const p = ctx.params;
    requireWatchlistUser(ctx, 'editmywatchlist');
    const single = p.title !== undefined;
    if (single) {
      // The deprecated title parameter takes no page set parameter (ApiWatch).
      const other = (['titles', 'pageids', 'revids', 'generator', 'redirects', 'converttitles'] as const).find((n) => p[n] !== undefined && p[n] !== false);
      if (other) throw new ApiUsageError('invalidparammix', `The "title" parameter cannot be used with "${other}".`);
    }
    const expiry = p.unwatch ? '' : watchlistExpiryOf(p.expiry);
    const { pageSet: ps, continuation } = single ? { pageSet: undefined, continuation: undefined } : await actionPageSet(ctx);
    const titles = single ? [p.title!] : [...ps!.missing.map((m) => m.page.title), ...ps!.good.map((g) => g.title)];
    const resp = titles.length ? await ctx.deps.clients.content.watch({ userId: ctx.caller.user.id, titles, unwatch: p.unwatch, expiry }) : { titles: [] };
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
    // ApiWatch: the page set's invalid titles, special pages, missing ids, then missing pages and existing ones.
    const out = invalidEntries(ps!, false).map((e) => (e.special ? { ...e, missing: true } : e));
    const rank = (t: (typeof resp.titles)[number]) => (t.missing ? 0 : 1);
    out.push(...[...resp.titles].sort((a, b) => rank(a) - rank(b)).map(entryOf));
    addPageSetContinuation(ctx.result, continuation!);
    ctx.result.watch = setIndexedTagName(out, 'w');
  },
});
