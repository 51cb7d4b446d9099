/*
 * The file half of deleting and undeleting a File: page (FileDeleteBatch and
 * LocalFileRestoreBatch of MediaWiki 1.39): every version of the file moves from `image` and
 * `oldimage` into `filearchive` and back, in the caller's transaction. The bytes stay in the
 * FileStore under the same storage key, so nothing outside the database changes.
 */
import type { Queryable } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/common';
import { actorId } from '../actor.js';
import type { LifecycleDeps } from './common.js';

/** Moves every version of file `name` into filearchive. Returns how many versions moved. */
export async function archiveFileVersions(deps: LifecycleDeps, q: Queryable, name: string, actor: EditActor, reason: string): Promise<number> {
  const s = deps.db.schema;
  const current = await q.query(`SELECT 1 FROM ${s}.image WHERE img_name = $1 FOR UPDATE`, [name]);
  const old = await q.query(`SELECT 1 FROM ${s}.oldimage WHERE oi_name = $1 FOR UPDATE`, [name]);
  if (current.rows.length + old.rows.length === 0) return 0;
  const deleter = await actorId(q, s, { id: actor.id, name: actor.name });
  await q.query(
    `INSERT INTO ${s}.filearchive (fa_name, fa_archive_name, fa_storage_key, fa_deleted_actor, fa_deleted_timestamp, fa_deleted_reason, fa_size,
       fa_width, fa_height, fa_bits, fa_metadata, fa_media_type, fa_major_mime, fa_minor_mime, fa_description, fa_actor, fa_timestamp, fa_sha1)
     SELECT img_name, NULL, img_storage_key, $2, now(), $3, img_size, img_width, img_height, img_bits, img_metadata, img_media_type,
            img_major_mime, img_minor_mime, img_description, img_actor, img_timestamp, img_sha1
       FROM ${s}.image WHERE img_name = $1`,
    [name, deleter, reason],
  );
  await q.query(
    `INSERT INTO ${s}.filearchive (fa_name, fa_archive_name, fa_storage_key, fa_deleted_actor, fa_deleted_timestamp, fa_deleted_reason, fa_size,
       fa_width, fa_height, fa_bits, fa_metadata, fa_media_type, fa_major_mime, fa_minor_mime, fa_description, fa_actor, fa_timestamp, fa_sha1, fa_deleted)
     SELECT oi_name, oi_archive_name, oi_storage_key, $2, now(), $3, oi_size, oi_width, oi_height, oi_bits, oi_metadata, oi_media_type,
            oi_major_mime, oi_minor_mime, oi_description, oi_actor, oi_timestamp, oi_sha1, oi_deleted
       FROM ${s}.oldimage WHERE oi_name = $1`,
    [name, deleter, reason],
  );
  await q.query(`DELETE FROM ${s}.image WHERE img_name = $1`, [name]);
  await q.query(`DELETE FROM ${s}.oldimage WHERE oi_name = $1`, [name]);
  return current.rows.length + old.rows.length;
}

/**
 * Restores every archived version of file `name`. As LocalFileRestoreBatch: when no current
 * version exists, the newest restored one becomes current and the rest go to oldimage (under
 * their old archive names, or one made from their timestamp); of versions from the same second,
 * the one that was current stays current. Returns how many versions came back.
 */
export async function restoreFileVersions(deps: LifecycleDeps, q: Queryable, name: string): Promise<number> {
  const s = deps.db.schema;
  const rows = await q.query<{ fa_id: number; fa_deleted: number }>(
    `SELECT fa_id, fa_deleted FROM ${s}.filearchive WHERE fa_name = $1 ORDER BY fa_timestamp DESC, fa_archive_name IS NULL DESC, fa_id DESC FOR UPDATE`,
    [name],
  );
  if (rows.rows.length === 0) return 0;
  const hasCurrent = (await q.query(`SELECT 1 FROM ${s}.image WHERE img_name = $1 FOR UPDATE`, [name])).rows.length > 0;
  const newest = rows.rows[0]!;
  const becomesCurrent = !hasCurrent && newest.fa_deleted === 0 ? newest.fa_id : null;
  if (becomesCurrent !== null) {
    await q.query(
      `INSERT INTO ${s}.image (img_name, img_size, img_width, img_height, img_bits, img_metadata, img_media_type, img_major_mime, img_minor_mime,
         img_description, img_actor, img_timestamp, img_sha1, img_storage_key)
       SELECT fa_name, fa_size, fa_width, fa_height, fa_bits, fa_metadata, fa_media_type, fa_major_mime, fa_minor_mime,
              fa_description, fa_actor, fa_timestamp, fa_sha1, fa_storage_key
         FROM ${s}.filearchive WHERE fa_id = $1`,
      [becomesCurrent],
    );
  }
  await q.query(
    `INSERT INTO ${s}.oldimage (oi_name, oi_archive_name, oi_size, oi_width, oi_height, oi_bits, oi_metadata, oi_media_type, oi_major_mime,
       oi_minor_mime, oi_description, oi_actor, oi_timestamp, oi_sha1, oi_storage_key, oi_deleted)
     SELECT fa_name, COALESCE(fa_archive_name, to_char(fa_timestamp AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISS') || '!' || fa_name), fa_size, fa_width,
            fa_height, fa_bits, fa_metadata, fa_media_type, fa_major_mime, fa_minor_mime, fa_description, fa_actor, fa_timestamp, fa_sha1,
            fa_storage_key, fa_deleted
       FROM ${s}.filearchive WHERE fa_name = $1 AND fa_id IS DISTINCT FROM $2`,
    [name, becomesCurrent],
  );
  await q.query(`DELETE FROM ${s}.filearchive WHERE fa_name = $1`, [name]);
  return rows.rows.length;
}
