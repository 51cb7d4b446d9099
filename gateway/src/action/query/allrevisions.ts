/*
 * list=allrevisions (MediaWiki's ApiQueryAllRevisions): the live revisions of every page by
 * timestamp, grouped by page in order of first appearance, with prop=revisions' fields; also a
 * generator of revisions (or, with generatetitles, of their pages).
 */
import { continueParts, continueTimestampIso } from './continuation.js';
import { isoFromMwParam } from '../../validation/typedefs.js';
import { setIndexedTagName } from '../types.js';
import { mwTimestamp } from './encoding.js';
import { groupByTitle } from './deletedrevisions.js';
import { DIRECTION_PARAMS, hiddenUserMask, parseRevisionBase, requireOneUserFilter, REVISION_BASE_PARAMS, revisionsInfo } from './revisions-base.js';
import { queryRunOf } from './run.js';
import type { PagedRevision } from '../../clients/types.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

const USER_TYPES = ['name', 'ip', 'interwiki'] as const;

/** Up to `limit` revisions and the continuation of the row after them. */
async function listRevisions(ctx: ContextOf<typeof params>, limit: number, withContent: boolean): Promise<{ rows: PagedRevision[]; next?: string; first?: string }> {
  requireOneUserFilter(ctx);
  const p = ctx.params;
  const namespaces = p.namespace;
  const cont = p.continue;
  const cursor = cont !== undefined ? continueParts(cont, 2, [1]) : undefined;
  const resp = await ctx.deps.clients.archive.listAllRevisions({
    allNamespaces: namespaces === undefined,
    namespaces: namespaces ?? [],
    startTimestamp: isoFromMwParam(p.start) ?? '',
    endTimestamp: isoFromMwParam(p.end) ?? '',
    dirNewer: p.dir === 'newer',
    user: p.user ?? '',
    excludeUser: p.excludeuser ?? '',
    hiddenUserMask: hiddenUserMask(ctx),
    ...(cursor ? { cursorTimestamp: continueTimestampIso(cursor[0]!), cursorRevId: Number(cursor[1]) } : {}),
    limit: limit + 1,
    withContent,
  });
  const key = (r: PagedRevision) => `${mwTimestamp(r.revision!.timestamp)}|${r.revision!.id}`;
  const rows = resp.revisions.filter((r) => r.revision);
  return {
    rows: rows.slice(0, limit),
    ...(rows.length > limit ? { next: key(rows[limit]!) } : {}),
    ...(rows[0] ? { first: key(rows[0]) } : {}),
  };
}

const params = defineParams({
  ...REVISION_BASE_PARAMS,
  user: { type: 'user', userTypes: USER_TYPES, help: 'Only list revisions by this user.' },
  namespace: { type: 'namespace', multi: true, allowAll: true, help: 'Only list pages in this namespace.' },
  ...DIRECTION_PARAMS,
  excludeuser: { type: 'user', userTypes: USER_TYPES, help: "Don't list revisions by this user." },
  continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  generatetitles: { type: 'boolean', default: false, help: 'When being used as a generator, generate titles rather than revision IDs.' },
});

export const allrevisionsModule = defineGenerator({
  name: 'allrevisions',
  group: 'list',
  prefix: 'arv',
  summary: 'List all revisions.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=allrevisions&arvuser=Example&arvlimit=50': 'List the last 50 contributions by user Example.',
    'action=query&list=allrevisions&arvdir=newer&arvlimit=50': 'List the first 50 revisions in any namespace.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const base = await parseRevisionBase(ctx);
    const { rows, next } = await listRevisions(ctx, base.limit, base.withContent);
    if (next) run.continuation.addContinueParam('allrevisions', 'arvcontinue', next);
    const infos = await revisionsInfo(
      ctx,
      base,
      rows.map((r) => ({ rev: r.revision!, title: r.title })),
    );
    run.data.allrevisions = rows.length
      ? await groupByTitle(
          ctx,
          rows.map((r, i) => ({ title: r.title, ns: r.ns, info: infos[i]! })),
        )
      : setIndexedTagName([], 'page');
  },
  /** Revision ids (or, with generatetitles, the pages of those revisions); the limit is garvlimit or 10, as MediaWiki. */
  async generate(ctx, run) {
    const limit = ctx.params.limit ?? 10;
    const { rows, next, first } = await listRevisions(ctx, limit, false);
    // The list of all revisions grows at its start: the current batch is a non-continue parameter.
    if (first) run.continuation.addGeneratorNonContinueParam('garvcontinue', first);
    if (next) run.continuation.addGeneratorContinueParam('garvcontinue', next);
    if (ctx.params.generatetitles) return [...new Set(rows.map((r) => r.revision!.pageId))];
    return { revIds: rows.map((r) => r.revision!.id) };
  },
});
