/*
 * The local file repository's tables (MediaWiki's LocalRepo + LocalFile): versions and their URLs,
 * listings, and the rows an upload writes. The upload's checks and flow are in domain/upload.ts.
 */
import type { Db, Queryable } from '@quire/kit';
import type { FileVersion } from '@quire/proto/wiki/content/v1/files';
import type { TitleCodec } from '../title/codec.js';
import { NS_FILE } from '../title/namespaces.js';
import { isoTimestamp } from '../content/timestamp.js';
import type { FileStore } from '../files/store.js';

import { fileUrlPath } from '../files/paths.js';

export { fileUrlPath, hashPath, UPLOAD_PATH } from '../files/paths.js';

/** TS_MW: 20261121051314 */
export const tsMw = (d: Date) => isoTimestamp(d).replace(/[-:TZ]/g, '');

/** MediaWiki's base-36 SHA-1 → hex, as imageinfo reports it. */
export function sha1Hex(base36: string): string {
  return [...base36]
    .reduce((n, c) => n * 36n + BigInt(parseInt(c, 36)), 0n)
    .toString(16)
    .padStart(40, '0');
}

export interface VersionRow {
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

/** A row of filearchive with its uploader. */
export interface ArchiveRow {
  fa_id: string;
  fa_name: string;
  fa_archive_name: string | null;
  fa_size: string;
  fa_width: number;
  fa_height: number;
  fa_bits: number;
  fa_metadata: unknown;
  fa_media_type: string;
  fa_major_mime: string;
  fa_minor_mime: string;
  fa_description: string;
  fa_timestamp: Date;
  fa_sha1: string;
  fa_deleted: number;
  actor_name: string;
  actor_user: number | null;
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

export class FileRepo {
  constructor(private readonly d: FileRepoDeps) {}

  /** The deps, for the upload flow (domain/upload.ts) that writes through this repository. */
  get deps(): FileRepoDeps {
    return this.d;
  }

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
    const r = await q.query<VersionRow>(`SELECT ${CURRENT_COLUMNS(s)} FROM ${s}.image i JOIN ${s}.actor a ON a.actor_id = i.img_actor WHERE i.img_name = ANY($1::text[])`, [names]);
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

  /** An old (not deleted) version by its archive name. */
  async oldVersion(q: Queryable, name: string, archiveName: string): Promise<VersionRow | undefined> {
    const s = this.d.db.schema;
    const r = await q.query<VersionRow>(
      `SELECT ${OLD_COLUMNS(s)} FROM ${s}.oldimage o JOIN ${s}.actor a ON a.actor_id = o.oi_actor WHERE o.oi_name = $1 AND o.oi_archive_name = $2 AND o.oi_deleted = 0`,
      [name, archiveName],
    );
    return r.rows[0];
  }

  /** Whether an archive name is taken (LocalFile::publishTo fails on an existing archived copy). */
  async archiveNameTaken(q: Queryable, archiveName: string): Promise<boolean> {
    const r = await q.query(`SELECT 1 FROM ${this.d.db.schema}.oldimage WHERE oi_archive_name = $1`, [archiveName]);
    return r.rows.length > 0;
  }

