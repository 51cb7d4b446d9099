/*
 * GET /v1/page/{title}/history/counts/{type} (MediaWiki's PageHistoryCountHandler): revision
 * counts capped per type, `from`/`to` (exclusive revision bounds, either order) for edits and
 * editors only. Counts are read with LIMIT cap+1 queries, never by scanning the whole history.
 */
import { CountType } from '../../clients/types.js';
import { defineRoute, RestError } from '../types.js';
import { loadPage, titleParam } from './pageContent.js';

/** PageHistoryCountHandler::COUNT_LIMITS. */
export const COUNT_LIMITS = {
  anonymous: 10000,
  bot: 10000,
  editors: 25000,
  edits: 30000,
  minor: 1000,
  reverted: 30000,
} as const;

type CountName = keyof typeof COUNT_LIMITS;

/** Older names still accepted, answered with Deprecation and Link headers. */
const DEPRECATED_COUNT_TYPES: Record<string, CountName> = { anonedits: 'anonymous', botedits: 'bot', revertededits: 'reverted' };

const COUNT_TYPES: Record<CountName, CountType> = {
  anonymous: CountType.COUNT_TYPE_ANONYMOUS,
  bot: CountType.COUNT_TYPE_BOT,
  editors: CountType.COUNT_TYPE_EDITORS,
  edits: CountType.COUNT_TYPE_EDITS,
  minor: CountType.COUNT_TYPE_MINOR,
  reverted: CountType.COUNT_TYPE_REVERTED,
};

const MAX_AGE_200 = 60;

const parametersInvalid = () => new RestError(400, 'The specified combination of parameters is not supported.');

export const pageHistoryCountsRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/history/counts/{type}',
  summary: 'Count the revisions of a page of one kind, capped per kind',
  params: {
    ...titleParam,
    type: {
      source: 'path',
      type: 'enum',
      required: true,
      values: [...Object.keys(COUNT_LIMITS), 'temporary', ...Object.keys(DEPRECATED_COUNT_TYPES)],
      description: 'What to count',
    },
    from: { source: 'query', type: 'integer', description: 'Lower revision bound (edits and editors only; with to)' },
    to: { source: 'query', type: 'integer', description: 'Upper revision bound (edits and editors only; with from)' },
  },
  writes: false,
  cacheControl: () => `max-age=${MAX_AGE_200}`,
  async execute(ctx) {
    const { title, type, from, to } = ctx.params;
    // As PHP tests them: 0 counts as absent.
    if (from || to) {
      if (type !== 'edits' && type !== 'editors') throw parametersInvalid();
      if (!from || !to) throw parametersInvalid();
    }
    const { page } = await loadPage(ctx.deps, title, false);
    const headers: Record<string, string> = {};
    // Temporary accounts (MediaWiki 1.41+) do not exist on this wiki: no revision is by one.
    if (type === 'temporary') return { json: { count: 0, limit: false }, headers, validators: { lastModified: new Date(page.latestTimestamp) } };

    const name: CountName = DEPRECATED_COUNT_TYPES[type] ?? (type as CountName);
    const cap = COUNT_LIMITS[name];
    const resp = await ctx.deps.clients.content.countRevisions({
      pageId: page.id,
      type: COUNT_TYPES[name],
      fromRevId: from ?? 0,
      toRevId: to ?? 0,
      cap,
      // As PageHistoryCountHandler: the authors now in a group with the `bot` right, not rev_bot.
      botUserIds: name === 'bot' ? await ctx.deps.clients.auth.listUserIdsWithRight('bot') : [],
    });
    // getLastModified: the later of the latest revision and the page's last log entry (a revision
    // deletion changes the counts without a new revision).
    const lastLog = resp.lastLogTimestamp ? new Date(resp.lastLogTimestamp) : undefined;
    const latest = new Date(page.latestTimestamp);
    const validators = { lastModified: lastLog && lastLog > latest ? lastLog : latest };
    if (resp.missingRevId) throw new RestError(404, `The specified revision (${resp.missingRevId}) does not exist`);
    // MediaWiki 1.39 fails with an InvalidArgumentException (500) here; this is its history route's 404.
    if (resp.foreignRevId) throw new RestError(404, `The specified revision (${resp.foreignRevId}) does not exist for the specified page (${title})`);
    if (type in DEPRECATED_COUNT_TYPES) {
      headers.Deprecation = 'version="v1"';
      headers.Link = '<https://www.mediawiki.org/wiki/API:REST/History_API#Get_page_history_counts>; rel="deprecation"';
    }
    return { json: { count: resp.count, limit: resp.limit }, headers, validators };
  },
});
