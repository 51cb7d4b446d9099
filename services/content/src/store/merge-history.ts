/*
 * The SQL of MediaWiki's MergeHistory: the timestamp bounds of a merge, moving revisions from one
 * page to another, and copying the source's watchers (WatchedItemStore::duplicateAllAssociatedEntries).
 */
import type { Db, Queryable } from '@quire/kit';

export interface MergeBounds {
  /** The destination's first revision (MergeHistory's maxTimestamp); undefined when it has none. */
  destFirst?: Date;
  /** The newest source revision that moves (the log's mergepoint); undefined when there is none. */
  limit?: Date;
  /** Revisions of the source up to this timestamp move. */
  moveUpTo?: Date;
}

async function extremeTimestamp(q: Queryable, db: Db, fn: 'min' | 'max', pageId: number, upTo?: Date): Promise<Date | undefined> {
  const r = await q.query<{ ts: Date | null }>(`SELECT ${fn}(rev_timestamp) AS ts FROM ${db.schema}.revision WHERE rev_page = $1 AND ($2::timestamptz IS NULL OR rev_timestamp <= $2)`, [
    pageId,
    upTo ?? null,
  ]);
  return r.rows[0]?.ts ?? undefined;
}

/** MergeHistory::initTimestampLimits. */
export async function mergeBounds(q: Queryable, db: Db, sourceId: number, destId: number, timestamp: Date | undefined): Promise<MergeBounds> {
  const destFirst = await extremeTimestamp(q, db, 'min', destId);
  if (timestamp) {
    const limit = await extremeTimestamp(q, db, 'max', sourceId, timestamp);
    return { ...(destFirst ? { destFirst } : {}), ...(limit ? { limit, moveUpTo: limit } : {}) };
  }
  const latest = await q.query<{ rev_timestamp: Date }>(`SELECT r.rev_timestamp FROM ${db.schema}.page p JOIN ${db.schema}.revision r ON r.rev_id = p.page_latest WHERE p.page_id = $1`, [sourceId]);
  const limit = latest.rows[0]?.rev_timestamp;
  return { ...(destFirst ? { destFirst, moveUpTo: destFirst } : {}), ...(limit ? { limit } : {}) };
}

export async function countRevisionsUpTo(q: Queryable, db: Db, pageId: number, upTo: Date): Promise<number> {
  const r = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.schema}.revision WHERE rev_page = $1 AND rev_timestamp <= $2`, [pageId, upTo]);
  return r.rows[0]!.n;
}

/** Gives the source's revisions up to `upTo` to the destination; the number moved. */
export async function moveRevisions(q: Queryable, db: Db, sourceId: number, destId: number, upTo: Date): Promise<number> {
  const r = await q.query(`UPDATE ${db.schema}.revision SET rev_page = $2 WHERE rev_page = $1 AND rev_timestamp <= $3`, [sourceId, destId, upTo]);
  return r.rowCount;
}

export async function hasRevisions(q: Queryable, db: Db, pageId: number): Promise<boolean> {
  const r = await q.query(`SELECT 1 FROM ${db.schema}.revision WHERE rev_page = $1 LIMIT 1 FOR UPDATE`, [pageId]);
  return r.rows.length > 0;
}

/** Everyone watching the source (or its talk page) watches the destination (or its talk page) too. */
export async function copyWatchers(q: Queryable, db: Db, source: { ns: number; dbkey: string }, dest: { ns: number; dbkey: string }): Promise<void> {
  const s = db.schema;
  for (const talk of [0, 1]) {
    await q.query(
      `INSERT INTO ${s}.watchlist (wl_user, wl_namespace, wl_title, wl_notificationtimestamp, wl_expiry)
       SELECT wl_user, $3, $4, wl_notificationtimestamp, wl_expiry FROM ${s}.watchlist WHERE wl_namespace = $1 AND wl_title = $2
       ON CONFLICT (wl_user, wl_namespace, wl_title) DO NOTHING`,
      [(source.ns & ~1) + talk, source.dbkey, (dest.ns & ~1) + talk, dest.dbkey],
    );
  }
}
