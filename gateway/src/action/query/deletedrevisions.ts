/*
 * Deleted revisions, read from the archive that action=delete fills:
 * prop=deletedrevisions (ApiQueryDeletedRevisions: the archived revisions of the page set's
 * titles), list=alldeletedrevisions (ApiQueryAllDeletedRevisions: the whole archive, by title or
 * by one user's timestamps) and the deprecated list=deletedrevs (ApiQueryDeletedrevs: its three
 * modes and own output). Rights as MediaWiki checks them: anyone may list deleted revisions,
 * comments need `deletedhistory` (list=deletedrevs needs it outright), content `deletedtext` or
 * `undelete`; revision-deleted fields are hidden per field.
 */
import { continueParts, continueTimestampIso } from './continuation.js';
import { isoFromMwParam } from '../../validation/typedefs.js';
import { ArchiveOrder, type ArchivedRevision, type ListArchivedRevisionsRequest } from '../../clients/types.js';
import { ApiUsageError, setContentValue, setIndexedTagName, type ActionContext, type ApiMessage, type ResultObject } from '../types.js';
import { message } from '../errors.js';
import { escapeHtmlNoQuotes, mwTimestamp, isoTimestamp } from './encoding.js';
import { addPageSubItem, type PageSet } from './pageset.js';
import { checkDeletedRevisionRights, DIRECTION_PARAMS, hiddenUserMask, parseRevisionBase, requireOneUserFilter, REVISION_BASE_PARAMS, revisionsInfo } from './revisions-base.js';
import { contentAwareLimit, sha1ToHex } from './revisions.js';
import { modulePath, queryRunOf, type QueryRun } from './run.js';
import { lacksSameOriginSecurity } from './tokens.js';
import { type ContextOf, defineModule, defineParam, defineParams } from '../define.js';
import { defineGenerator } from './generator.js';
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_TEXT, DELETED_USER, userCanSee } from '../../revdel.js';

const USER_TYPES = ['name', 'ip', 'interwiki'] as const;

const USER_FILTER_PARAMS = defineParams({
  user: { type: 'user', userTypes: USER_TYPES, help: 'Only list revisions by this user.' },
  excludeuser: { type: 'user', userTypes: USER_TYPES, help: "Don't list revisions by this user." },
});

const TAG_PARAM = defineParam({ type: 'string', help: 'Only list revisions tagged with this tag.' });
const CONTINUE_PARAM = defineParam({ type: 'string', help: 'When more results are available, use this to continue.' });

/** The filters every archive listing reads (list=deletedrevs has no tag filter in one of its modes). */
type ArchiveFilterContext = ActionContext<{ dir?: string | undefined; user?: string | undefined; excludeuser?: string | undefined; tag?: string | undefined }>;

/** The fields of a continuation as the content service takes them. */
type Cursor = NonNullable<ListArchivedRevisionsRequest['cursor']>;

/** "ns|dbkey|TS_MW|ar_id": the continuation of title-ordered listings. */
function titleCursor(value: string): Cursor {
  const [ns, dbkey, ts, arId] = continueParts(value, 4, [0, 3]) as [string, string, string, string];
  return { ns: Number(ns), dbkey, timestamp: continueTimestampIso(ts), revId: 0, arId: Number(arId) };
}

/** "TS_MW|ar_id": the continuation of one user's deleted revisions. */
function timestampCursor(value: string): Cursor {
  const [ts, arId] = continueParts(value, 2, [1]) as [string, string];
  return { ns: 0, dbkey: '', timestamp: continueTimestampIso(ts), revId: 0, arId: Number(arId) };
}

const titleContinue = (r: ArchivedRevision) => `${r.ns}|${r.dbkey}|${mwTimestamp(r.revision!.timestamp)}|${r.arId}`;
const timestampContinue = (r: ArchivedRevision) => `${mwTimestamp(r.revision!.timestamp)}|${r.arId}`;

/** The user/excludeuser/tag/direction fields every archive listing passes on. */
function filtersOf(ctx: ArchiveFilterContext): Partial<ListArchivedRevisionsRequest> {
  const p = ctx.params;
  return {
    dirNewer: p.dir === 'newer',
    user: p.user ?? '',
    excludeUser: p.excludeuser ?? '',
    tag: p.tag ?? '',
    hiddenUserMask: hiddenUserMask(ctx),
  };
}

