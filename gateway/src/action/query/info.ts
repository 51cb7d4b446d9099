/*
 * prop=info (MediaWiki's ApiQueryInfo): base page fields plus protection, the caller's watch
 * state, watcher counts, talkid, subjectid, associatedpage, url, readable, preload,
 * displaytitle and varianttitles.
 */
import type { Namespace, PageInfoDetails, PageRecord } from '../../clients/types.js';
import { ARTICLE_PATH, SCRIPT_PATH } from '../../config.js';
import { setIndexedTagName, type ModuleDecl, type ResultObject } from '../types.js';
import { escapeHtmlNoQuotes, isoTimestamp, wfUrlencode } from './encoding.js';
import { badContinue } from './continuation.js';
import { queryRunOf } from './run.js';
import { isRtl } from './siteinfo.js';
import { defineModule } from '../define.js';
import { englishMessage, replaceMessageParams } from '../../i18n/messages.js';

const INFO_PROPS = [
  'protection',
  'talkid',
  'watched',
  'watchers',
  'visitingwatchers',
  'notificationtimestamp',
  'subjectid',
  'associatedpage',
  'url',
  'readable',
  'preload',
  'displaytitle',
  'varianttitles',
  'linkclasses',
] as const;

/** $wgWatchersMaxAge (MediaWiki's default, 180 days): how far back visiting watchers are counted. */
const WATCHERS_MAX_AGE_SECONDS = 180 * 24 * 3600;

export interface InfoOptions {
  props: ReadonlySet<string>;
  server: string;
  /** Content language: the page language of pages without their own. */
  lang: string;
  /** When redirects are resolved no page reports `redirect` (ApiQueryInfo reads page_is_redirect only otherwise). */
  resolvingRedirects: boolean;
  namespaces: readonly Namespace[];
  /** Page ids of associated (talk or subject) pages, by prefixed title. */
  associatedIds: ReadonlyMap<string, number>;
  /** Display titles and watchlist facts by prefixed title (what was asked for). */
  details?: ReadonlyMap<string, PageInfoDetails>;
  /** The caller's watch state is known (a registered user with viewmywatchlist). */
  watchStateKnown?: boolean;
  /** Watcher counts are shown, zeros included (the caller has unwatchedpages). */
  showWatchers?: boolean;
  /** The caller may read pages (the `read` right). */
  canRead?: boolean;
  /** The title's protection and restriction types, when inprop=protection. */
  protection?: ResultObject[];
  /** inprop=linkclasses: the classes a link to the page gets. */
  linkClasses?: boolean;
  /** intestactions: whether the caller may do each action to the page (or, with a detail level, why not). */
  actions?: Record<string, boolean | ActionError[]>;
}

/** The title without its namespace prefix (Title::getText). */
function titleText(page: PageRecord, namespaces: readonly Namespace[]): string {
  const name = namespaces.find((n) => n.id === page.ns)?.name;
  return name ? page.title.slice(name.length + 1) : page.title;
}

/** The talk page of a subject page or the subject page of a talk page (NamespaceInfo::getAssociatedPage). */
export function associatedTitle(page: PageRecord, namespaces: readonly Namespace[]): string | undefined {
  if (page.ns < 0) return undefined;
  const other = namespaces.find((n) => n.id === (page.ns % 2 === 0 ? page.ns + 1 : page.ns - 1));
  if (!other || !namespaces.some((n) => n.id === page.ns)) return undefined;
  const text = titleText(page, namespaces);
  return other.name ? `${other.name}:${text}` : text;
}

function dbKey(title: string): string {
  return title.replace(/ /g, '_');
}

