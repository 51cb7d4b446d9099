/**
 * Groups and rights, as MediaWiki's $wgGroupPermissions (1.39 defaults). GROUP_PERMISSIONS_JSON
 * may add or revoke rights per group: {"*": {"edit": false}, "bot": {"noratelimit": true}}.
 */
export type GroupPermissions = Record<string, Record<string, boolean>>;

const grant = (...rights: string[]) => Object.fromEntries(rights.map((r) => [r, true]));

export const DEFAULT_GROUP_PERMISSIONS: GroupPermissions = {
  '*': grant('createaccount', 'read', 'edit', 'createpage', 'createtalk', 'writeapi', 'viewmywatchlist', 'editmywatchlist', 'viewmyprivateinfo', 'editmyprivateinfo', 'editmyoptions'),
  user: grant(
    'move',
    'move-subpages',
    'move-rootuserpages',
    'move-categorypages',
    'movefile',
    'read',
    'edit',
    'createpage',
    'createtalk',
    'writeapi',
    'upload',
    'reupload',
    'reupload-shared',
    'minoredit',
    'editmyusercss',
    'editmyuserjson',
    'editmyuserjs',
    'editmyuserjsredirect',
    'purge',
    'sendemail',
    'applychangetags',
    'changetags',
    'editcontentmodel',
    // OATHAuth's (extension.json GroupPermissions): Quire has its two-factor login.
    'oathauth-enable',
    // The OAuth extension's: it gives `user` only mwoauthmanagemygrants and leaves proposing to the
    // wiki's configuration; Quire's users propose and update their own consumers by default.
    'mwoauthmanagemygrants',
    'mwoauthproposeconsumer',
    'mwoauthupdateownconsumer',
  ),
  autoconfirmed: grant('autoconfirmed', 'editsemiprotected'),
  bot: grant('bot', 'autoconfirmed', 'editsemiprotected', 'nominornewtalk', 'autopatrol', 'suppressredirect', 'apihighlimits', 'writeapi'),
  sysop: grant(
    'block',
    'createaccount',
    'delete',
    'bigdelete',
    'deletedhistory',
    'deletedtext',
    'undelete',
    'editinterface',
    'editsitejson',
    'edituserjson',
    'import',
    'importupload',
    'move',
    'move-subpages',
    'move-rootuserpages',
    'move-categorypages',
    'patrol',
    'autopatrol',
    'protect',
    'editprotected',
    'rollback',
    'upload',
    'reupload',
    'reupload-shared',
    'unwatchedpages',
    'autoconfirmed',
    'editsemiprotected',
    'ipblock-exempt',
    'blockemail',
    'markbotedits',
    'apihighlimits',
    'browsearchive',
    'noratelimit',
    'movefile',
    'unblockself',
    'suppressredirect',
    'mergehistory',
    'managechangetags',
    'deletechangetags',
    'oathauth-disable-for-user',
    'oathauth-verify-user',
    'oathauth-view-log',
    // The OAuth extension (1.39) gives it to no group (Wikimedia's wikis to "oauthadmin"): here a
    // fresh wiki's administrators approve consumers.
    'mwoauthmanageconsumer',
  ),
  'interface-admin': grant('editinterface', 'editsitecss', 'editsitejson', 'editsitejs', 'editusercss', 'edituserjson', 'edituserjs'),
  bureaucrat: grant('userrights', 'noratelimit'),
  suppress: grant('hideuser', 'suppressrevision', 'viewsuppressed', 'suppressionlog', 'deleterevision', 'deletelogentry'),
};

export function loadGroupPermissions(json: string | undefined): GroupPermissions {
  const merged: GroupPermissions = structuredClone(DEFAULT_GROUP_PERMISSIONS);
  if (!json) return merged;
  let extra: unknown;
  try {
    extra = JSON.parse(json);
  } catch {
    throw new Error('GROUP_PERMISSIONS_JSON is not valid JSON');
  }
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new Error('GROUP_PERMISSIONS_JSON must be an object of groups');
  for (const [group, rights] of Object.entries(extra)) {
    if (typeof rights !== 'object' || rights === null) throw new Error(`GROUP_PERMISSIONS_JSON: group ${group} must map rights to booleans`);
    for (const [right, on] of Object.entries(rights as Record<string, unknown>)) {
      if (typeof on !== 'boolean') throw new Error(`GROUP_PERMISSIONS_JSON: ${group}.${right} must be true or false`);
      (merged[group] ??= {})[right] = on;
    }
  }
  return merged;
}

/** The rights of a set of groups (implicit groups included by the caller), sorted, without duplicates. */
export function rightsOf(perms: GroupPermissions, groups: readonly string[]): string[] {
  const out = new Set<string>();
  for (const g of groups) for (const [r, on] of Object.entries(perms[g] ?? {})) if (on) out.add(r);
  return [...out];
}
