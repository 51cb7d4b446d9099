/* meta=userinfo (MediaWiki's ApiQueryUserInfo). */
import type { User, UserDetails } from '../../clients/types.js';
import { blockDetails } from '../blockinfo.js';
import { setArrayType, setContentValue, setIndexedTagName, type ResultObject } from '../types.js';
import { queryRunOf } from './run.js';
import { defineModule } from '../define.js';
import { ATTACHED_WIKI_PARAM, centralUserInfo } from './centralids.js';

const USERINFO_PROPS = [
  'blockinfo',
  'hasmsg',
  'groups',
  'groupmemberships',
  'implicitgroups',
  'rights',
  'changeablegroups',
  'options',
  'editcount',
  'ratelimits',
  'theoreticalratelimits',
  'email',
  'realname',
  'acceptlang',
  'registrationdate',
  'unreadcount',
  'centralids',
  'latestcontrib',
  'cancreateaccount',
] as const;

/** UserGroupManager::listAllGroups order of the explicit groups (what a `userrights` holder may change). */
const EXPLICIT_GROUPS = ['bot', 'sysop', 'interface-admin', 'bureaucrat', 'suppress'];
/** ApiQueryUserInfo::WL_UNREAD_LIMIT: more unread watched pages show as "1000+". */
const WL_UNREAD_LIMIT = 1000;

const IMPLICIT_GROUPS = ['*', 'user', 'autoconfirmed'];

/**
 * UserGroupManager::getUserEffectiveGroups order: the explicit groups, then the implicit ones
 * (list=users and meta=userinfo; list=allusers lists the implicit ones first).
 */
export function effectiveGroupsOrder(groups: readonly string[]): string[] {
  return [...groups.filter((g) => !IMPLICIT_GROUPS.includes(g)), ...groups.filter((g) => IMPLICIT_GROUPS.includes(g))];
}

/** $wgDefaultUserOptions as MediaWiki 1.39 reports them (the user's own overrides win). */
export const DEFAULT_USER_OPTIONS: Record<string, string | number | boolean> = {
  ccmeonemails: 0,
  date: 'default',
  diffonly: 0,
  disablemail: 0,
  editfont: 'monospace',
  editondblclick: 0,
  editsectiononrightclick: 0,
  'email-allow-new-users': 1,
  enotifminoredits: 0,
  enotifrevealaddr: 0,
  enotifusertalkpages: 1,
  enotifwatchlistpages: 1,
  extendwatchlist: 1,
  fancysig: 0,
  forceeditsummary: 0,
  gender: 'unknown',
  hideminor: 0,
  hidepatrolled: 0,
  hidecategorization: 1,
  imagesize: 2,
  minordefault: 0,
  newpageshidepatrolled: 0,
  nickname: '',
  'pst-cssjs': 1,
  norollbackdiff: 0,
  previewonfirst: 0,
  previewontop: 1,
  rcdays: 7,
  'rcenhancedfilters-disable': 0,
  rclimit: 50,
  'search-match-redirect': true,
  'search-special-page': 'Search',
  searchlimit: 20,
  showhiddencats: 0,
  shownumberswatching: 1,
  showrollbackconfirmation: 0,
  skin: 'vector',
  thumbsize: 5,
  underline: 2,
  uselivepreview: 0,
  usenewrc: 1,
  watchcreations: 1,
  watchdefault: 1,
  watchdeletion: 0,
  watchuploads: 1,
  watchlistdays: 7,
  watchlisthideanons: 0,
  watchlisthidebots: 0,
  watchlisthideliu: 0,
  watchlisthideminor: 0,
  watchlisthideown: 0,
  watchlisthidepatrolled: 0,
  watchlisthidecategorization: 1,
  watchlistreloadautomatically: 0,
  watchlistunwatchlinks: 0,
  watchmoves: 0,
  watchrollback: 0,
  'wlenhancedfilters-disable': 0,
  wllimit: 250,
  useeditwarning: 1,
  prefershttps: 1,
  requireemail: 0,
  'skin-responsive': 1,
  timecorrection: 'System|0',
  language: 'en',
  variant: 'en',
  searchNs0: 1,
};

/**
 * DefaultOptionsLookup: the account defaults, with `variant-<lang>` for each language with
 * variants after `variant`, and `searchNs<id>` for every namespace from 0 (only what
 * $wgNamespacesToBeSearchedDefault names is 1).
 */
