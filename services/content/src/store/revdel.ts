/*
 * Revision visibility (MediaWiki's RevDelRevisionList / RevDelRevisionItem and
 * RevDelArchivedRevisionItem): the rev_deleted bits of live revisions, mirrored into their recent
 * changes, and the ar_deleted bits of archived ones, with a compare-and-set on the old bits so
 * two concurrent changes never overwrite each other.
 */
import type { Db, Queryable } from '@quire/kit';

/** RevisionRecord::DELETED_* bits. */
export const DELETED_TEXT = 1;
export const DELETED_COMMENT = 2;
export const DELETED_USER = 4;
export const DELETED_RESTRICTED = 8;

export interface RevDelRow {
  /** A revision of a deleted page (archive), not a live one. */
  archived: boolean;
  revId: number;
  pageId: number;
  deleted: number;
  timestamp: Date;
  actorId: number;
  userId: number;
  userName: string;
  comment: string;
}

interface RawRow {
  rev_id: number;
  rev_page: number;
  rev_deleted: number;
  rev_timestamp: Date;
  rev_actor: number;
  actor_user: number | null;
  actor_name: string;
  rev_comment: string;
}

const rowOf = (r: RawRow, archived = false): RevDelRow => ({
  archived,
  revId: Number(r.rev_id),
  pageId: Number(r.rev_page),
  deleted: r.rev_deleted,
  timestamp: r.rev_timestamp,
  actorId: Number(r.rev_actor),
  userId: Number(r.actor_user ?? 0),
  userName: r.actor_name,
  comment: r.rev_comment,
});

/** The page a live revision belongs to (RevisionDeleter::suggestTarget), or undefined. */
export async function pageOfRevision(db: Db, revId: number): Promise<{ ns: number; dbkey: string } | undefined> {
  const r = await db.query<{ page_namespace: number; page_title: string }>(
    `SELECT p.page_namespace, p.page_title FROM ${db.schema}.revision r JOIN ${db.schema}.page p ON p.page_id = r.rev_page WHERE r.rev_id = $1`,
    [revId],
  );
  const row = r.rows[0];
  return row && { ns: row.page_namespace, dbkey: row.page_title };
}

/** RevDelRevisionList::doQuery for live revisions: those of `ids` that belong to the page, newest id first. */
export async function revisionsOfPage(q: Queryable, db: Db, pageId: number, ids: readonly number[]): Promise<RevDelRow[]> {
  const s = db.schema;
  const r = await q.query<RawRow>(
    `SELECT r.rev_id, r.rev_page, r.rev_deleted, r.rev_timestamp, r.rev_actor, a.actor_user, a.actor_name, r.rev_comment
       FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor
      WHERE r.rev_page = $1 AND r.rev_id = ANY($2::bigint[]) ORDER BY r.rev_id DESC`,
    [pageId, ids],
  );
  return r.rows.map((row) => rowOf(row));
}

/** RevDelRevisionList::doQuery, second half: archived revisions (of deleted pages) among `ids`. */
export async function archivedRevisions(q: Queryable, db: Db, ids: readonly number[]): Promise<RevDelRow[]> {
  const s = db.schema;
  const r = await q.query<RawRow>(
    `SELECT ar.ar_rev_id AS rev_id, ar.ar_page_id AS rev_page, ar.ar_deleted AS rev_deleted, ar.ar_timestamp AS rev_timestamp,
            ar.ar_actor AS rev_actor, a.actor_user, a.actor_name, ar.ar_comment AS rev_comment
       FROM ${s}.archive ar JOIN ${s}.actor a ON a.actor_id = ar.ar_actor
      WHERE ar.ar_rev_id = ANY($1::bigint[]) ORDER BY ar.ar_rev_id DESC`,
    [ids],
  );
  return r.rows.map((row) => rowOf(row, true));
}

/**
 * RevDelRevisionItem::setBits: the new bits if the revision still has `oldBits` (false when a
 * concurrent change got there first); its recent change follows and counts as autopatrolled.
 */
export async function setRevisionBits(q: Queryable, db: Db, rev: RevDelRow, newBits: number): Promise<boolean> {
  const s = db.schema;
  if (rev.archived) {
    // RevDelArchivedRevisionItem::setBits: the archive row only.
    const a = await q.query(`UPDATE ${s}.archive SET ar_deleted = $1 WHERE ar_rev_id = $2 AND ar_deleted = $3`, [newBits, rev.revId, rev.deleted]);
    return Boolean(a.rowCount);
  }
  const r = await q.query(`UPDATE ${s}.revision SET rev_deleted = $1 WHERE rev_id = $2 AND rev_page = $3 AND rev_deleted = $4`, [newBits, rev.revId, rev.pageId, rev.deleted]);
  if (!r.rowCount) return false;
  await q.query(`UPDATE ${s}.recentchanges SET rc_deleted = $1, rc_patrolled = 2 WHERE rc_this_oldid = $2`, [newBits, rev.revId]);
  return true;
}

/** Title::invalidateCache: page_touched moves to now (never backwards). */
export async function touchPage(q: Queryable, db: Db, pageId: number, now: Date): Promise<void> {
  await q.query(`UPDATE ${db.schema}.page SET page_touched = GREATEST(page_touched, $2) WHERE page_id = $1`, [pageId, now]);
}
