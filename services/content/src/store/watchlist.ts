/*
 * Watchlists (MediaWiki's WatchedItemStore with $wgWatchlistExpiry on). A page and its talk page
 * are watched together. Rows whose expiry has passed count as unwatched everywhere and are
 * removed by the next write of the same user and page.
 */
import type { Db, Queryable } from '@quire/kit';
import type { ListWatchlistRawRequest, ListWatchlistRequest } from '@quire/proto/wiki/content/v1/files';

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
  /** The user's watch of the page when the caller has just read it (an edit reads it with the page). */
  known?: WatchState,
): Promise<WatchState> {
  const current = known ?? (await watchState(q, db, userId, target.ns, target.dbkey));
  if (userId <= 0) return current;
  const plan = plannedWatch(mode, byPreference, expiry, current);
  if (plan.write) await setWatch(q, db, userId, target.ns, target.dbkey, plan.state.watched, plan.state.expiry);
  return plan.state;
}

/**
 * What `applyWatchlistParam` does for a registered user whose watch of the page is `current`:
 * whether it writes the watchlist, and the watch afterwards.
 */
export function plannedWatch(mode: WatchlistMode, byPreference: boolean, expiry: Date | undefined, current: WatchState): { write: boolean; state: WatchState } {
  let watch: boolean;
  if (mode === 'watch') watch = true;
  else if (mode === 'unwatch') watch = false;
  else if (mode === 'preferences') watch = current.watched || byPreference;
  else watch = current.watched;
  if (watch !== current.watched || (watch && expiry !== undefined)) return { write: true, state: { watched: watch, expiry: watch ? expiry : undefined } };
  return { write: false, state: current };
}

const RC_TYPES: Record<string, number> = { edit: 0, new: 1, log: 3, categorize: 6 };

/** Row of a watchlist change: the recent change with its actor, the watchlist row and its tags. */
export interface WatchlistChangeRow {
  rc_id: number;
  rc_type: number;
  rc_namespace: number;
  rc_title: string;
  rc_cur_id: number;
  rc_this_oldid: number;
  rc_last_oldid: number;
  actor_name: string;
  actor_user: number | null;
  rc_bot: boolean;
  rc_new: boolean;
  rc_minor: boolean;
  rc_old_len: number | null;
  rc_new_len: number | null;
  rc_timestamp: Date;
  wl_notificationtimestamp: Date | null;
  rc_comment: string;
  wl_expiry: Date | null;
  rc_log_type: string | null;
  rc_log_action: string | null;
  rc_logid: number | null;
  rc_params: Record<string, unknown> | null;
  tags: string[] | null;
  rc_patrolled: number;
  rc_deleted: number;
}

/** list=watchlist: recent changes of the user's watched titles, up to `limit` + 1 rows (the extra one continues). */
export async function watchlistChanges(db: Db, req: ListWatchlistRequest, limit: number): Promise<WatchlistChangeRow[]> {
  const s = db.schema;
  const where: string[] = ['w.wl_user = $1', '(w.wl_expiry IS NULL OR w.wl_expiry > now())'];
  const args: unknown[] = [req.userId];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  const older = !req.newerFirst; // wldir=older (default) lists the newest first
  const types = (req.types.length ? req.types : ['edit', 'new', 'log', 'categorize']).map((t) => RC_TYPES[t]).filter((t) => t !== undefined);
  where.push(`rc.rc_type = ANY(${arg(types)}::int[])`);
  if (req.namespaces.length) where.push(`rc.rc_namespace = ANY(${arg(req.namespaces)}::int[])`);
  if (req.start) where.push(`rc.rc_timestamp ${older ? '<=' : '>='} ${arg(new Date(req.start))}`);
  if (req.end) where.push(`rc.rc_timestamp ${older ? '>=' : '<='} ${arg(new Date(req.end))}`);
  if (req.user) where.push(`a.actor_name = ${arg(req.user)}`);
  if (req.excludeUser) where.push(`a.actor_name <> ${arg(req.excludeUser)}`);
  // A change whose author is hidden from the caller matches no user filter (no guessing who it was).
  if ((req.user || req.excludeUser) && req.authorHideBits) where.push(`(rc.rc_deleted & ${arg(req.authorHideBits)}::int) <> ${arg(req.authorHideBits)}::int`);
  // A log entry with its action hidden from the caller is left out: it would name its page.
  if (req.logActionHideBits) {
    const bits = arg(req.logActionHideBits);
    where.push(`(rc.rc_type <> ${RC_TYPES.log} OR (rc.rc_deleted & ${bits}::int) <> ${bits}::int)`);
  }
  for (const flag of req.show) {
    const not = flag.startsWith('!');
    const cond = {
      minor: 'rc.rc_minor',
      bot: 'rc.rc_bot',
      anon: 'a.actor_user IS NULL',
      unread: `(w.wl_notificationtimestamp IS NOT NULL AND rc.rc_timestamp >= w.wl_notificationtimestamp)`,
      // WatchedItemQueryService: patrolled is any rc_patrolled but 0, autopatrolled is 2.
      patrolled: 'rc.rc_patrolled <> 0',
      autopatrolled: 'rc.rc_patrolled = 2',
    }[not ? flag.slice(1) : flag];
    if (cond) where.push(not ? `NOT ${cond}` : cond);
  }
  // Without allrev only the latest change of each page (and every log entry) is listed.
  if (!req.allRevisions) where.push(`(rc.rc_type = 3 OR rc.rc_this_oldid = (SELECT page_latest FROM ${s}.page WHERE page_id = rc.rc_cur_id))`);
  if (req.continue) {
    const bar = req.continue.indexOf('|');
    where.push(`(rc.rc_timestamp, rc.rc_id) ${older ? '<=' : '>='} (${arg(new Date(req.continue.slice(0, bar)))}::timestamptz, ${arg(Number(req.continue.slice(bar + 1)))}::bigint)`);
  }
  const dir = older ? 'DESC' : 'ASC';
  const r = await db.query<WatchlistChangeRow>(
    `SELECT rc.*, a.actor_name, a.actor_user, w.wl_notificationtimestamp, w.wl_expiry,
       (SELECT array_agg(d.ctd_name ORDER BY d.ctd_name) FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.ct_rc_id = rc.rc_id) AS tags
     FROM ${s}.recentchanges rc
     JOIN ${s}.watchlist w ON w.wl_namespace = rc.rc_namespace AND w.wl_title = rc.rc_title
     JOIN ${s}.actor a ON a.actor_id = rc.rc_actor
     WHERE ${where.join(' AND ')} ORDER BY rc.rc_timestamp ${dir}, rc.rc_id ${dir} LIMIT ${arg(limit + 1)}`,
    args,
  );
  return r.rows;
}

