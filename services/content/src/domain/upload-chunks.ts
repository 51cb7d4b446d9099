/*
 * Chunked uploads (MediaWiki's UploadFromChunks as ApiUpload::getChunkResult drives it): the first
 * chunk opens a stash row in status "chunks", each next one must start where the bytes so far end
 * (invalid-chunk-offset otherwise), and the last one assembles the file, verifies it as a whole
 * upload and stashes it under a new key — publishing is a separate upload by filekey, as in
 * MediaWiki. Sizes and offsets against filesize are the gateway's checks (they need no state).
 */
import crypto from 'node:crypto';
import { invalidArgument, ServiceError } from '@quire/kit';
import type { UploadChunkRequest, UploadResponse } from '@quire/proto/wiki/content/v1/files';
import { storageKeyOf } from '../files/store.js';
import type { FileRepo } from '../store/files.js';
import { addStashChunk, deleteStashRow, findStashRow, stashChunkKeys } from '../store/upload-stash.js';
import { checkUploadRight, hasAnyWarning, stashInputOf, validateName, verifyFile, warningsFor } from './upload.js';
import { checkFileKey, startChunks, stashFile } from './upload-stash.js';

/** $wgMinUploadChunkSize (MediaWiki's default). */
export const MIN_UPLOAD_CHUNK_BYTES = 1024;

const stashFailed = (text: string, api?: Record<string, unknown>) => invalidArgument('stashfailed', text, api ? { api } : undefined);

/** The bytes of a chunk go to the FileStore first (content-addressed), then the row. */
async function storeChunk(repo: FileRepo, chunk: Buffer): Promise<string> {
  const key = storageKeyOf(chunk);
  await repo.deps.store.put(key, chunk, 'application/octet-stream');
  return key;
}

export async function uploadChunk(repo: FileRepo, req: UploadChunkRequest): Promise<UploadResponse> {
  const actor = req.actor;
  if (!actor) throw invalidArgument('missingparam', 'The upload has no actor.');
  checkUploadRight(repo.deps.codec, actor);
  // ApiUpload::verifyUpload for chunks: the announced size, then the name alone.
  const maxBytes = req.maxBytes > 0 ? Math.min(req.maxBytes, repo.deps.maxBytes) : repo.deps.maxBytes;
  if (req.filesize > maxBytes) throw invalidArgument('file-too-large', 'The file you submitted was too large.');
  const name = validateName(repo, req.filename);
  const { db } = repo.deps;
  const s = db.schema;
  const chunk = Buffer.from(req.chunk);
  // ApiUpload::getChunkResult: the chunk must fit the announced size and, unless it is the last
  // one, be at least $wgMinUploadChunkSize.
  const soFar = req.offset + chunk.length;
  if (soFar > req.filesize) throw invalidArgument('invalid-chunk', 'Offset plus current chunk is greater than claimed file size.');
  if (soFar !== req.filesize && chunk.length < MIN_UPLOAD_CHUNK_BYTES) {
    throw invalidArgument('chunk-too-small', `Minimum chunk size is ${MIN_UPLOAD_CHUNK_BYTES.toLocaleString('en')} bytes for non-final chunks.`);
  }
  const chunkKey = await storeChunk(repo, chunk);
  let stash: { key: string; id: number | string };
  if (req.offset === 0) {
    stash = await startChunks(repo, actor.id, name.ext);
    await db.tx((q) => addStashChunk(q, s, stash.id, chunkKey, chunk.length));
  } else {
    checkFileKey(req.filekey);
    stash = await db.tx(async (q) => {
      const row = await findStashRow(q, s, actor.id, req.filekey, new Date(), true);
      if (!row) throw stashFailed('No chunked upload session with this key.');
      if (row.us_status !== 'chunks') throw stashFailed('Chunked upload is already completed, check status for details.');
      // UploadFromChunks::addChunk: a chunk must start where the bytes so far end.
      if (Number(row.us_size) !== req.offset) throw stashFailed('Invalid chunk offset', { offset: Number(row.us_size) });
      await addStashChunk(q, s, row.us_id, chunkKey, chunk.length);
      return { key: row.us_key, id: row.us_id };
    });
  }
  const none = { file: undefined, watched: false, stashed: undefined, filename: '', hasWarnings: false, warnings: undefined };
  if (soFar < req.filesize) return { ...none, result: 'Continue', offset: soFar, filekey: stash.key };

  // The last chunk: concatenate, verify the whole file, stash it under a new key.
  const parts = await Promise.all((await stashChunkKeys(db, s, stash.id)).map((k) => repo.deps.store.get(k)));
  if (parts.some((p) => p === undefined)) throw stashFailed('No chunked upload session with this key.');
  const data = Buffer.concat(parts as Buffer[]);
  let file;
  try {
    file = verifyFile(repo, req.filename, data, req.maxBytes);
  } catch (e) {
    // UploadFromChunks::concatenateChunks reports a failed verification as stashfailed.
    if (e instanceof ServiceError) {
      await db.tx((q) => deleteStashRow(q, s, stash.id));
      throw stashFailed(e.message);
    }
    throw e;
  }
  const stashed = await stashFile(repo, actor.id, data, stashInputOf(file), `chunkedupload ${crypto.randomBytes(6).toString('hex')}`, null);
  await db.tx((q) => deleteStashRow(q, s, stash.id));
  const warnings = await warningsFor(db, repo, file);
  const hasWarnings = hasAnyWarning(warnings);
  return { ...none, result: 'Success', filekey: stashed.filekey, offset: 0, stashed, hasWarnings, warnings: hasWarnings ? warnings : undefined };
}
