/*
 * list=watchlist (ApiQueryWatchlist): recent changes of the pages the caller watches, and
 * list=watchlistraw (ApiQueryWatchlistRaw): the watched titles themselves.
 */
import { isoFromMw } from '../../validation/typedefs.js';
import { timingSafeEqual } from 'node:crypto';
import { ApiUsageError, setArrayType, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { linkedTitles, logActionText, type PageKind } from '../log-action-text.js';
import { apiLogParams } from './changes.js';
import { usageError } from '../errors.js';
import { requireWatchlistUser } from '../modules/watchlist-params.js';
import { mwTimestamp } from './encoding.js';
import { badContinue, continueInt, continueTimestampIso } from './continuation.js';
import { queryRunOf } from './run.js';
import { defineParams, type ParamsOf } from '../define.js';
import { defineGenerator } from './generator.js';
import type { WatchlistChange } from '../../clients/types.js';
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_USER, hiddenAuthorBits, hiddenLogActionBits, LOG_DELETED_ACTION, logFieldVisible, userCanSee } from '../../revdel.js';

/** wlcontinue `timestamp|rc_id` (ApiQueryWatchlist) in the form the content service reads: ISO timestamp and id. */
function watchlistContinue(value: string): string {
  const parts = value.split('|');
  if (parts.length !== 2) throw badContinue();
  return `${continueTimestampIso(parts[0]!)}|${continueInt(parts[1]!)}`;
}

/** wrcontinue `ns|title` (ApiQueryWatchlistRaw): the namespace exactly an integer, a title present. */
function watchlistRawContinue(value: string): string {
  const bar = value.indexOf('|');
  const ns = value.slice(0, bar);
  if (bar < 0 || !/^-?\d{1,9}$/.test(ns) || String(Number(ns)) !== ns || value.length === bar + 1) throw badContinue();
  return value;
}

/** The owner/token parameters of list=watchlist, list=watchlistraw and action=feedwatchlist. */
export const OWNER_TOKEN_PARAMS = {
  owner: { type: 'user', userTypes: ['name'], help: "Used along with token to access a different user's watchlist." },
  token: { type: 'string', sensitive: true, help: "A security token (available in the user's preferences) to allow access to another user's watchlist." },
} as const;

/** wfEscapeWikiText for an echoed name. */
const escapeWikiText = (s: string) => s.replace(/["&'<=>[\]{|};]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * ApiBase::getWatchlistUser: with owner and token, the owner's watchlist if the token is their
 * `watchlisttoken` preference (compared in constant time); otherwise the caller's own.
 */
export async function watchlistUserId(ctx: ActionContext, owner: string | undefined, token: string | undefined): Promise<number> {
  if (owner === undefined || token === undefined) {
    requireWatchlistUser(ctx, 'viewmywatchlist');
    return ctx.caller.user.id;
  }
  const found = (await ctx.deps.clients.auth.getUsers({ names: [owner] })).users[0];
  if (!found?.user) throw usageError('bad_wlowner', 'nosuchusershort', [escapeWikiText(owner)]);
  const options = JSON.parse(found.optionsJson || '{}') as Record<string, unknown>;
  const expected = Buffer.from(typeof options.watchlisttoken === 'string' ? options.watchlisttoken : '');
  const given = Buffer.from(token);
  if (expected.length === 0 || expected.length !== given.length || !timingSafeEqual(expected, given)) throw usageError('bad_wltoken', 'apierror-bad-watchlist-token');
  return found.user.id;
}

export const WL_PROPS = ['comment', 'expiry', 'flags', 'ids', 'loginfo', 'notificationtimestamp', 'parsedcomment', 'patrol', 'sizes', 'tags', 'timestamp', 'title', 'user', 'userid'] as const;
/** RC_EXTERNAL changes never exist in Quire: `external` is accepted and matches nothing. */
export const WL_TYPES = ['categorize', 'edit', 'external', 'log', 'new'] as const;
export const WL_SHOW = ['!anon', '!autopatrolled', '!bot', '!minor', '!patrolled', '!unread', 'anon', 'autopatrolled', 'bot', 'minor', 'patrolled', 'unread'] as const;

/** ApiQueryWatchlist: a flag and its negation together make no sense. */
export function checkShow(show: readonly string[]): void {
  // Autopatrolled changes are patrolled ones, so "autopatrolled" excludes "!patrolled" too.
  const conflicting = show.some((f) => !f.startsWith('!') && show.includes(`!${f}`)) || (show.includes('autopatrolled') && show.includes('!patrolled'));
  if (conflicting) throw new ApiUsageError('show', 'Incorrect parameter - mutually exclusive values may not be supplied.');
}

/** User::useRCPatrol / useNPPatrol: the patrolled flag is for patrollers only. */
export function requirePatrolFlagRight(ctx: ActionContext, code: string): void {
  if (!ctx.caller.user.rights.some((r) => r === 'patrol' || r === 'patrolmarks')) throw usageError(code, 'apierror-permissiondenied-patrolflag');
}

const WATCHLIST_PARAMS = defineParams({
  allrev: { type: 'boolean', default: false, help: 'Include multiple revisions of the same page within given timeframe.' },
  start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
  end: { type: 'timestamp', help: 'The timestamp to end enumerating.' },
  namespace: { type: 'namespace', multi: true, help: 'Filter changes to only the given namespaces.' },
  user: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], help: 'Only list changes by this user.' },
  excludeuser: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], help: "Don't list changes by this user." },
  dir: { type: ['newer', 'older'], default: 'older', help: 'In which direction to enumerate.' },
  limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many total results to return per request.' },
  prop: { type: WL_PROPS, multi: true, default: 'ids|title|flags', help: 'Which additional properties to get.' },
  show: { type: WL_SHOW, multi: true, help: 'Show only items that meet these criteria.' },
  type: { type: WL_TYPES, multi: true, default: 'edit|new|log|categorize', help: 'Which types of changes to show.' },
  ...OWNER_TOKEN_PARAMS,
  continue: { type: 'string', help: 'When more results are available, use this to continue.' },
});

