/*
 * Revision deletion as both APIs and the web pages read it — the one place that answers "may this
 * caller see this revision's text / summary / author": RevisionRecord's DELETED_* bits of
 * rev_deleted (rc_deleted, ar_deleted and log_deleted use the same bits), who may see a hidden
 * field (RevisionRecord::userCanBitfield, FOR_THIS_USER; FOR_PUBLIC is the same question asked
 * with no rights), and which revisions lists leave out because their author is hidden from the
 * caller (ContribsPager, ApiQueryUserContribs, PageHistoryHandler). Every read path that shows a
 * revision's text, summary or author asks these functions; none keeps its own copy.
 */

/** RevisionRecord::DELETED_* bits (LogPage::DELETED_ACTION is the first, for log entries). */
export const DELETED_TEXT = 1;
export const DELETED_COMMENT = 2;
export const DELETED_USER = 4;
export const DELETED_RESTRICTED = 8;

/** The rights that pass a hidden field: suppressed ones need a suppressor's, the text `deletedtext`, the rest `deletedhistory`. */
export function rightsToSee(deleted: number, field: number): readonly string[] {
  if (deleted & DELETED_RESTRICTED) return ['suppressrevision', 'viewsuppressed'];
  return field === DELETED_TEXT ? ['deletedtext'] : ['deletedhistory'];
}

/** RevisionRecord::userCanBitfield: whether a caller with these rights may see `field` of a revision. */
export function userCanSee(deleted: number, field: number, rights: readonly string[]): boolean {
  if ((deleted & field) === 0) return true;
  return rightsToSee(deleted, field).some((r) => rights.includes(r));
}

/** RevisionRecord::audienceCan(FOR_PUBLIC): whether anyone may see `field` (what public caches may keep). */
export function publicCanSee(deleted: number, field: number): boolean {
  return userCanSee(deleted, field, []);
}

/** What of one revision a caller may see. */
export interface RevisionView {
  text: boolean;
  comment: boolean;
  user: boolean;
}

export function revisionView(deleted: number, rights: readonly string[]): RevisionView {
  return { text: userCanSee(deleted, DELETED_TEXT, rights), comment: userCanSee(deleted, DELETED_COMMENT, rights), user: userCanSee(deleted, DELETED_USER, rights) };
}

/** LogPage::DELETED_ACTION: a log entry's target and parameters (its other bits are the revision's). */
export const LOG_DELETED_ACTION = 1;

/** LogEventsList::userCanBitfield: any hidden field of a log entry needs deletedhistory, or suppression rights when restricted. */
export function logFieldVisible(deleted: number, field: number, rights: readonly string[]): boolean {
  if ((deleted & field) === 0) return true;
  // Unlike a revision's text, a log entry's action is history: deletedhistory, not deletedtext.
  return rightsToSee(deleted, DELETED_COMMENT).some((r) => rights.includes(r));
}

/** The content service's compare flags (CompareRequest): whether the caller may diff deleted and suppressed text. */
export function textAccess(rights: readonly string[]): { canViewDeleted: boolean; canViewSuppressed: boolean } {
  return { canViewDeleted: userCanSee(DELETED_TEXT, DELETED_TEXT, rights), canViewSuppressed: userCanSee(DELETED_TEXT | DELETED_RESTRICTED, DELETED_TEXT, rights) };
}

/** ApiParse's refusal of an old revision whose text is hidden from the caller (apierror-permissiondenied with action-deletedtext). */
export const DELETED_TEXT_DENIED = "You don't have permission to view deleted revision text.";

/**
 * The rev_deleted bits that leave a revision out of a list because its author is hidden from the
 * caller: all revisions with a hidden author without `deletedhistory`, the suppressed ones without
 * `suppressrevision`/`viewsuppressed`, none otherwise.
 */
export function hiddenAuthorBits(rights: readonly string[]): number {
  if (!rights.includes('deletedhistory')) return DELETED_USER;
  if (!rights.includes('suppressrevision') && !rights.includes('viewsuppressed')) return DELETED_USER | DELETED_RESTRICTED;
  return 0;
}

/**
 * WatchedItemQueryService::getExtraDeletedPageLogEntryRelatedCond: the log_deleted bits that leave
 * a log entry out of the watchlist altogether (a hidden action hides its page, so the row would
 * name it); 0 when the caller may see every hidden action.
 */
export function hiddenLogActionBits(rights: readonly string[]): number {
  if (!rights.includes('deletedhistory')) return LOG_DELETED_ACTION;
  if (!rights.includes('suppressrevision') && !rights.includes('viewsuppressed')) return LOG_DELETED_ACTION | DELETED_RESTRICTED;
  return 0;
}

/** $wgLogRestrictions of MediaWiki 1.39: a log type and the right needed to read its entries. */
export const LOG_RESTRICTIONS: Readonly<Record<string, string>> = { suppress: 'suppressionlog' };

/**
 * LogEventsList::getExcludeClause: the log types whose entries the caller may not read; every
 * listing of log entries leaves them out (ListLogEventsRequest.hiddenTypes).
 */
export function hiddenLogTypes(rights: readonly string[]): string[] {
  return Object.entries(LOG_RESTRICTIONS)
    .filter(([, right]) => !rights.includes(right))
    .map(([type]) => type);
}

/** LogEventsList::userCan: a field of a log entry, by its bits and its log's type. */
export function logEntryFieldVisible(type: string, deleted: number, field: number, rights: readonly string[]): boolean {
  return logFieldVisible(deleted, field, rights) && !hiddenLogTypes(rights).includes(type);
}
