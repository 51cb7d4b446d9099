/*
 * list=recentchanges (ApiQueryRecentChanges): edits, page creations and log actions, newest first;
 * as a generator, the changed pages (or, with generaterevisions, the revisions).
 */
import type { RecentChange } from '../../clients/types.js';
import { ApiUsageError, setArrayType, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { queryRunOf } from './run.js';
import { DIR_PARAM, LIMIT_PARAM, apiLogParams, mwOfIso, propsOf, timeWindow, titleKey } from './changes.js';
import { defineParams, type ParamsOf } from '../define.js';
import { defineGenerator } from './generator.js';
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_TEXT, DELETED_USER, LOG_DELETED_ACTION, hiddenAuthorBits, logFieldVisible, userCanSee } from '../../revdel.js';

const SHOW = ['!anon', '!autopatrolled', '!bot', '!minor', '!patrolled', '!redirect', 'anon', 'autopatrolled', 'bot', 'minor', 'patrolled', 'redirect', 'unpatrolled'];

/** rcshow values as tri-states (1 only, -1 not); contradictions are `show`. */
function showFilters(show: string[]): Record<'minor' | 'bot' | 'anon' | 'redirect' | 'patrolled' | 'autopatrolled' | 'unpatrolled', number> {
  const f = { minor: 0, bot: 0, anon: 0, redirect: 0, patrolled: 0, autopatrolled: 0, unpatrolled: 0 };
  for (const v of show) {
    const key = v.replace(/^!/, '') as keyof typeof f;
    const value = v.startsWith('!') ? -1 : 1;
    if (f[key] !== 0 && f[key] !== value) throw new ApiUsageError('show', 'Incorrect parameter - mutually exclusive values may not be supplied.');
    f[key] = value;
  }
  return f;
}

/** ApiQueryRecentChanges::extractRowInfo: a hidden author, summary, log action or text hash is flagged, and shown only to who may see it. */
function changeResult(c: RecentChange, props: Set<string>, parsedComment: string | undefined, rights: readonly string[]): ResultObject {
  const out: ResultObject = { type: c.type };
  const canSee = (field: number) => userCanSee(c.deleted, field, rights);
  let anyHidden = false;
  if (props.has('title')) {
    out.ns = c.ns;
    out.title = c.title;
  }
  if (props.has('ids')) {
    out.pageid = c.pageId;
    out.revid = c.revId;
    out.old_revid = c.oldRevId;
    out.rcid = c.rcId;
  }
  if (props.has('user') || props.has('userid')) {
    if (c.deleted & DELETED_USER) {
      out.userhidden = true;
      anyHidden = true;
    }
    if (canSee(DELETED_USER)) {
      if (props.has('user')) out.user = c.user;
      if (props.has('userid')) out.userid = c.userId;
      if (c.anon) out.anon = true;
    }
  }
  if (props.has('flags')) {
    out.bot = c.bot;
    out.new = c.new;
    out.minor = c.minor;
  }
  if (props.has('sizes')) {
    out.oldlen = c.oldLen;
    out.newlen = c.newLen;
  }
  if (props.has('timestamp')) out.timestamp = c.timestamp;
  if (props.has('comment') || props.has('parsedcomment')) {
    if (c.deleted & DELETED_COMMENT) {
      out.commenthidden = true;
      anyHidden = true;
    }
    if (canSee(DELETED_COMMENT)) {
      if (props.has('comment')) out.comment = c.comment;
      if (parsedComment !== undefined) out.parsedcomment = parsedComment;
    }
  }
  if (props.has('redirect')) out.redirect = c.redirect;
  if (props.has('patrolled')) {
    out.patrolled = c.patrolled !== 0;
    out.unpatrolled = c.patrolled === 0;
    out.autopatrolled = c.patrolled === 2;
  }
  if (props.has('loginfo') && c.type === 'log') {
    if (c.deleted & LOG_DELETED_ACTION) {
      out.actionhidden = true;
      anyHidden = true;
    }
    if (logFieldVisible(c.deleted, LOG_DELETED_ACTION, rights)) {
      out.logid = c.logId;
      out.logtype = c.logType;
      out.logaction = c.logAction;
      out.logparams = setArrayType(apiLogParams(c.logParamsJson, c.logType), 'assoc');
    }
  }
  if (props.has('tags')) out.tags = setIndexedTagName([...c.tags], 'tag');
  if (props.has('sha1') && c.type !== 'log') {
    if (c.deleted & DELETED_TEXT) {
      out.sha1hidden = true;
      anyHidden = true;
    }
    if (canSee(DELETED_TEXT)) out.sha1 = c.sha1;
  }
  if (anyHidden && c.deleted & DELETED_RESTRICTED) out.suppressed = true;
  return out;
}

