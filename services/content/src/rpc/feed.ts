import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerWritableStream } from '@grpc/grpc-js';
import { invalidArgument } from '@quire/kit';
import type {
  GetChangeFeedStatusRequest,
  GetChangeFeedStatusResponse,
  GetPagesForIndexRequest,
  GetPagesForIndexResponse,
  PageChange,
  StreamChangesRequest,
} from '@quire/proto/wiki/content/feed/v1/feed';
import type { ChangeFeedStore, FeedRow } from '../store/feed.js';
import { writeMessage } from './stream.js';

/** How often a caught-up stream looks for new changes. */
const POLL_MS = 200;
const DEFAULT_BATCH = 500;
const MAX_BATCH = 5000;
/** A stream with nothing to send ends after this long; the consumer reconnects from its cursor. */
const DEFAULT_MAX_WAIT_MS = 30_000;
/** Pages per GetPagesForIndex call: bounds one response's size. */
const MAX_INDEX_PAGES = 1000;

function changeMessage(row: FeedRow): PageChange {
  return {
    position: row.position,
    pageId: row.pageId,
    namespace: row.ns,
    dbkey: row.dbkey,
    kind: row.kind,
    changedAt: row.changedAt.toISOString(),
    oldNamespace: row.oldNs ?? 0,
    oldDbkey: row.oldDbkey ?? '',
  };
}

/**
 * The backlog after `from_position`, then live changes by polling (simple, and the same on the
 * embedded database, which has no LISTEN across its one connection). Delivery is at least once:
 * the consumer stores its own cursor and applies changes idempotently.
 */
async function streamChanges(feed: ChangeFeedStore, req: StreamChangesRequest, stream: ServerWritableStream<StreamChangesRequest, PageChange>): Promise<void> {
  if (req.fromPosition < 0) throw invalidArgument('badvalue', 'from_position must be >= 0.');
  const batch = Math.min(req.maxBatch > 0 ? req.maxBatch : DEFAULT_BATCH, MAX_BATCH);
  const maxWaitMs = req.maxWaitMs > 0 ? req.maxWaitMs : DEFAULT_MAX_WAIT_MS;
  let cursor = req.fromPosition;
  let idleSince = Date.now();
  while (!stream.cancelled) {
    const rows = await feed.after(cursor, batch);
    for (const row of rows) {
      if (stream.cancelled) return;
      await writeMessage(stream, changeMessage(row));
      cursor = row.position;
    }
    if (rows.length === batch) continue;
    if (rows.length > 0) idleSince = Date.now();
    else if (Date.now() - idleSince >= maxWaitMs) return;
    await sleep(POLL_MS);
  }
}

export function feedHandlers(feed: ChangeFeedStore) {
  return {
    streamChanges: (req: StreamChangesRequest, stream: ServerWritableStream<StreamChangesRequest, PageChange>) => streamChanges(feed, req, stream),
    async getPagesForIndex(req: GetPagesForIndexRequest): Promise<GetPagesForIndexResponse> {
      if (req.pageIds.length > MAX_INDEX_PAGES) throw invalidArgument('toomanyvalues', `At most ${MAX_INDEX_PAGES} page ids per call.`);
      const rows = await feed.pagesForIndex([...new Set(req.pageIds)]);
      return {
        pages: rows.map((p) => ({
          pageId: p.pageId,
          namespace: p.ns,
          dbkey: p.dbkey,
          title: p.title,
          isRedirect: p.isRedirect,
          redirectTitle: p.redirectTitle,
          size: p.size,
          contentModel: p.contentModel,
          text: p.text,
          touched: p.touched.toISOString(),
          created: p.created.toISOString(),
          latestRevId: p.latestRevId,
        })),
      };
    },
    async getChangeFeedStatus(req: GetChangeFeedStatusRequest): Promise<GetChangeFeedStatusResponse> {
      const s = await feed.status(req.afterPosition);
      return { latestPosition: s.latestPosition, pending: s.pending, oldestPendingAt: s.oldestPendingAt?.toISOString() ?? '' };
    },
  };
}
