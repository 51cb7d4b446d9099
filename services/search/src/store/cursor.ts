/*
 * The change-feed cursors (`feed_cursors`, one row per engine): how far each engine's index has
 * applied the content service's change feed. Stored with each batch so a restart or an outage
 * loses nothing. `generation` is bumped by a rebuild's swap (it sets the position back to where the
 * rebuild read the feed), so a batch applied to the index the swap replaced cannot move it.
 */
import type { Db, Queryable } from '@quire/kit';

export type Engine = 'sql' | 'meilisearch';

export interface Cursor {
  position: number;
  generation: number;
}

export async function readCursor(db: Db, engine: Engine): Promise<number> {
  return (await readCursorState(db, engine)).position;
}

export async function readCursorState(db: Db, engine: Engine): Promise<Cursor> {
  const r = await db.query<Cursor>(`SELECT position, generation FROM ${db.schema}.feed_cursors WHERE engine = $1`, [engine]);
  return r.rows[0] ?? { position: 0, generation: 0 };
}

/** The cursor, locked until the transaction of `q` ends (a transactional engine applies its batch meanwhile). */
export async function lockCursor(q: Queryable, schema: string, engine: Engine): Promise<Cursor> {
  const r = await q.query<Cursor>(`SELECT position, generation FROM ${schema}.feed_cursors WHERE engine = $1 FOR UPDATE`, [engine]);
  return r.rows[0] ?? { position: 0, generation: 0 };
}

/** Sets the cursor (under lockCursor's lock). */
export async function setCursor(q: Queryable, schema: string, engine: Engine, position: number): Promise<void> {
  await q.query(`UPDATE ${schema}.feed_cursors SET position = $2, updated_at = now() WHERE engine = $1`, [engine, position]);
}

/**
 * Moves the cursor forward to `position`, never back, if no rebuild swapped the index since
 * `generation` was read (an engine outside the database's transactions). False when one did.
 */
export async function advanceCursor(db: Db, engine: Engine, position: number, generation: number): Promise<boolean> {
  const r = await db.query(`UPDATE ${db.schema}.feed_cursors SET position = GREATEST(position, $2), updated_at = now() WHERE engine = $1 AND generation = $3`, [engine, position, generation]);
  return (r.rowCount ?? 0) > 0;
}

/** After a rebuild's swap: the new index holds the feed through `position`; a new generation. */
export async function resetCursor(q: Queryable, schema: string, engine: Engine, position: number): Promise<void> {
  await q.query(`UPDATE ${schema}.feed_cursors SET position = $2, generation = generation + 1, updated_at = now() WHERE engine = $1`, [engine, position]);
}
