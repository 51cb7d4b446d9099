/*
 * The grants Special:BotPasswords offers, in MediaWiki 1.39's order ($wgGrantPermissions), with
 * their English labels (languages/i18n/en.json, grant-*). Which rights each grant gives is the auth
 * service's business (services/auth/src/grants.ts); e2e/special.test.ts checks both lists agree.
 */
export const GRANT_LABELS: Readonly<Record<string, string>> = {
  basic: 'Basic rights',
  highvolume: 'High-volume editing',
  import: 'Import revisions',
  editpage: 'Edit existing pages',
  editprotected: 'Edit protected pages',
  editmycssjs: 'Edit your user CSS/JSON/JavaScript',
  editmyoptions: 'Edit your user preferences and JSON configuration',
  editinterface: 'Edit the MediaWiki namespace and sitewide/user JSON',
  editsiteconfig: 'Edit sitewide and user CSS/JS',
  createeditmovepage: 'Create, edit, and move pages',
  uploadfile: 'Upload new files',
  uploadeditmovefile: 'Upload, replace, and move files',
  patrol: 'Patrol changes to pages',
  rollback: 'Rollback changes to pages',
  blockusers: 'Block and unblock users',
  viewdeleted: 'View deleted files and pages',
  viewrestrictedlogs: 'View restricted log entries',
  delete: 'Delete pages, revisions, and log entries',
  oversight: 'Hide users and suppress revisions',
  protect: 'Protect and unprotect pages',
  viewmywatchlist: 'View your watchlist',
  editmywatchlist: 'Edit your watchlist',
  sendemail: 'Send email to other users',
  createaccount: 'Create accounts',
  privateinfo: 'Access private information',
  mergehistory: 'Merge page histories',
};

export const GRANT_NAMES = Object.keys(GRANT_LABELS);

/** $wgGrantPermissionGroups' "hidden" grants: always given, shown checked and disabled. */
export const HIDDEN_GRANTS: readonly string[] = ['basic'];

/** The grants of a submitted form: checkbox values `grant-<name>` (MediaWiki's field), hidden grants always in. */
export function grantsFromForm(values: readonly string[]): string[] {
  const chosen = values.filter((v) => v.startsWith('grant-')).map((v) => v.slice('grant-'.length));
  return [...new Set([...HIDDEN_GRANTS, ...chosen])];
}
