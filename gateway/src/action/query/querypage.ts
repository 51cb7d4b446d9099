/*
 * list=querypage (MediaWiki's ApiQueryQueryPage): the results of a QueryPage special page
 * (Ancientpages, Shortpages, Wantedcategories…), computed live as MediaWiki does without
 * $wgMiserMode (so neither `cached` nor `maxresults` is reported); a generator of their titles.
 * Only the pages the content service computes are offered (Special pages whose data this wiki
 * does not keep, such as MediaStatistics, are absent rather than empty).
 */
import { setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

/** The pages whose value is a time (QueryPage::usesTimestamps). */
const TIMESTAMP_PAGES = new Set(['Ancientpages']);

export const QUERY_PAGE_NAMES = [
  'Ancientpages',
  'Deadendpages',
  'Fewestrevisions',
  'ListDuplicatedFiles',
  'Lonelypages',
  'Longpages',
  'Mostcategories',
  'Mostinterwikis',
  'Mostlinkedcategories',
  'Mostlinkedtemplates',
  'Mostrevisions',
  'Shortpages',
  'Uncategorizedcategories',
  'Uncategorizedimages',
  'Uncategorizedpages',
  'Uncategorizedtemplates',
  'Unusedcategories',
  'Unusedtemplates',
  'Wantedcategories',
  'Withoutinterwiki',
] as const;

function fetchPage(ctx: ContextOf<typeof params>) {
  const p = ctx.params;
  return ctx.deps.clients.lists.runQueryPage({ page: p.page, offset: p.offset, limit: p.limit });
}

/** Where the next batch starts (ApiQueryQueryPage: offset + limit). */
function nextOffset(ctx: ContextOf<typeof params>): number {
  return ctx.params.offset + ctx.params.limit;
}

const params = defineParams({
  page: { type: QUERY_PAGE_NAMES, required: true, help: 'The name of the special page. Note, this is case-sensitive.' },
  offset: { type: 'integer', default: 0, help: 'When more results are available, use this to continue.' },
  limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'Number of results to return.' },
});

export const querypageModule = defineGenerator({
  name: 'querypage',
  group: 'list',
  prefix: 'qp',
  summary: 'Get a list provided by a QueryPage-based special page.',
  params,
  flags: { generator: true },
  examples: { 'action=query&list=querypage&qppage=Ancientpages': 'Return results from Special:Ancientpages.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const name = ctx.params.page;
    const resp = await fetchPage(ctx);
    const results = resp.rows.map((row) => {
      const item: ResultObject = {};
      if (row.hasValue) {
        item.value = row.value;
        if (TIMESTAMP_PAGES.has(name)) item.timestamp = row.timestamp;
      }
      return Object.assign(item, { ns: row.ns, title: row.title });
    });
    run.data.querypage = { name, results: setIndexedTagName(results, 'page') };
    if (resp.more) run.continuation.addContinueParam('querypage', 'qpoffset', nextOffset(ctx));
  },
  async generate(ctx, run: QueryRun) {
    const resp = await fetchPage(ctx);
    const current = ctx.params.offset;
    if (current) run.continuation.addGeneratorNonContinueParam('gqpoffset', current);
    if (resp.more) run.continuation.addGeneratorContinueParam('gqpoffset', nextOffset(ctx));
    return { titles: resp.rows.map((r) => r.title) };
  },
});
