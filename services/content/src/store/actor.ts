import type { Queryable } from '@quire/kit';

/** The actor row of a user (id from the auth service) or of an anonymous IP (id 0), created on first use. */
export async function actorId(q: Queryable, schema: string, user: { id: number; name: string }): Promise<number> {
  const inserted = await q.query<{ actor_id: number }>(
    `INSERT INTO ${schema}.actor (actor_user, actor_name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING actor_id`,
    [user.id === 0 ? null : user.id, user.name],
  );
  if (inserted.rows[0]) return inserted.rows[0].actor_id;
  // A registered user is found by id (the name may have been recorded under another spelling).
  const found =
    user.id === 0
      ? await q.query<{ actor_id: number }>(`SELECT actor_id FROM ${schema}.actor WHERE actor_name = $1`, [user.name])
      : await q.query<{ actor_id: number }>(`SELECT actor_id FROM ${schema}.actor WHERE actor_user = $1 OR actor_name = $2 ORDER BY actor_user = $1 DESC LIMIT 1`, [user.id, user.name]);
  return found.rows[0]!.actor_id;
}