/** list=watchlistraw: the user's unexpired watchlist rows, up to `limit` + 1 (the extra one continues). */
export async function watchlistRaw(
  db: Db,
  req: ListWatchlistRawRequest,
  limit: number,
): Promise<{ wl_namespace: number; wl_title: string; wl_notificationtimestamp: Date | null; wl_expiry: Date | null }[]> {
  const s = db.schema;
  const where: string[] = ['wl_user = $1', '(wl_expiry IS NULL OR wl_expiry > now())'];
  const args: unknown[] = [req.userId];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  const bound = (v: string) => {
    const bar = v.indexOf('|');
    return bar < 0 ? undefined : ([Number(v.slice(0, bar)), v.slice(bar + 1)] as const);
  };
  if (req.namespaces.length) where.push(`wl_namespace = ANY(${arg(req.namespaces)}::int[])`);
  const cmp = req.descending ? '<=' : '>=';
  const from = bound(req.from);
  if (from) where.push(`(wl_namespace, wl_title COLLATE "C") ${cmp} (${arg(from[0])}::int, ${arg(from[1])}::text)`);
  const to = bound(req.to);
  if (to) where.push(`(wl_namespace, wl_title COLLATE "C") ${req.descending ? '>=' : '<='} (${arg(to[0])}::int, ${arg(to[1])}::text)`);
  if (req.show === 'changed') where.push('wl_notificationtimestamp IS NOT NULL');
  if (req.show === '!changed') where.push('wl_notificationtimestamp IS NULL');
  const dir = req.descending ? 'DESC' : 'ASC';
  const r = await db.query<{ wl_namespace: number; wl_title: string; wl_notificationtimestamp: Date | null; wl_expiry: Date | null }>(
    `SELECT wl_namespace, wl_title, wl_notificationtimestamp, wl_expiry FROM ${s}.watchlist WHERE ${where.join(' AND ')}
     ORDER BY wl_namespace ${dir}, wl_title COLLATE "C" ${dir} LIMIT ${arg(limit + 1)}`,
    args,
  );
  return r.rows;
}

/** When a user's talk page got a message not yet seen (user_newtalk); undefined when none. */
export async function newTalkSince(db: Db, userName: string): Promise<Date | undefined> {
  const r = await db.query<{ unt_timestamp: Date }>(`SELECT unt_timestamp FROM ${db.schema}.user_newtalk WHERE unt_user_name = $1`, [userName]);
  return r.rows[0]?.unt_timestamp;
}

/** WatchlistManager::clearTitleUserNotifications for a user's own talk page. */
export async function clearNewTalk(q: Queryable, db: Db, userName: string, userId: number, talkPage: { ns: number; dbkey: string }): Promise<void> {
  const s = db.schema;
  await q.query(`DELETE FROM ${s}.user_newtalk WHERE unt_user_name = $1`, [userName]);
  if (userId > 0) {
    await q.query(`UPDATE ${s}.watchlist SET wl_notificationtimestamp = NULL WHERE wl_user = $1 AND wl_namespace = $2 AND wl_title = $3`, [userId, talkPage.ns, talkPage.dbkey]);
  }
}