/** Rows and whether one more follows (the service is asked for limit + 1). */
async function listArchive(ctx: ActionContext, req: Partial<ListArchivedRevisionsRequest>, limit: number): Promise<{ rows: ArchivedRevision[]; next?: ArchivedRevision }> {
  const resp = await ctx.deps.clients.archive.listArchivedRevisions({ ...req, limit: limit + 1 });
  const rows = resp.revisions.filter((r) => r.revision);
  return { rows: rows.slice(0, limit), ...(rows.length > limit ? { next: rows[limit] } : {}) };
}

const deletedrevisionsParams = defineParams({
  ...REVISION_BASE_PARAMS,
  ...DIRECTION_PARAMS,
  tag: TAG_PARAM,
  ...USER_FILTER_PARAMS,
  continue: CONTINUE_PARAM,
});

/** "rev_id|ar_id": the continuation of deleted revisions named by revids. */
function revIdCursor(value: string): Cursor {
  const [revId, arId] = continueParts(value, 2, [0, 1]) as [string, string];
  return { ns: 0, dbkey: '', timestamp: '', revId: Number(revId), arId: Number(arId) };
}

const revIdContinue = (r: ArchivedRevision) => `${r.revision!.id}|${r.arId}`;

/** ApiQueryDeletedRevisions::run's first checks: no page and no revision, or revisions of which none is deleted, leave nothing to do. */
function hasDeletedWork(ps: PageSet): boolean {
  const revCount = ps.revisionPages.size + (ps.deletedRevisionPages?.size ?? 0);
  if (revCount === 0) return ps.good.length + ps.missing.length > 0;
  return (ps.deletedRevisionPages?.size ?? 0) > 0;
}

/**
 * ApiQueryDeletedRevisions::run's selection: the deleted revisions the page set names by revids
 * (ordered by revision id), or else those of its titles (by title and timestamp); the page entry
 * each belongs to, and the continuation of the row after the batch. Undefined: nothing to do.
 */
async function selectDeleted(
  ctx: ContextOf<typeof deletedrevisionsParams>,
  run: QueryRun,
  limit: number,
  withContent: boolean,
): Promise<{ rows: ArchivedRevision[]; next?: string; entryOf: (r: ArchivedRevision) => number | undefined } | undefined> {
  const ps = run.pageSet;
  if (!hasDeletedWork(ps)) return undefined;
  const deleted = ps.deletedRevisionPages ?? new Map<number, number>();
  const revCount = ps.revisionPages.size + deleted.size;
  // Titles of the page set, existing or not: deleted revisions belong to titles, not page ids.
  const entries = [...ps.good.map((page) => ({ id: page.id, title: page.title })), ...ps.missing.map(({ id, page }) => ({ id, title: page.title }))];
  requireOneUserFilter(ctx);
  const p = ctx.params;
  const cont = p.continue;
  const byRevId = revCount !== 0;
  const { rows, next } = await listArchive(
    ctx,
    {
      ...(byRevId ? { revIds: [...deleted.keys()] } : { titles: entries.map((e) => e.title) }),
      allNamespaces: true,
      // ApiQueryDeletedRevisions applies rvstart/rvend to title listings only.
      startTimestamp: byRevId ? '' : (isoFromMwParam(p.start) ?? ''),
      endTimestamp: byRevId ? '' : (isoFromMwParam(p.end) ?? ''),
      ...filtersOf(ctx),
      order: byRevId ? ArchiveOrder.ARCHIVE_ORDER_REV_ID : ArchiveOrder.ARCHIVE_ORDER_TITLE,
      ...(cont !== undefined ? { cursor: byRevId ? revIdCursor(cont) : titleCursor(cont) } : {}),
      withContent,
    },
    limit,
  );
  const idOf = new Map(entries.map((e) => [e.title, e.id]));
  return {
    rows,
    ...(next ? { next: byRevId ? revIdContinue(next) : titleContinue(next) } : {}),
    entryOf: (r) => (byRevId ? deleted.get(r.revision!.id) : idOf.get(r.title)),
  };
}

