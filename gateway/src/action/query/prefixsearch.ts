/*
 * list=prefixsearch (MediaWiki's ApiQueryPrefixSearch): titles starting with the search text,
 * case-insensitively, through the search service's completion; psoffset continuation; also a
 * generator (generator=prefixsearch, parameters gps*). Redirects are listed as themselves.
 */
import type { CompleteTitlesResponse } from '../../clients/types.js';
import { setIndexedTagName, type ResultObject } from '../types.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

function complete(ctx: ContextOf<typeof params>): Promise<CompleteTitlesResponse> {
  const p = ctx.params;
  return ctx.deps.clients.search.completeTitles({
    prefix: p.search,
    namespaces: p.namespace ?? [0],
    limit: p.limit,
    offset: p.offset ?? 0,
    resolveRedirects: false,
  });
}

const params = defineParams({
  search: { type: 'string', required: true, help: 'Search string.' },
  namespace: { type: 'namespace', multi: true, default: 0, help: 'Namespaces to search.' },
  limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'Maximum number of results to return.' },
  offset: { type: 'integer', default: 0, help: 'When more results are available, use this to continue.' },
});

export const prefixsearchModule = defineGenerator({
  name: 'prefixsearch',
  group: 'list',
  prefix: 'ps',
  summary: 'Perform a prefix search for page titles.',
  params,
  flags: { generator: true },
  examples: { 'action=query&list=prefixsearch&pssearch=meaning': 'Search for page titles beginning with meaning.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const r = await complete(ctx);
    run.data.prefixsearch = setIndexedTagName(
      r.matches.map((m): ResultObject => ({ ns: m.namespace, title: m.title, pageid: m.pageId })),
      'p',
    );
    if (r.hasMore) run.continuation.addContinueParam('prefixsearch', 'psoffset', (ctx.params.offset ?? 0) + ctx.params.limit);
  },
  async generate(ctx, run: QueryRun) {
    const r = await complete(ctx);
    const offset = ctx.params.offset ?? 0;
    if (offset > 0) run.continuation.addGeneratorNonContinueParam('gpsoffset', String(offset));
    if (r.hasMore) run.continuation.addGeneratorContinueParam('gpsoffset', offset + ctx.params.limit);
    // ApiQueryPrefixSearch: each page's place in the results, counted from 1 across batches.
    run.generatorData = new Map(r.matches.map((m, i) => [m.pageId, { index: offset + i + 1 }]));
    return r.matches.map((m) => m.pageId);
  },
});
