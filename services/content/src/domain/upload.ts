/*
 * Uploads (MediaWiki's ApiUpload + UploadBase + LocalFile::upload, in their order of checks): the
 * right, size, name and content checks, the warnings, then one transaction that records the
 * version, the description page, the log entry and the watchlist. The rows are written by the
 * file repository's store (store/files.ts).
 */
import { invalidArgument, permissionDenied, type ServiceError, type Queryable } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/common';
import type { FileVersion, UploadRequest, UploadResponse, UploadWarnings } from '@quire/proto/wiki/content/v1/files';
import { isoTimestamp } from '../content/timestamp.js';
import { detectsHtml, EXTENSION_OF_MIME, FILE_EXTENSIONS, sniffFile, svgHasScript } from '../files/mime.js';
import { storageKeyOf } from '../files/store.js';
import { MalformedTitleError, type TitleCodec } from '../title/codec.js';
import { NS_FILE, NS_PROJECT } from '../title/namespaces.js';
import { actorId } from '../store/actor.js';
import {
  descriptionPage,
  filesWithSha1,
  fileWasDeleted,
  lockFileName,
  oldVersionTimestampsWithSha1,
  recordFileVersion,
  sha1Base36FromHex,
  tsMw,
  type FileRepo,
  type VersionRow,
} from '../store/files.js';
import { nowToTheSecond, publishLogEntry, writeLogEntry } from '../store/logging.js';
import { checkProtection } from './protection.js';
import { phpTempName, stashedBytes, stashedFileOf, stashFile, type StashInput } from './upload-stash.js';
import { deleteStashRow } from '../store/upload-stash.js';
import { saveRevision } from '../store/save.js';
import { applyWatchlistParam, type WatchlistMode } from '../store/watchlist.js';

/** UploadBase's verification failures, as ApiUpload reports them. */
function verificationError(details: (string | number)[], text: string): ServiceError {
  return invalidArgument('verification-error', text, { api: { details } });
}

export interface CheckedName {
  dbkey: string;
  ext: string;
  /** The name differs from the one asked for (UploadBase's badfilename warning). */
  changed: boolean;
}

/**
 * UploadBase::getTitle + validateName: the name a file gets (illegal characters become "-", a
 * missing extension is the detected type's), or the reason it cannot have one.
 */
