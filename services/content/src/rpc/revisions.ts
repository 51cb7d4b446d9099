import { invalidArgument } from '@quire/kit';
import type { GetRevisionsRequest, GetRevisionsResponse } from '@quire/proto/wiki/content/revisions/v1/revisions';
import type { ContentContext } from './context.js';
import { revisionMessage } from './records.js';

/**
 * MediaWiki's highest rvlimit (5000, apihighlimits without content) plus the one row the gateway
 * asks for to learn whether more follow: a guard, not a policy.
 */
const MAX_RANGE_LIMIT = 5001;

async function getRevisions(ctx: ContentContext, req: GetRevisionsRequest): Promise<GetRevisionsResponse> {
  if (req.revIds.length > 0 && req.pageIds.length > 0) throw invalidArgument('invalidparammix', 'Give either page ids or revision ids, not both.');
  if (req.limit < 0 || req.limit > MAX_RANGE_LIMIT) throw invalidArgument('badvalue', `limit must be between 0 and ${MAX_RANGE_LIMIT}.`);

  if (req.revIds.length > 0) {
    // In request order; unknown ids are left out (ResolvePages reports them as bad).
    const byId = new Map((await ctx.revisions.byIds([...new Set(req.revIds)], req.withContent)).map((r) => [r.id, r]));
    const revisions = [...new Set(req.revIds)].flatMap((id) => {
      const r = byId.get(id);
      return r ? [revisionMessage(r)] : [];
    });
    return { revisions, nextId: 0 };
  }

  if (req.limit === 0) {
    const revisions = await ctx.revisions.latestOf([...new Set(req.pageIds)], req.withContent);
    return { revisions: revisions.map(revisionMessage), nextId: 0 };
  }

  const [pageId, ...others] = req.pageIds;
  if (pageId === undefined || others.length > 0) throw invalidArgument('invalidparammix', 'A revision range needs exactly one page id.');
  const timestamp = (name: string, value: string): Date | undefined => {
    if (value === '') return undefined;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw invalidArgument('badvalue', `${name} is not an ISO 8601 timestamp: ${value}`);
    return new Date(ms);
  };
  const start = timestamp('start_timestamp', req.startTimestamp);
  const end = timestamp('end_timestamp', req.endTimestamp);
  const range = await ctx.revisions.range(pageId, {
    limit: req.limit,
    newer: req.dirNewer,
    startId: req.startId,
    withContent: req.withContent,
    ...(req.endId > 0 ? { endId: req.endId } : {}),
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
    ...(req.user ? { user: req.user } : {}),
    ...(req.excludeUser ? { excludeUser: req.excludeUser } : {}),
    ...(req.tag ? { tag: req.tag } : {}),
  });
  return { revisions: range.revisions.map(revisionMessage), nextId: range.nextId };
}

export function revisionHandlers(ctx: ContentContext) {
  return {
    getRevisions: (req: GetRevisionsRequest) => getRevisions(ctx, req),
  };
}