export const deletedrevisionsModule = defineGenerator({
  name: 'deletedrevisions',
  group: 'prop',
  prefix: 'drv',
  summary: 'Get deleted revision information.',
  params: deletedrevisionsParams,
  flags: { generator: true },
  examples: {
    'action=query&prop=deletedrevisions&titles=Main%20Page|Talk:Main%20Page&drvslots=*&drvprop=user|comment|content':
      'List the deleted revisions of the pages Main Page and Talk:Main Page, with content.',
    'action=query&prop=deletedrevisions&revids=123456': 'List the information for deleted revision 123456.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    if (!hasDeletedWork(run.pageSet)) return;
    const base = await parseRevisionBase(ctx);
    checkDeletedRevisionRights(ctx, base);
    const selection = await selectDeleted(ctx, run, base.limit, base.withContent);
    if (!selection) return;
    if (selection.next) run.continuation.addContinueParam('deletedrevisions', 'drvcontinue', selection.next);
    const infos = await revisionsInfo(
      ctx,
      base,
      selection.rows.map((r) => ({ rev: r.revision!, title: r.title })),
    );
    selection.rows.forEach((r, i) => {
      const pageId = selection.entryOf(r);
      if (pageId !== undefined) addPageSubItem(run.pages, pageId, 'deletedrevisions', 'rev', infos[i]!);
    });
  },
  /** The deleted revisions as the page set (ApiPageSet::populateFromRevisionIDs); the limit is gdrvlimit or 10, no rights needed. */
  async generate(ctx, run) {
    const selection = await selectDeleted(ctx, run, ctx.params.limit ?? 10, false);
    if (!selection) return { revIds: [] };
    if (selection.next) run.continuation.addGeneratorContinueParam('gdrvcontinue', selection.next);
    return { revIds: selection.rows.map((r) => r.revision!.id) };
  },
});

/**
 * The `[{pageid, revisions, ns, title}]` list of ApiQueryAllDeletedRevisions and
 * ApiQueryAllRevisions: one entry per title in order of first appearance; `pageid` is the id
 * the title has now (0 when it does not exist).
 */
export async function groupByTitle(ctx: ActionContext, rows: { title: string; ns: number; info: ResultObject }[]): Promise<ResultObject[]> {
  const titles = [...new Set(rows.map((r) => r.title))];
  const resolved = titles.length ? await ctx.deps.clients.content.resolvePages({ titles }) : { pages: [] };
  const pageIdOf = new Map(resolved.pages.map((pg) => [pg.title, pg.missing ? 0 : pg.id]));
  const byTitle = new Map<string, ResultObject>();
  const list: ResultObject[] = [];
  for (const row of rows) {
    let entry = byTitle.get(row.title);
    if (!entry) {
      entry = { pageid: pageIdOf.get(row.title) ?? 0, revisions: setIndexedTagName([] as ResultObject[], 'rev'), ns: row.ns, title: row.title };
      byTitle.set(row.title, entry);
      list.push(entry);
    }
    (entry.revisions as ResultObject[]).push(row.info);
  }
  return setIndexedTagName(list, 'page');
}

const alldeletedrevisionsParams = defineParams({
  ...REVISION_BASE_PARAMS,
  user: { type: 'user', userTypes: USER_TYPES, help: 'Only list revisions by this user.' },
  namespace: { type: 'namespace', multi: true, allowAll: true, help: 'Only list pages in this namespace.' },
  ...DIRECTION_PARAMS,
  from: { type: 'string', help: 'Start listing at this title. Cannot be used with adruser.' },
  to: { type: 'string', help: 'Stop listing at this title. Cannot be used with adruser.' },
  prefix: { type: 'string', help: 'Search for all page titles that begin with this value. Cannot be used with adruser.' },
  excludeuser: { type: 'user', userTypes: USER_TYPES, help: "Don't list revisions by this user. Cannot be used with adruser." },
  tag: TAG_PARAM,
  continue: CONTINUE_PARAM,
  generatetitles: { type: 'boolean', default: false, help: 'When being used as a generator, generate titles rather than revision IDs.' },
});

