/*
 * Revision deletion as both APIs read it: RevisionRecord's DELETED_* bits of rev_deleted, who may
 * see a hidden field (RevisionRecord::userCanBitfield), and which revisions lists leave out because
 * their author is hidden from the caller (ContribsPager, ApiQueryUserContribs, PageHistoryHandler).
 */

/** RevisionRecord::DELETED_* bits. */
export const DELETED_TEXT = 1;
export const DELETED_COMMENT = 2;
export const DELETED_USER = 4;
export const DELETED_RESTRICTED = 8;

/** RevisionRecord::userCanBitfield: whether a caller with these rights may see `field` of a revision. */
export function userCanSee(deleted: number, field: number, rights: readonly string[]): boolean {
  if ((deleted & field) === 0) return true;
  const needed = deleted & DELETED_RESTRICTED ? ['suppressrevision', 'viewsuppressed'] : field === DELETED_TEXT ? ['deletedtext'] : ['deletedhistory'];
  return needed.some((r) => rights.includes(r));
}

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