/** ApiQueryInfo::extractPageInfo for an existing (pageid > 0) or missing page. */
export function pageInfo(page: PageRecord, exists: boolean, o: InfoOptions): ResultObject {
  const lang = page.pageLanguage || o.lang;
  const vals: ResultObject = {
    contentmodel: page.contentModel || o.namespaces.find((n) => n.id === page.ns)?.defaultContentModel || 'wikitext',
    pagelanguage: lang,
    pagelanguagehtmlcode: lang,
    pagelanguagedir: isRtl(lang) ? 'rtl' : 'ltr',
  };
  if (exists) {
    vals.touched = isoTimestamp(page.touched || page.latestTimestamp);
    vals.lastrevid = page.latestRevId;
    vals.length = page.length;
    if (page.redirect && !o.resolvingRedirects) vals.redirect = true;
    if (page.isNew) vals.new = true;
  }
  if (o.protection) {
    vals.protection = setIndexedTagName(o.protection, 'pr');
    vals.restrictiontypes = setIndexedTagName(exists ? (page.ns === 6 ? ['edit', 'move', 'upload'] : ['edit', 'move']) : ['create'], 'rt');
  }
  const details = o.details?.get(page.title);
  if (o.props.has('watched')) {
    vals.watched = o.watchStateKnown === true && details?.watched === true;
    if (vals.watched && details?.watchExpiry) vals.watchlistexpiry = details.watchExpiry;
  }
  if (o.showWatchers) {
    if (o.props.has('watchers')) vals.watchers = details?.watchers ?? 0;
    if (o.props.has('visitingwatchers')) vals.visitingwatchers = details?.visitingWatchers ?? 0;
  }
  if (o.props.has('notificationtimestamp')) vals.notificationtimestamp = (o.watchStateKnown && details?.notificationTimestamp) || '';
  const associated = associatedTitle(page, o.namespaces);
  const isTalk = page.ns % 2 === 1;
  if (associated !== undefined) {
    const id = o.associatedIds.get(associated);
    if (id !== undefined && o.props.has(isTalk ? 'subjectid' : 'talkid')) vals[isTalk ? 'subjectid' : 'talkid'] = id;
    if (o.props.has('associatedpage')) vals.associatedpage = associated;
  }
  if (o.props.has('url')) {
    const key = wfUrlencode(dbKey(page.title));
    const url = o.server + ARTICLE_PATH.replace('$1', key);
    vals.fullurl = url;
    vals.editurl = `${o.server}${SCRIPT_PATH}/index.php?title=${key}&action=edit`;
    vals.canonicalurl = url;
  }
  if (o.props.has('readable')) vals.readable = o.canRead === true;
  // No EditFormPreloadText hook: nothing preloads a missing page (null, as MediaWiki's unset text).
  if (o.props.has('preload')) vals.preload = exists ? '' : null;
  // {{DISPLAYTITLE}} (page_props, existing pages only), else the escaped title.
  const displayTitle = exists ? details?.displayTitle : undefined;
  if (o.props.has('displaytitle')) vals.displaytitle = displayTitle ?? escapeHtmlNoQuotes(page.title);
  if (o.props.has('varianttitles') && exists) {
    // ApiQueryInfo::getAllVariants for a content language without variants (its only variant is
    // itself): the display title, else the title (namespace prefix as the language writes it).
    vals.varianttitles = { [o.lang]: displayTitle ?? page.title };
  }
  // ApiQueryInfo::getLinkClasses without a GetLinkColours hook: mw-redirect, existing pages only.
  if (o.linkClasses && exists) vals.linkclasses = page.redirect ? ['mw-redirect'] : [];
  if (o.actions) vals.actions = o.actions;
  return vals;
}

/** The right a protection level requires ($wgRestrictionLevels with its semiprotection aliases). */
const LEVEL_RIGHTS: Record<string, string> = { sysop: 'editprotected', autoconfirmed: 'editsemiprotected' };

/**
 * Authority::authorizeRead(action, title) as PermissionManager decides it from the caller's rights,
 * the namespace's protection and the title's own and cascading protections (blocks are not
 * consulted here).
 */
export function mayDo(action: string, page: PageRecord, rights: readonly string[], namespaces: readonly Namespace[], protections: readonly ResultObject[]): boolean {
  return actionErrors(action, page, rights, namespaces, protections, NO_DETAILS).length === 0;
}

/** The messages' context when only the decision is wanted. */
const NO_DETAILS: PermissionContext = { anonymous: false, groupRights: [], projectNs: '' };

/** One reason an action is refused, as intestactionsdetail=full|quick lists them (code and wikitext). */
export interface ActionError {
  code: string;
  text: string;
}

/** What the detail lists need besides the page: who has which right, and the project namespace's name. */
export interface PermissionContext {
  anonymous: boolean;
  groupRights: readonly { name: string; rights: readonly string[] }[];
  projectNs: string;
}