export function defaultOptionsInfo(namespaceIds: readonly number[], variantLanguages: readonly string[]): ResultObject {
  const out: ResultObject = {};
  for (const [name, value] of Object.entries(DEFAULT_USER_OPTIONS)) {
    if (name.startsWith('searchNs')) continue;
    out[name] = value;
    if (name === 'variant') for (const lang of variantLanguages) out[`variant-${lang}`] = lang;
  }
  for (const id of [...namespaceIds].filter((n) => n >= 0).sort((a, b) => a - b)) out[`searchNs${id}`] = DEFAULT_USER_OPTIONS[`searchNs${id}`] ?? 0;
  return setArrayType(out, 'assoc');
}

/** $wgRateLimits defaults by the caller's class (anonymous: "ip", logged in: "user"). */
const RATE_LIMITS: Record<string, { ip?: [number, number]; user?: [number, number] }> = {
  edit: { ip: [8, 60], user: [90, 60] },
  move: { user: [8, 60] },
  rollback: { user: [10, 60] },
  emailuser: { ip: [5, 86400], user: [20, 86400] },
  changeemail: { ip: [3, 86400], user: [4, 86400] },
  confirmemail: { ip: [3, 86400], user: [4, 86400] },
  purge: { ip: [30, 60], user: [30, 60] },
  linkpurge: { ip: [30, 60], user: [30, 60] },
  renderfile: { ip: [700, 30], user: [700, 30] },
  'renderfile-nonstandard': { ip: [70, 30], user: [70, 30] },
  editcontentmodel: { user: [8, 60] },
};

/** WebRequest::getAcceptLang: codes lower-cased, q=0 dropped, by q (highest first, then header order); a repeated code keeps its last q. */
export function acceptLanguages(header: string | undefined): ResultObject[] {
  if (!header) return setIndexedTagName([], 'lang');
  const found: { code: string; q: number; i: number }[] = [];
  const re = /([a-z]{1,8}(-[a-z]{1,8})*|\*)\s*(;\s*q\s*=\s*(1(\.0{0,3})?|0(\.[0-9]{0,3})?)?)?/g;
  let i = 0;
  for (const m of header.toLowerCase().matchAll(re)) {
    const q = m[4] === undefined || m[4] === '' ? 1 : Number(m[4]);
    if (q !== 0) found.push({ code: m[1]!, q, i });
    i++;
  }
  found.sort((a, b) => b.q - a.q || a.i - b.i);
  const byCode = new Map<string, number>();
  for (const f of found) byCode.set(f.code, f.q);
  return setIndexedTagName(
    [...byCode].map(([code, q]) => setContentValue({ q }, 'code', code)),
    'lang',
  );
}

export function groupMemberships(d: UserDetails | undefined): unknown {
  return setIndexedTagName(
    setArrayType(
      (d?.memberships ?? []).map((m) => ({ group: m.group, expiry: m.expiry })),
      'array',
    ),
    'groupmembership',
  );
}

/** The limits that apply (`ratelimits`: none with noratelimit), or would apply (`theoreticalratelimits`). */
function rateLimits(user: User, theoretical = false): ResultObject {
  if (!theoretical && user.rights.includes('noratelimit')) return setArrayType({}, 'assoc');
  const cls = user.anonymous ? 'ip' : 'user';
  const out: ResultObject = {};
  for (const [action, limits] of Object.entries(RATE_LIMITS)) {
    const l = limits[cls];
    if (l) out[action] = { [cls]: { hits: l[0], seconds: l[1] } };
  }
  return setArrayType(out, 'assoc');
}

