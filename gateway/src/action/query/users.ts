/* list=users, list=allusers and list=blocks (MediaWiki's ApiQueryUsers, ApiQueryAllUsers, ApiQueryBlocks). */
import type { BlockEntry, BlockInfo, UserDetails } from '../../clients/types.js';
import { ApiUsageError, setArrayType, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { badContinue } from './continuation.js';
import { queryRunOf } from './run.js';
import { blockDetails } from '../blockinfo.js';
import { effectiveGroupsOrder, groupMemberships } from './userinfo.js';
import { defineModule } from '../define.js';
import { ATTACHED_WIKI_PARAM, centralUserInfo } from './centralids.js';
import { ALL_RIGHTS, groupsWithRights } from './contributors.js';

const IMPLICIT_GROUPS = ['*', 'user', 'autoconfirmed'];
const ASSIGNABLE_GROUPS = ['bot', 'bureaucrat', 'interface-admin', 'suppress', 'sysop'];

/** A user name as the auth service stores it (title-like: spaces, first letter upper case), for matching its answers. */
function userNameKey(raw: string): string {
  const t = raw
    .normalize('NFC')
    .replace(/[_\s]+/g, ' ')
    .trim();
  const first = t.codePointAt(0);
  return first === undefined ? t : String.fromCodePoint(first).toUpperCase() + t.slice(String.fromCodePoint(first).length);
}

/** A user's rights in the order of `groups` (their effective order), then any others they hold. */
export function effectiveRightsOrder(groups: readonly string[], rights: readonly string[], perms: readonly { name: string; rights: readonly string[] }[]): string[] {
  const held = new Set(rights);
  const out = new Set<string>();
  for (const g of effectiveGroupsOrder(groups)) for (const r of perms.find((x) => x.name === g)?.rights ?? []) if (held.has(r)) out.add(r);
  for (const r of rights) out.add(r);
  return [...out];
}

/** The per-user properties list=users and list=allusers share. */
function userProps(d: UserDetails, props: readonly string[], explicitFirst = false): ResultObject {
  const u = d.user!;
  const out: ResultObject = { userid: u.id, name: u.name };
  if (props.includes('editcount')) out.editcount = d.editcount;
  if (props.includes('registration')) out.registration = d.registration;
  if (props.includes('blockinfo') && u.block) Object.assign(out, blockDetails(u.block));
  if (props.includes('groups')) out.groups = setIndexedTagName(setArrayType(explicitFirst ? effectiveGroupsOrder(u.groups) : [...u.groups], 'array'), 'g');
  if (props.includes('groupmemberships')) out.groupmemberships = groupMemberships(d);
  if (props.includes('implicitgroups'))
    out.implicitgroups = setIndexedTagName(
      setArrayType(
        u.groups.filter((g) => IMPLICIT_GROUPS.includes(g)),
        'array',
      ),
      'g',
    );
  if (props.includes('rights')) out.rights = setIndexedTagName(setArrayType([...u.rights], 'array'), 'r');
  // Nobody can be emailed through the wiki yet: no mail transport exists.
  if (props.includes('emailable')) out.emailable = false;
  if (props.includes('gender')) out.gender = d.gender || 'unknown';
  return out;
}

/**
 * AuthManager::canCreateAccount for a missing name: a valid user name is creatable unless it
 * holds a character only existing accounts may have (User::isCreatableName: @ : >).
 */
function canCreate(name: string): ResultObject {
  if (!/[@:>]/.test(name)) return { cancreate: true };
  return { cancreate: false, cancreateerror: setIndexedTagName([{ message: 'noname', params: setIndexedTagName([], 'param'), code: 'invaliduser', type: 'error' }], 'error') };
}

export const usersModule = defineModule({
  name: 'users',
  group: 'list',
  prefix: 'us',
  summary: 'Get information about a list of users.',
  params: {
    prop: {
      type: ['blockinfo', 'groups', 'groupmemberships', 'implicitgroups', 'rights', 'editcount', 'registration', 'emailable', 'gender', 'centralids', 'cancreate'],
      multi: true,
      help: 'Which pieces of information to include.',
    },
    attachedwiki: ATTACHED_WIKI_PARAM,
    users: { type: 'string', multi: true, help: 'A list of users to get information for.' },
    userids: { type: 'integer', multi: true, help: 'A list of user IDs to get information for.' },
  },
  flags: {},
  examples: { 'action=query&list=users&ususers=Example&usprop=groups|editcount|gender': 'Return information for user Example.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const names = p.users ?? [];
    const ids = p.userids ?? [];
    const props = p.prop ?? [];
    const out: ResultObject[] = [];
    const { auth } = ctx.deps.clients;
    // PermissionManager::getUserPermissions: the rights of the groups in their effective order
    // (explicit groups first), each group's in its configured order.
    const groupRights = props.includes('rights') ? (await auth.listGroupPermissions(false)).groups : [];
    const withCentral = (d: UserDetails): ResultObject => {
      const vals = userProps(d, props, true);
      if (props.includes('rights')) vals.rights = setIndexedTagName(setArrayType(effectiveRightsOrder(d.user!.groups, d.user!.rights, groupRights), 'array'), 'r');
      return props.includes('centralids') ? Object.assign(vals, centralUserInfo(d.user!.id, p.attachedwiki, ctx.deps.config.wikiId)) : vals;
    };
    if (ids.length) {
      const r = await auth.getUsers({ ids });
      const byId = new Map(r.users.map((d) => [d.user!.id, d]));
      for (const id of ids) {
        const d = byId.get(id);
        out.push(d ? withCentral(d) : { userid: id, missing: true });
      }
    }
    if (names.length) {
      const r = await auth.getUsers({ names });
      const byName = new Map(r.users.map((d) => [d.user!.name, d]));
      for (const raw of names) {
        const name = userNameKey(raw);
        const d = byName.get(name);
        if (r.invalidNames.includes(raw)) out.push({ name: raw, invalid: true });
        else if (d) out.push(withCentral(d));
        else out.push({ name, missing: true, ...(props.includes('cancreate') ? canCreate(name) : {}) });
      }
    }
    run.data.users = setIndexedTagName(out, 'user');
  },
});

/** ApiQueryAllUsers::getCanonicalUserName: first letter upper case, underscores as spaces (no other check). */
function canonicalUserName(name: string | undefined): string {
  if (name === undefined) return '';
  const first = name.codePointAt(0);
  const head = first === undefined ? '' : String.fromCodePoint(first);
  return (head.toUpperCase() + name.slice(head.length)).replace(/_/g, ' ');
}

/** $wgActiveUserDays. */
const ACTIVE_USER_DAYS = 30;
/** Enough to count any plausible month of one user's actions. */
const RECENT_ACTIONS_CAP = 5000;

/** ApiQueryAllUsers' recentactions: the user's recent changes of the last $wgActiveUserDays, newusers log entries aside. */
async function recentActions(ctx: Pick<ActionContext, 'deps'>, name: string): Promise<number> {
  const end = new Date(Date.now() - ACTIVE_USER_DAYS * 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const r = await ctx.deps.clients.content.listRecentChanges({ user: name, end, limit: RECENT_ACTIONS_CAP });
  return r.changes.filter((c) => c.logType !== 'newusers').length;
}

/** The user's entry with recentactions where MediaWiki puts it: after editcount, before registration and the groups. */
function withRecentActions(entry: ResultObject, count: number): ResultObject {
  const out: ResultObject = {};
  let placed = false;
  for (const [k, v] of Object.entries(entry)) {
    if (!placed && ['registration', 'groups', 'implicitgroups', 'rights'].includes(k)) {
      out.recentactions = count;
      placed = true;
    }
    out[k] = v;
  }
  if (!placed) out.recentactions = count;
  return out;
}

export const allusersModule = defineModule({
  name: 'allusers',
  group: 'list',
  prefix: 'au',
  summary: 'Enumerate all registered users.',
  params: {
    from: { type: 'string', help: 'The user name to start enumerating from.' },
    to: { type: 'string', help: 'The user name to stop enumerating at.' },
    prefix: { type: 'string', help: 'Search for all users that begin with this value.' },
    dir: { type: ['ascending', 'descending'], default: 'ascending', help: 'Direction to sort in.' },
    group: { type: ASSIGNABLE_GROUPS, multi: true, help: 'Only include users in the given groups.' },
    excludegroup: { type: ASSIGNABLE_GROUPS, multi: true, help: 'Exclude users in the given groups.' },
    rights: { type: ALL_RIGHTS, multi: true, help: 'Only include users with the given rights. Does not include rights granted by implicit or auto-promoted groups like *, user, or autoconfirmed.' },
    prop: { type: ['blockinfo', 'groups', 'implicitgroups', 'rights', 'editcount', 'registration', 'centralids'], multi: true, help: 'Which pieces of information to include.' },
    limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many total user names to return.' },
    witheditsonly: { type: 'boolean', default: false, help: 'Only list users who have made edits.' },
    activeusers: { type: 'boolean', default: false, help: `Only list users active in the last ${ACTIVE_USER_DAYS} days.` },
    attachedwiki: ATTACHED_WIKI_PARAM,
  },
  flags: {},
  examples: { 'action=query&list=allusers&aufrom=Y': 'List users starting at Y.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const limit = Number(p.limit ?? 10);
    let groups: string[] = [...(p.group ?? [])];
    if (p.rights?.length) {
      // ApiQueryAllUsers: the groups granting the rights join the group filter; none means no user.
      const granting = await groupsWithRights(ctx, p.rights);
      if (granting.length === 0) {
        run.data.allusers = setIndexedTagName([], 'u');
        return;
      }
      groups = [...new Set([...groups, ...granting])];
    }
    const r = await ctx.deps.clients.auth.listUsers({
      from: canonicalUserName(p.from),
      to: canonicalUserName(p.to),
      prefix: p.prefix ?? '',
      groups,
      excludeGroups: p.excludegroup ?? [],
      descending: p.dir === 'descending',
      limit,
      withEditsOnly: p.witheditsonly,
    });
    const props = p.prop ?? [];
    const entries = r.users.map((d) => (props.includes('centralids') ? Object.assign(userProps(d, props), centralUserInfo(d.user!.id, p.attachedwiki, ctx.deps.config.wikiId)) : userProps(d, props)));
    if (p.activeusers) {
      // MediaWiki lists the active-users cache with each user's actions counted live, and skips
      // those with none (the cache was out of date): a page may hold fewer than the limit.
      const counts = await Promise.all(r.users.map((d) => recentActions(ctx, d.user!.name)));
      run.data.allusers = setIndexedTagName(
        entries.flatMap((e, i) => (counts[i]! > 0 ? [withRecentActions(e, counts[i]!)] : [])),
        'u',
      );
    } else {
      run.data.allusers = setIndexedTagName(entries, 'u');
    }
    if (r.continueFrom) run.continuation.addContinueParam('allusers', 'aufrom', r.continueFrom);
  },
});

const BLOCK_PROPS = ['id', 'user', 'userid', 'by', 'byid', 'timestamp', 'expiry', 'reason', 'range', 'flags', 'restrictions'] as const;

/** ApiQueryBlocks::getRestrictionData: pages (id, and the page's current title) first, then namespaces; [] for a sitewide block. */
function restrictionData(b: BlockInfo, titles: ReadonlyMap<number, { ns: number; title: string }>): ResultObject | unknown[] {
  if (!b.partial || (b.pages.length === 0 && b.namespaces.length === 0)) return setArrayType([], 'array');
  const data: ResultObject = {};
  if (b.pages.length) {
    data.pages = setIndexedTagName(
      b.pages.map((pg) => {
        const t = titles.get(pg.id);
        return t ? { id: pg.id, ns: t.ns, title: t.title } : { id: pg.id };
      }),
      'page',
    );
  }
  if (b.namespaces.length) data.namespaces = setIndexedTagName([...b.namespaces], 'ns');
  return data;
}

function blockProps(e: BlockEntry, props: readonly string[], titles: ReadonlyMap<number, { ns: number; title: string }>): ResultObject {
  const b = e.block!;
  const out: ResultObject = {};
  if (props.includes('id')) out.id = b.id;
  if (props.includes('user')) out.user = e.user;
  if (props.includes('userid')) out.userid = e.userId;
  if (props.includes('by')) out.by = b.by;
  if (props.includes('byid')) out.byid = b.byId;
  if (props.includes('timestamp')) out.timestamp = b.timestamp;
  if (props.includes('expiry')) out.expiry = b.expiry;
  if (props.includes('reason')) out.reason = b.reason;
  if (props.includes('flags')) {
    Object.assign(out, { automatic: false, anononly: b.anononly, nocreate: b.nocreate, autoblock: false, noemail: b.noemail, hidden: false, allowusertalk: b.allowusertalk, partial: b.partial });
  }
  if (props.includes('restrictions')) out.restrictions = restrictionData(b, titles);
  return out;
}

export const blocksModule = defineModule({
  name: 'blocks',
  group: 'list',
  prefix: 'bk',
  summary: 'List all blocked users and IP addresses.',
  params: {
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
    end: { type: 'timestamp', help: 'The timestamp to stop enumerating at.' },
    dir: { type: ['newer', 'older'], default: 'older', help: 'In which direction to enumerate.' },
    ids: { type: 'integer', multi: true, help: 'List of block IDs to list.' },
    users: { type: 'user', multi: true, userTypes: ['name', 'ip', 'cidr'], help: 'List of users to search for.' },
    ip: { type: 'string', help: 'Get all blocks applying to this IP address.' },
    limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'The maximum number of blocks to list.' },
    prop: { type: BLOCK_PROPS, multi: true, default: 'id|user|by|timestamp|expiry|reason|flags', help: 'Which properties to get.' },
    show: { type: ['account', '!account', 'temp', '!temp', 'ip', '!ip', 'range', '!range'], multi: true, help: 'Show only items that meet these criteria.' },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  },
  flags: {},
  examples: { 'action=query&list=blocks': 'List blocks.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    let continueId = 0;
    if (typeof p.continue === 'string') {
      if (!/^\d+$/.test(p.continue)) throw badContinue();
      continueId = Number(p.continue);
    }
    const show = p.show ?? [];
    if (['account', 'ip', 'range', 'temp'].some((f) => show.includes(f as never) && show.includes(`!${f}` as never))) {
      throw new ApiUsageError('show', 'Incorrect parameter - mutually exclusive values may not be supplied.');
    }
    const iso = (mw: string | undefined) => (mw ? `${mw.slice(0, 4)}-${mw.slice(4, 6)}-${mw.slice(6, 8)}T${mw.slice(8, 10)}:${mw.slice(10, 12)}:${mw.slice(12, 14)}Z` : '');
    const r = await ctx.deps.clients.auth.listBlocks({
      start: iso(p.start),
      end: iso(p.end),
      show,
      ids: p.ids ?? [],
      users: p.users ?? [],
      ip: p.ip ?? '',
      descending: p.dir !== 'newer',
      limit: Number(p.limit ?? 10),
      continueId,
    });
    const props = p.prop ?? ['id', 'user', 'by', 'timestamp', 'expiry', 'reason', 'flags'];
    // Restricted pages by id, with their titles now (a moved page keeps its restriction).
    const titles = new Map<number, { ns: number; title: string }>();
    const pageIds = props.includes('restrictions') ? [...new Set(r.blocks.flatMap((e) => e.block?.pages.map((pg) => pg.id) ?? []))] : [];
    if (pageIds.length) {
      const pages = await ctx.deps.clients.content.resolvePages({ pageIds });
      for (const pg of pages.pages) if (pg.id) titles.set(pg.id, { ns: pg.ns, title: pg.title });
    }
    run.data.blocks = setIndexedTagName(
      r.blocks.map((e) => blockProps(e, props, titles)),
      'block',
    );
    if (r.continueId) run.continuation.addContinueParam('blocks', 'bkcontinue', r.continueId);
  },
});