// The API's text of a message keeps its wikitext but not its line breaks.
const wikitextOf = (key: string, params: (string | number)[] = []) => replaceMessageParams(expandPlural(englishMessage(key) ?? key, params), params.map(String)).replace(/\n/g, ' ');

/** {{PLURAL:$n|one|more}} in a message (English). */
function expandPlural(text: string, params: readonly (string | number)[]): string {
  return text.replace(/\{\{PLURAL:\$(\d+)\|([^|}]*)\|([^}]*)\}\}/g, (_m, n: string, one: string, more: string) => (Number(params[Number(n) - 1]) === 1 ? one : more));
}

/** PermissionManager's badaccess-groups (API code permissiondenied): the groups that have the right, linked to their pages. */
function badAccess(right: string, pc: PermissionContext): ActionError {
  const groups = pc.groupRights
    .filter((g) => g.name !== '*' && g.rights.includes(right))
    .map((g) => {
      const page = (englishMessage(`grouppage-${g.name}`) ?? `{{ns:project}}:${g.name}`).replace('{{ns:project}}', pc.projectNs);
      return `[[${page}|${englishMessage(`group-${g.name}`) ?? g.name}]]`;
    });
  return { code: 'permissiondenied', text: wikitextOf('badaccess-groups', [groups.join(', '), groups.length]) };
}

/**
 * PermissionManager::getPermissionErrors for intestactionsdetail=full (and quick, which skips
 * only checks Quire does not make): the caller's missing right, the namespace's protection, the
 * page's protections, and for protect the edit it needs. `mayDo` is the same decision as a boolean.
 */
export function actionErrors(
  action: string,
  page: PageRecord,
  rights: readonly string[],
  namespaces: readonly Namespace[],
  protections: readonly ResultObject[],
  pc: PermissionContext,
): ActionError[] {
  const has = (right: string) => rights.includes(right);
  const errors: ActionError[] = [];
  if (action === 'read') return has('read') ? [] : [badAccess('read', pc)];
  if (page.ns === -1 && action !== 'createaccount') return [{ code: 'ns-specialprotected', text: wikitextOf('ns-specialprotected') }];
  if (action === 'create') {
    if (!has(page.ns % 2 === 1 ? 'createtalk' : 'createpage'))
      errors.push(pc.anonymous ? { code: 'cantcreate-anon', text: wikitextOf('nocreatetext').replace('{{SITENAME}}', pc.projectNs) } : { code: 'cantcreate', text: wikitextOf('nocreate-loggedin') });
  } else if (action === 'move') {
    // PermissionManager::checkQuickPermissions: the namespace's own move rights, then `move` itself.
    if (page.ns === 2 && !page.title.includes('/') && !has('move-rootuserpages')) errors.push({ code: 'cant-move-user-page', text: wikitextOf('cant-move-user-page') });
    if (page.ns === 6 && !has('movefile')) errors.push({ code: 'cantmovefile', text: wikitextOf('movenotallowedfile') });
    if (page.ns === 14 && !has('move-categorypages')) errors.push({ code: 'cant-move-category-page', text: wikitextOf('cant-move-category-page') });
    if (!has('move')) {
      const usersMay = pc.groupRights.some((g) => (g.name === 'user' || g.name === 'autoconfirmed') && g.rights.includes('move'));
      errors.push(pc.anonymous && usersMay ? { code: 'cantmove-anon', text: wikitextOf('movenologintext') } : { code: 'cantmove', text: wikitextOf('movenotallowed') });
    }
  } else if (!has(action)) {
    errors.push(badAccess(action, pc));
  }
  const nsRight = namespaces.find((n) => n.id === page.ns)?.protection;
  // As the reference wiki answers: `create` is not refused by the namespace's protection.
  if (nsRight && action !== 'create' && !has(nsRight)) {
    const nsName = namespaces.find((n) => n.id === page.ns)?.name ?? '';
    errors.push(page.ns === 8 ? { code: 'protectednamespace-interface', text: wikitextOf('protectedinterface') } : { code: 'protectednamespace', text: wikitextOf('namespaceprotected', [nsName]) });
  }
  const refusedBy = (type: string) => protections.some((pr) => pr.type === type && !has(LEVEL_RIGHTS[String(pr.level)] ?? String(pr.level)));
  if (refusedBy(action)) errors.push({ code: 'protectedpage', text: wikitextOf('protectedpagetext') });
  // Protection that keeps the caller from editing keeps them from deleting too.
  if (action === 'delete' && refusedBy('edit')) errors.push({ code: 'cantedit', text: wikitextOf('deleteprotected') });
  if (action === 'protect' && actionErrors('edit', page, rights, namespaces, protections, pc).length > 0) errors.push({ code: 'cantedit', text: wikitextOf('protect-cantedit') });
  return errors;
}