/** wlcontinue as MediaWiki writes it (timestamp|rc_id) from the content service's ISO form. */
function watchlistContinueOut(from: string): string {
  const bar = from.indexOf('|');
  return `${mwTimestamp(from.slice(0, bar))}|${from.slice(bar + 1)}`;
}

/** The caller's (or owner's) watchlist changes, checked as ApiQueryWatchlist::run checks the request; `props` is the list's prop, absent for the generator. */
async function fetchWatchlist(ctx: ActionContext<ParamsOf<typeof WATCHLIST_PARAMS>>, props: ReadonlySet<string> | undefined) {
  const p = ctx.params;
  const userId = await watchlistUserId(ctx, p.owner, p.token);
  if (p.user !== undefined && p.excludeuser !== undefined) throw new ApiUsageError('user-excludeuser', 'Parameters "wluser" and "wlexcludeuser" can not be used together.');
  // The properties matter to the list only, not to the generator (ApiQueryWatchlist::run).
  if (props?.has('patrol')) requirePatrolFlagRight(ctx as unknown as ActionContext, 'patrol');
  const show = p.show ?? [];
  checkShow(show);
  if (show.includes('patrolled') || show.includes('!patrolled')) requirePatrolFlagRight(ctx as unknown as ActionContext, 'permissiondenied');
  return ctx.deps.clients.content.listWatchlist({
    userId,
    namespaces: p.namespace ?? [],
    start: typeof p.start === 'string' ? isoFromMw(p.start) : '',
    end: typeof p.end === 'string' ? isoFromMw(p.end) : '',
    newerFirst: p.dir === 'newer',
    limit: p.limit,
    continue: typeof p.continue === 'string' ? watchlistContinue(p.continue) : '',
    types: p.type ?? [],
    user: p.user ?? '',
    excludeUser: p.excludeuser ?? '',
    show,
    allRevisions: p.allrev,
    authorHideBits: hiddenAuthorBits(ctx.caller.user.rights),
    logActionHideBits: hiddenLogActionBits(ctx.caller.user.rights),
  });
}

/** The action text (HTML) of each log entry among `changes`, its links red or blue as the pages are. */
async function logDisplays(ctx: ActionContext, changes: readonly WatchlistChange[]): Promise<(string | undefined)[]> {
  const rows = changes.map((c) => (c.type === 'log' ? { logType: c.logType, logAction: c.logAction, logParamsJson: c.logParamsJson, user: c.user, anon: c.anon, title: c.title } : undefined));
  const titles = [...new Set(rows.flatMap((r) => (r ? linkedTitles(r) : [])))];
  if (titles.length === 0) return [];
  const kinds = new Map<string, PageKind>();
  for (const page of (await ctx.deps.clients.content.resolvePages({ titles })).pages) if (!page.missing && !page.special) kinds.set(page.title, page.redirect ? 'redirect' : 'page');
  return rows.map((r) => (r ? logActionText(r, (t) => kinds.get(t) ?? 'missing') : undefined));
}

