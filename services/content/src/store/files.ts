/*
 * The local file repository (MediaWiki's LocalRepo + LocalFile + UploadBase, in their order of
 * checks): uploads with their warnings and errors, versions and their URLs, listings.
 */
import { invalidArgument, permissionDenied, ServiceError, type Db, type Queryable } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/content';
import type { FileVersion, UploadRequest, UploadResponse, UploadWarnings } from '@quire/proto/wiki/content/v1/files';
import { MalformedTitleError, type TitleCodec } from '../title/codec.js';
import { NS_FILE, NS_PROJECT } from '../title/namespaces.js';
import { isoTimestamp } from '../content/timestamp.js';
import { actorId } from './actor.js';
import { nowToTheSecond, publishLogEntry } from './logging.js';
import { checkProtection } from './protection.js';
import { saveRevision } from './save.js';
import { applyWatchlistParam, type WatchlistMode } from './watchlist.js';
import { detectsHtml, EXTENSION_OF_MIME, FILE_EXTENSIONS, sniffFile, svgHasScript } from '../files/mime.js';
import { storageKeyOf, type FileStore } from '../files/store.js';

import { fileUrlPath } from '../files/paths.js';

export { fileUrlPath, hashPath, UPLOAD_PATH } from '../files/paths.js';

/** TS_MW: 20261121051314 */
const tsMw = (d: Date) => isoTimestamp(d).replace(/[-:TZ]/g, '');

/** MediaWiki's base-36 SHA-1 → hex, as imageinfo reports it. */
function sha1Hex(base36: string): string {
  return [...base36].reduce((n, c) => n * 36n + BigInt(parseInt(c, 36)), 0n).toString(16).padStart(40, '0');
}

interface VersionRow {
  name: string;
  archive_name: string;
  size: string | number;
  width: number;
  height: number;
  bits: number;
  metadata: { name: string; value: unknown }[] | Record<string, never>;
  media_type: string;
  major_mime: string;
  minor_mime: string;
  description: string;
  timestamp: Date;
  sha1: string;
  storage_key: string;
  user_name: string;
  user_id: number | null;
  page_id: number | null;
}

/** The columns of image and oldimage under one set of names. */
const CURRENT_COLUMNS = (s: string) => `i.img_name AS name, '' AS archive_name, i.img_size AS size, i.img_width AS width, i.img_height AS height,
  i.img_bits AS bits, i.img_metadata AS metadata, i.img_media_type AS media_type, i.img_major_mime AS major_mime, i.img_minor_mime AS minor_mime,
  i.img_description AS description, i.img_timestamp AS timestamp, i.img_sha1 AS sha1, i.img_storage_key AS storage_key,
  a.actor_name AS user_name, a.actor_user AS user_id,
  (SELECT page_id FROM ${s}.page WHERE page_namespace = ${NS_FILE} AND page_title = i.img_name) AS page_id`;
const OLD_COLUMNS = (s: string) => `o.oi_name AS name, o.oi_archive_name AS archive_name, o.oi_size AS size, o.oi_width AS width, o.oi_height AS height,
  o.oi_bits AS bits, o.oi_metadata AS metadata, o.oi_media_type AS media_type, o.oi_major_mime AS major_mime, o.oi_minor_mime AS minor_mime,
  o.oi_description AS description, o.oi_timestamp AS timestamp, o.oi_sha1 AS sha1, o.oi_storage_key AS storage_key,
  a.actor_name AS user_name, a.actor_user AS user_id,
  (SELECT page_id FROM ${s}.page WHERE page_namespace = ${NS_FILE} AND page_title = o.oi_name) AS page_id`;

export interface FileRepoDeps {
  db: Db;
  codec: TitleCodec;
  store: FileStore;
  /** $wgMaxUploadSize (UPLOAD_MAX_BYTES). */
  maxBytes: number;
}

/** UploadBase's verification failures, as ApiUpload reports them. */
function verificationError(details: (string | number)[], text: string): ServiceError {
  return invalidArgument('verification-error', text, { api: { details } });
}