/** ApiQueryAllDeletedRevisions' modes: by user (no title range), or by title (no timestamps). */
function checkAllDeletedMode(ctx: ContextOf<typeof alldeletedrevisionsParams>): void {
  const p = ctx.params;
  const prefix = ctx.module.prefix;
  if (p.user !== undefined) {
    for (const name of ['from', 'to', 'prefix', 'excludeuser'] as const) {
      if (p[name] !== undefined) throw new ApiUsageError('invalidparammix', `The "${prefix}${name}" parameter cannot be used with "${prefix}user".`);
    }
  } else {
    for (const name of ['start', 'end'] as const) {
      if (p[name] !== undefined) throw new ApiUsageError('invalidparammix', `The "${prefix}${name}" parameter may only be used with "${prefix}user".`);
    }
  }
}

/**
 * ApiQueryAllDeletedRevisions::run's selection: one user's deleted revisions by timestamp, or the
 * archive by title (namespaces, from/to/prefix); undefined for an empty namespace list.
 */
async function selectAllDeleted(ctx: ContextOf<typeof alldeletedrevisionsParams>, limit: number, withContent: boolean): Promise<{ rows: ArchivedRevision[]; next?: string } | undefined> {
  const p = ctx.params;
  const namespaces = p.namespace;
  if (namespaces !== undefined && namespaces.length === 0) return undefined;
  checkAllDeletedMode(ctx);
  const byUser = p.user !== undefined;
  const cont = p.continue;
  const { rows, next } = await listArchive(
    ctx,
    {
      allNamespaces: namespaces === undefined,
      namespaces: namespaces ?? [],
      from: p.from ?? '',
      to: p.to ?? '',
      prefix: p.prefix ?? '',
      startTimestamp: isoFromMwParam(p.start) ?? '',
      endTimestamp: isoFromMwParam(p.end) ?? '',
      ...filtersOf(ctx),
      order: byUser ? ArchiveOrder.ARCHIVE_ORDER_TIMESTAMP : ArchiveOrder.ARCHIVE_ORDER_TITLE,
      ...(cont !== undefined ? { cursor: byUser ? timestampCursor(cont) : titleCursor(cont) } : {}),
      withContent,
    },
    limit,
  );
  return { rows, ...(next ? { next: byUser ? timestampContinue(next) : titleContinue(next) } : {}) };
}

export const alldeletedrevisionsModule = defineGenerator({
  name: 'alldeletedrevisions',
  group: 'list',
  prefix: 'adr',
  summary: 'List all deleted revisions by a user or in a namespace.',
  params: alldeletedrevisionsParams,
  flags: { generator: true },
  examples: {
    'action=query&list=alldeletedrevisions&adruser=Example&adrlimit=50': 'List the last 50 deleted contributions by user Example.',
    'action=query&list=alldeletedrevisions&adrdir=newer&adrnamespace=0&adrlimit=50': 'List the first 50 deleted revisions in the main namespace.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    if (ctx.params.namespace !== undefined && ctx.params.namespace.length === 0) {
      run.data.alldeletedrevisions = setIndexedTagName([], 'page');
      return;
    }
    checkAllDeletedMode(ctx);
    const base = await parseRevisionBase(ctx);
    checkDeletedRevisionRights(ctx, base);
    const selection = await selectAllDeleted(ctx, base.limit, base.withContent);
    if (!selection) return;
    if (selection.next) run.continuation.addContinueParam('alldeletedrevisions', 'adrcontinue', selection.next);
    const infos = await revisionsInfo(
      ctx,
      base,
      selection.rows.map((r) => ({ rev: r.revision!, title: r.title })),
    );
    run.data.alldeletedrevisions = await groupByTitle(
      ctx,
      selection.rows.map((r, i) => ({ title: r.title, ns: r.ns, info: infos[i]! })),
    );
  },
  /** Deleted revision ids, or with generatetitles their titles (ApiPageSet::populateFromTitles); the limit is gadrlimit or 10. */
  async generate(ctx, run) {
    const selection = await selectAllDeleted(ctx, ctx.params.limit ?? 10, false);
    if (!selection) return { revIds: [] };
    if (selection.next) run.continuation.addGeneratorContinueParam('gadrcontinue', selection.next);
    if (ctx.params.generatetitles === true) return { titles: [...new Set(selection.rows.map((r) => r.title))] };
    return { revIds: selection.rows.map((r) => r.revision!.id) };
  },
});