function checkName(codec: TitleCodec, requested: string, detectedMime: string | undefined): CheckedName {
  let filtered = requested.replace(/[:/\\]/g, '-').replace(/[\x00-\x1f\x7f<>[\]{}|#]/g, '-');
  let dot = filtered.lastIndexOf('.');
  let ext =
    dot >= 0
      ? filtered
          .slice(dot + 1)
          .trim()
          .toLowerCase()
      : '';
  if (ext === '') {
    const detected = detectedMime ? EXTENSION_OF_MIME[detectedMime] : undefined;
    if (!detected) throw invalidArgument('filetype-missing', 'The file has no extension (like ".jpg").');
    filtered = `${filtered.replace(/\.$/, '')}.${detected}`;
    ext = detected;
    dot = filtered.lastIndexOf('.');
  }
  let dbkey: string;
  try {
    const t = codec.parse(filtered, NS_FILE);
    if (t.ns !== NS_FILE || t.dbkey === '' || t.fragment !== '') throw new MalformedTitleError('title-invalid-empty', filtered);
    dbkey = t.dbkey;
  } catch (e) {
    if (!(e instanceof MalformedTitleError)) throw e;
    throw invalidArgument('illegal-filename', 'The filename is not allowed.', { api: { filename: filtered } });
  }
  if (Buffer.byteLength(dbkey, 'utf8') > 240) throw invalidArgument('filename-toolong', 'Filenames may not be longer than 240 bytes.');
  if (dbkey.lastIndexOf('.') < 1) throw invalidArgument('filename-tooshort', 'The filename is too short.');
  if (!(ext in FILE_EXTENSIONS)) {
    const allowed = Object.keys(FILE_EXTENSIONS);
    throw invalidArgument('filetype-banned', `".${ext}" is not a permitted file type. Permitted file types are ${allowed.join(', ')}.`, { api: { filetype: ext, allowed } });
  }
  const comparable = codec.prefixedDbKey(NS_FILE, requested.replace(/ /g, '_')).replace(/^[^:]*:/, '');
  return { dbkey, ext, changed: requested !== dbkey && comparable !== dbkey };
}

/** ApiUpload::checkPermissions. */
export function checkUploadRight(codec: TitleCodec, actor: EditActor): void {
  if (actor.rights.includes('upload')) return;
  if (actor.id === 0) throw permissionDenied('mustbeloggedin', 'You must be logged in to upload this file.');
  const project = codec.namespaces.get(NS_PROJECT)?.name ?? 'Project';
  throw permissionDenied('permissiondenied', `The action you have requested is limited to users in one of the groups: [[${project}:Administrators|Administrators]], [[${project}:Users|Users]].`);
}

/** UploadBase::checkWarnings (the warnings this wiki can raise). */
async function uploadWarnings(q: Queryable, schema: string, name: CheckedName, sha1: string, existing: VersionRow | undefined): Promise<UploadWarnings> {
  const s = schema;
  const w: UploadWarnings = { exists: '', duplicate: [], badfilename: '', wasDeleted: '', nochangeTimestamp: '', duplicateVersionTimestamps: [] };
  if (name.changed) w.badfilename = name.dbkey;
  if (existing) {
    w.exists = name.dbkey;
    if (existing.sha1 === sha1) w.nochangeTimestamp = isoTimestamp(existing.timestamp);
    w.duplicateVersionTimestamps = (await oldVersionTimestampsWithSha1(q, s, name.dbkey, sha1)).map(isoTimestamp);
  }
  w.duplicate = await filesWithSha1(q, s, sha1, name.dbkey);
  // File::wasDeleted: the title has deleted revisions, or deleted versions of the file remain.
  if (!existing && (await fileWasDeleted(q, s, name.dbkey))) w.wasDeleted = name.dbkey;
  return w;
}

/** A file's bytes checked as UploadBase::verifyUpload does: its name, type and keys. */
export interface VerifiedFile {
  name: CheckedName;
  sniffed: NonNullable<ReturnType<typeof sniffFile>>;
  storageKey: string;
  /** Base-36, as image.img_sha1. */
  sha1: string;
}

/** UploadBase::verifyUpload: size first, then the name, then the content. */
export function verifyFile(repo: FileRepo, filename: string, data: Buffer, requestedMaxBytes: number): VerifiedFile {
  if (data.length === 0) throw invalidArgument('empty-file', 'The file you submitted was empty.');
  const maxBytes = requestedMaxBytes > 0 ? Math.min(requestedMaxBytes, repo.deps.maxBytes) : repo.deps.maxBytes;
  if (data.length > maxBytes) throw invalidArgument('file-too-large', 'The file you submitted was too large.');
  const sniffed = sniffFile(data);
  const name = checkName(repo.deps.codec, filename, sniffed?.mime);
  const expected = FILE_EXTENSIONS[name.ext]!;
  if (!sniffed || sniffed.mime !== expected) {
    const detected = sniffed?.mime ?? (detectsHtml(data, '') ? 'text/html' : 'application/octet-stream');
    throw verificationError(['filetype-mime-mismatch', name.ext, detected], `File extension ".${name.ext}" does not match the detected MIME type of the file (${detected}).`);
  }
  if (detectsHtml(data, sniffed.mime) || (sniffed.mime === 'image/svg+xml' && svgHasScript(data.toString('utf8')))) {
    throw verificationError(['uploadscripted'], 'This file contains HTML or script code that may be erroneously interpreted by a web browser.');
  }
  const storageKey = storageKeyOf(data);
  return { name, sniffed, storageKey, sha1: sha1Base36FromHex(storageKey) };
}

/** What the stash keeps of a verified file. */
export function stashInputOf(f: VerifiedFile): StashInput {
  return {
    ext: f.name.ext,
    storageKey: f.storageKey,
    sha1: f.sha1,
    mime: f.sniffed.mime,
    mediaType: f.sniffed.mediaType,
    width: f.sniffed.width,
    height: f.sniffed.height,
    bits: f.sniffed.bits,
    metadata: f.sniffed.metadata,
  };
}

/** UploadBase::validateName alone, for chunks (the content is checked once assembled). */
export function validateName(repo: FileRepo, filename: string): CheckedName {
  return checkName(repo.deps.codec, filename, undefined);
}

export const hasAnyWarning = (w: UploadWarnings) => w.exists !== '' || w.badfilename !== '' || w.wasDeleted !== '' || w.duplicate.length > 0 || w.duplicateVersionTimestamps.length > 0;

/** UploadBase::checkWarnings for a verified file, against the current version of its name. */
export async function warningsFor(q: Queryable, repo: FileRepo, f: VerifiedFile): Promise<UploadWarnings> {
  const existing = (await repo.current(q, [f.name.dbkey])).get(f.name.dbkey);
  return uploadWarnings(q, repo.deps.db.schema, f.name, f.sha1, existing);
}

/**
 * ApiUpload + UploadBase + LocalFile::upload: one upload (posted bytes, or a stashed file by
 * filekey), checked, then recorded in one transaction — or stashed (stash=1, and when warnings
 * stop it, so that the client can publish it by filekey without sending it again).
 */
export async function uploadFile(repo: FileRepo, req: UploadRequest): Promise<UploadResponse> {
  const actor = req.actor;
  if (!actor) throw invalidArgument('missingparam', 'The upload has no actor.');
  checkUploadRight(repo.deps.codec, actor);
  const stashed = req.filekey !== '' ? await stashedBytes(repo, actor.id, req.filekey) : undefined;
  const data = stashed?.data ?? req.data;
  const file = verifyFile(repo, req.filename, data, req.maxBytes);
  const { name, sniffed, storageKey, sha1 } = file;
  const { db, codec } = repo.deps;
  const s = db.schema;

  if (req.stash) {
    // Stashing skips the title permission checks (UploadBase::verifyTitlePermissions): a name
    // can still be changed when the file is published.
    const warnings = await warningsFor(db, repo, file);
    const hasWarnings = hasAnyWarning(warnings);
    const kept = stashed?.row ? stashedFileOf(stashed.row) : await stashFile(repo, actor.id, data, stashInputOf(file), phpTempName(), 'file');
    if (hasWarnings && !req.ignoreWarnings) return { ...emptyResponse('Warning', name.dbkey, warnings, true), filekey: kept.filekey };
    return { ...emptyResponse('Success', name.dbkey, warnings, hasWarnings), filekey: kept.filekey, stashed: kept };
  }

  return db
    .tx(async (q) => {
      // Uploads of one name queue up: the warnings and the archive step see the latest version.
      await lockFileName(q, s, name.dbkey);
      await checkProtection(q, db, codec, { ns: NS_FILE, dbkey: name.dbkey }, 'upload', actor.rights);
      const existing = (await repo.current(q, [name.dbkey])).get(name.dbkey);
      if (existing && !actor.rights.includes('reupload') && !(actor.rights.includes('reupload-own') && existing.user_id === actor.id && actor.id > 0)) {
        throw permissionDenied(
          'fileexists-forbidden',
          `A file with this name already exists, and cannot be overwritten.\nIf you still want to upload your file, please go back and use a new name.\n[[File:${name.dbkey}|thumb|center|${name.dbkey}]]`,
        );
      }
      const warnings = await uploadWarnings(q, s, name, sha1, existing);
      const hasWarnings = hasAnyWarning(warnings);
      if (hasWarnings && !req.ignoreWarnings) return { ...emptyResponse('Warning', name.dbkey, warnings, true), filekey: KEEP_IN_STASH };
      if (warnings.nochangeTimestamp !== '') {
        throw invalidArgument('fileexists-no-change', `The upload is an exact duplicate of the current version of [[:File:${name.dbkey}]].`);
      }

      await repo.deps.store.put(storageKey, data, sniffed.mime);
      const [major, minor] = sniffed.mime.split('/') as [string, string];
      const { file } = await recordVersion(
        q,
        repo,
        actor,
        existing,
        {
          name: name.dbkey,
          size: data.length,
          width: sniffed.width,
          height: sniffed.height,
          bits: sniffed.bits,
          metadata: sniffed.metadata,
          media_type: sniffed.mediaType,
          major_mime: major,
          minor_mime: minor,
          sha1,
          storage_key: storageKey,
        },
        { comment: req.comment, text: req.text, tags: req.tags },
      );
      const watch = await applyWatchlistParam(q, db, actor.id, { ns: NS_FILE, dbkey: name.dbkey }, req.watchlist as WatchlistMode, req.watchByPreference, undefined);
      // A published stashed file leaves the stash (UploadFromStash::postProcessUpload).
      if (stashed?.row) await deleteStashRow(q, s, stashed.row.us_id);
      return { ...emptyResponse('Success', name.dbkey, warnings, hasWarnings), file, watched: watch.watched };
    })
    .then(async (res) => {
      // ApiUpload::getWarningsResult: the file is stashed so that the client can publish it by
      // filekey once the warnings are dealt with (a stashed file keeps its key).
      if (res.filekey !== KEEP_IN_STASH) return res;
      const kept = stashed?.row ? stashedFileOf(stashed.row) : await stashFile(repo, actor.id, data, stashInputOf(file), phpTempName(), 'file');
      return { ...res, filekey: kept.filekey };
    });
}

/** Marks a Warning answer whose file is to be stashed once the transaction is over. */
const KEEP_IN_STASH = '\u0000stash';

function emptyResponse(result: string, filename: string, warnings: UploadWarnings, hasWarnings: boolean): UploadResponse {
  return { result, filename, warnings, hasWarnings, file: undefined, watched: false, filekey: '', offset: 0, stashed: undefined };
}

/** The properties of a file version's content (a new upload's, or an old version's for filerevert). */
export type VersionContent = Pick<VersionRow, 'name' | 'size' | 'width' | 'height' | 'bits' | 'metadata' | 'media_type' | 'major_mime' | 'minor_mime' | 'sha1' | 'storage_key'>;

/**
 * LocalFile::recordUpload3 in the caller's transaction: the new current version (the previous one
 * archived), the description page (created with the text or the comment, else a null revision
 * carrying the comment; its recent change is the log entry's, EDIT_SUPPRESS_RC) and the
 * upload/upload or upload/overwrite log entry with its recent change.
 */
export async function recordVersion(
  q: Queryable,
  repo: FileRepo,
  actor: EditActor,
  existing: VersionRow | undefined,
  v: VersionContent,
  o: { comment: string; text?: string; tags: string[] },
): Promise<{ file: FileVersion; pageId: number }> {
  const { db, codec } = repo.deps;
  const s = db.schema;
  const timestamp = nowToTheSecond();
  const actorRow = await actorId(q, s, { id: actor.id, name: actor.name });
  await recordFileVersion(
    q,
    s,
    {
      name: v.name,
      size: Number(v.size),
      width: v.width,
      height: v.height,
      bits: v.bits,
      metadata: v.metadata,
      mediaType: v.media_type,
      majorMime: v.major_mime,
      minorMime: v.minor_mime,
      description: o.comment,
      actorId: actorRow,
      timestamp,
      sha1: v.sha1,
      storageKey: v.storage_key,
    },
    existing,
  );
  const current = await descriptionPage(q, s, v.name);
  const saved = await saveRevision(db, codec, {
    ns: NS_FILE,
    dbkey: v.name,
    baseRevId: current?.page_latest ?? 0,
    text: current ? current.content_text : (o.text ?? o.comment),
    contentModel: current?.content_model ?? 'wikitext',
    contentFormat: 'text/x-wiki',
    user: { id: actor.id, name: actor.name },
    comment: o.comment,
    minor: false,
    tags: [],
    timestamp,
    nullRevision: true,
    creationLog: false,
  });
  await publishLogEntry(
    q,
    db,
    {
      type: 'upload',
      action: existing ? 'overwrite' : 'upload',
      actor: { id: actor.id, name: actor.name },
      ns: NS_FILE,
      dbkey: v.name,
      pageId: saved.pageId,
      comment: o.comment,
      params: { img_sha1: v.sha1, img_timestamp: tsMw(timestamp) },
      timestamp,
      tags: o.tags,
    },
    { patrollable: true, autopatrol: actor.rights.includes('autopatrol'), bot: actor.rights.includes('bot'), revId: saved.revId },
  );
  // LocalFile::recordUpload3 creates a new description page after its upload entry, as an edit
  // does (WikiPage::doUserEditContent): with its page creation entry, not in recent changes.
  if (saved.created) {
    await writeLogEntry(q, db, {
      type: 'create',
      action: 'create',
      actor: { id: actor.id, name: actor.name },
      ns: NS_FILE,
      dbkey: v.name,
      pageId: saved.pageId,
      comment: o.comment,
      params: { associated_rev_id: saved.revId },
      timestamp,
    });
  }
  const file = repo.versionOf({ ...v, archive_name: '', description: o.comment, timestamp, user_name: actor.name, user_id: actor.id, page_id: saved.pageId });
  return { file, pageId: saved.pageId };
}
