/*
 * wiki.content.v1.ImportService: XML dumps' pages and revisions in and out (the XML itself is the
 * callers' business, gateway/src/dump/).
 */
import type { ServerWritableStream } from '@grpc/grpc-js';
import { invalidArgument } from '@quire/kit';
import type { ExportPagesRequest, ExportPagesResponse, FinishImportRequest, FinishImportResponse, ImportPagesRequest, ImportPagesResponse, ImportRevision } from '@quire/proto/wiki/content/v1/import';
import { exportPages, importPages, type ExportItem } from '../domain/import.js';
import { checkApplicableTags } from '../domain/tags.js';
import { CONTENT_FORMATS, isContentModel } from '../edit/models.js';
import { pendingRefreshLinksJobs, rebuildRecentChanges, type ImportRevisionInput } from '../store/import.js';
import type { ContentContext } from './context.js';
import { writeMessage } from './stream.js';

/** A guard against one call holding the database too long, not a policy: callers batch. */
const MAX_PAGES = 500;
/** $wgRCMaxAge's default: 90 days. */
const RC_MAX_AGE_SECONDS = 90 * 86400;

function revisionInput(r: ImportRevision, title: string): ImportRevisionInput {
  const ms = Date.parse(r.timestamp);
  if (Number.isNaN(ms)) throw invalidArgument('badvalue', `Revision ${r.id} of "${title}": the timestamp "${r.timestamp}" is not ISO 8601.`);
  if (!isContentModel(r.model)) throw invalidArgument('badvalue', `Revision ${r.id} of "${title}": unknown content model "${r.model}".`);
  if (!CONTENT_FORMATS.includes(r.format)) throw invalidArgument('badvalue', `Revision ${r.id} of "${title}": unknown content format "${r.format}".`);
  if (r.userName === '') throw invalidArgument('badvalue', `Revision ${r.id} of "${title}" has no contributor.`);
  return {
    timestamp: new Date(Math.floor(ms / 1000) * 1000),
    user: { id: r.userId, name: r.userName },
    comment: r.comment,
    minor: r.minor,
    model: r.model,
    format: r.format,
    text: r.text,
    deleted: r.deleted & 15,
  };
}

function itemMessage(item: ExportItem): ExportPagesResponse {
  if ('page' in item) {
    const p = item.page;
    return { item: { $case: 'page', value: { pageId: p.pageId, ns: p.ns, title: p.title, redirectTitle: p.redirectTitle } } };
  }
  const r = item.revision;
  return {
    item: {
      $case: 'revision',
      value: {
        id: r.id,
        parentId: r.parentId,
        timestamp: r.timestamp.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        userId: r.userId,
        userName: r.userName,
        deleted: r.deleted,
        minor: r.minor,
        comment: r.comment,
        model: r.model,
        format: r.format,
        text: r.text,
        size: r.size,
        sha1: r.sha1,
        origin: r.origin,
      },
    },
  };
}

export function importHandlers(ctx: ContentContext) {
  return {
    async exportPages(req: ExportPagesRequest, stream: ServerWritableStream<ExportPagesRequest, ExportPagesResponse>): Promise<void> {
      for await (const item of exportPages(ctx.db, ctx.codec, req)) {
        if (stream.cancelled) return;
        await writeMessage(stream, itemMessage(item));
      }
    },
    async importPages(req: ImportPagesRequest): Promise<ImportPagesResponse> {
      if (req.pages.length > MAX_PAGES) throw invalidArgument('toomanyvalues', `At most ${MAX_PAGES} pages per call.`);
      const pages = req.pages.map((p) => ({ title: p.title, ns: p.ns, revisions: p.revisions.map((r) => revisionInput(r, p.title)) }));
      if (req.log?.tags.length) await checkApplicableTags(ctx.db, req.log.performer ?? { id: 0, name: '', rights: [], groups: [], ip: '' }, req.log.tags);
      const log = req.log && {
        performer: { id: req.log.performer?.id ?? 0, name: req.log.performer?.name ?? '' },
        reason: req.log.reason,
        detail: req.log.detail,
        detailPlural: req.log.detailPlural || req.log.detail,
        tags: req.log.tags,
        action: req.log.action || 'upload',
      };
      // An upload (action=import, Special:Import) is by a user who must be able to edit each page; importDump runs as maintenance.
      const editor = req.log?.performer ? { name: req.log.performer.name, rights: req.log.performer.rights } : undefined;
      const results = await importPages(ctx.db, ctx.codec, pages, { targetNamespace: req.targetNamespace, rootPage: req.rootPage, log, dryRun: req.dryRun, editor });
      return { pages: results };
    },
    async finishImport(req: FinishImportRequest): Promise<FinishImportResponse> {
      const maxAge = req.maxAgeSeconds > 0 ? req.maxAgeSeconds : RC_MAX_AGE_SECONDS;
      const recentChanges = await rebuildRecentChanges(ctx.db, new Date(Date.now() - maxAge * 1000));
      return { recentChanges, pendingJobs: await pendingRefreshLinksJobs(ctx.db) };
    },
  };
}
