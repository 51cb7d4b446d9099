/*
 * log_deleted of log entries (RevDelLogItem): read for an update, set with a compare-and-set on
 * the old bits and mirrored into the entry's recent change (rc_deleted), as MediaWiki does.
 */
import type { Db, Queryable } from '@quire/kit';

export interface LogVisibilityRow {
  id: number;
  type: string;
  action: string;
  timestamp: Date;
  deleted: number;
  userId: number;
  user: string;
  comment: string;
  params: unknown;
}

interface RawRow {
  log_id: string;
  log_type: string;
  log_action: string;
  log_timestamp: Date;
  log_deleted: number;
  actor_user: string | null;
  actor_name: string;
  log_comment: string;
  log_params: unknown;
}

/** The log entries among `ids`, newest id first (RevDelLogList::doQuery), locked when `forUpdate`. */
export async function logEntries(q: Queryable, db: Db, ids: readonly number[], forUpdate: boolean): Promise<LogVisibilityRow[]> {
  if (ids.length === 0) return [];
  const s = db.schema;
  const r = await q.query<RawRow>(
    `SELECT l.log_id, l.log_type, l.log_action, l.log_timestamp, l.log_deleted, a.actor_user, a.actor_name, l.log_comment, l.log_params
       FROM ${s}.logging l JOIN ${s}.actor a ON a.actor_id = l.log_actor
      WHERE l.log_id = ANY($1::bigint[]) ORDER BY l.log_id DESC ${forUpdate ? 'FOR UPDATE OF l' : ''}`,
    [ids],
  );
  return r.rows.map((row) => ({
    id: Number(row.log_id),
    type: row.log_type,
    action: row.log_action,
    timestamp: row.log_timestamp,
    deleted: row.log_deleted,
    userId: Number(row.actor_user ?? 0),
    user: row.actor_name,
    comment: row.log_comment,
    params: row.log_params,
  }));
}

/** Sets an entry's bits when they are still `oldBits` (false: changed meanwhile), with its recent change's. */
export async function setLogBits(q: Queryable, db: Db, id: number, oldBits: number, newBits: number): Promise<boolean> {
  const s = db.schema;
  const r = await q.query(`UPDATE ${s}.logging SET log_deleted = $3 WHERE log_id = $1 AND log_deleted = $2`, [id, oldBits, newBits]);
  if (r.rowCount === 0) return false;
  await q.query(`UPDATE ${s}.recentchanges SET rc_deleted = $2 WHERE rc_logid = $1`, [id, newBits]);
  return true;
}

/** Entries of `ids` whose log_deleted is not 0. */
export async function logBits(db: Db, ids: readonly number[]): Promise<{ id: number; deleted: number }[]> {
  if (ids.length === 0) return [];
  const r = await db.query<{ log_id: string; log_deleted: number }>(`SELECT log_id, log_deleted FROM ${db.schema}.logging WHERE log_id = ANY($1::bigint[]) AND log_deleted <> 0`, [ids]);
  return r.rows.map((row) => ({ id: Number(row.log_id), deleted: row.log_deleted }));
}
