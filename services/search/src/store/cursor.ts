/*
 * The change-feed cursor (`feed_cursor`, one row): how far the index has applied the content
 * service's change feed. Stored with each batch so a restart or an outage loses nothing.
 */
import type { Db, Queryable } from '@quire/kit';

export async function readCursor(db: Db): Promise<number> {
  const r = await db.query<{ position: number }>(`SELECT position FROM ${db.schema}.feed_cursor WHERE id = 1`);
  return r.rows[0]?.position ?? 0;
}

/** The cursor, locked until the transaction of `q` ends (a transactional engine applies its batch meanwhile). */
export async function lockCursor(q: Queryable, schema: string): Promise<number> {
  const r = await q.query<{ position: number }>(`SELECT position FROM ${schema}.feed_cursor WHERE id = 1 FOR UPDATE`);
  return r.rows[0]?.position ?? 0;
}

/** Sets the cursor (under lockCursor's lock). */
export async function setCursor(q: Queryable, schema: string, position: number): Promise<void> {
  await q.query(`UPDATE ${schema}.feed_cursor SET position = $1, updated_at = now() WHERE id = 1`, [position]);
}

/** Moves the cursor forward to `position`, never back (an engine outside the database's transactions). */
export async function advanceCursor(db: Db, position: number): Promise<void> {
  await db.query(`UPDATE ${db.schema}.feed_cursor SET position = GREATEST(position, $1), updated_at = now() WHERE id = 1`, [position]);
}
