import { invalidArgument } from '@quire/kit';
import { CountType, HistoryFilter, type CountRevisionsRequest, type CountRevisionsResponse, type GetHistoryRequest, type GetHistoryResponse } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { HistoryStore, type CountType as StoreCountType, type HistoryFilter as StoreHistoryFilter } from '../store/history.js';
import type { ContentContext } from './context.js';
import { revisionMessage } from './records.js';

/** A guard on one request's size, above the REST route's 20: not a MediaWiki limit. */
const MAX_HISTORY_LIMIT = 500;
/** Above MediaWiki's largest count cap (30,000): a guard so no count reads the whole table. */
const MAX_COUNT_CAP = 100_000;

const FILTERS: Record<number, StoreHistoryFilter | undefined> = {
  [HistoryFilter.HISTORY_FILTER_ANONYMOUS]: 'anonymous',
  [HistoryFilter.HISTORY_FILTER_BOT]: 'bot',
  [HistoryFilter.HISTORY_FILTER_REVERTED]: 'reverted',
  [HistoryFilter.HISTORY_FILTER_MINOR]: 'minor',
};

const COUNT_TYPES: Record<number, StoreCountType | undefined> = {
  [CountType.COUNT_TYPE_ANONYMOUS]: 'anonymous',
  [CountType.COUNT_TYPE_BOT]: 'bot',
  [CountType.COUNT_TYPE_EDITORS]: 'editors',
  [CountType.COUNT_TYPE_EDITS]: 'edits',
  [CountType.COUNT_TYPE_MINOR]: 'minor',
  [CountType.COUNT_TYPE_REVERTED]: 'reverted',
};

async function getHistory(store: HistoryStore, req: GetHistoryRequest): Promise<GetHistoryResponse> {
  if (req.olderThan > 0 && req.newerThan > 0) throw invalidArgument('invalidparammix', 'older_than and newer_than cannot be combined.');
  if (req.olderThan < 0 || req.newerThan < 0) throw invalidArgument('badvalue', 'Revision id must be greater than 0');
  if (req.limit < 1 || req.limit > MAX_HISTORY_LIMIT) throw invalidArgument('badvalue', `limit must be between 1 and ${MAX_HISTORY_LIMIT}.`);
  if (req.filter !== HistoryFilter.HISTORY_FILTER_UNSPECIFIED && FILTERS[req.filter] === undefined) throw invalidArgument('badvalue', 'Unknown history filter.');
  const page = await store.history(req.pageId, {
    ...(req.olderThan > 0 ? { olderThan: req.olderThan } : {}),
    ...(req.newerThan > 0 ? { newerThan: req.newerThan } : {}),
    ...(FILTERS[req.filter] ? { filter: FILTERS[req.filter] } : {}),
    limit: req.limit,
    hiddenUserBits: req.hiddenUserBits,
    botUserIds: req.botUserIds,
  });
  return { revisions: page.revisions.map(revisionMessage), more: page.more, relativeFound: page.relativeFound };
}

async function countRevisions(store: HistoryStore, req: CountRevisionsRequest): Promise<Omit<CountRevisionsResponse, 'lastLogTimestamp'>> {
  const type = COUNT_TYPES[req.type];
  if (!type) throw invalidArgument('badvalue', 'Unknown count type.');
  if (req.cap < 0 || req.cap > MAX_COUNT_CAP) throw invalidArgument('badvalue', `cap must be between 0 and ${MAX_COUNT_CAP}.`);
  const bounded = req.fromRevId > 0 || req.toRevId > 0;
  if (bounded && type !== 'edits' && type !== 'editors') throw invalidArgument('invalidparammix', 'from and to apply to edits and editors only.');
  if (bounded && !(req.fromRevId > 0 && req.toRevId > 0)) throw invalidArgument('invalidparammix', 'from and to must be given together.');
  const none = { missingRevId: 0, foreignRevId: 0 };
  if (!bounded) return { ...(await store.count(req.pageId, type, req.cap, undefined, req.botUserIds)), ...none };
  const positions = await store.positions([req.fromRevId, req.toRevId]);
  const from = positions.get(req.fromRevId);
  const to = positions.get(req.toRevId);
  // PageHistoryCountHandler looks up `from` first, then `to`.
  if (!from) return { count: 0, limit: false, ...none, missingRevId: req.fromRevId };
  if (!to) return { count: 0, limit: false, ...none, missingRevId: req.toRevId };
  const foreign = [from, to].find((r) => r.page !== req.pageId);
  if (foreign) return { count: 0, limit: false, ...none, foreignRevId: foreign.id };
  return { ...(await store.count(req.pageId, type, req.cap, [from, to])), ...none };
}

/** GetHistory and CountRevisions: the REST history endpoints' reads. */
export function historyHandlers(ctx: ContentContext) {
  const store = new HistoryStore(ctx.db, ctx.revisions);
  return {
    getHistory: (req: GetHistoryRequest) => getHistory(store, req),
    // PageHistoryCountHandler::getLastModified also follows the page's log (revision deletions).
    countRevisions: async (req: CountRevisionsRequest): Promise<CountRevisionsResponse> => {
      const [counted, lastLog] = await Promise.all([countRevisions(store, req), store.lastLogTimestamp(req.pageId)]);
      return { ...counted, lastLogTimestamp: lastLog ? lastLog.toISOString().replace(/\.\d{3}Z$/, 'Z') : '' };
    },
  };
}