interface CheckedName {
  dbkey: string;
  ext: string;
  /** The name differs from the one asked for (UploadBase's badfilename warning). */
  changed: boolean;
}

export class FileRepo {
  constructor(private readonly d: FileRepoDeps) {}

  versionOf(row: VersionRow): FileVersion {
    return {
      name: row.name,
      title: this.d.codec.prefixedText(NS_FILE, row.name),
      timestamp: isoTimestamp(row.timestamp),
      user: row.user_name,
      userId: row.user_id ?? 0,
      size: Number(row.size),
      width: row.width,
      height: row.height,
      bits: row.bits,
      mime: `${row.major_mime}/${row.minor_mime}`,
      mediaType: row.media_type,
      sha1: sha1Hex(row.sha1),
      comment: row.description,
      urlPath: fileUrlPath(row.name, row.archive_name),
      archiveName: row.archive_name,
      metadataJson: JSON.stringify(Array.isArray(row.metadata) ? row.metadata : []),
      pageId: row.page_id ?? 0,
    };
  }

  /** Current versions by name (DB keys). */
  async current(q: Queryable, names: string[]): Promise<Map<string, VersionRow>> {
    if (names.length === 0) return new Map();
    const s = this.d.db.schema;
    const r = await q.query<VersionRow>(
      `SELECT ${CURRENT_COLUMNS(s)} FROM ${s}.image i JOIN ${s}.actor a ON a.actor_id = i.img_actor WHERE i.img_name = ANY($1::text[])`,
      [names],
    );
    return new Map(r.rows.map((row) => [row.name, row]));
  }

  /** Versions of one file, newest first: the current one, then the archived ones. */
  async history(name: string, o: { limit: number; start?: Date; end?: Date }): Promise<{ versions: VersionRow[]; next?: Date }> {
    const s = this.d.db.schema;
    const r = await this.d.db.query<VersionRow>(
      `SELECT * FROM (
         SELECT ${CURRENT_COLUMNS(s)}, 0 AS rank FROM ${s}.image i JOIN ${s}.actor a ON a.actor_id = i.img_actor WHERE i.img_name = $1
         UNION ALL
         SELECT ${OLD_COLUMNS(s)}, 1 AS rank FROM ${s}.oldimage o JOIN ${s}.actor a ON a.actor_id = o.oi_actor WHERE o.oi_name = $1 AND o.oi_deleted = 0
       ) v
       WHERE ($2::timestamptz IS NULL OR v.timestamp <= $2) AND ($3::timestamptz IS NULL OR v.timestamp >= $3)
       ORDER BY v.timestamp DESC, v.rank ASC LIMIT $4`,
      [name, o.start ?? null, o.end ?? null, o.limit + 1],
    );
    const versions = r.rows.slice(0, o.limit);
    return { versions, next: r.rows.length > o.limit ? r.rows[o.limit]!.timestamp : undefined };
  }

  async read(name: string, archiveName: string): Promise<{ row: VersionRow; data: Buffer } | undefined> {
    const s = this.d.db.schema;
    const r =
      archiveName === ''
        ? await this.d.db.query<VersionRow>(`SELECT ${CURRENT_COLUMNS(s)} FROM ${s}.image i JOIN ${s}.actor a ON a.actor_id = i.img_actor WHERE i.img_name = $1`, [name])
        : await this.d.db.query<VersionRow>(
            `SELECT ${OLD_COLUMNS(s)} FROM ${s}.oldimage o JOIN ${s}.actor a ON a.actor_id = o.oi_actor WHERE o.oi_name = $1 AND o.oi_archive_name = $2 AND o.oi_deleted = 0`,
            [name, archiveName],
          );
    const row = r.rows[0];
    if (!row) return undefined;
    const data = await this.d.store.get(row.storage_key);
    return data ? { row, data } : undefined;
  }