/** apiwarn-deprecation-deletedrevs. */
const DEPRECATION: ApiMessage = {
  code: 'deprecation',
  key: 'apiwarn-deprecation-deletedrevs',
  params: [],
  text: 'list=deletedrevs has been deprecated. Please use prop=deletedrevisions or list=alldeletedrevisions instead.',
  wikitext: '<kbd>list=deletedrevs</kbd> has been deprecated. Please use <kbd>prop=deletedrevisions</kbd> or <kbd>list=alldeletedrevisions</kbd> instead.',
  html: '<kbd>list=deletedrevs</kbd> has been deprecated. Please use <kbd>prop=deletedrevisions</kbd> or <kbd>list=alldeletedrevisions</kbd> instead.',
  data: { feature: 'action=query&list=deletedrevs' },
};

const DELETEDREVS_PROPS = ['revid', 'parentid', 'user', 'userid', 'comment', 'parsedcomment', 'minor', 'len', 'sha1', 'content', 'token', 'tags'] as const;

/** One revision as ApiQueryDeletedrevs writes it. */
function deletedrevsInfo(r: ArchivedRevision, props: ReadonlySet<string>, rights: readonly string[], parsed: string | undefined): ResultObject {
  const rev = r.revision!;
  const out: ResultObject = { timestamp: isoTimestamp(rev.timestamp) };
  let anyHidden = false;
  if (props.has('revid')) out.revid = rev.id;
  if (props.has('parentid')) out.parentid = rev.parentId;
  if (props.has('user') || props.has('userid')) {
    if (rev.deleted & DELETED_USER) {
      out.userhidden = true;
      anyHidden = true;
    }
    if (userCanSee(rev.deleted, DELETED_USER, rights)) {
      if (props.has('user')) out.user = rev.userText;
      if (props.has('userid')) out.userid = rev.userId;
    }
  }
  if (props.has('comment') || props.has('parsedcomment')) {
    if (rev.deleted & DELETED_COMMENT) {
      out.commenthidden = true;
      anyHidden = true;
    }
    if (userCanSee(rev.deleted, DELETED_COMMENT, rights)) {
      if (props.has('comment')) out.comment = rev.comment;
      if (props.has('parsedcomment')) out.parsedcomment = parsed ?? escapeHtmlNoQuotes(rev.comment);
    }
  }
  if (props.has('minor')) out.minor = rev.minor;
  // MediaWiki prints the raw database field: a string.
  if (props.has('len')) out.len = String(rev.size);
  if (props.has('sha1')) {
    if (rev.deleted & DELETED_TEXT) {
      out.sha1hidden = true;
      anyHidden = true;
    }
    if (userCanSee(rev.deleted, DELETED_TEXT, rights)) out.sha1 = sha1ToHex(rev.sha1);
  }
  if (props.has('content')) {
    if (rev.deleted & DELETED_TEXT) {
      out.texthidden = true;
      anyHidden = true;
    }
    if (userCanSee(rev.deleted, DELETED_TEXT, rights) && rev.content !== undefined) setContentValue(out, 'text', rev.content);
  }
  if (props.has('tags')) out.tags = setIndexedTagName([...rev.tags], 'tag');
  if (anyHidden && rev.deleted & DELETED_RESTRICTED) out.suppressed = true;
  return out;
}

