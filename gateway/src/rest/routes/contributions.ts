/*
 * GET /coredev/v0/me/contributions, /coredev/v0/user/{user}/contributions and their /count
 * (MediaWiki's UserContributionsHandler and ContributionsCountHandler over ContributionsLookup,
 * from coreDevelopmentRoutes.json). A list is one segment of at most `limit` revisions, newest
 * first, with links to the older, newer and latest segments; `segment` is "before|<TS_MW>" or
 * "after|<TS_MW>" as ContribsPager's paging offsets make them. Revisions whose author the caller
 * may not see are neither listed nor counted.
 */
import { isIP } from 'node:net';
import { escapeHtml } from '../../action/errors.js';
import { SOFTWARE_TAG_TEXTS } from '../../action/query/tags.js';
import type { Caller } from '../../context.js';
import { DELETED_COMMENT, hiddenAuthorBits } from '../../revdel.js';
import { defineRoute, RestError, type RestContext } from '../types.js';
import { isoTimestamp } from './pageContent.js';

/** AbstractContributionHandler::MAX_LIMIT. */
export const CONTRIBUTIONS_MAX_LIMIT = 20;

/** ContributionsLookup::getPagerParams: a segment as the pager's direction and offset. */
export function parseSegment(segment: string): { backwards: boolean; offset: string } {
  const bar = segment.indexOf('|');
  if (bar < 0) return { backwards: false, offset: '' };
  const [dir, offset] = [segment.slice(0, bar), segment.slice(bar + 1)];
  if (dir !== 'after' && dir !== 'before') return { backwards: false, offset: '' };
  return { backwards: dir === 'after', offset };
}

const userPathParam = {
  user: { source: 'path', type: 'user', required: true, userTypes: ['name', 'ip'], description: 'The user whose contributions to list (a name or an IP address)' },
} as const;

const tagParam = { tag: { source: 'query', type: 'string', description: 'Only revisions with this change tag' } } as const;

const listParams = {
  limit: { source: 'query', type: 'integer', default: CONTRIBUTIONS_MAX_LIMIT, min: 1, max: CONTRIBUTIONS_MAX_LIMIT, description: 'Revisions per segment' },
  segment: { source: 'query', type: 'string', default: '', description: 'Which segment: "before|<timestamp>" or "after|<timestamp>" from a previous response' },
  ...tagParam,
} as const;

/**
 * AbstractContributionHandler::getTargetUser: the caller (registered only: 401 otherwise) or the
 * named user, who must have an account unless the name is an IP address (404 otherwise).
 */
async function targetUser(ctx: Pick<RestContext, 'caller' | 'deps'>, user: string | undefined): Promise<{ name: string; caller: Caller }> {
  const caller = await ctx.caller();
  if (user === undefined) {
    if (caller.user.anonymous || caller.user.id === 0) throw new RestError(401, 'Not accessible by anonymous user');
    return { name: caller.user.name, caller };
  }
  const name = user;
  if (isIP(name) === 0) {
    const found = await ctx.deps.clients.auth.getUsers({ names: [name] });
    const account = found.users[0]?.user;
    if (!account) throw new RestError(404, `The specified user (${name}) does not exist`);
    return { name: account.name, caller };
  }
  return { name, caller };
}

function contributionsRoute(me: boolean) {
  const path = me ? '/coredev/v0/me/contributions' : '/coredev/v0/user/{user}/contributions';
  return defineRoute({
    method: 'GET',
    path,
    summary: me ? "The caller's contributions, one segment at a time, newest first" : "A user's contributions, one segment at a time, newest first",
    params: me ? listParams : { ...listParams, ...userPathParam },
    writes: false,
    async execute(ctx) {
      const { name, caller } = await targetUser(ctx, (ctx.params as { user?: string }).user);
      const { limit, segment, tag } = ctx.params;
      const { backwards, offset } = parseSegment(segment);
      const resp = await ctx.deps.clients.content.listContributions({
        user: name,
        limit,
        offset,
        backwards,
        tag: tag ?? '',
        hideBits: hiddenAuthorBits(caller.user.rights),
      });
      // UserContributionsHandler::constructURLs: query parameters in this order, unset ones left out.
      const url = (seg?: string) => ctx.routeUrl(path, me ? {} : { user: name }, { limit: String(limit), ...(tag !== undefined ? { tag } : {}), ...(seg ? { segment: seg } : {}) });
      const before = resp.lastShown ? `before|${resp.lastShown}` : undefined;
      const after = resp.firstShown ? `after|${resp.firstShown}` : undefined;
      const contributions = resp.contributions.map((c) => ({
        id: c.revId,
        // RevisionRecord::getComment() for the public: nothing when the summary is hidden.
        comment: c.deleted & DELETED_COMMENT ? null : c.comment,
        timestamp: isoTimestamp(c.timestamp),
        delta: c.delta ?? null,
        size: c.size,
        tags: c.tags.map((t) => ({ name: t.name, description: t.description || (SOFTWARE_TAG_TEXTS[t.name]?.[0] ?? escapeHtml(t.name)) })),
        type: 'revision',
        page: { id: c.pageId, key: c.dbkey, title: c.dbkey.replace(/_/g, ' ') },
      }));
      return { json: { older: resp.oldest ? null : url(before), newer: url(after), latest: url(), contributions } };
    },
  });
}

function countRoute(me: boolean) {
  return defineRoute({
    method: 'GET',
    path: me ? '/coredev/v0/me/contributions/count' : '/coredev/v0/user/{user}/contributions/count',
    summary: me ? 'How many contributions the caller has made' : 'How many contributions a user has made',
    params: me ? tagParam : { ...tagParam, ...userPathParam },
    writes: false,
    async execute(ctx) {
      const { name, caller } = await targetUser(ctx, (ctx.params as { user?: string }).user);
      const resp = await ctx.deps.clients.content.countContributions({
        user: name,
        tag: ctx.params.tag ?? '',
        hideBits: hiddenAuthorBits(caller.user.rights),
      });
      return { json: { count: resp.count } };
    },
  });
}

/** The contributions routes of coreDevelopmentRoutes.json. */
export const contributionsRoutes = [contributionsRoute(true), contributionsRoute(false), countRoute(true), countRoute(false)];
