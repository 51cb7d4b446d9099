/*
 * The upload stash (MediaWiki's UploadStash + UploadStashFile): files kept for a user under a key
 * until they are published by filekey or expire ($wgUploadStashMaxAge, 6 hours: each stash write
 * deletes the expired rows in its transaction, as cleanupUploadStash.php would). The bytes go to
 * the FileStore every upload uses, before the row that names them is committed; objects are
 * content-addressed and shared, so an expired row leaves its object to the published files that
 * may share it (the store never deletes).
 */
import crypto from 'node:crypto';
import { invalidArgument, notFound } from '@quire/kit';
import type { StashedFile } from '@quire/proto/wiki/content/v1/files';
import { isoTimestamp } from '../content/timestamp.js';
import { type FileRepo, sha1Hex, tsMw } from '../store/files.js';
import { nowToTheSecond } from '../store/logging.js';
import { findStashRow, insertStashRow, type StashRow } from '../store/upload-stash.js';

/** UploadStash::KEY_FORMAT_REGEX. */
const KEY_FORMAT = /^[\w\-.]+\.\w*$/;

/** What the stash records of a checked file. */
export interface StashInput {
  ext: string;
  storageKey: string;
  sha1: string;
  mime: string;
  mediaType: string;
  width: number;
  height: number;
  bits: number;
  metadata: unknown;
}

/** Base-36 of a decimal string (Wikimedia\base_convert( …, 10, 36 )). */
const base36 = (decimal: string) => BigInt(decimal).toString(36);

/**
 * UploadStash::stashFile's key: base 36 of the seconds followed by the 8 digits of microtime()'s
 * fraction, of a random number, then the user id and the extension.
 */
function newFileKey(userId: number, ext: string): string {
  const now = Date.now();
  const fraction = `${String((now % 1000) * 1000 + crypto.randomInt(1000)).padStart(6, '0')}00`;
  return `${base36(`${Math.floor(now / 1000)}${fraction}`)}.${base36(String(crypto.randomInt(2 ** 31 - 1)))}.${userId}.${ext}`;
}

export function checkFileKey(key: string): void {
  if (!KEY_FORMAT.test(key)) throw invalidArgument('uploadstash-bad-path-bad-format', `Key "${key}" is not in a proper format.`);
}

export function stashedFileOf(row: StashRow): StashedFile {
  return {
    filekey: row.us_key,
    status: row.us_status,
    timestamp: isoTimestamp(row.us_timestamp),
    size: Number(row.us_size),
    width: row.us_image_width,
    height: row.us_image_height,
    bits: row.us_image_bits,
    mime: row.us_mime,
    mediaType: row.us_media_type,
    sha1: row.us_sha1 === '' ? '' : sha1Hex(row.us_sha1),
    metadataJson: JSON.stringify(Array.isArray(row.us_metadata) ? row.us_metadata : []),
    tempName: row.us_temp_name,
  };
}

/** UploadStash::getFile: a user's stashed file, or MediaWiki's errors for a bad or unknown key. */
export async function findStashed(repo: FileRepo, userId: number, key: string): Promise<StashRow> {
  checkFileKey(key);
  if (userId === 0) throw invalidArgument('uploadstash-not-logged-in', 'No user is logged in, files must belong to users.');
  const row = await findStashRow(repo.deps.db, repo.deps.db.schema, userId, key, new Date());
  if (!row) throw notFound('uploadstash-file-not-found', `Key "${key}" not found in stash.`);
  return row;
}

/** A stashed file's row and bytes (UploadFromStash::initialize). */
export async function stashedBytes(repo: FileRepo, userId: number, key: string): Promise<{ row: StashRow; data: Buffer }> {
  const row = await findStashed(repo, userId, key);
  // A chunked upload still under way has no file yet.
  const data = row.us_storage_key === null ? undefined : await repo.deps.store.get(row.us_storage_key);
  if (!data) throw notFound('uploadstash-file-not-found', `Key "${key}" not found in stash.`);
  return { row, data };
}

/** UploadStash::stashFile: the bytes into the FileStore, then the row. */
export async function stashFile(repo: FileRepo, userId: number, data: Buffer, f: StashInput, tempBase: string, sourceType: string | null): Promise<StashedFile> {
  if (userId === 0) throw invalidArgument('uploadstash-not-logged-in', 'No user is logged in, files must belong to users.');
  await repo.deps.store.put(f.storageKey, data, f.mime);
  const timestamp = nowToTheSecond();
  const key = newFileKey(userId, f.ext);
  const s = repo.deps.db.schema;
  const row = await repo.deps.db.tx((q) =>
    insertStashRow(q, s, {
      user: userId,
      key,
      tempName: `${tsMw(timestamp)}!${tempBase}.${f.ext}`,
      storageKey: f.storageKey,
      metadata: f.metadata,
      size: data.length,
      sha1: f.sha1,
      mime: f.mime,
      mediaType: f.mediaType,
      width: f.width,
      height: f.height,
      bits: f.bits,
      sourceType,
      timestamp,
      status: 'finished',
    }),
  );
  return stashedFileOf(row);
}

/** A temporary name as PHP's upload temp files have (php + 6 characters). */
export const phpTempName = () => `php${[...crypto.randomBytes(6)].map((b) => TEMP_NAME_CHARS[b % TEMP_NAME_CHARS.length]).join('')}`;

const TEMP_NAME_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The first chunk of a chunked upload: a stash row in status "chunks" (UploadFromChunks::initialize). */
export async function startChunks(repo: FileRepo, userId: number, ext: string): Promise<{ key: string; id: string }> {
  if (userId === 0) throw invalidArgument('uploadstash-not-logged-in', 'No user is logged in, files must belong to users.');
  const timestamp = nowToTheSecond();
  const key = newFileKey(userId, ext);
  const s = repo.deps.db.schema;
  const row = await repo.deps.db.tx((q) =>
    insertStashRow(q, s, {
      user: userId,
      key,
      tempName: `${tsMw(timestamp)}!${phpTempName()}.${ext}`,
      storageKey: null,
      metadata: [],
      size: 0,
      sha1: '',
      mime: '',
      mediaType: '',
      width: 0,
      height: 0,
      bits: 0,
      sourceType: 'chunks',
      timestamp,
      status: 'chunks',
    }),
  );
  return { key, id: row.us_id };
}
