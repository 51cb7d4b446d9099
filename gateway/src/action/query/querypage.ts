/*
 * list=querypage (MediaWiki's ApiQueryQueryPage): the results of a QueryPage special page
 * (Ancientpages, Shortpages, Wantedcategories…), computed live as MediaWiki does without
 * $wgMiserMode (so neither `cached` nor `maxresults` is reported); a generator of their titles.
 * Every page of MediaWiki 1.39 core; Unwatchedpages needs the unwatchedpages right, as its special page.
 */
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

/** The pages whose value is a time (QueryPage::usesTimestamps). */
const TIMESTAMP_PAGES = new Set(['Ancientpages', 'Unusedimages']);

export const QUERY_PAGE_NAMES = [
  'Ancientpages',
  'BrokenRedirects',
  'Deadendpages',
  'DoubleRedirects',
  'Fewestrevisions',
  'ListDuplicatedFiles',
  'Listredirects',
  'Lonelypages',
  'Longpages',
  'MediaStatistics',
  'Mostcategories',
  'Mostimages',
  'Mostinterwikis',
  'Mostlinked',
  'Mostlinkedcategories',
  'Mostlinkedtemplates',
  'Mostrevisions',
  'Shortpages',
  'Uncategorizedcategories',
  'Uncategorizedimages',
  'Uncategorizedpages',
  'Uncategorizedtemplates',
  'Unusedcategories',
  'Unusedimages',
  'Unusedtemplates',
  'Unwatchedpages',
  'Wantedcategories',
  'Wantedfiles',
  'Wantedpages',
  'Wantedtemplates',
  'Withoutinterwiki',
] as const;

/** QueryPage::userCanExecute: the special pages with a restriction and the right it needs. */
const RESTRICTED_PAGES: Partial<Record<string, string>> = { Unwatchedpages: 'unwatchedpages' };

function fetchPage(ctx: ContextOf<typeof params>) {
  const p = ctx.params;
  const right = RESTRICTED_PAGES[p.page];
  if (right && !ctx.caller.user.rights.includes(right)) {
    throw new ApiUsageError('specialpage-cantexecute', "You don't have permission to view the results of this special page.");
  }
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
      Object.assign(item, { ns: row.ns, title: row.title });
      // The query's other columns, as ApiQueryQueryPage copies them.
      if (row.databaseResultJson) item.databaseResult = JSON.parse(row.databaseResultJson) as ResultObject;
      return item;
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