/** ApiQueryInfo's testactions limit per request (ApiBase::LIMIT_SML1 / LIMIT_SML2). */
const TEST_ACTIONS_LIMIT = 50;
const TEST_ACTIONS_HIGH_LIMIT = 500;

/**
 * The pages in Title::compare order (namespace, then DB key), from the `incontinue` title
 * ("<ns>|<text>") on.
 */
function sortedFrom<T extends [number, PageRecord, boolean]>(pages: T[], namespaces: readonly Namespace[], cont: string | undefined): T[] {
  const key = (ns: number, text: string): [number, string] => [ns, text.replace(/ /g, '_')];
  const cmp = (a: [number, string], b: [number, string]) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  const sorted = [...pages].sort((a, b) => cmp(key(a[1].ns, titleText(a[1], namespaces)), key(b[1].ns, titleText(b[1], namespaces))));
  if (cont === undefined) return sorted;
  const parts = cont.split('|');
  if (parts.length !== 2 || !/^-?\d+$/.test(parts[0]!) || parts[1] === '') throw badContinue();
  const from = key(Number(parts[0]), parts[1]!);
  return sorted.filter(([, p]) => cmp(key(p.ns, titleText(p, namespaces)), from) >= 0);
}

/** The protections of titles (prefixed DB keys) as prop=info shows them. */
async function protectionOf(ctx: Parameters<ModuleDecl['execute']>[0], dbkeys: string[]): Promise<Map<string, ResultObject[]>> {
  const resp = await ctx.deps.clients.content.getProtection({ titles: dbkeys });
  return new Map(
    resp.titles.map((t) => [
      t.title,
      t.protections.map(
        (p): ResultObject => ({
          type: p.type,
          level: p.level,
          expiry: p.expiry,
          ...(p.cascade ? { cascade: true } : {}),
          ...(p.source ? { source: p.source } : {}),
        }),
      ),
    ]),
  );
}

