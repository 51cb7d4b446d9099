/*
 * Watchlist notification timestamps (watchlist.wl_notificationtimestamp): WatchedItemStore's
 * setNotificationTimestampsForUser, resetAllNotificationTimestampsForUser and
 * getNotificationTimestampsBatch. Expired rows count as unwatched, as everywhere else.
 */
import type { Db, Queryable } from '@quire/kit';

const LIVE = '(wl_expiry IS NULL OR wl_expiry > now())';

/** Sets (or clears, with null) the timestamp of the given watched pages of a user. */
export async function setNotificationTimestamps(q: Queryable, db: Db, userId: number, pages: readonly { ns: number; dbkey: string }[], timestamp: Date | null): Promise<void> {
  for (const p of pages) {
    await q.query(`UPDATE ${db.schema}.watchlist SET wl_notificationtimestamp = $1 WHERE wl_user = $2 AND wl_namespace = $3 AND wl_title = $4 AND ${LIVE}`, [timestamp, userId, p.ns, p.dbkey]);
  }
}

/** The whole watchlist: every page set to `timestamp`, or every unseen change marked seen (null). */
export async function resetAllNotificationTimestamps(q: Queryable, db: Db, userId: number, timestamp: Date | null): Promise<void> {
  const unseenOnly = timestamp === null ? ' AND wl_notificationtimestamp IS NOT NULL' : '';
  await q.query(`UPDATE ${db.schema}.watchlist SET wl_notificationtimestamp = $1 WHERE wl_user = $2${unseenOnly}`, [timestamp, userId]);
}

/** For each watched page among `pages`, its timestamp (null: nothing unseen); unwatched ones are absent. */
export async function notificationTimestamps(q: Queryable, db: Db, userId: number, pages: readonly { ns: number; dbkey: string }[]): Promise<Map<string, Date | null>> {
  const out = new Map<string, Date | null>();
  if (pages.length === 0) return out;
  const r = await q.query<{ wl_namespace: number; wl_title: string; wl_notificationtimestamp: Date | null }>(
    `SELECT wl_namespace, wl_title, wl_notificationtimestamp FROM ${db.schema}.watchlist
      WHERE wl_user = $1 AND ${LIVE} AND (wl_namespace, wl_title) IN (SELECT * FROM unnest($2::int[], $3::text[]))`,
    [userId, pages.map((p) => p.ns), pages.map((p) => p.dbkey)],
  );
  for (const row of r.rows) out.set(`${row.wl_namespace}|${row.wl_title}`, row.wl_notificationtimestamp);
  return out;
}
