/*
 * list=allpages (MediaWiki's ApiQueryAllPages): the pages of one namespace in title order, with
 * continuation on the title; also a generator (generator=allpages, parameters gap*).
 */
import { RedirectFilter, type ListPagesResponse } from '@quire/proto/wiki/content/v1/content';
import { ApiUsageError, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import type { GeneratorModule } from './generator.js';
import { queryRunOf, type QueryRun } from './run.js';

const REDIRECT_FILTERS = { all: RedirectFilter.REDIRECT_FILTER_ALL, redirects: RedirectFilter.REDIRECT_FILTER_REDIRECTS, nonredirects: RedirectFilter.REDIRECT_FILTER_NONREDIRECTS } as const;

/** ApiQueryBase::titlePartToKey: spaces become underscores, the first letter is uppercased in first-letter namespaces. */
function titlePartToKey(part: string, capitalized: boolean): string {
  const key = part.trim().replace(/ /g, '_');
  return capitalized && key ? key[0]!.toUpperCase() + key.slice(1) : key;
}

async function listPages(ctx: ActionContext): Promise<ListPagesResponse> {
  const p = ctx.params;
  const ns = (p.namespace as number | undefined) ?? 0;
  const namespaces = (await ctx.deps.site.namespaces()).namespaces;
  const capitalized = namespaces.find((n) => n.id === ns)?.case !== 'case-sensitive';
  const key = (v: unknown) => (typeof v === 'string' ? titlePartToKey(v, capitalized) : undefined);
  const descending = p.dir === 'descending';
  // apcontinue replaces apfrom (ApiQueryAllPages: `$params['continue'] ?? $params['from']`).
  const cont = p.continue as string | undefined;
  const from = cont !== undefined ? cont : key(p.from);
  const limit = p.limit as number;
  const resp = await ctx.deps.clients.content.listPages({
    namespace: ns,
    from: from ?? '',
    to: key(p.to) ?? '',
    prefix: key(p.prefix) ?? '',
    filterRedirects: REDIRECT_FILTERS[(p.filterredir as keyof typeof REDIRECT_FILTERS | undefined) ?? 'all'],
    ...(typeof p.minsize === 'number' ? { minSize: p.minsize } : {}),
    ...(typeof p.maxsize === 'number' ? { maxSize: p.maxsize } : {}),
    descending,
    limit,
  });
  return resp;
}

export const allpagesModule: GeneratorModule = {
  name: 'allpages',
  group: 'list',
  prefix: 'ap',
  summary: 'Enumerate all pages sequentially in a given namespace.',
  params: {
    from: { type: 'string', help: 'The page title to start enumerating from.' },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    to: { type: 'string', help: 'The page title to stop enumerating at.' },
    prefix: { type: 'string', help: 'Search for all page titles that begin with this value.' },
    namespace: { type: 'namespace', default: 0, help: 'The namespace to enumerate.' },
    filterredir: { type: ['all', 'redirects', 'nonredirects'], default: 'all', help: 'Which pages to list.' },
    minsize: { type: 'integer', help: 'Limit to pages with at least this many bytes.' },
    maxsize: { type: 'integer', help: 'Limit to pages with at most this many bytes.' },
    limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many total pages to return.' },
    dir: { type: ['ascending', 'descending'], default: 'ascending', help: 'The direction in which to list.' },
  },
  flags: { generator: true },
  examples: {
    'action=query&list=allpages&apfrom=B': 'Show a list of pages starting at the letter B.',
    'action=query&generator=allpages&gaplimit=4&gapfrom=T&prop=info': 'Show info about 4 pages starting at the letter T.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const resp = await listPages(ctx);
    const list = setIndexedTagName(
      resp.pages.map((pg): ResultObject => ({ pageid: pg.id, ns: pg.ns, title: pg.title })),
      'p',
    );
    run.data.allpages = list;
    if (resp.continueFrom) run.continuation.addContinueParam('allpages', 'apcontinue', resp.continueFrom);
  },
  async generate(ctx, run: QueryRun) {
    // Redirects among the generated pages would be resolved to other pages: MediaWiki refuses.
    if (run.resolveRedirects) {
      throw new ApiUsageError('params', 'Use "gapfilterredir=nonredirects" instead of "redirects" when using "allpages" as a generator.');
    }
    const resp = await listPages(ctx);
    const current = ctx.params.continue;
    if (typeof current === 'string') run.continuation.addGeneratorNonContinueParam('gapcontinue', current);
    if (resp.continueFrom) run.continuation.addGeneratorContinueParam('gapcontinue', resp.continueFrom);
    return resp.pages.map((pg) => pg.id);
  },
};
