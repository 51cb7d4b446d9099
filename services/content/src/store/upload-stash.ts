/*
 * The upload stash's rows (MediaWiki's UploadStash over the uploadstash table, migration 010):
 * stashed files by key and user, the chunks of a chunked upload under way, and the cleanup of
 * rows older than $wgUploadStashMaxAge. The bytes are in the FileStore (content-addressed, written
 * before the row that names them); the flow is in domain/upload-stash.ts.
 */
import type { Queryable } from '@quire/kit';

/** $wgUploadStashMaxAge: 6 hours. */
export const UPLOAD_STASH_MAX_AGE_SECONDS = 6 * 3600;

export interface StashRow {
  us_id: string;
  us_user: string;
  us_key: string;
  us_temp_name: string;
  us_storage_key: string | null;
  us_metadata: unknown;
  us_size: string;
  us_sha1: string;
  us_mime: string;
  us_media_type: string;
  us_image_width: number;
  us_image_height: number;
  us_image_bits: number;
  us_timestamp: Date;
  us_status: string;
}

export interface NewStashRow {
  user: number;
  key: string;
  tempName: string;
  storageKey: string | null;
  metadata: unknown;
  size: number;
  sha1: string;
  mime: string;
  mediaType: string;
  width: number;
  height: number;
  bits: number;
  sourceType: string | null;
  timestamp: Date;
  status: 'finished' | 'chunks';
}

/** Inserts a stash row; expired rows of every user go in the same transaction. */
export async function insertStashRow(q: Queryable, s: string, r: NewStashRow): Promise<StashRow> {
  await q.query(`DELETE FROM ${s}.uploadstash WHERE us_timestamp < $1`, [new Date(r.timestamp.getTime() - UPLOAD_STASH_MAX_AGE_SECONDS * 1000)]);
  const res = await q.query<StashRow>(
    `INSERT INTO ${s}.uploadstash (us_user, us_key, us_temp_name, us_storage_key, us_metadata, us_size, us_sha1, us_mime, us_media_type,
       us_image_width, us_image_height, us_image_bits, us_source_type, us_timestamp, us_status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING *`,
    [r.user, r.key, r.tempName, r.storageKey, JSON.stringify(r.metadata ?? []), r.size, r.sha1, r.mime, r.mediaType, r.width, r.height, r.bits, r.sourceType, r.timestamp, r.status],
  );
  return res.rows[0]!;
}

/** A user's unexpired stashed file by key (forUpdate: locked until the transaction ends). */
export async function findStashRow(q: Queryable, s: string, user: number, key: string, now: Date, forUpdate = false): Promise<StashRow | undefined> {
  const r = await q.query<StashRow>(`SELECT * FROM ${s}.uploadstash WHERE us_user = $1 AND us_key = $2 AND us_timestamp >= $3${forUpdate ? ' FOR UPDATE' : ''}`, [
    user,
    key,
    new Date(now.getTime() - UPLOAD_STASH_MAX_AGE_SECONDS * 1000),
  ]);
  return r.rows[0];
}

/** list=mystashedfiles: a user's unexpired stashed files by id, limit + 1 rows. */
export async function listStashRows(q: Queryable, s: string, user: number, fromId: number, limit: number, now: Date): Promise<StashRow[]> {
  const r = await q.query<StashRow>(`SELECT * FROM ${s}.uploadstash WHERE us_user = $1 AND us_id >= $2 AND us_timestamp >= $3 ORDER BY us_id LIMIT $4`, [
    user,
    fromId,
    new Date(now.getTime() - UPLOAD_STASH_MAX_AGE_SECONDS * 1000),
    limit + 1,
  ]);
  return r.rows;
}

export async function deleteStashRow(q: Queryable, s: string, id: number | string): Promise<void> {
  await q.query(`DELETE FROM ${s}.uploadstash WHERE us_id = $1`, [id]);
}

/** Appends a chunk and grows the row's size to the bytes received so far. */
export async function addStashChunk(q: Queryable, s: string, stashId: number | string, storageKey: string, size: number): Promise<void> {
  await q.query(
    `INSERT INTO ${s}.uploadstash_chunk (uc_stash, uc_index, uc_storage_key, uc_size)
     SELECT $1, COALESCE(MAX(uc_index) + 1, 0), $2, $3 FROM ${s}.uploadstash_chunk WHERE uc_stash = $1`,
    [stashId, storageKey, size],
  );
  await q.query(`UPDATE ${s}.uploadstash SET us_size = us_size + $2 WHERE us_id = $1`, [stashId, size]);
}

/** The storage keys of a chunked upload's chunks, in order. */
export async function stashChunkKeys(q: Queryable, s: string, stashId: number | string): Promise<string[]> {
  const r = await q.query<{ uc_storage_key: string }>(`SELECT uc_storage_key FROM ${s}.uploadstash_chunk WHERE uc_stash = $1 ORDER BY uc_index`, [stashId]);
  return r.rows.map((row) => row.uc_storage_key);
}
