import type { Db, Queryable } from '@quire/kit';

/*
 * Actor rows are never updated or deleted: a user's (id, name) maps to one actor_id for good. The
 * ids are kept per database handle once the transaction that found or created them committed (an
 * id from a rolled-back insert must not be reused), so a save looks its actor up once per process
 * instead of twice per edit.
 */
const known = new WeakMap<object, Map<string, number>>();
const MAX_KNOWN = 50_000;

const keyOf = (schema: string, user: { id: number; name: string }) => `${schema}\u0000${user.id}\u0000${user.name}`;

function isDb(q: Queryable): q is Db {
  return typeof (q as Partial<Db>).onCommit === 'function';
}

/** The actor row of a user (id from the auth service) or of an anonymous IP (id 0), created on first use. */
export async function actorId(q: Queryable, schema: string, user: { id: number; name: string }): Promise<number> {
  const key = keyOf(schema, user);
  const cached = known.get(q)?.get(key);
  if (cached !== undefined) return cached;
  const id = await lookUpActor(q, schema, user);
  if (isDb(q)) {
    q.onCommit(() => {
      let map = known.get(q);
      if (!map) known.set(q, (map = new Map()));
      if (map.size >= MAX_KNOWN) map.clear();
      map.set(key, id);
    });
  }
  return id;
}

async function lookUpActor(q: Queryable, schema: string, user: { id: number; name: string }): Promise<number> {
  const inserted = await q.query<{ actor_id: number }>(`INSERT INTO ${schema}.actor (actor_user, actor_name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING actor_id`, [
    user.id === 0 ? null : user.id,
    user.name,
  ]);
  if (inserted.rows[0]) return inserted.rows[0].actor_id;
  // A registered user is found by id (the name may have been recorded under another spelling).
  const found =
    user.id === 0
      ? await q.query<{ actor_id: number }>(`SELECT actor_id FROM ${schema}.actor WHERE actor_name = $1`, [user.name])
      : await q.query<{ actor_id: number }>(`SELECT actor_id FROM ${schema}.actor WHERE actor_user = $1 OR actor_name = $2 ORDER BY actor_user = $1 DESC LIMIT 1`, [user.id, user.name]);
  return found.rows[0]!.actor_id;
}