const params = defineParams({
  start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
  end: { type: 'timestamp', help: 'The timestamp to end enumerating.' },
  dir: DIR_PARAM,
  namespace: { type: 'namespace', multi: true, extraNamespaces: [-2, -1], help: 'Filter changes to only these namespaces.' },
  user: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], help: 'Only list changes by this user.' },
  excludeuser: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], help: "Don't list changes by this user." },
  tag: { type: 'string', help: 'Only list changes tagged with this tag.' },
  prop: {
    type: ['comment', 'flags', 'ids', 'loginfo', 'parsedcomment', 'patrolled', 'redirect', 'sha1', 'sizes', 'tags', 'timestamp', 'title', 'user', 'userid'],
    multi: true,
    default: 'title|timestamp|ids',
    help: 'Include additional pieces of information.',
  },
  show: { type: SHOW, multi: true, help: 'Show only items that meet these criteria.' },
  limit: LIMIT_PARAM,
  type: { type: ['categorize', 'edit', 'external', 'log', 'new'], multi: true, default: 'edit|new|log|categorize', help: 'Which types of changes to show.' },
  toponly: { type: 'boolean', default: false, help: 'Only list changes which are the latest revision.' },
  title: { type: 'string', help: 'Filter entries to those related to a page.' },
  continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  generaterevisions: { type: 'boolean', default: false, help: 'When being used as a generator, generate revision IDs rather than titles.' },
  slot: { type: ['main'], help: 'Only list changes that touch the named slot.' },
});

function continueOf(c: RecentChange): string {
  return `${mwOfIso(c.timestamp)}|${c.rcId}`;
}

/** The changes the request asks for (one beyond the limit tells there are more), checked as ApiQueryRecentChanges::run checks them. */
async function fetchChanges(ctx: ActionContext<ParamsOf<typeof params>>) {
  const p = ctx.params;
  const props = propsOf(p);
  const show = p.show ?? [];
  const needsPatrol = show.some((v) => /patrolled/.test(v)) || props.has('patrolled');
  if (needsPatrol && !ctx.caller.user.rights.some((r) => r === 'patrol' || r === 'patrolmarks')) {
    throw new ApiUsageError('permissiondenied', 'You need the "patrol" or "patrolmarks" right to request the patrolled flag.');
  }
  if (typeof p.user === 'string' && typeof p.excludeuser === 'string') {
    throw new ApiUsageError('invalidparammix', 'The parameters "user" and "excludeuser" can not be used together.');
  }
  const filters = showFilters(show);
  const title = typeof p.title === 'string' ? await titleKey(ctx, p.title) : undefined;
  const limit = p.limit;
  const resp = await ctx.deps.clients.content.listRecentChanges({
    types: p.type ?? [],
    namespaces: p.namespace ?? [],
    user: p.user ?? '',
    excludeUser: p.excludeuser ?? '',
    tag: p.tag ?? '',
    topOnly: p.toponly,
    hasTitle: title !== undefined,
    titleNs: title?.ns ?? 0,
    titleDbkey: title?.dbkey ?? '',
    limit,
    authorHideBits: hiddenAuthorBits(ctx.caller.user.rights),
    ...filters,
    ...timeWindow(p),
  });
  const changes = resp.changes.slice(0, limit);
  const next = resp.changes[limit];
  return { props, changes, next };
}

export const recentchangesModule = defineGenerator({
  name: 'recentchanges',
  group: 'list',
  prefix: 'rc',
  summary: 'Enumerate recent changes.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=recentchanges': 'List recent changes.',
    'action=query&generator=recentchanges&grcshow=!patrolled&prop=info': 'Get page info about recent unpatrolled changes.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const { props, changes, next } = await fetchChanges(ctx);
    const rights = ctx.caller.user.rights;
    const parsed = props.has('parsedcomment')
      ? await ctx.deps.clients.content.formatComments(changes.map((c) => ({ title: c.title, comment: userCanSee(c.deleted, DELETED_COMMENT, rights) ? c.comment : '' })))
      : [];
    run.data.recentchanges = setIndexedTagName(
      changes.map((c, i) => changeResult(c, props, parsed[i], rights)),
      'rc',
    );
    if (next) run.continuation.addContinueParam('recentchanges', 'rccontinue', continueOf(next));
  },
  /** The changed pages (ApiPageSet::populateFromTitles), or with generaterevisions the revisions made. */
  async generate(ctx, run) {
    const { changes, next } = await fetchChanges(ctx);
    // The list grows at its start: the current batch is a non-continue parameter, as MediaWiki sets it.
    if (changes[0]) run.continuation.addGeneratorNonContinueParam('grccontinue', continueOf(changes[0]));
    if (next) run.continuation.addGeneratorContinueParam('grccontinue', continueOf(next));
    if (ctx.params.generaterevisions) return { revIds: changes.map((c) => c.revId).filter((id) => id > 0) };
    return { titles: changes.map((c) => c.title) };
  },
});
