/*
 * list=backlinks, list=embeddedin and list=imageusage (MediaWiki's ApiQueryBacklinks, one
 * implementation for pagelinks, templatelinks and imagelinks): the pages linking to a title,
 * with `redirect` also those linking through redirects to it (`redirlinks`); generators of those
 * pages.
 */
import { LinkTable, type LinkingPage, type ListBacklinksResponse, RedirectFilter } from '../../clients/types.js';
import { ApiUsageError, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { messageOfFailure } from '../params.js';
import { checkIntegerRange, type ParamFailure } from '../../validation/typedefs.js';
import { defineParams, type ParamsOf } from '../define.js';
import { defineGenerator, type GeneratorModule } from './generator.js';
import { CONTINUE_PARAM, DIR_PARAM, setContinue } from './linktables.js';
import { modulePath, queryRunOf, type QueryRun } from './run.js';

interface BacklinksKind {
  name: 'backlinks' | 'embeddedin' | 'imageusage';
  prefix: 'bl' | 'ei' | 'iu';
  table: LinkTable;
  summary: string;
  example: string;
}

const REDIRECT_FILTERS = { all: RedirectFilter.REDIRECT_FILTER_ALL, redirects: RedirectFilter.REDIRECT_FILTER_REDIRECTS, nonredirects: RedirectFilter.REDIRECT_FILTER_NONREDIRECTS } as const;

function backlinksParams(prefix: BacklinksKind['prefix']) {
  return defineParams({
    title: { type: 'string', help: `Title to search. Cannot be used together with ${prefix}pageid.` },
    pageid: { type: 'integer', help: `Page ID to search. Cannot be used together with ${prefix}title.` },
    continue: CONTINUE_PARAM,
    namespace: { type: 'namespace', multi: true, help: 'The namespace to enumerate.' },
    dir: DIR_PARAM,
    filterredir: { type: ['all', 'redirects', 'nonredirects'], default: 'all', help: 'How to filter for redirects.' },
    // Halved again when the module runs if `redirect` is set.
    limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many total pages to return. If bl/iuredirect is enabled, the limit applies to each level separately.' },
  });
}

const REDIRECT_PARAM = defineParams({
  redirect: { type: 'boolean', default: false, help: 'If linking page is a redirect, find all pages that link to that redirect as well. Maximum limit is halved.' },
});

/** The parameters as run() reads them: list=embeddedin has no `redirect`. */
type BacklinksContext = ActionContext<ParamsOf<ReturnType<typeof backlinksParams>> & Partial<ParamsOf<typeof REDIRECT_PARAM>>>;

/** ApiBase::LIMIT_BIG1/2, halved when redirects are followed (each page may bring its redirlinks). */
function effectiveLimit(ctx: BacklinksContext, kind: BacklinksKind): number {
  const p = ctx.params;
  const follow = p.redirect;
  const [userMax, botMax] = follow ? [250, 2500] : [500, 5000];
  const max = ctx.highLimits ? botMax : userMax;
  if (ctx.raw.get(`${ctx.module.prefix}limit`) === 'max') {
    const limits = (ctx.result.limits ??= {}) as ResultObject;
    limits[kind.name] = max;
    return max;
  }
  // ApiQueryBacklinks validates the limit again against these maxima (IntegerDef, range ignored).
  const warn = (f: ParamFailure) => ctx.addWarning(modulePath(ctx.module), messageOfFailure(f));
  const name = `${ctx.module.prefix}limit`;
  return checkIntegerRange(name, String(p.limit), p.limit, { min: 1, max: userMax, highMax: botMax }, { highLimits: ctx.highLimits, enforce: false, warn });
}

async function run(ctx: BacklinksContext, query: QueryRun, kind: BacklinksKind, generator: boolean): Promise<ListBacklinksResponse> {
  const p = ctx.params;
  const prefix = ctx.module.prefix;
  const title = p.title;
  const pageId = p.pageid;
  if (title === undefined && pageId === undefined) throw new ApiUsageError('missingparam', `One of the parameters "${prefix}title" and "${prefix}pageid" is required.`);
  if (title !== undefined && pageId !== undefined) throw new ApiUsageError('invalidparammix', `The parameters "${prefix}title" and "${prefix}pageid" can not be used together.`);
  const resp = await ctx.deps.clients.content.listBacklinks({
    table: kind.table,
    title: title ?? '',
    pageId: pageId ?? 0,
    namespaces: p.namespace ?? [],
    filterRedirects: REDIRECT_FILTERS[p.filterredir],
    redirect: p.redirect ?? false,
    continue: p.continue ?? '',
    descending: p.dir === 'descending',
    limit: effectiveLimit(ctx, kind),
  });
  setContinue(ctx, query, `${kind.prefix}continue`, resp.continue, generator);
  return resp;
}

function entry(page: LinkingPage, tag: string): ResultObject {
  const vals: ResultObject = { pageid: page.id, ns: page.ns, title: page.title };
  if (page.redirect) vals.redirect = true;
  if (page.redirlinks.length)
    vals.redirlinks = setIndexedTagName(
      page.redirlinks.map((r) => entry(r, tag)),
      tag,
    );
  return vals;
}

function backlinksModule(kind: BacklinksKind): GeneratorModule {
  const base = backlinksParams(kind.prefix);
  return defineGenerator({
    name: kind.name,
    group: 'list',
    prefix: kind.prefix,
    summary: kind.summary,
    params: kind.name === 'embeddedin' ? base : { ...base, ...REDIRECT_PARAM },
    flags: { generator: true },
    examples: { [kind.example]: `Show the pages of ${kind.name}.` },
    async execute(ctx, query) {
      const q = queryRunOf(query);
      const resp = await run(ctx, q, kind, false);
      q.data[kind.name] = setIndexedTagName(
        resp.pages.map((pg) => entry(pg, kind.prefix)),
        kind.prefix,
      );
    },
    async generate(ctx, query) {
      const resp = await run(ctx, query, kind, true);
      // ApiPageSet::processDbRow for both queries: the linking pages, then those linking through redirects.
      return [...resp.pages.map((pg) => pg.id), ...resp.pages.flatMap((pg) => pg.redirlinks.map((r) => r.id))];
    },
  });
}

export const backlinksListModule = backlinksModule({
  name: 'backlinks',
  prefix: 'bl',
  table: LinkTable.LINK_TABLE_PAGELINKS,
  summary: 'Find all pages that link to the given page.',
  example: 'action=query&list=backlinks&bltitle=Main%20Page',
});
export const embeddedinModule = backlinksModule({
  name: 'embeddedin',
  prefix: 'ei',
  table: LinkTable.LINK_TABLE_TEMPLATELINKS,
  summary: 'Find all pages that embed (transclude) the given title.',
  example: 'action=query&list=embeddedin&eititle=Template:Stub',
});
export const imageusageModule = backlinksModule({
  name: 'imageusage',
  prefix: 'iu',
  table: LinkTable.LINK_TABLE_IMAGELINKS,
  summary: 'Find all pages that use the given image title.',
  example: 'action=query&list=imageusage&iutitle=File:Albert%20Einstein%20Head.jpg',
});
