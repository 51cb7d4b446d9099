/*
 * MediaWiki's $wgGrantPermissions (1.39 defaults): what a bot-password session may do. Its rights
 * are the user's rights intersected with the rights of its grants; `basic` is always granted.
 */
const EDIT = ['edit', 'minoredit', 'applychangetags', 'changetags', 'editcontentmodel'];

export const GRANT_PERMISSIONS: Record<string, readonly string[]> = {
  basic: ['autocreateaccount', 'autoconfirmed', 'autopatrol', 'editsemiprotected', 'ipblock-exempt', 'nominornewtalk', 'patrolmarks', 'purge', 'read', 'writeapi', 'unwatchedpages'],
  highvolume: ['bot', 'apihighlimits', 'noratelimit', 'markbotedits'],
  import: ['import', 'importupload'],
  editpage: EDIT,
  editprotected: [...EDIT, 'editprotected'],
  editmycssjs: [...EDIT, 'editmyusercss', 'editmyuserjson', 'editmyuserjs'],
  editmyoptions: ['editmyoptions', 'editmyuserjson'],
  editinterface: [...EDIT, 'editinterface', 'edituserjson', 'editsitejson'],
  editsiteconfig: [...EDIT, 'editinterface', 'edituserjson', 'editsitejson', 'editusercss', 'edituserjs', 'editsitecss', 'editsitejs'],
  createeditmovepage: [...EDIT, 'createpage', 'createtalk', 'delete-redirect', 'move', 'move-rootuserpages', 'move-subpages', 'move-categorypages', 'suppressredirect'],
  uploadfile: ['upload', 'reupload-own'],
  uploadeditmovefile: ['upload', 'reupload-own', 'reupload', 'reupload-shared', 'upload_by_url', 'movefile', 'suppressredirect'],
  patrol: ['patrol'],
  rollback: ['rollback'],
  blockusers: ['block', 'blockemail'],
  viewdeleted: ['browsearchive', 'deletedhistory', 'deletedtext'],
  viewrestrictedlogs: ['suppressionlog'],
  delete: [...EDIT, 'browsearchive', 'deletedhistory', 'deletedtext', 'delete', 'bigdelete', 'deletelogentry', 'deleterevision', 'undelete'],
  oversight: ['suppressrevision', 'viewsuppressed'],
  protect: [...EDIT, 'editprotected', 'protect'],
  viewmywatchlist: ['viewmywatchlist'],
  editmywatchlist: ['editmywatchlist'],
  sendemail: ['sendemail'],
  createaccount: ['createaccount'],
  privateinfo: ['viewmyprivateinfo'],
  mergehistory: ['mergehistory'],
};

export const GRANTS = Object.keys(GRANT_PERMISSIONS);

/** The rights a set of grants allows (`basic` included). */
export function grantRights(grants: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const g of new Set(['basic', ...grants])) for (const r of GRANT_PERMISSIONS[g] ?? []) out.add(r);
  return out;
}

/** Unknown grant names, for a clear error. */
export function unknownGrants(grants: readonly string[]): string[] {
  return grants.filter((g) => !(g in GRANT_PERMISSIONS));
}