export const deletedrevsModule = defineModule({
  name: 'deletedrevs',
  group: 'list',
  prefix: 'dr',
  summary: 'List deleted revisions.',
  params: {
    ...DIRECTION_PARAMS,
    from: { type: 'string', help: 'Start listing at this title. (mode 3)' },
    to: { type: 'string', help: 'Stop listing at this title. (mode 3)' },
    prefix: { type: 'string', help: 'Search for all page titles that begin with this value. (mode 3)' },
    unique: { type: 'boolean', default: false, help: 'List only one revision for each page. (mode 3)' },
    namespace: { type: 'namespace', default: 0, help: 'Only list pages in this namespace. (mode 3)' },
    tag: TAG_PARAM,
    ...USER_FILTER_PARAMS,
    prop: { type: DELETEDREVS_PROPS, multi: true, default: 'user|comment', deprecatedValues: ['token'], help: 'Which properties to get.' },
    limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'The maximum amount of revisions to list.' },
    continue: CONTINUE_PARAM,
  },
  flags: { deprecated: true },
  examples: {
    'action=query&list=deletedrevs&titles=Main%20Page|Talk:Main%20Page&drprop=user|comment|content':
      'List the last deleted revisions of the pages Main Page and Talk:Main Page, with content (mode 1).',
    'action=query&list=deletedrevs&druser=Bob&drlimit=50': 'List the last 50 deleted contributions by Bob (mode 2).',
    'action=query&list=deletedrevs&drdir=newer&drlimit=50': 'List the first 50 deleted revisions in the main namespace (mode 3).',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const rights = ctx.caller.user.rights;
    if (!rights.includes('deletedhistory')) throw new ApiUsageError('permissiondenied', "You don't have permission to view a page's deleted history.");
    ctx.addWarning(modulePath(ctx.module), DEPRECATION);
    ctx.addWarning('main', message('deprecation-help', 'api-usage-mailinglist-ref'));
    const p = ctx.params;
    const props = new Set(p.prop);
    const titles = [...run.pageSet.good.map((page) => page.title), ...run.pageSet.missing.map(({ page }) => page.title)];
    const mode = titles.length > 0 ? 'revs' : p.user !== undefined ? 'user' : 'all';
    if (mode !== 'all') {
      for (const name of ['from', 'to', 'prefix'] as const) {
        if (p[name] !== undefined) throw new ApiUsageError('badparams', `The "${name}" parameter cannot be used in modes 1 or 2.`);
      }
    } else {
      for (const name of ['start', 'end'] as const) {
        if (p[name] !== undefined) throw new ApiUsageError('badparams', `The "${name}" parameter cannot be used in mode 3.`);
      }
    }
    if (p.user !== undefined && p.excludeuser !== undefined) throw new ApiUsageError('badparams', 'user and excludeuser cannot be used together');
    const withContent = props.has('content');
    if (withContent && !rights.includes('deletedtext') && !rights.includes('undelete')) {
      throw new ApiUsageError('permissiondenied', "You don't have permission to view content of deleted revisions.");
    }
    const limit = contentAwareLimit(ctx, p.limit, withContent);
    const cont = p.continue;
    const ns = p.namespace;
    const { rows, next } = await listArchive(
      ctx,
      {
        ...(mode === 'revs' ? { titles, allNamespaces: true } : mode === 'user' ? { allNamespaces: true } : { namespaces: [ns] }),
        from: p.from ?? '',
        to: p.to ?? '',
        prefix: p.prefix ?? '',
        startTimestamp: isoFromMwParam(p.start) ?? '',
        endTimestamp: isoFromMwParam(p.end) ?? '',
        ...filtersOf(ctx),
        order: mode === 'user' ? ArchiveOrder.ARCHIVE_ORDER_TIMESTAMP : ArchiveOrder.ARCHIVE_ORDER_TITLE,
        ...(cont !== undefined ? { cursor: mode === 'user' ? timestampCursor(cont) : titleCursor(cont) } : {}),
        withContent,
        uniqueTitles: mode === 'all' && p.unique,
      },
      limit,
    );
    if (next) run.continuation.addContinueParam('deletedrevs', 'drcontinue', mode === 'user' ? timestampContinue(next) : titleContinue(next));
    const parsed = props.has('parsedcomment') ? await ctx.deps.clients.content.formatComments(rows.map((r) => ({ title: r.title, comment: r.revision!.comment }))) : [];
    // The csrf token of callers who may undelete (prop=token, deprecated).
    const token = props.has('token') && rights.includes('undelete') && !lacksSameOriginSecurity(ctx.raw) ? (await ctx.deps.clients.auth.getTokens(ctx.caller.sessionId, ['csrf'])).csrf : undefined;
    const byTitle = new Map<string, ResultObject>();
    const list: ResultObject[] = [];
    rows.forEach((r, i) => {
      const info = deletedrevsInfo(r, props, rights, parsed[i]);
      let entry = byTitle.get(r.title);
      if (!entry) {
        entry = { revisions: setIndexedTagName([] as ResultObject[], 'rev'), ns: r.ns, title: r.title, ...(token !== undefined ? { token } : {}) };
        byTitle.set(r.title, entry);
        list.push(entry);
      }
      (entry.revisions as ResultObject[]).push(info);
    });
    run.data.deletedrevs = setIndexedTagName(list, 'page');
  },
});
