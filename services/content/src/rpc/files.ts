/* wiki.content.v1.FileService: uploads, file versions, listings and bytes (src/files). */
import { invalidArgument, notFound } from '@quire/kit';
import type {
  GetFileInfoRequest,
  GetFileInfoResponse,
  GetMediaLinksRequest,
  GetMediaLinksResponse,
  ListFilesRequest,
  ListFilesResponse,
  ReadFileRequest,
  ReadFileResponse,
  UploadRequest,
  UploadChunkRequest,
  ListStashedFilesRequest,
  ListStashedFilesResponse,
  GetStashedFilesRequest,
  GetStashedFilesResponse,
  RevertFileRequest,
  ListFileArchiveRequest,
  ListFileArchiveResponse,
} from '@quire/proto/wiki/content/v1/files';
import { MalformedTitleError } from '../title/codec.js';
import { NS_FILE, NS_MEDIA } from '../title/namespaces.js';
import { uploadFile } from '../domain/upload.js';
import { uploadChunk } from '../domain/upload-chunks.js';
import { revertFile } from '../domain/filerevert.js';
import { findStashed, stashedFileOf } from '../domain/upload-stash.js';
import { listStashRows } from '../store/upload-stash.js';
import { sha1Hex, tsMw, type FileRepo } from '../store/files.js';
import { findPage } from '../store/pages.js';
import { isoTimestamp } from './records.js';
import type { ContentContext } from './context.js';
import { enforceRateLimit, type RateLimiter } from '../store/ratelimit.js';

const date = (iso: string) => (iso === '' ? undefined : new Date(iso));

export function fileHandlers(ctx: ContentContext, repo: FileRepo, limiter: RateLimiter) {
  /** A File: (or Media:) title's DB key; undefined when it is not one. */
  const fileName = (title: string): string | undefined => {
    try {
      const t = ctx.codec.parse(title, NS_FILE);
      return (t.ns === NS_FILE || t.ns === NS_MEDIA) && t.dbkey !== '' ? t.dbkey : undefined;
    } catch (e) {
      if (e instanceof MalformedTitleError) return undefined;
      throw e;
    }
  };

  return {
    upload: async (req: UploadRequest) => {
      await enforceRateLimit(limiter, 'upload', req.actor);
      return uploadFile(repo, req);
    },

    uploadChunk: (req: UploadChunkRequest) => uploadChunk(repo, req),

    revertFile: (req: RevertFileRequest) => revertFile(repo, req),

    async listFileArchive(req: ListFileArchiveRequest): Promise<ListFileArchiveResponse> {
      const limit = Math.max(1, req.limit || 10);
      const rows = await repo.listArchive({
        from: req.from,
        to: req.to,
        prefix: req.prefix,
        descending: req.descending,
        sha1: req.sha1Base36,
        hideBitmask: req.hideBitmask,
        limit,
        after: req.hasContinue ? { name: req.continueName, timestamp: new Date(req.continueTimestamp), id: req.continueId } : undefined,
      });
      const next = rows[limit];
      return {
        files: rows.slice(0, limit).map((r) => ({
          id: Number(r.fa_id),
          name: r.fa_name,
          title: ctx.codec.prefixedText(NS_FILE, r.fa_name),
          description: r.fa_description,
          user: r.actor_name,
          userId: r.actor_user ?? 0,
          sha1: sha1Hex(r.fa_sha1),
          timestamp: isoTimestamp(r.fa_timestamp),
          size: Number(r.fa_size),
          width: r.fa_width,
          height: r.fa_height,
          bits: r.fa_bits,
          mime: `${r.fa_major_mime}/${r.fa_minor_mime}`,
          mediaType: r.fa_media_type,
          metadataJson: JSON.stringify(Array.isArray(r.fa_metadata) ? r.fa_metadata : []),
          archiveName: r.fa_archive_name ?? undefined,
          deleted: r.fa_deleted,
        })),
        continueFrom: next ? `${next.fa_name}|${tsMw(next.fa_timestamp)}|${next.fa_id}` : '',
      };
    },

    async listStashedFiles(req: ListStashedFilesRequest): Promise<ListStashedFilesResponse> {
      const limit = Math.max(1, req.limit || 10);
      const rows = await listStashRows(ctx.db, ctx.db.schema, req.userId, req.continueId, limit, new Date());
      return { files: rows.slice(0, limit).map(stashedFileOf), continueId: rows.length > limit ? Number(rows[limit]!.us_id) : 0 };
    },

    async getStashedFiles(req: GetStashedFilesRequest): Promise<GetStashedFilesResponse> {
      const files = [];
      for (const key of req.filekeys) files.push(stashedFileOf(await findStashed(repo, req.userId, key)));
      return { files };
    },

    async getFileInfo(req: GetFileInfoRequest): Promise<GetFileInfoResponse> {
      const limit = Math.max(1, req.limit || 1);
      const files = [];
      for (const title of req.titles) {
        const name = fileName(title);
        if (name === undefined) {
          files.push({ name: '', exists: false, versions: [], continueTimestamp: '' });
          continue;
        }
        const h = await repo.history(name, { limit, start: date(req.start), end: date(req.end) });
        const exists = (await repo.current(ctx.db, [name])).has(name);
        files.push({ name, exists, versions: h.versions.map((v) => repo.versionOf(v)), continueTimestamp: h.next ? isoTimestamp(h.next) : '' });
      }
      return { files };
    },

    async listFiles(req: ListFilesRequest): Promise<ListFilesResponse> {
      const r = await repo.list({
        sort: req.sort === 'timestamp' ? 'timestamp' : 'name',
        descending: req.descending,
        from: req.from,
        to: req.to,
        prefix: req.prefix,
        start: date(req.start),
        end: date(req.end),
        minSize: req.minSize,
        maxSize: req.maxSize,
        sha1: req.sha1.toLowerCase(),
        mimes: req.mime,
        user: req.user,
        limit: Math.max(1, req.limit || 10),
        continue: req.continue,
        filterBots: req.filterBots === 'bots' || req.filterBots === 'nobots' ? { bots: req.filterBots === 'bots', botUserIds: req.botUserIds } : undefined,
      });
      return { files: r.rows.map((v) => repo.versionOf(v)), continueFrom: r.continueFrom };
    },

    async readFile(req: ReadFileRequest): Promise<ReadFileResponse> {
      const found = await repo.read(req.name, req.archiveName);
      if (!found) throw notFound('filenotfound', `File not found: ${req.archiveName || req.name}`);
      const v = repo.versionOf(found.row);
      return { data: found.data, mime: v.mime, timestamp: v.timestamp, sha1: v.sha1 };
    },

    async getMediaLinks(req: GetMediaLinksRequest): Promise<GetMediaLinksResponse> {
      let t;
      try {
        t = ctx.codec.parse(req.title);
      } catch (e) {
        if (e instanceof MalformedTitleError) throw invalidArgument('invalidtitle', `Bad title "${req.title}".`);
        throw e;
      }
      const row = await findPage(ctx.db, ctx.db.schema, t);
      if (!row) throw notFound('missingtitle', "The page you specified doesn't exist.");
      const media = await repo.mediaOf(row.id, Math.max(1, req.limit || 100));
      return {
        pageId: row.id,
        latestRevId: row.latest,
        touched: isoTimestamp(row.touched),
        files: media.rows.map((v) => repo.versionOf(v)),
        tooMany: media.tooMany,
      };
    },
  };
}
