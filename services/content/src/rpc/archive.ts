/*
 * wiki.content.v1.ArchiveService: decodes requests, calls the archive domain, encodes rows.
 */
import { invalidArgument } from '@quire/kit';
import {
  ArchiveOrder,
  type ArchivedRevision,
  type ChangeContentModelRequest,
  type MergeHistoryRequest,
  type DeleteOldFileVersionRequest,
  type GetLogEntryVisibilityRequest,
  type GetLogEntryVisibilityResponse,
  type RevisionDeleteLogEntriesRequest,
  type RevisionDeleteArchivedRequest,
  type GetArchivedRevisionTitlesRequest,
  type GetArchivedRevisionTitlesResponse,
  type ListAllRevisionsRequest,
  type ListAllRevisionsResponse,
  type ListArchivedRevisionsRequest,
  type ListArchivedRevisionsResponse,
} from '@quire/proto/wiki/content/v1/archive';
import { ArchiveDomain } from '../domain/archive.js';
import { changeContentModel } from '../domain/content-model.js';
import { mergeHistory } from '../domain/merge-history.js';
import { deleteOldFileVersion } from '../domain/file-version.js';
import { logEntryVisibility, revisionDeleteLogEntries } from '../domain/log-visibility.js';
import { revisionDeleteArchived } from '../domain/archive-visibility.js';
import type { ArchiveSort, LiveRevisionRow } from '../store/archive.js';
import type { ContentContext } from './context.js';
import { revisionMessage } from './records.js';

/** Above MediaWiki's highest limit (5000 for bots) plus the probe row: a guard, not a policy. */
const MAX_LIMIT = 5001;

const SORTS: Record<ArchiveOrder, ArchiveSort> = {
  [ArchiveOrder.ARCHIVE_ORDER_TITLE]: 'title',
  [ArchiveOrder.ARCHIVE_ORDER_TIMESTAMP]: 'timestamp',
  [ArchiveOrder.ARCHIVE_ORDER_REV_ID]: 'revid',
  [ArchiveOrder.UNRECOGNIZED]: 'title',
};

function timestampOf(name: string, value: string): Date | undefined {
  if (value === '') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalidArgument('badvalue', `${name} is not an ISO 8601 timestamp: ${value}`);
  return new Date(ms);
}

function checkLimit(limit: number): number {
  if (limit < 1 || limit > MAX_LIMIT) throw invalidArgument('badvalue', `limit must be between 1 and ${MAX_LIMIT}.`);
  return limit;
}

export function archiveHandlers(ctx: ContentContext) {
  const domain = new ArchiveDomain(ctx.db, ctx.codec);
  return {
    async listArchivedRevisions(req: ListArchivedRevisionsRequest): Promise<ListArchivedRevisionsResponse> {
      if (req.titles.length > 0 && req.revIds.length > 0) throw invalidArgument('invalidparammix', 'Give either titles or revision ids, not both.');
      const cursor = req.cursor && {
        ns: req.cursor.ns,
        dbkey: req.cursor.dbkey,
        timestamp: timestampOf('cursor.timestamp', req.cursor.timestamp) ?? new Date(0),
        revId: req.cursor.revId,
        arId: req.cursor.arId,
      };
      const start = timestampOf('start_timestamp', req.startTimestamp);
      const end = timestampOf('end_timestamp', req.endTimestamp);
      const rows = await domain.listArchived({
        titles: req.titles,
        revIds: req.revIds,
        ...(req.allNamespaces ? {} : { namespaces: req.namespaces }),
        from: req.from,
        to: req.to,
        prefix: req.prefix,
        ...(start ? { start } : {}),
        ...(end ? { end } : {}),
        newer: req.dirNewer,
        ...(req.user !== '' ? { user: req.user } : {}),
        ...(req.excludeUser !== '' ? { excludeUser: req.excludeUser } : {}),
        ...(req.tag !== '' ? { tag: req.tag } : {}),
        hiddenUserMask: req.hiddenUserMask,
        sort: SORTS[req.order],
        ...(cursor ? { cursor } : {}),
        limit: checkLimit(req.limit),
        withContent: req.withContent,
        uniqueTitles: req.uniqueTitles,
      });
      return {
        revisions: rows.map((r): ArchivedRevision => ({ revision: revisionMessage(r), ns: r.ns, title: domain.prefixedText(r.ns, r.dbkey), dbkey: r.dbkey, arId: r.arId })),
      };
    },

    async listAllRevisions(req: ListAllRevisionsRequest): Promise<ListAllRevisionsResponse> {
      const start = timestampOf('start_timestamp', req.startTimestamp);
      const end = timestampOf('end_timestamp', req.endTimestamp);
      const cursorTs = timestampOf('cursor_timestamp', req.cursorTimestamp);
      const rows: LiveRevisionRow[] = await domain.listAll({
        ...(req.allNamespaces ? {} : { namespaces: req.namespaces }),
        ...(start ? { start } : {}),
        ...(end ? { end } : {}),
        newer: req.dirNewer,
        ...(req.user !== '' ? { user: req.user } : {}),
        ...(req.excludeUser !== '' ? { excludeUser: req.excludeUser } : {}),
        hiddenUserMask: req.hiddenUserMask,
        ...(cursorTs ? { cursor: { timestamp: cursorTs, revId: req.cursorRevId } } : {}),
        limit: checkLimit(req.limit),
        withContent: req.withContent,
      });
      return { revisions: rows.map((r) => ({ revision: revisionMessage(r), ns: r.ns, title: domain.prefixedText(r.ns, r.dbkey) })) };
    },

    async getArchivedRevisionTitles(req: GetArchivedRevisionTitlesRequest): Promise<GetArchivedRevisionTitlesResponse> {
      return { titles: await domain.archivedTitles(req.revIds) };
    },

    changeContentModel: (req: ChangeContentModelRequest) => changeContentModel({ db: ctx.db, codec: ctx.codec }, req),
    mergeHistory: (req: MergeHistoryRequest) => mergeHistory({ db: ctx.db, codec: ctx.codec }, req),
    deleteOldFileVersion: (req: DeleteOldFileVersionRequest) => deleteOldFileVersion({ db: ctx.db, codec: ctx.codec }, req),
    revisionDeleteLogEntries: (req: RevisionDeleteLogEntriesRequest) => revisionDeleteLogEntries({ db: ctx.db, codec: ctx.codec }, req),
    revisionDeleteArchived: (req: RevisionDeleteArchivedRequest) => revisionDeleteArchived({ db: ctx.db, codec: ctx.codec }, req),
    async getLogEntryVisibility(req: GetLogEntryVisibilityRequest): Promise<GetLogEntryVisibilityResponse> {
      return { entries: await logEntryVisibility({ db: ctx.db, codec: ctx.codec }, req.ids) };
    },
  };
}
