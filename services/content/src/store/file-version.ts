/*
 * One old version of a file into `filearchive` (LocalFileDeleteBatch::addOld, as FileDeleteForm
 * deletes an `oldimage`), in the caller's transaction. The bytes stay under their storage key.
 */
import type { Db, Queryable } from '@quire/kit';
import { actorId } from './actor.js';

/** Whether file `name` has a current version (ApiDelete::canDeleteFile), locked for the transaction. */
export async function hasCurrentFile(q: Queryable, db: Db, name: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM ${db.schema}.image WHERE img_name = $1 FOR UPDATE`, [name])).rows.length > 0;
}

/** The id of a page, 0 when it does not exist. */
export async function pageIdOf(q: Queryable, db: Db, ns: number, dbkey: string): Promise<number> {
  const r = await q.query<{ page_id: string }>(`SELECT page_id FROM ${db.schema}.page WHERE page_namespace = $1 AND page_title = $2`, [ns, dbkey]);
  return Number(r.rows[0]?.page_id ?? 0);
}

/** Moves version `archiveName` of file `name` into filearchive; false when there is no such version. */
export async function archiveOldFileVersion(q: Queryable, db: Db, name: string, archiveName: string, deleter: { id: number; name: string }, reason: string): Promise<boolean> {
  const s = db.schema;
  const found = await q.query(`SELECT 1 FROM ${s}.oldimage WHERE oi_name = $1 AND oi_archive_name = $2 FOR UPDATE`, [name, archiveName]);
  if (found.rows.length === 0) return false;
  const deleterId = await actorId(q, s, deleter);
  await q.query(
    `INSERT INTO ${s}.filearchive (fa_name, fa_archive_name, fa_storage_key, fa_deleted_actor, fa_deleted_timestamp, fa_deleted_reason, fa_size,
       fa_width, fa_height, fa_bits, fa_metadata, fa_media_type, fa_major_mime, fa_minor_mime, fa_description, fa_actor, fa_timestamp, fa_sha1, fa_deleted)
     SELECT oi_name, oi_archive_name, oi_storage_key, $3, now(), $4, oi_size, oi_width, oi_height, oi_bits, oi_metadata, oi_media_type,
            oi_major_mime, oi_minor_mime, oi_description, oi_actor, oi_timestamp, oi_sha1, oi_deleted
       FROM ${s}.oldimage WHERE oi_name = $1 AND oi_archive_name = $2`,
    [name, archiveName, deleterId, reason],
  );
  await q.query(`DELETE FROM ${s}.oldimage WHERE oi_name = $1 AND oi_archive_name = $2`, [name, archiveName]);
  return true;
}