/**
 * ApiQueryWatchlist::extractOutputData: a hidden log action (with its title), author or summary is
 * flagged, and shown only to a caller who may see it (the caller's rights, whoever owns the list).
 */
export function watchlistResult(c: WatchlistChange, props: ReadonlySet<string>, parsedComment: string | undefined, rights: readonly string[], logDisplay?: string): ResultObject {
  const v: ResultObject = { type: c.type };
  let anyHidden = false;
  if (props.has('title') || props.has('ids')) {
    if (c.type === 'log' && c.deleted & LOG_DELETED_ACTION) {
      v.actionhidden = true;
      anyHidden = true;
    }
    if (c.type !== 'log' || logFieldVisible(c.deleted, LOG_DELETED_ACTION, rights)) {
      if (props.has('title')) {
        v.ns = c.ns;
        v.title = c.title;
      }
      if (props.has('ids')) {
        v.pageid = c.pageId;
        v.revid = c.revId;
        v.old_revid = c.oldRevId;
      }
    }
  }
  if (props.has('user') || props.has('userid')) {
    if (c.deleted & DELETED_USER) {
      v.userhidden = true;
      anyHidden = true;
    }
    if (userCanSee(c.deleted, DELETED_USER, rights)) {
      if (props.has('user')) v.user = c.user;
      if (props.has('userid')) v.userid = c.userId;
      v.anon = c.anon;
    }
  }
  if (props.has('flags')) {
    v.bot = c.bot;
    v.new = c.new;
    v.minor = c.minor;
  }
  if (props.has('sizes')) {
    v.oldlen = c.oldLen;
    v.newlen = c.newLen;
  }
  if (props.has('timestamp')) v.timestamp = c.timestamp;
  if (props.has('notificationtimestamp')) v.notificationtimestamp = c.notificationTimestamp;
  if (props.has('comment') || props.has('parsedcomment')) {
    if (c.deleted & DELETED_COMMENT) {
      v.commenthidden = true;
      anyHidden = true;
    }
    if (userCanSee(c.deleted, DELETED_COMMENT, rights)) {
      if (props.has('comment')) v.comment = c.comment;
      if (parsedComment !== undefined) v.parsedcomment = parsedComment;
    }
  }
  if (props.has('patrol')) {
    // ChangesList::isUnpatrolled: the caller is a patroller (checked above).
    v.patrolled = c.patrolled !== 0;
    v.unpatrolled = c.patrolled === 0;
    v.autopatrolled = c.patrolled === 2;
  }
  if (props.has('loginfo') && c.type === 'log') {
    if (c.deleted & LOG_DELETED_ACTION) {
      v.actionhidden = true;
      anyHidden = true;
    }
    if (logFieldVisible(c.deleted, LOG_DELETED_ACTION, rights)) {
      v.logid = c.logId;
      v.logtype = c.logType;
      v.logaction = c.logAction;
      // LogFormatter::formatParametersForApi and getActionText.
      v.logparams = setArrayType(apiLogParams(c.logParamsJson, c.logType), 'assoc');
      if (logDisplay !== undefined) v.logdisplay = logDisplay;
    }
  }
  if (props.has('tags')) v.tags = setIndexedTagName([...c.tags], 'tag');
  if (props.has('expiry')) v.expiry = c.expiry === '' ? false : c.expiry;
  if (anyHidden && c.deleted & DELETED_RESTRICTED) v.suppressed = true;
  return v;
}

export const watchlistModule = defineGenerator({
  name: 'watchlist',
  group: 'list',
  prefix: 'wl',
  summary: "Get recent changes to pages in the current user's watchlist.",
  params: WATCHLIST_PARAMS,
  flags: { generator: true },
  examples: {
    'action=query&list=watchlist': "List the top revision for recently changed pages on the current user's watchlist.",
    'action=query&list=watchlist&wlprop=ids|title|timestamp|user|comment': 'Fetch additional information about the top revision for recently changed pages.',
    'action=query&generator=watchlist&prop=info': "Fetch page info for recently changed pages on the current user's watchlist.",
    'action=query&generator=watchlist&gwlallrev=&prop=revisions&rvprop=timestamp|user': "Fetch revision info for recent changes to pages on the current user's watchlist.",
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = new Set(ctx.params.prop ?? ['ids', 'title', 'flags']);
    const resp = await fetchWatchlist(ctx, props);
    const rights = ctx.caller.user.rights;
    const parsed = props.has('parsedcomment')
      ? await ctx.deps.clients.content.formatComments(resp.changes.map((c) => ({ title: c.title, comment: userCanSee(c.deleted, DELETED_COMMENT, rights) ? c.comment : '' })))
      : [];
    const display = props.has('loginfo') ? await logDisplays(ctx as unknown as ActionContext, resp.changes) : [];
    run.data.watchlist = setIndexedTagName(
      resp.changes.map((c, i) => watchlistResult(c, props, parsed[i], rights, display[i])),
      'item',
    );
    if (resp.continueFrom) run.continuation.addContinueParam('watchlist', 'wlcontinue', watchlistContinueOut(resp.continueFrom));
  },
  /** The watched pages changed (page ids), or with allrev their revisions. */
  async generate(ctx, run) {
    const resp = await fetchWatchlist(ctx, undefined);
    if (resp.continueFrom) run.continuation.addGeneratorContinueParam('gwlcontinue', watchlistContinueOut(resp.continueFrom));
    if (ctx.params.allrev) return { revIds: resp.changes.map((c) => c.revId) };
    return resp.changes.map((c) => c.pageId);
  },
});

