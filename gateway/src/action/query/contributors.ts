/*
 * prop=contributors (MediaWiki's ApiQueryContributors): for each existing page, how many
 * anonymous editors it had and which registered users edited it, optionally only (or never)
 * users in some groups or holding some rights; hidden user names (revision deletion) are left out.
 */
import { ApiUsageError, type ActionContext, type ResultObject } from '../types.js';
import { CONTINUE_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf } from './run.js';
import { type ContextOf, defineModule, defineParams } from '../define.js';

/** UserGroupManager::listAllGroups (the explicit groups; implicit ones have no members to match). */
const GROUPS = ['bot', 'bureaucrat', 'interface-admin', 'suppress', 'sysop'] as const;

/** PermissionManager::getAllPermissions on MediaWiki 1.39 with the reference wiki's extensions, and OAuth's (which Quire has built in). */
export const ALL_RIGHTS = [
  'apihighlimits',
  'applychangetags',
  'autoconfirmed',
  'autocreateaccount',
  'autopatrol',
  'bigdelete',
  'block',
  'blockemail',
  'bot',
  'browsearchive',
  'changetags',
  'createaccount',
  'createpage',
  'createtalk',
  'delete',
  'delete-redirect',
  'deletechangetags',
  'deletedhistory',
  'deletedtext',
  'deletelogentry',
  'deleterevision',
  'edit',
  'editcontentmodel',
  'editinterface',
  'editmyoptions',
  'editmyprivateinfo',
  'editmyusercss',
  'editmyuserjs',
  'editmyuserjson',
  'editmyuserjsredirect',
  'editmywatchlist',
  'editprotected',
  'editsemiprotected',
  'editsitecss',
  'editsitejs',
  'editsitejson',
  'editusercss',
  'edituserjs',
  'edituserjson',
  'hideuser',
  'import',
  'importupload',
  'interwiki',
  'ipblock-exempt',
  'managechangetags',
  'markbotedits',
  'mergehistory',
  'minoredit',
  'move',
  'move-categorypages',
  'move-rootuserpages',
  'move-subpages',
  'movefile',
  // The OAuth extension's rights Quire grants (services/auth/src/rights.ts).
  'mwoauthmanageconsumer',
  'mwoauthmanagemygrants',
  'mwoauthproposeconsumer',
  'mwoauthupdateownconsumer',
  'nominornewtalk',
  'noratelimit',
  'oathauth-api-all',
  'oathauth-disable-for-user',
  'oathauth-enable',
  'oathauth-verify-user',
  'oathauth-view-log',
  'override-export-depth',
  'pagelang',
  'patrol',
  'patrolmarks',
  'protect',
  'purge',
  'read',
  'reupload',
  'reupload-own',
  'reupload-shared',
  'rollback',
  'sendemail',
  'siteadmin',
  'suppressionlog',
  'suppressredirect',
  'suppressrevision',
  'unblockself',
  'undelete',
  'unwatchedpages',
  'upload',
  'upload_by_url',
  'userrights',
  'userrights-interwiki',
  'viewmyprivateinfo',
  'viewmywatchlist',
  'viewsuppressed',
  'writeapi',
] as const;

/** Most users one group lookup pages through. */
const MEMBERS_PAGE = 500;

/** The ids of the users in any of the groups (auth service, every page of the listing). */
async function membersOf(ctx: ContextOf<typeof params>, groups: string[]): Promise<number[]> {
  const ids: number[] = [];
  let from = '';
  for (;;) {
    const resp = await ctx.deps.clients.auth.listUsers({ groups, from, limit: MEMBERS_PAGE });
    ids.push(...resp.users.flatMap((u) => (u.user ? [u.user.id] : [])));
    if (!resp.continueFrom) return ids;
    from = resp.continueFrom;
  }
}

/** The explicit groups granting one of the rights (GroupPermissionsLookup::getGroupsWithPermission). */
export async function groupsWithRights(ctx: Pick<ActionContext, 'deps'>, rights: readonly string[]): Promise<string[]> {
  const perms = await ctx.deps.clients.auth.listGroupPermissions(false);
  return perms.groups.filter((g) => (GROUPS as readonly string[]).includes(g.name) && g.rights.some((r) => rights.includes(r))).map((g) => g.name);
}

/** The user filter of the request: only (or never) these user ids; undefined for no filter. */
async function userFilter(ctx: ContextOf<typeof params>): Promise<{ ids: number[]; exclude: boolean } | undefined> {
  const p = ctx.params;
  const given = (['group', 'excludegroup', 'rights', 'excluderights'] as const).filter((n) => p[n] !== undefined);
  if (given.length > 1) {
    const names = given.map((n) => `"${ctx.module.prefix}${n}"`);
    throw new ApiUsageError('invalidparammix', `The parameters ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} can not be used together.`);
  }
  const name = given[0];
  if (!name) return undefined;
  // Checked present above (`given`).
  const values: string[] = p[name] ?? [];
  const groups = name === 'group' || name === 'excludegroup' ? values : await groupsWithRights(ctx, values);
  return { ids: groups.length ? await membersOf(ctx, groups) : [], exclude: name.startsWith('exclude') };
}

const params = defineParams({
  group: { type: GROUPS, multi: true, help: 'Only include users in the given groups. Does not include implicit or auto-promoted groups like *, user, or autoconfirmed.' },
  excludegroup: { type: GROUPS, multi: true, help: 'Exclude users in the given groups. Does not include implicit or auto-promoted groups like *, user, or autoconfirmed.' },
  rights: { type: ALL_RIGHTS, multi: true, help: 'Only include users having the given rights. Does not include rights granted by implicit or auto-promoted groups like *, user, or autoconfirmed.' },
  excluderights: { type: ALL_RIGHTS, multi: true, help: 'Exclude users having the given rights. Does not include rights granted by implicit or auto-promoted groups like *, user, or autoconfirmed.' },
  limit: { ...LIMIT_PARAM, help: 'How many contributors to return.' },
  continue: CONTINUE_PARAM,
});

export const contributorsModule = defineModule({
  name: 'contributors',
  group: 'prop',
  prefix: 'pc',
  summary: 'Get the list of logged-in contributors (including temporary users) and the count of anonymous contributors to a page.',
  params,
  flags: {},
  examples: { 'action=query&prop=contributors&titles=Main_Page': 'Show contributors to the page Main Page.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const pageIds = run.pageSet.good.map((pg) => pg.id);
    const users = await userFilter(ctx);
    if (!pageIds.length) return;
    const resp = await ctx.deps.clients.lists.listContributors({
      pageIds,
      limit: ctx.params.limit,
      continue: ctx.params.continue ?? '',
      filterUsers: users !== undefined && !users.exclude,
      excludeUsers: users?.exclude === true,
      userIds: users?.ids ?? [],
    });
    for (const a of resp.anons) {
      const entry = run.pages.get(a.pageId);
      if (entry) entry.anoncontributors = a.count;
    }
    for (const u of resp.users) addPageSubItem(run.pages, u.pageId, 'contributors', 'user', { userid: u.userId, name: u.name } satisfies ResultObject);
    setContinue(ctx, run, 'pccontinue', resp.continue, false);
  },
});