export const infoModule = defineModule({
  name: 'info',
  group: 'prop',
  prefix: 'in',
  summary: 'Get basic page information.',
  params: {
    prop: { type: INFO_PROPS, multi: true, deprecatedValues: ['readable'], help: 'Which additional properties to get.' },
    linkcontext: {
      type: 'title',
      default: 'Main Page',
      help: 'The context title to use when determining extra CSS classes (e.g. link colors) when inprop contains linkclasses.',
    },
    testactions: { type: 'string', multi: true, help: 'Test whether the current user can perform certain actions on the page.' },
    testactionsdetail: {
      type: ['boolean', 'full', 'quick'],
      default: 'boolean',
      help: 'Detail level for intestactions: boolean, a boolean value for each action; full, the messages why the action is disallowed (an empty array when allowed); quick, like full but skipping expensive checks.',
    },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  },
  flags: {},
  examples: {
    'action=query&prop=info&titles=Main%20Page': 'Get information about the page Main Page.',
    'action=query&prop=info&inprop=talkid|url&titles=Main%20Page': 'Get the talk page id and the URLs of Main Page.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const { pageSet } = run;
    const props = new Set(ctx.params.prop ?? []);
    const everything: [number, PageRecord, boolean][] = [
      ...pageSet.good.map((p): [number, PageRecord, boolean] => [p.id, p, true]),
      ...pageSet.missing.map(({ id, page }): [number, PageRecord, boolean] => [id, page, false]),
    ];
    if (everything.length === 0) return;
    const namespaces = (await ctx.deps.site.namespaces()).namespaces;

    const associatedIds = new Map<string, number>();
    if (props.has('talkid') || props.has('subjectid')) {
      const wanted = everything
        .filter(([, p]) => props.has(p.ns % 2 === 1 ? 'subjectid' : 'talkid'))
        .map(([, p]) => associatedTitle(p, namespaces))
        .filter((t): t is string => t !== undefined);
      if (wanted.length) {
        const resp = await ctx.deps.clients.content.resolvePages({ titles: wanted });
        for (const p of resp.pages) if (!p.missing && !p.special && p.id > 0) associatedIds.set(p.title, p.id);
      }
    }

    const user = ctx.caller.user;
    const watchStateKnown = !user.anonymous && user.id > 0 && user.rights.includes('viewmywatchlist');
    // $wgUnwatchedPageThreshold is false (MediaWiki's default): only unwatchedpages holders see counts.
    const showWatchers = user.rights.includes('unwatchedpages');
    const wantWatchState = watchStateKnown && (props.has('watched') || props.has('notificationtimestamp'));
    const wantDisplayTitles = (props.has('displaytitle') || props.has('varianttitles')) && pageSet.good.length > 0;
    const wantWatchers = showWatchers && props.has('watchers');
    const wantVisiting = showWatchers && props.has('visitingwatchers');
    let details: Map<string, PageInfoDetails> | undefined;
    if (wantWatchState || wantDisplayTitles || wantWatchers || wantVisiting) {
      const resp = await ctx.deps.clients.content.getPageInfoDetails({
        titles: everything.map(([, p]) => p.title),
        displayTitles: wantDisplayTitles,
        watchUserId: wantWatchState ? user.id : 0,
        watchers: wantWatchers,
        visitingWatchers: wantVisiting,
        watchersMaxAgeSeconds: WATCHERS_MAX_AGE_SECONDS,
      });
      details = new Map(resp.pages.map((d) => [d.title, d]));
    }

    const options: InfoOptions = {
      props,
      server: ctx.deps.config.server,
      lang: ctx.deps.config.lang,
      resolvingRedirects: pageSet.resolvingRedirects,
      namespaces,
      associatedIds,
      details,
      watchStateKnown,
      showWatchers,
      canRead: user.rights.includes('read'),
    };
    const testActions = ctx.params.testactions ?? [];
    const protection =
      props.has('protection') || testActions.length
        ? await protectionOf(
            ctx,
            everything.map(([, p]) => p.dbkey),
          )
        : undefined;
    const actionsLimit = ctx.highLimits ? TEST_ACTIONS_HIGH_LIMIT : TEST_ACTIONS_LIMIT;
    // full and quick list the reasons; Quire makes no check that quick would skip (blocks, rate limits).
    const permissions: PermissionContext | undefined =
      testActions.length && ctx.params.testactionsdetail !== 'boolean'
        ? { anonymous: user.anonymous, groupRights: (await ctx.deps.clients.auth.listGroupPermissions(false)).groups, projectNs: namespaces.find((n) => n.id === 4)?.name ?? '' }
        : undefined;
    let tested = 0;
    for (const [id, page, exists] of sortedFrom(everything, namespaces, ctx.params.continue)) {
      const entry = run.pages.get(id);
      if (!entry) continue;
      let actions: Record<string, boolean | ActionError[]> | undefined;
      if (testActions.length) {
        // Past the limit the page and the rest wait for the next request.
        if (tested >= actionsLimit) {
          run.continuation.addContinueParam('info', 'incontinue', `${page.ns}|${titleText(page, namespaces)}`);
          break;
        }
        const own = protection?.get(page.dbkey) ?? [];
        actions = Object.fromEntries(
          testActions.map((a) => [a, permissions ? setIndexedTagName(actionErrors(a, page, user.rights, namespaces, own, permissions), 'error') : mayDo(a, page, user.rights, namespaces, own)]),
        );
        tested += testActions.length;
      }
      // ApiQueryInfo: the page's own protections, those cascading from other pages, and $wgRestrictionTypes.
      Object.assign(
        entry,
        pageInfo(page, exists, {
          ...options,
          ...(props.has('protection') && protection ? { protection: protection.get(page.dbkey) ?? [] } : {}),
          linkClasses: props.has('linkclasses'),
          actions,
        }),
      );
    }
  },
});
