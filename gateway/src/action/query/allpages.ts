/*
 * list=allpages (MediaWiki's ApiQueryAllPages): the pages of one namespace in title order, with
 * continuation on the title; also a generator (generator=allpages, parameters gap*).
 */
import { RedirectFilter } from '../../clients/types.js';
import { ApiUsageError, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

const REDIRECT_FILTERS = { all: RedirectFilter.REDIRECT_FILTER_ALL, redirects: RedirectFilter.REDIRECT_FILTER_REDIRECTS, nonredirects: RedirectFilter.REDIRECT_FILTER_NONREDIRECTS } as const;

/** ApiQueryBase::titlePartToKey: spaces become underscores, the first letter is uppercased in first-letter namespaces. */
function titlePartToKey(part: string, capitalized: boolean): string {
  const key = part.trim().replace(/ /g, '_');
  return capitalized && key ? key[0]!.toUpperCase() + key.slice(1) : key;
}

/** titlePartToKey for namespace `ns` of this wiki: a string parameter's DB key, undefined when absent. */
export async function titlePartKeyer(ctx: ActionContext, ns: number): Promise<(v: unknown) => string | undefined> {
  const namespaces = (await ctx.deps.site.namespaces()).namespaces;
  const capitalized = namespaces.find((n) => n.id === ns)?.case !== 'case-sensitive';
  return (v) => (typeof v === 'string' ? titlePartToKey(v, capitalized) : undefined);
}

/** What a listing needs of a page: its id, and its namespace and title to show. */
interface ListedPage {
  id: number;
  ns: number;
  title: string;
}

const CASCADE_FILTERS = { all: 0, cascading: 1, noncascading: 2 } as const;
const EXPIRY_FILTERS = { all: 0, indefinite: 1, definite: 2 } as const;
const LANGLINK_FILTERS = { all: 0, withlanglinks: 1, withoutlanglinks: 2 } as const;

async function listPages(ctx: ContextOf<typeof params>): Promise<{ pages: ListedPage[]; continueFrom: string }> {
  const p = ctx.params;
  const ns = p.namespace ?? 0;
  const key = await titlePartKeyer(ctx, ns);
  const descending = p.dir === 'descending';
  // apcontinue replaces apfrom (ApiQueryAllPages: `$params['continue'] ?? $params['from']`).
  const cont = p.continue;
  const from = cont !== undefined ? cont : key(p.from);
  const limit = p.limit;
  const common = {
    namespace: ns,
    from: from ?? '',
    to: key(p.to) ?? '',
    prefix: key(p.prefix) ?? '',
    filterRedirects: REDIRECT_FILTERS[p.filterredir],
    ...(typeof p.minsize === 'number' ? { minSize: p.minsize } : {}),
    ...(typeof p.maxsize === 'number' ? { maxSize: p.maxsize } : {}),
    descending,
    limit,
  };
  const types = p.prtype ?? [];
  const expiry = EXPIRY_FILTERS[p.prexpiry];
  if (!types.length && !expiry && p.prlevel !== undefined) {
    throw new ApiUsageError('invalidparammix', 'The "prlevel" parameter may only be used with "prtype".');
  }
  const langlinks = LANGLINK_FILTERS[p.filterlanglinks];
  // The protection and language-link filters are the ListService's; plain listings stay on ListPages.
  if (types.length || expiry || langlinks) {
    return ctx.deps.clients.lists.listFilteredPages({
      ...common,
      protectionTypes: types,
      protectionLevels: types.length ? (p.prlevel ?? []).filter((l) => l !== '') : [],
      cascadeFilter: types.length ? CASCADE_FILTERS[p.prfiltercascade] : 0,
      expiryFilter: expiry,
      langlinksFilter: langlinks,
    });
  }
  return ctx.deps.clients.content.listPages(common);
}

const params = defineParams({
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
  prtype: { type: ['edit', 'move', 'upload'], multi: true, help: 'Limit to protected pages only.' },
  prlevel: { type: ['', 'autoconfirmed', 'sysop'], multi: true, help: 'Filter protections based on protection level (must be used with apprtype= parameter).' },
  prfiltercascade: { type: ['cascading', 'noncascading', 'all'], default: 'all', help: "Filter protections based on cascadingness (ignored when apprtype isn't set)." },
  filterlanglinks: {
    type: ['withlanglinks', 'withoutlanglinks', 'all'],
    default: 'all',
    help: 'Filter based on whether a page has langlinks. Note that this may not consider langlinks added by extensions.',
  },
  prexpiry: { type: ['indefinite', 'definite', 'all'], default: 'all', help: 'Which protection expiry to filter the page on.' },
});

export const allpagesModule = defineGenerator({
  name: 'allpages',
  group: 'list',
  prefix: 'ap',
  summary: 'Enumerate all pages sequentially in a given namespace.',
  params,
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
});
