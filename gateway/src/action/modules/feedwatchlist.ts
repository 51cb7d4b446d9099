/*
 * action=feedwatchlist (MediaWiki's ApiFeedWatchlist): the watchlist's recent changes of the last
 * `hours` as an RSS or Atom feed, each item "comment (user)". As MediaWiki, any error of the
 * watchlist query (not logged in, a bad owner or token…) becomes the feed's one item.
 */
import { englishMessage } from '../../i18n/messages.js';
import { messageOf } from '../errors.js';
import { FEED_FORMAT_PARAM, FEED_LIMIT, fullUrl, sendFeed, type FeedItem } from '../feed.js';
import { ApiUsageError, type ActionContext } from '../types.js';
import { defineModule } from '../define.js';
import { checkShow, requirePatrolFlagRight, OWNER_TOKEN_PARAMS, watchlistResult, watchlistUserId, WL_SHOW, WL_TYPES } from '../query/watchlist.js';
import { WatchlistChange } from '../../clients/types.js';
import { hiddenAuthorBits, hiddenLogActionBits } from '../../revdel.js';

/** Parser::guessSectionNameFromWikiText for an edit summary's section, as a URL fragment ($wgFragmentMode html5). */
export function sectionAnchor(comment: string): string {
  const m = /(.*)\/\*\s*(.*?)\s*\*\/(.*)/s.exec(comment);
  if (!m) return '';
  const section = m[2]!.replace(/\[\[(?:[^|\]]*\|)?([^\]]*)\]\]/g, '$1').trim();
  return `#${section.replace(/ /g, '_').replace(/%([a-fA-F0-9]{2})/g, '%25$1')}`;
}

interface WatchlistRow {
  type: string;
  title: string;
  revId: number;
  logId: number;
  comment: string;
  timestamp: string;
  user: string;
  /** rc_deleted; 0 when absent. */
  deleted?: number;
}

/** The list=watchlist properties ApiFeedWatchlist asks for. */
const FEED_PROPS: ReadonlySet<string> = new Set(['title', 'user', 'comment', 'timestamp', 'ids', 'loginfo']);

/**
 * ApiFeedWatchlist::createFeedItem over list=watchlist's result for the caller: a change whose title
 * is hidden (a log entry's action) is left out; a hidden author or summary is left out of the text.
 */
export function watchlistFeedItem(server: string, row: WatchlistRow, linkToSections: boolean, rights: readonly string[]): FeedItem | undefined {
  const info = watchlistResult({ ...WatchlistChange.fromPartial(row), deleted: row.deleted ?? 0 }, FEED_PROPS, undefined, rights);
  if (typeof info.title !== 'string') return undefined;
  const comment = typeof info.comment === 'string' ? info.comment : '';
  let url = info.revid === 0 && typeof info.logid === 'number' ? fullUrl(server, 'Special:Log', { logid: info.logid }) : fullUrl(server, info.title, { diff: Number(info.revid) });
  if (linkToSections && typeof info.comment === 'string') url += sectionAnchor(comment);
  const user = typeof info.user === 'string' ? info.user : '';
  return { title: info.title, description: typeof info.user === 'string' ? `${comment} (${user})` : comment, url, date: row.timestamp, author: user, comments: '' };
}

const mwToIso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export const feedwatchlistModule = defineModule({
  name: 'feedwatchlist',
  group: 'action',
  prefix: '',
  summary: 'Returns a watchlist feed.',
  params: {
    feedformat: FEED_FORMAT_PARAM,
    hours: { type: 'integer', default: 24, min: 1, max: 72, help: 'List pages modified within this many hours from now.' },
    linktosections: { type: 'boolean', default: false, help: 'Link directly to changed sections if possible.' },
    allrev: { type: 'boolean', default: false, help: 'Include multiple revisions of the same page within given timeframe.' },
    wlowner: OWNER_TOKEN_PARAMS.owner,
    wltoken: OWNER_TOKEN_PARAMS.token,
    wlshow: { type: WL_SHOW, multi: true, help: 'Show only items that meet these criteria.' },
    wltype: { type: WL_TYPES, multi: true, default: 'edit|new|log|categorize', help: 'Which types of changes to show.' },
    wlexcludeuser: { type: 'user', help: "Don't list changes by this user." },
  },
  flags: {},
  examples: {
    'action=feedwatchlist': 'Show the watchlist feed.',
    'action=feedwatchlist&allrev=&hours=6': 'Show all changes to watched pages in the past 6 hours.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const base = ctx as unknown as ActionContext;
    const { config } = ctx.deps;
    const watchlist = englishMessage('watchlist') ?? 'Watchlist';
    const url = fullUrl(config.server, 'Special:Watchlist');
    let items: FeedItem[];
    let title = `${config.sitename} - ${watchlist} [${config.lang}]`;
    try {
      const userId = await watchlistUserId(base, p.wlowner, p.wltoken);
      const show = p.wlshow ?? [];
      checkShow(show);
      if (show.includes('patrolled') || show.includes('!patrolled')) requirePatrolFlagRight(base, 'permissiondenied');
      const resp = await ctx.deps.clients.content.listWatchlist({
        userId,
        end: mwToIso(new Date(Date.now() - p.hours * 3600_000)),
        newerFirst: false,
        limit: FEED_LIMIT,
        types: p.wltype ?? [],
        excludeUser: p.wlexcludeuser ?? '',
        show,
        allRevisions: p.allrev,
        authorHideBits: hiddenAuthorBits(ctx.caller.user.rights),
        logActionHideBits: hiddenLogActionBits(ctx.caller.user.rights),
      });
      items = resp.changes.flatMap((c) => watchlistFeedItem(config.server, c, p.linktosections, ctx.caller.user.rights) ?? []);
    } catch (e) {
      if (!(e instanceof ApiUsageError)) throw e;
      ctx.setCacheMaxAge(0);
      title = `${config.sitename} - Error - ${watchlist} [${config.lang}]`;
      const m = messageOf(e);
      items = [{ title: (englishMessage('api-feed-error-title') ?? 'Error ($1)').replace('$1', e.code), description: m.wikitext ?? m.text, url: '', date: '', author: '', comments: '' }];
    }
    sendFeed(base, p.feedformat, { title, description: watchlist, url }, items);
  },
});
