/*
 * list=search (MediaWiki's ApiQuerySearch): full-text search through the search service, with
 * sroffset continuation; also a generator (generator=search, parameters gsr*).
 */
import type { SearchHit, SearchPagesResponse } from '../../clients/types.js';
import { setIndexedTagName, type ResultObject } from '../types.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

/** The sorts the search service orders by ("relevance" first: MediaWiki's default). */
const SORTS = [
  'relevance',
  'create_timestamp_asc',
  'create_timestamp_desc',
  'incoming_links_asc',
  'incoming_links_desc',
  'just_match',
  'last_edit_asc',
  'last_edit_desc',
  'none',
  'title_natural_asc',
  'title_natural_desc',
] as const;

const PROPS = [
  'size',
  'wordcount',
  'timestamp',
  'snippet',
  'titlesnippet',
  'redirecttitle',
  'redirectsnippet',
  'sectiontitle',
  'sectionsnippet',
  'isfilematch',
  'categorysnippet',
  'score',
  'hasrelated',
  'extensiondata',
] as const;

async function runSearch(ctx: ContextOf<typeof params>, withSnippets: boolean): Promise<SearchPagesResponse> {
  const p = ctx.params;
  return ctx.deps.clients.search.searchPages({
    query: p.search,
    namespaces: p.namespace ?? [0],
    // MediaWiki tries a title search first when srwhat is absent, and the SQL engines have one.
    what: p.what ?? 'title',
    limit: p.limit,
    offset: p.offset ?? 0,
    sort: p.sort ?? 'relevance',
    withSnippets,
  });
}

/** ApiQuerySearch::getSearchResultData for the requested props, in MediaWiki's key order. */
function hitResult(h: SearchHit, prop: Set<string>): ResultObject {
  const out: ResultObject = { ns: h.namespace, title: h.title, pageid: h.pageId };
  if (prop.has('size')) out.size = h.size;
  if (prop.has('wordcount')) out.wordcount = h.wordCount;
  if (prop.has('snippet')) out.snippet = h.snippet;
  if (prop.has('timestamp')) out.timestamp = h.timestamp;
  if (prop.has('titlesnippet')) out.titlesnippet = h.titleSnippet;
  if (prop.has('categorysnippet')) out.categorysnippet = '';
  if (h.redirectTitle !== '') {
    if (prop.has('redirecttitle')) out.redirecttitle = h.redirectTitle;
    if (prop.has('redirectsnippet')) out.redirectsnippet = h.redirectSnippet;
  }
  // sectiontitle/sectionsnippet: only for hits inside a section, which these engines do not make.
  if (prop.has('isfilematch')) out.isfilematch = false;
  return out;
}

const SNIPPET_PROPS = ['snippet', 'titlesnippet', 'redirectsnippet', 'sectionsnippet', 'categorysnippet'];

const params = defineParams({
  search: {
    type: 'string',
    required: true,
    help: "Search for page titles or content matching this value. You can use the search string to invoke special search features, depending on what the wiki's search backend implements.",
  },
  namespace: { type: 'namespace', multi: true, default: 0, help: 'Search only within these namespaces.' },
  limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many total pages to return.' },
  offset: { type: 'integer', default: 0, help: 'When more results are available, use this to continue.' },
  what: { type: ['title', 'text', 'nearmatch'], help: 'Which type of search to perform.' },
  info: { type: ['totalhits', 'suggestion', 'rewrittenquery'], multi: true, default: 'totalhits|suggestion|rewrittenquery', help: 'Which metadata to return.' },
  prop: { type: PROPS, multi: true, default: 'size|wordcount|timestamp|snippet', deprecatedValues: ['score', 'hasrelated'], help: 'Which properties to return.' },
  interwiki: { type: 'boolean', default: false, help: 'Include interwiki results in the search, if available.' },
  enablerewrites: { type: 'boolean', default: false, help: 'Enable internal query rewriting.' },
  sort: { type: SORTS, default: 'relevance', help: 'Set the sort order of returned results.' },
});

export const searchModule = defineGenerator({
  name: 'search',
  group: 'list',
  prefix: 'sr',
  summary: 'Perform a full text search.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=search&srsearch=meaning': 'Search for meaning.',
    'action=query&list=search&srwhat=text&srsearch=meaning': 'Search texts for meaning.',
    'action=query&generator=search&gsrsearch=meaning&prop=info': 'Get page info about the pages returned for a search for meaning.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const prop = new Set<string>(p.prop ?? []);
    const info = new Set(p.info ?? []);
    const r = await runSearch(
      ctx,
      SNIPPET_PROPS.some((s) => prop.has(s)),
    );
    const searchinfo: ResultObject = {};
    if (info.has('totalhits')) searchinfo.totalhits = r.totalHits;
    if (info.has('suggestion') && r.suggestion !== '') Object.assign(searchinfo, { suggestion: r.suggestion, suggestionsnippet: r.suggestionSnippet });
    if (info.has('rewrittenquery') && r.rewrittenQuery !== '') {
      Object.assign(searchinfo, { rewrittenquery: r.rewrittenQuery, rewrittenquerysnippet: r.rewrittenQuerySnippet });
    }
    if (Object.keys(searchinfo).length > 0) run.data.searchinfo = searchinfo;
    run.data.search = setIndexedTagName(
      r.hits.map((h) => hitResult(h, prop)),
      'p',
    );
    const offset = p.offset ?? 0;
    const limit = p.limit;
    if (offset + limit < r.totalHits) run.continuation.addContinueParam('search', 'sroffset', offset + limit);
  },
  async generate(ctx, run: QueryRun) {
    const r = await runSearch(ctx, false);
    const offset = ctx.params.offset ?? 0;
    if (offset > 0) run.continuation.addGeneratorNonContinueParam('gsroffset', String(offset));
    if (offset + ctx.params.limit < r.totalHits) run.continuation.addGeneratorContinueParam('gsroffset', offset + ctx.params.limit);
    // ApiQuerySearch: each page's place in the results, counted from 1 across batches.
    run.generatorData = new Map(r.hits.map((h, i) => [h.pageId, { index: offset + i + 1 }]));
    return r.hits.map((h) => h.pageId);
  },
});