export function userInfo(
  user: User,
  props: readonly string[],
  details?: UserDetails,
  extra: { attachedWiki?: string; wikiId?: string; latestContrib?: string; acceptLanguage?: string; defaultOptions?: ResultObject } = {},
): ResultObject {
  const vals: ResultObject = { id: user.id, name: user.name };
  if (user.anonymous || user.id === 0) vals.anon = true;
  if (props.includes('blockinfo') && user.block) Object.assign(vals, blockDetails(user.block));
  // The notification itself is asked of the content service by the module (see below).
  if (props.includes('hasmsg')) vals.messages = false;
  // Lists stay lists even when empty.
  if (props.includes('groups')) vals.groups = setIndexedTagName(setArrayType(effectiveGroupsOrder(user.groups), 'array'), 'g');
  if (props.includes('groupmemberships')) vals.groupmemberships = groupMemberships(details);
  if (props.includes('implicitgroups'))
    vals.implicitgroups = setIndexedTagName(
      setArrayType(
        user.groups.filter((g) => IMPLICIT_GROUPS.includes(g)),
        'array',
      ),
      'g',
    );
  if (props.includes('rights')) vals.rights = setIndexedTagName(setArrayType([...user.rights], 'array'), 'r');
  if (props.includes('changeablegroups')) {
    // UserGroupManager::getGroupsChangeableBy: the userrights right changes every explicit group.
    const all = user.rights.includes('userrights') ? EXPLICIT_GROUPS : [];
    const list = (groups: readonly string[]) => setIndexedTagName(setArrayType([...groups], 'array'), 'g');
    vals.changeablegroups = { add: list(all), remove: list(all), 'add-self': list([]), 'remove-self': list([]) };
  }
  if (props.includes('options')) {
    const own = details ? (JSON.parse(details.optionsJson || '{}') as Record<string, unknown>) : {};
    // UserOptionsLookup::getOptions: every default (a searchNs<id> per namespace too), then the user's own.
    vals.options = setArrayType({ ...(extra.defaultOptions ?? DEFAULT_USER_OPTIONS), ...own }, 'assoc');
  }
  if (props.includes('editcount') && !user.anonymous) vals.editcount = details?.editcount ?? 0;
  if (props.includes('ratelimits')) vals.ratelimits = rateLimits(user);
  if (props.includes('theoreticalratelimits')) vals.theoreticalratelimits = rateLimits(user, true);
  if (props.includes('realname') && !user.anonymous && user.rights.includes('viewmyprivateinfo')) vals.realname = details?.realname ?? '';
  if (props.includes('email') && !user.anonymous && user.rights.includes('viewmyprivateinfo')) {
    vals.email = details?.email ?? '';
    if (details?.emailAuthenticated) vals.emailauthenticated = details.emailAuthenticated;
  }
  if (props.includes('acceptlang')) vals.acceptlang = acceptLanguages(extra.acceptLanguage);
  if (props.includes('registrationdate') && !user.anonymous) vals.registrationdate = details?.registration ?? null;
  // unreadcount and latestcontrib are asked of the content service by the module (see below).
  if (props.includes('unreadcount')) vals.unreadcount = 0;
  if (props.includes('centralids')) Object.assign(vals, centralUserInfo(user.anonymous ? 0 : user.id, extra.attachedWiki, extra.wikiId ?? ''));
  if (props.includes('latestcontrib') && extra.latestContrib) vals.latestcontrib = extra.latestContrib;
  if (props.includes('cancreateaccount')) vals.cancreateaccount = user.rights.includes('createaccount') && !user.block?.nocreate;
  return vals;
}

const DETAIL_PROPS = ['groupmemberships', 'options', 'editcount', 'realname', 'email', 'registrationdate'];

export const userinfoModule = defineModule({
  name: 'userinfo',
  group: 'meta',
  prefix: 'ui',
  summary: 'Get information about the current user.',
  params: {
    prop: { type: USERINFO_PROPS, multi: true, allowAll: true, help: 'Which pieces of information to include.' },
    attachedwiki: ATTACHED_WIKI_PARAM,
  },
  flags: {},
  examples: {
    'action=query&meta=userinfo': 'Get information about the current user.',
    'action=query&meta=userinfo&uiprop=blockinfo|groups|rights|hasmsg': 'Get additional information about the current user.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = ctx.params.prop ?? [];
    const user = ctx.caller.user;
    const details = !user.anonymous && props.some((p) => DETAIL_PROPS.includes(p)) ? (await ctx.deps.clients.auth.getUsers({ ids: [user.id] })).users[0] : undefined;
    // UserEditTracker::getLatestEditTimestamp: the newest revision of a registered user.
    const latest = props.includes('latestcontrib') && !user.anonymous ? (await ctx.deps.clients.content.listUserContribs({ users: [user.name], limit: 1 })).contribs[0] : undefined;
    let defaultOptions: ResultObject | undefined;
    if (props.includes('options')) {
      const [namespaces, parser] = await Promise.all([ctx.deps.site.namespaces(), ctx.deps.clients.content.getParserInfo()]);
      defaultOptions = defaultOptionsInfo(
        namespaces.namespaces.map((n) => n.id),
        parser.languageVariants.map((l) => l.language),
      );
    }
    run.data.userinfo = userInfo(user, props, details, {
      attachedWiki: ctx.params.attachedwiki,
      wikiId: ctx.deps.config.wikiId,
      latestContrib: latest?.timestamp,
      acceptLanguage: ctx.header?.('accept-language'),
      defaultOptions,
    });
    if (props.includes('unreadcount') && !user.anonymous) {
      // WatchedItemStore::countUnreadNotifications with its limit.
      const unread = await ctx.deps.clients.content.listWatchlistRaw({ userId: user.id, show: 'changed', limit: WL_UNREAD_LIMIT });
      (run.data.userinfo as ResultObject).unreadcount = unread.pages.length >= WL_UNREAD_LIMIT ? `${WL_UNREAD_LIMIT}+` : unread.pages.length;
    }
    if (props.includes('hasmsg')) (run.data.userinfo as ResultObject).messages = await ctx.deps.clients.content.hasNewTalk(user.name);
  },
});