  /** list=allimages: current versions by name or by time, with a continuation key. */
  async list(o: {
    sort: 'name' | 'timestamp';
    descending: boolean;
    from: string;
    to: string;
    prefix: string;
    start?: Date;
    end?: Date;
    minSize?: number;
    maxSize?: number;
    sha1: string;
    mimes: string[];
    user: string;
    limit: number;
    continue: string;
  }): Promise<{ rows: VersionRow[]; continueFrom: string }> {
    const s = this.d.db.schema;
    const where: string[] = [];
    const args: unknown[] = [];
    const arg = (v: unknown) => {
      args.push(v);
      return `$${args.length}`;
    };
    const cmp = o.descending ? '<=' : '>=';
    const cmpEnd = o.descending ? '>=' : '<=';
    if (o.sort === 'name') {
      const from = o.continue || o.from;
      if (from) where.push(`i.img_name COLLATE "C" ${cmp} ${arg(from)}`);
      if (o.to) where.push(`i.img_name COLLATE "C" ${cmpEnd} ${arg(o.to)}`);
      if (o.prefix) where.push(`starts_with(i.img_name, ${arg(o.prefix)})`);
    } else {
      if (o.continue) {
        const [ts, name] = [o.continue.slice(0, o.continue.indexOf('|')), o.continue.slice(o.continue.indexOf('|') + 1)];
        where.push(`(i.img_timestamp, i.img_name COLLATE "C") ${o.descending ? '<=' : '>='} (${arg(new Date(ts))}::timestamptz, ${arg(name)})`);
      }
      if (o.start) where.push(`i.img_timestamp ${cmp} ${arg(o.start)}`);
      if (o.end) where.push(`i.img_timestamp ${cmpEnd} ${arg(o.end)}`);
      if (o.user) where.push(`a.actor_name = ${arg(o.user)}`);
    }
    if (o.minSize !== undefined) where.push(`i.img_size >= ${arg(o.minSize)}`);
    if (o.maxSize !== undefined) where.push(`i.img_size <= ${arg(o.maxSize)}`);
    if (o.sha1) where.push(`i.img_sha1 = ${arg(sha1Base36FromHex(o.sha1))}`);
    if (o.mimes.length) where.push(`(i.img_major_mime || '/' || i.img_minor_mime) = ANY(${arg(o.mimes)}::text[])`);
    const dir = o.descending ? 'DESC' : 'ASC';
    const order = o.sort === 'name' ? `i.img_name COLLATE "C" ${dir}` : `i.img_timestamp ${dir}, i.img_name COLLATE "C" ${dir}`;
    const r = await this.d.db.query<VersionRow>(
      `SELECT ${CURRENT_COLUMNS(s)} FROM ${s}.image i JOIN ${s}.actor a ON a.actor_id = i.img_actor
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${arg(o.limit + 1)}`,
      args,
    );
    const rows = r.rows.slice(0, o.limit);
    const next = r.rows[o.limit];
    const continueFrom = !next ? '' : o.sort === 'name' ? next.name : `${isoTimestamp(next.timestamp)}|${next.name}`;
    return { rows, continueFrom };
  }

  /** The existing files a page uses (imagelinks), for REST /links/media. */
  async mediaOf(pageId: number, limit: number): Promise<{ rows: VersionRow[]; tooMany: boolean }> {
    const s = this.d.db.schema;
    const r = await this.d.db.query<VersionRow>(
      `SELECT ${CURRENT_COLUMNS(s)} FROM ${s}.imagelinks il JOIN ${s}.image i ON i.img_name = il.il_to JOIN ${s}.actor a ON a.actor_id = i.img_actor
       WHERE il.il_from = $1 ORDER BY i.img_name COLLATE "C" LIMIT $2`,
      [pageId, limit + 1],
    );
    return { rows: r.rows.slice(0, limit), tooMany: r.rows.length > limit };
  }