const WATCHLISTRAW_PARAMS = defineParams({
  continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  namespace: { type: 'namespace', multi: true, help: 'Only list pages in the given namespaces.' },
  limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many total results to return per request.' },
  prop: { type: ['changed'], multi: true, help: 'Which additional properties to get.' },
  show: { type: ['!changed', 'changed'], multi: true, help: 'Only list items that meet these criteria.' },
  ...OWNER_TOKEN_PARAMS,
  dir: { type: ['ascending', 'descending'], default: 'ascending', help: 'The direction in which to list.' },
  fromtitle: { type: 'string', help: 'Title (with namespace prefix) to begin enumerating from.' },
  totitle: { type: 'string', help: 'Title (with namespace prefix) to stop enumerating at.' },
});

/** The watched titles the request asks for, in the order and bounds of ApiQueryWatchlistRaw. */
async function fetchWatchlistRaw(ctx: ActionContext<ParamsOf<typeof WATCHLISTRAW_PARAMS>>) {
  const p = ctx.params;
  const userId = await watchlistUserId(ctx, p.owner, p.token);
  const show = p.show ?? [];
  checkShow(show);
  // Title bounds become "<ns>|<dbkey>" through the content service's title rules.
  const bound = async (title: unknown): Promise<string> => {
    if (typeof title !== 'string') return '';
    const r = await ctx.deps.clients.content.resolvePages({ titles: [title] });
    const pg = r.pages[0];
    if (!pg || r.invalid?.length) throw new ApiUsageError('invalidtitle', `Bad title "${title}".`);
    const ns = (await ctx.deps.site.namespaces()).namespaces.find((n) => n.id === pg.ns);
    const text = ns?.name ? pg.title.slice(ns.name.length + 1) : pg.title;
    return `${pg.ns}|${text.replace(/ /g, '_')}`;
  };
  const cont = typeof p.continue === 'string' ? watchlistRawContinue(p.continue) : '';
  return ctx.deps.clients.content.listWatchlistRaw({
    userId,
    namespaces: p.namespace ?? [],
    descending: p.dir === 'descending',
    limit: p.limit,
    from: cont || (await bound(p.fromtitle)),
    to: await bound(p.totitle),
    show: show[0] ?? '',
  });
}

export const watchlistrawModule = defineGenerator({
  name: 'watchlistraw',
  group: 'list',
  prefix: 'wr',
  summary: "Get all pages on the current user's watchlist.",
  params: WATCHLISTRAW_PARAMS,
  flags: { generator: true },
  examples: {
    'action=query&list=watchlistraw': "List pages on the current user's watchlist.",
    'action=query&generator=watchlistraw&gwrshow=changed&prop=info': "Fetch page info for pages on the current user's watchlist.",
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const resp = await fetchWatchlistRaw(ctx);
    const props = new Set(ctx.params.prop ?? []);
    // ApiQueryWatchlistRaw puts its list at the top level of the result, not under "query".
    ctx.result.watchlistraw = setIndexedTagName(
      resp.pages.map((pg): ResultObject => ({ ns: pg.ns, title: pg.title, ...(props.has('changed') && pg.changed ? { changed: pg.changed } : {}) })),
      'wr',
    );
    if (resp.continueFrom) run.continuation.addContinueParam('watchlistraw', 'wrcontinue', resp.continueFrom);
  },
  /** The watched titles, existing or not (ApiPageSet::populateFromTitles). */
  async generate(ctx, run) {
    const resp = await fetchWatchlistRaw(ctx);
    if (resp.continueFrom) run.continuation.addGeneratorContinueParam('gwrcontinue', resp.continueFrom);
    return { titles: resp.pages.map((pg) => pg.title) };
  },
});