  /** list=filearchive: deleted versions by (name, timestamp, id), limit + 1 rows. */
  async listArchive(o: {
    from: string;
    to: string;
    prefix: string;
    descending: boolean;
    sha1: string;
    hideBitmask: number;
    limit: number;
    after?: { name: string; timestamp: Date; id: number };
  }): Promise<ArchiveRow[]> {
    const s = this.d.db.schema;
    const where: string[] = [];
    const { args, arg } = placeholders();
    const [lo, hi] = o.descending ? ['<=', '>='] : ['>=', '<='];
    if (o.after) {
      where.push(`(f.fa_name COLLATE "C", f.fa_timestamp, f.fa_id) ${o.descending ? '<=' : '>='} (${arg(o.after.name)}, ${arg(o.after.timestamp)}::timestamptz, ${arg(o.after.id)}::bigint)`);
    }
    if (o.from) where.push(`f.fa_name COLLATE "C" ${lo} ${arg(o.from)}`);
    if (o.to) where.push(`f.fa_name COLLATE "C" ${hi} ${arg(o.to)}`);
    if (o.prefix) where.push(`starts_with(f.fa_name, ${arg(o.prefix)})`);
    if (o.sha1) {
      where.push(`f.fa_sha1 = ${arg(o.sha1)}`);
      if (o.hideBitmask) where.push(`(f.fa_deleted & ${arg(o.hideBitmask)}::int) <> ${arg(o.hideBitmask)}::int`);
    }
    const dir = o.descending ? 'DESC' : 'ASC';
    const r = await this.d.db.query<ArchiveRow>(
      `SELECT f.fa_id, f.fa_name, f.fa_archive_name, f.fa_size, f.fa_width, f.fa_height, f.fa_bits, f.fa_metadata, f.fa_media_type, f.fa_major_mime,
              f.fa_minor_mime, f.fa_description, f.fa_timestamp, f.fa_sha1, f.fa_deleted, a.actor_name, a.actor_user
         FROM ${s}.filearchive f JOIN ${s}.actor a ON a.actor_id = f.fa_actor
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY f.fa_name COLLATE "C" ${dir}, f.fa_timestamp ${dir}, f.fa_id ${dir} LIMIT ${arg(o.limit + 1)}`,
      args,
    );
    return r.rows;
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
    filterBots?: { bots: boolean; botUserIds: number[] };
  }): Promise<{ rows: VersionRow[]; continueFrom: string }> {
    const s = this.d.db.schema;
    const where: string[] = [];
    const { args, arg } = placeholders();
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
      // aifilterbots: whether the uploader is in a group with the bot right (anonymous uploaders are not).
      if (o.filterBots) where.push(`${o.filterBots.bots ? '' : 'NOT '}(COALESCE(a.actor_user, 0) = ANY(${arg(o.filterBots.botUserIds)}::bigint[]))`);
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
}

/** Numbered parameters for a statement built from optional conditions: arg(v) is v's "$n". */
function placeholders(): { args: unknown[]; arg: (v: unknown) => string } {
  const args: unknown[] = [];
  return {
    args,
    arg: (v) => {
      args.push(v);
      return `$${args.length}`;
    },
  };
}

/** Hex SHA-1 → MediaWiki's base-36 form (list=allimages&aisha1=…). */
export function sha1Base36FromHex(hex: string): string {
  if (!/^[0-9a-f]{40}$/i.test(hex)) return '';
  return BigInt(`0x${hex}`).toString(36).padStart(31, '0');
}

/** Serializes uploads of one name until the caller's transaction ends. */
export async function lockFileName(q: Queryable, schema: string, name: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${schema}.image:${name}`]);
}

/** The times of the old versions of a file with this content (not deleted), newest first. */
export async function oldVersionTimestampsWithSha1(q: Queryable, schema: string, name: string, sha1: string): Promise<Date[]> {
  const r = await q.query<{ oi_timestamp: Date }>(`SELECT oi_timestamp FROM ${schema}.oldimage WHERE oi_name = $1 AND oi_sha1 = $2 AND oi_deleted = 0 ORDER BY oi_timestamp DESC`, [name, sha1]);
  return r.rows.map((row) => row.oi_timestamp);
}

/** Other files whose current version has this content, by name. */
export async function filesWithSha1(q: Queryable, schema: string, sha1: string, except: string): Promise<string[]> {
  const r = await q.query<{ img_name: string }>(`SELECT img_name FROM ${schema}.image WHERE img_sha1 = $1 AND img_name <> $2 ORDER BY img_name COLLATE "C"`, [sha1, except]);
  return r.rows.map((row) => row.img_name);
}

/** File::wasDeleted: the title has deleted revisions, or deleted versions of the file remain. */
export async function fileWasDeleted(q: Queryable, schema: string, name: string): Promise<boolean> {
  const r = await q.query(
    `SELECT 1 FROM ${schema}.archive WHERE ar_namespace = ${NS_FILE} AND ar_title = $1
     UNION ALL SELECT 1 FROM ${schema}.filearchive WHERE fa_name = $1 LIMIT 1`,
    [name],
  );
  return r.rows.length > 0;
}

/** A new current version of a file, as LocalFile::recordUpload3 writes it. */
export interface NewFileVersion {
  name: string;
  size: number;
  width: number;
  height: number;
  bits: number;
  metadata: unknown;
  mediaType: string;
  majorMime: string;
  minorMime: string;
  description: string;
  actorId: number;
  timestamp: Date;
  sha1: string;
  storageKey: string;
}

/**
 * LocalFile::recordUpload3's rows, in the caller's transaction: the current version (if any) moves
 * to oldimage under "<ts>!<name>", the new one becomes current, a first version counts in the site
 * statistics, and the pages showing the file are queued to render again.
 */
export async function recordFileVersion(q: Queryable, schema: string, v: NewFileVersion, previous: { timestamp: Date } | undefined): Promise<void> {
  const s = schema;
  if (previous) {
    await q.query(
      `INSERT INTO ${s}.oldimage (oi_name, oi_archive_name, oi_size, oi_width, oi_height, oi_bits, oi_metadata, oi_media_type, oi_major_mime,
         oi_minor_mime, oi_description, oi_actor, oi_timestamp, oi_sha1, oi_storage_key)
       SELECT img_name, $2, img_size, img_width, img_height, img_bits, img_metadata, img_media_type, img_major_mime, img_minor_mime,
         img_description, img_actor, img_timestamp, img_sha1, img_storage_key FROM ${s}.image WHERE img_name = $1`,
      [v.name, `${tsMw(previous.timestamp)}!${v.name}`],
    );
  }
  await q.query(
    `INSERT INTO ${s}.image (img_name, img_size, img_width, img_height, img_bits, img_metadata, img_media_type, img_major_mime, img_minor_mime,
       img_description, img_actor, img_timestamp, img_sha1, img_storage_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (img_name) DO UPDATE SET img_size = EXCLUDED.img_size, img_width = EXCLUDED.img_width, img_height = EXCLUDED.img_height,
       img_bits = EXCLUDED.img_bits, img_metadata = EXCLUDED.img_metadata, img_media_type = EXCLUDED.img_media_type,
       img_major_mime = EXCLUDED.img_major_mime, img_minor_mime = EXCLUDED.img_minor_mime, img_description = EXCLUDED.img_description,
       img_actor = EXCLUDED.img_actor, img_timestamp = EXCLUDED.img_timestamp, img_sha1 = EXCLUDED.img_sha1, img_storage_key = EXCLUDED.img_storage_key`,
    [v.name, v.size, v.width, v.height, v.bits, JSON.stringify(v.metadata), v.mediaType, v.majorMime, v.minorMime, v.description, v.actorId, v.timestamp, v.sha1, v.storageKey],
  );
  if (!previous) await q.query(`UPDATE ${s}.site_stats SET ss_images = ss_images + 1 WHERE ss_row_id = 1`);
  // Pages showing this file render again (their parser cache has the old or a missing file).
  await q.query(
    `INSERT INTO ${s}.job (job_cmd, job_namespace, job_title, job_params)
     SELECT 'refreshLinks', p.page_namespace, p.page_title, jsonb_build_object('pageId', p.page_id, 'cause', 'upload')
       FROM ${s}.imagelinks il JOIN ${s}.page p ON p.page_id = il.il_from WHERE il.il_to COLLATE "C" = $1`,
    [v.name],
  );
}

/** A file's description page with its latest text, if it exists. */
export async function descriptionPage(q: Queryable, schema: string, name: string): Promise<{ page_id: number; page_latest: number; content_text: string; content_model: string } | undefined> {
  const s = schema;
  const r = await q.query<{ page_id: number; page_latest: number; content_text: string; content_model: string }>(
    `SELECT p.page_id, p.page_latest, c.content_text, c.content_model FROM ${s}.page p
       JOIN ${s}.revision r ON r.rev_id = p.page_latest JOIN ${s}.content c ON c.content_id = r.rev_content_id
      WHERE p.page_namespace = ${NS_FILE} AND p.page_title = $1`,
    [name],
  );
  return r.rows[0];
}
