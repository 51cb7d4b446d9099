/*
 * GET /v1/page/{title}/history (MediaWiki's PageHistoryHandler): 20 revisions per request, newest
 * first, paged with older_than / newer_than (exclusive, never together), optionally filtered.
 */
import { HistoryFilter } from '../../clients/types.js';
import { defineRoute, RestError } from '../types.js';
import { isoTimestamp, loadPage, titleParam } from './pageContent.js';
import { hiddenAuthorBits } from '../../revdel.js';
import { authorAndComment, delta, rightsIfHidden } from './revision.js';

export const HISTORY_PAGE_SIZE = 20;

const FILTERS = {
  anonymous: HistoryFilter.HISTORY_FILTER_ANONYMOUS,
  bot: HistoryFilter.HISTORY_FILTER_BOT,
  reverted: HistoryFilter.HISTORY_FILTER_REVERTED,
  minor: HistoryFilter.HISTORY_FILTER_MINOR,
} as const;

export const pageHistoryRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/history',
  summary: 'Get a page history: 20 revisions per request, newest first',
  params: {
    ...titleParam,
    older_than: { source: 'query', type: 'integer', description: 'Revisions older than this revision id' },
    newer_than: { source: 'query', type: 'integer', description: 'Revisions newer than this revision id' },
    filter: { source: 'query', type: 'enum', values: ['anonymous', 'bot', 'reverted', 'minor'], description: 'Only revisions of this kind' },
  },
  writes: false,
  async execute(ctx) {
    const { title, older_than, newer_than, filter } = ctx.params;
    if (older_than !== undefined && newer_than !== undefined) throw new RestError(400, 'Parameters "older_than" and "newer_than" cannot both be specified');
    if ((older_than !== undefined && older_than < 1) || (newer_than !== undefined && newer_than < 1)) throw new RestError(400, 'Revision id must be greater than 0');
    const { page } = await loadPage(ctx.deps, title, false);
    // The anonymous and bot filters leave out revisions whose author the caller may not see.
    const userFilter = filter === 'anonymous' || filter === 'bot';
    const resp = await ctx.deps.clients.content.getHistory({
      pageId: page.id,
      olderThan: older_than ?? 0,
      newerThan: newer_than ?? 0,
      filter: filter ? FILTERS[filter] : HistoryFilter.HISTORY_FILTER_UNSPECIFIED,
      limit: HISTORY_PAGE_SIZE,
      // PageHistoryHandler::getBitmask.
      hiddenUserBits: userFilter ? hiddenAuthorBits((await ctx.caller()).user.rights) : 0,
      // As PageHistoryHandler: the authors now in a group with the `bot` right, not rev_bot.
      botUserIds: filter === 'bot' ? await ctx.deps.clients.auth.listUserIdsWithRight('bot') : [],
    });
    const relativeId = older_than ?? newer_than;
    if (!resp.relativeFound) throw new RestError(404, `The specified revision (${relativeId}) does not exist for the specified page (${title})`);

    const rights = await rightsIfHidden(ctx, resp.revisions);
    const revisions = resp.revisions.map((rev) => {
      const { user, comment } = authorAndComment(rev, rights);
      return { id: rev.id, timestamp: isoTimestamp(rev.timestamp), minor: rev.minor, size: rev.size, comment, user, delta: delta(rev) };
    });
    const query: Record<string, string> = filter ? { filter } : {};
    const url = (extra: Record<string, string> = {}) => ctx.routeUrl('/v1/page/{title}/history', { title: page.dbkey }, { ...query, ...extra });
    const body: Record<string, unknown> = { revisions, latest: url() };
    const newest = revisions[0];
    const oldest = revisions.at(-1);
    // As MediaWiki: `older` when more exist below (or we came from newer_than), `newer` when more
    // exist above (or we came from older_than).
    if (oldest && (newer_than !== undefined || resp.more)) {
      body.older = url({ older_than: String(oldest.id) });
    }
    if (newest && (older_than !== undefined || (newer_than !== undefined && resp.more))) body.newer = url({ newer_than: String(newest.id) });
    return {
      json: body,
      // PageHistoryHandler: the latest revision id as ETag, its time as Last-Modified.
      validators: { etag: `"${page.latestRevId}"`, lastModified: new Date(page.latestTimestamp) },
    };
  },
});
