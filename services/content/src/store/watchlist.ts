/*
 * Watchlists (MediaWiki's WatchedItemStore with $wgWatchlistExpiry on). A page and its talk page
 * are watched together. Rows whose expiry has passed count as unwatched everywhere and are
 * removed by the next write of the same user and page.
 */
import type { Db, Queryable } from '@quire/kit';

export interface WatchState {
  watched: boolean;
  /** undefined: watched indefinitely (or not watched). */
  expiry: Date | undefined;
}

const subjectNs = (ns: number) => (ns >= 0 ? ns & ~1 : ns);

/** Whether a user watches a page (an expired row is not watching). */
export async function watchState(q: Queryable, db: Db, userId: number, ns: number, dbkey: string): Promise<WatchState> {
  if (userId <= 0 || ns < 0) return { watched: false, expiry: undefined };
  const r = await q.query<{ wl_expiry: Date | null }>(
    `SELECT wl_expiry FROM ${db.schema}.watchlist WHERE wl_user = $1 AND wl_namespace = $2 AND wl_title = $3 AND (wl_expiry IS NULL OR wl_expiry > now())`,
    [userId, ns, dbkey],
  );
  const row = r.rows[0];
  return row ? { watched: true, expiry: row.wl_expiry ?? undefined } : { watched: false, expiry: undefined };
}

/**
 * Watches (with an optional expiry, which replaces the previous one) or unwatches a page and its
 * talk page, in the caller's transaction.
 */
export async function setWatch(q: Queryable, db: Db, userId: number, ns: number, dbkey: string, watch: boolean, expiry?: Date): Promise<void> {
  if (userId <= 0 || ns < 0) return;
  const s = db.schema;
  const pair = [subjectNs(ns), subjectNs(ns) + 1];
  if (!watch) {
    await q.query(`DELETE FROM ${s}.watchlist WHERE wl_user = $1 AND wl_namespace = ANY($2::int[]) AND wl_title = $3`, [userId, pair, dbkey]);
    return;
  }
  for (const n of pair) {
    // An expired row is a fresh watch: its old notification timestamp goes with it.
    await q.query(
      `INSERT INTO ${s}.watchlist (wl_user, wl_namespace, wl_title, wl_expiry) VALUES ($1, $2, $3, $4)
       ON CONFLICT (wl_user, wl_namespace, wl_title) DO UPDATE SET wl_expiry = EXCLUDED.wl_expiry,
         wl_notificationtimestamp = CASE WHEN ${s}.watchlist.wl_expiry IS NOT NULL AND ${s}.watchlist.wl_expiry <= now()
                                         THEN NULL ELSE ${s}.watchlist.wl_notificationtimestamp END`,
      [userId, n, dbkey, expiry ?? null],
    );
  }
}

export type WatchlistMode = 'watch' | 'unwatch' | 'preferences' | 'nochange' | '';

/**
 * ApiWatchlistTrait::getWatchlistValue + EditPage::updateWatchlist: what a write with a
 * `watchlist` parameter does to the writer's watchlist, applied in its transaction.
 * `byPreference`: the caller's preferences say watch (the gateway knows them; false for bots).
 */
export async function applyWatchlistParam(
  q: Queryable,
  db: Db,
  userId: number,
  target: { ns: number; dbkey: string },
  mode: WatchlistMode,
  byPreference: boolean,
  expiry: Date | undefined,
): Promise<WatchState> {
  const current = await watchState(q, db, userId, target.ns, target.dbkey);
  if (userId <= 0) return current;
  let watch: boolean;
  if (mode === 'watch') watch = true;
  else if (mode === 'unwatch') watch = false;
  else if (mode === 'preferences') watch = current.watched || byPreference;
  else watch = current.watched;
  if (watch !== current.watched || (watch && expiry !== undefined)) {
    await setWatch(q, db, userId, target.ns, target.dbkey, watch, watch ? expiry : undefined);
    return { watched: watch, expiry: watch ? expiry : undefined };
  }
  return current;
}
