/*
 * list=random (MediaWiki's ApiQueryRandom): pages from a random point of page_random on, wrapping
 * around once, so continuing lists every page once; a generator of those pages.
 */
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { CONTINUE_PARAM } from './linktables.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

const FILTERS = { all: 0, redirects: 1, nonredirects: 2 } as const;

async function fetchRandom(ctx: ContextOf<typeof params>) {
  const p = ctx.params;
  // The default filterredir (nonredirects) does not clash with the deprecated redirect flag; a given one does.
  if (ctx.raw.has(`${ctx.module.prefix}filterredir`) && p.redirect) {
    throw new ApiUsageError('invalidparammix', `The parameters "${ctx.module.prefix}filterredir" and "${ctx.module.prefix}redirect" can not be used together.`);
  }
  const filter = p.redirect ? FILTERS.redirects : FILTERS[p.filterredir];
  const resp = await ctx.deps.clients.lists.listRandomPages({
    namespaces: p.namespace ?? [],
    filterRedirects: filter,
    limit: p.limit,
    continue: p.continue ?? '',
  });
  return { resp, filter };
}

const params = defineParams({
  namespace: { type: 'namespace', multi: true, help: 'Return pages in these namespaces only.' },
  filterredir: { type: ['all', 'redirects', 'nonredirects'], default: 'nonredirects', help: 'How to filter for redirects.' },
  redirect: { type: 'boolean', default: false, deprecated: true, help: 'Use rnfilterredir=redirects instead.' },
  limit: { type: 'limit', default: 1, min: 1, max: 500, highMax: 5000, help: 'Limit how many random pages will be returned.' },
  continue: CONTINUE_PARAM,
});

export const randomModule = defineGenerator({
  name: 'random',
  group: 'list',
  prefix: 'rn',
  summary: 'Get a set of random pages.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=random&rnnamespace=0&rnlimit=2': 'Return two random pages from the main namespace.',
    'action=query&generator=random&grnnamespace=0&grnlimit=2&prop=info': 'Return page info about two random pages from the main namespace.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const { resp, filter } = await fetchRandom(ctx);
    run.data.random = setIndexedTagName(
      resp.pages.map((pg) => {
        const item: ResultObject = { id: pg.id, ns: pg.ns, title: pg.title };
        if (filter === FILTERS.all) item.redirect = pg.redirect;
        return item;
      }),
      'page',
    );
    if (resp.continue) run.continuation.addContinueParam('random', 'rncontinue', resp.continue);
  },
  async generate(ctx, run: QueryRun) {
    const { resp } = await fetchRandom(ctx);
    // The batch's own position, even on the first request: prop modules continue within it.
    run.continuation.addGeneratorNonContinueParam('grncontinue', resp.current);
    if (resp.continue) run.continuation.addGeneratorContinueParam('grncontinue', resp.continue);
    return resp.pages.map((pg) => pg.id);
  },
});