  /**
   * UploadBase::getTitle + validateName: the name a file gets (illegal characters become "-", a
   * missing extension is the detected type's), or the reason it cannot have one.
   */
  private checkName(requested: string, detectedMime: string | undefined): CheckedName {
    let filtered = requested.replace(/[:/\\]/g, '-').replace(/[\x00-\x1f\x7f<>[\]{}|#]/g, '-');
    let dot = filtered.lastIndexOf('.');
    let ext = dot >= 0 ? filtered.slice(dot + 1).trim().toLowerCase() : '';
    if (ext === '') {
      const detected = detectedMime ? EXTENSION_OF_MIME[detectedMime] : undefined;
      if (!detected) throw invalidArgument('filetype-missing', 'The file has no extension (like ".jpg").');
      filtered = `${filtered.replace(/\.$/, '')}.${detected}`;
      ext = detected;
      dot = filtered.lastIndexOf('.');
    }
    let dbkey: string;
    try {
      const t = this.d.codec.parse(filtered, NS_FILE);
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
    const comparable = this.d.codec.prefixedDbKey(NS_FILE, requested.replace(/ /g, '_')).replace(/^[^:]*:/, '');
    return { dbkey, ext, changed: requested !== dbkey && comparable !== dbkey };
  }

  /** ApiUpload::checkPermissions. */
  private checkUploadRight(actor: EditActor): void {
    if (actor.rights.includes('upload')) return;
    if (actor.id === 0) throw permissionDenied('mustbeloggedin', 'You must be logged in to upload this file.');
    const project = this.d.codec.namespaces.get(NS_PROJECT)?.name ?? 'Project';
    throw permissionDenied(
      'permissiondenied',
      `The action you have requested is limited to users in one of the groups: [[${project}:Administrators|Administrators]], [[${project}:Users|Users]].`,
    );
  }

  /** UploadBase::checkWarnings (the warnings this wiki can raise). */
  private async warnings(q: Queryable, name: CheckedName, sha1: string, existing: VersionRow | undefined): Promise<UploadWarnings> {
    const s = this.d.db.schema;
    const w: UploadWarnings = { exists: '', duplicate: [], badfilename: '', wasDeleted: '', nochangeTimestamp: '', duplicateVersionTimestamps: [] };
    if (name.changed) w.badfilename = name.dbkey;
    if (existing) {
      w.exists = name.dbkey;
      if (existing.sha1 === sha1) w.nochangeTimestamp = isoTimestamp(existing.timestamp);
      const older = await q.query<{ oi_timestamp: Date }>(
        `SELECT oi_timestamp FROM ${s}.oldimage WHERE oi_name = $1 AND oi_sha1 = $2 AND oi_deleted = 0 ORDER BY oi_timestamp DESC`,
        [name.dbkey, sha1],
      );
      w.duplicateVersionTimestamps = older.rows.map((r) => isoTimestamp(r.oi_timestamp));
    }
    const dupes = await q.query<{ img_name: string }>(`SELECT img_name FROM ${s}.image WHERE img_sha1 = $1 AND img_name <> $2 ORDER BY img_name COLLATE "C"`, [sha1, name.dbkey]);
    w.duplicate = dupes.rows.map((r) => r.img_name);
    // File::wasDeleted: the title has deleted revisions, or deleted versions of the file remain.
    if (!existing) {
      const deleted = await q.query(
        `SELECT 1 FROM ${s}.archive WHERE ar_namespace = ${NS_FILE} AND ar_title = $1
         UNION ALL SELECT 1 FROM ${s}.filearchive WHERE fa_name = $1 LIMIT 1`,
        [name.dbkey],
      );
      if (deleted.rows.length) w.wasDeleted = name.dbkey;
    }
    return w;
  }

  async upload(req: UploadRequest): Promise<UploadResponse> {
    const actor = req.actor;
    if (!actor) throw invalidArgument('missingparam', 'The upload has no actor.');
    this.checkUploadRight(actor);
    const data = req.data;
    // UploadBase::verifyUpload: size first, then the name, then the content.
    if (data.length === 0) throw invalidArgument('empty-file', 'The file you submitted was empty.');
    const maxBytes = req.maxBytes > 0 ? Math.min(req.maxBytes, this.d.maxBytes) : this.d.maxBytes;
    if (data.length > maxBytes) throw invalidArgument('file-too-large', 'The file you submitted was too large.');
    const sniffed = sniffFile(data);
    const name = this.checkName(req.filename, sniffed?.mime);
    const expected = FILE_EXTENSIONS[name.ext]!;
    if (!sniffed || sniffed.mime !== expected) {
      const detected = sniffed?.mime ?? (detectsHtml(data, '') ? 'text/html' : 'application/octet-stream');
      throw verificationError(['filetype-mime-mismatch', name.ext, detected], `File extension ".${name.ext}" does not match the detected MIME type of the file (${detected}).`);
    }
    if (detectsHtml(data, sniffed.mime) || (sniffed.mime === 'image/svg+xml' && svgHasScript(data.toString('utf8')))) {
      throw verificationError(['uploadscripted'], 'This file contains HTML or script code that may be erroneously interpreted by a web browser.');
    }
    const storageKey = storageKeyOf(data);
    const sha1 = sha1Base36FromHex(storageKey);
    const { db, codec } = this.d;
    const s = db.schema;

    return db.tx(async (q) => {
      // Uploads of one name queue up: the warnings and the archive step see the latest version.
      await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${s}.image:${name.dbkey}`]);
      await checkProtection(q, db, codec, { ns: NS_FILE, dbkey: name.dbkey }, 'upload', actor.rights);
      const existing = (await this.current(q, [name.dbkey])).get(name.dbkey);
      if (existing && !actor.rights.includes('reupload') && !(actor.rights.includes('reupload-own') && existing.user_id === actor.id && actor.id > 0)) {
        throw permissionDenied(
          'fileexists-forbidden',
          `A file with this name already exists, and cannot be overwritten.\nIf you still want to upload your file, please go back and use a new name.\n[[File:${name.dbkey}|thumb|center|${name.dbkey}]]`,
        );
      }
      const warnings = await this.warnings(q, name, sha1, existing);
      const hasWarnings =
        warnings.exists !== '' || warnings.badfilename !== '' || warnings.wasDeleted !== '' || warnings.duplicate.length > 0 || warnings.duplicateVersionTimestamps.length > 0;
      if (hasWarnings && !req.ignoreWarnings) {
        return { result: 'Warning', filename: name.dbkey, warnings, hasWarnings, file: undefined, watched: false };
      }
      if (warnings.nochangeTimestamp !== '') {
        throw invalidArgument('fileexists-no-change', `The upload is an exact duplicate of the current version of [[:File:${name.dbkey}]].`);
      }

      await this.d.store.put(storageKey, data, sniffed.mime);
      const timestamp = nowToTheSecond();
      const actorRow = await actorId(q, s, { id: actor.id, name: actor.name });
      if (existing) {
        // LocalFile::recordUpload3: the current row moves to oldimage under "<ts>!<name>".
        await q.query(
          `INSERT INTO ${s}.oldimage (oi_name, oi_archive_name, oi_size, oi_width, oi_height, oi_bits, oi_metadata, oi_media_type, oi_major_mime,
             oi_minor_mime, oi_description, oi_actor, oi_timestamp, oi_sha1, oi_storage_key)
           SELECT img_name, $2, img_size, img_width, img_height, img_bits, img_metadata, img_media_type, img_major_mime, img_minor_mime,
             img_description, img_actor, img_timestamp, img_sha1, img_storage_key FROM ${s}.image WHERE img_name = $1`,
          [name.dbkey, `${tsMw(existing.timestamp)}!${name.dbkey}`],
        );
      }
      const [major, minor] = sniffed.mime.split('/') as [string, string];
      await q.query(
        `INSERT INTO ${s}.image (img_name, img_size, img_width, img_height, img_bits, img_metadata, img_media_type, img_major_mime, img_minor_mime,
           img_description, img_actor, img_timestamp, img_sha1, img_storage_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         ON CONFLICT (img_name) DO UPDATE SET img_size = EXCLUDED.img_size, img_width = EXCLUDED.img_width, img_height = EXCLUDED.img_height,
           img_bits = EXCLUDED.img_bits, img_metadata = EXCLUDED.img_metadata, img_media_type = EXCLUDED.img_media_type,
           img_major_mime = EXCLUDED.img_major_mime, img_minor_mime = EXCLUDED.img_minor_mime, img_description = EXCLUDED.img_description,
           img_actor = EXCLUDED.img_actor, img_timestamp = EXCLUDED.img_timestamp, img_sha1 = EXCLUDED.img_sha1, img_storage_key = EXCLUDED.img_storage_key`,
        [name.dbkey, data.length, sniffed.width, sniffed.height, sniffed.bits, JSON.stringify(sniffed.metadata), sniffed.mediaType, major, minor,
          req.comment, actorRow, timestamp, sha1, storageKey],
      );
      if (!existing) await q.query(`UPDATE ${s}.site_stats SET ss_images = ss_images + 1 WHERE ss_row_id = 1`);
      // Pages showing this file render again (their parser cache has the old or a missing file).
      await q.query(
        `INSERT INTO ${s}.job (job_cmd, job_namespace, job_title, job_params)
         SELECT 'refreshLinks', p.page_namespace, p.page_title, jsonb_build_object('pageId', p.page_id, 'cause', 'upload')
           FROM ${s}.imagelinks il JOIN ${s}.page p ON p.page_id = il.il_from WHERE il.il_to = $1`,
        [name.dbkey],
      );

      // The description page: created with the text (or the comment), else a null revision
      // carrying the upload comment. Its recent change is the log entry's (EDIT_SUPPRESS_RC).
      const page = await q.query<{ page_id: number; page_latest: number; content_text: string; content_model: string }>(
        `SELECT p.page_id, p.page_latest, c.content_text, c.content_model FROM ${s}.page p
           JOIN ${s}.revision r ON r.rev_id = p.page_latest JOIN ${s}.content c ON c.content_id = r.rev_content_id
          WHERE p.page_namespace = ${NS_FILE} AND p.page_title = $1`,
        [name.dbkey],
      );
      const current = page.rows[0];
      const saved = await saveRevision(db, codec, {
        ns: NS_FILE,
        dbkey: name.dbkey,
        baseRevId: current?.page_latest ?? 0,
        text: current ? current.content_text : (req.text ?? req.comment),
        contentModel: current?.content_model ?? 'wikitext',
        contentFormat: 'text/x-wiki',
        user: { id: actor.id, name: actor.name },
        comment: req.comment,
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
          dbkey: name.dbkey,
          pageId: saved.pageId,
          comment: req.comment,
          params: { img_sha1: sha1, img_timestamp: tsMw(timestamp) },
          timestamp,
          tags: req.tags,
        },
        { patrollable: true, autopatrol: actor.rights.includes('autopatrol'), bot: actor.rights.includes('bot'), revId: saved.revId },
      );
      const watch = await applyWatchlistParam(q, db, actor.id, { ns: NS_FILE, dbkey: name.dbkey }, req.watchlist as WatchlistMode, req.watchByPreference, undefined);
      const file = this.versionOf({
        name: name.dbkey,
        archive_name: '',
        size: data.length,
        width: sniffed.width,
        height: sniffed.height,
        bits: sniffed.bits,
        metadata: sniffed.metadata,
        media_type: sniffed.mediaType,
        major_mime: major,
        minor_mime: minor,
        description: req.comment,
        timestamp,
        sha1,
        storage_key: storageKey,
        user_name: actor.name,
        user_id: actor.id,
        page_id: saved.pageId,
      });
      return { result: 'Success', filename: name.dbkey, warnings, hasWarnings, file, watched: watch.watched };
    });
  }
}

/** Hex SHA-1 → MediaWiki's base-36 form (list=allimages&aisha1=…). */
export function sha1Base36FromHex(hex: string): string {
  if (!/^[0-9a-f]{40}$/i.test(hex)) return '';
  return BigInt(`0x${hex}`).toString(36).padStart(31, '0');
}
