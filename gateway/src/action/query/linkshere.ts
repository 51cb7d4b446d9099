/*
 * prop=linkshere, prop=transcludedin, prop=fileusage and prop=redirects (MediaWiki's
 * ApiQueryBacklinksprop, one implementation for pagelinks, templatelinks, imagelinks and
 * redirect): the pages linking (or redirecting) to each page of the page set (existing, missing
 * and special titles alike); generators of those pages.
 */
import { LinkTable, type ListPageBacklinksResponse, RedirectFilter } from '../../clients/types.js';
import { ApiUsageError, type ResultObject } from '../types.js';
import { defineParams, type ContextOf } from '../define.js';
import { defineGenerator, type GeneratorModule } from './generator.js';
import { CONTINUE_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf, type QueryRun } from './run.js';

interface BacklinksPropKind {
  name: 'linkshere' | 'transcludedin' | 'fileusage' | 'redirects';
  prefix: 'lh' | 'ti' | 'fu' | 'rd';
  table: LinkTable;
  summary: string;
  exampleTitle: string;
}

/** The page set's titles that can have backlinks, with the result id each one is listed under. */
function targetsOf(query: QueryRun): Map<string, number> {
  const ps = query.pageSet;
  return new Map<string, number>([
    ...ps.good.map((p): [string, number] => [p.title, p.id]),
    ...ps.missing.map((m): [string, number] => [m.page.title, m.id]),
    ...ps.special.map((s): [string, number] => [s.page.title, s.id]),
  ]);
}

/** The parameters of each kind (prop=redirects lists only redirects, so it offers the fragment instead of the redirect flag). */
function backlinksPropParams(isRedirects: boolean) {
  return defineParams({
    prop: isRedirects
      ? { type: ['pageid', 'title', 'fragment'], multi: true, default: 'pageid|title', help: 'Which properties to get.' }
      : { type: ['pageid', 'title', 'redirect'], multi: true, default: 'pageid|title|redirect', help: 'Which properties to get.' },
    namespace: { type: 'namespace', multi: true, help: 'Only include pages in these namespaces.' },
    show: { type: isRedirects ? ['fragment', '!fragment'] : ['redirect', '!redirect'], multi: true, help: 'Show only items that meet these criteria.' },
    limit: { ...LIMIT_PARAM, help: 'How many to return.' },
    continue: CONTINUE_PARAM,
  });
}

async function run(
  ctx: ContextOf<ReturnType<typeof backlinksPropParams>>,
  query: QueryRun,
  kind: BacklinksPropKind,
  targets: Map<string, number>,
  generator: boolean,
): Promise<ListPageBacklinksResponse | undefined> {
  const p = ctx.params;
  const show = new Set<string>(p.show ?? []);
  if ((show.has('redirect') && show.has('!redirect')) || (show.has('fragment') && show.has('!fragment'))) {
    throw new ApiUsageError('show', 'Incorrect parameter - mutually exclusive values may not be supplied.');
  }
  const namespaces = p.namespace;
  // An empty namespace list (e.g. only unknown namespaces) matches nothing.
  if (!targets.size || (namespaces !== undefined && namespaces.length === 0)) return undefined;
  const resp = await ctx.deps.clients.content.listPageBacklinks({
    table: kind.table,
    targets: [...targets.keys()],
    namespaces: namespaces ?? [],
    filterRedirects: show.has('redirect') ? RedirectFilter.REDIRECT_FILTER_REDIRECTS : show.has('!redirect') ? RedirectFilter.REDIRECT_FILTER_NONREDIRECTS : RedirectFilter.REDIRECT_FILTER_ALL,
    continue: p.continue ?? '',
    limit: p.limit,
    fragmentFilter: show.has('fragment') ? 1 : show.has('!fragment') ? 2 : 0,
  });
  setContinue(ctx, query, `${kind.prefix}continue`, resp.continue, generator);
  return resp;
}

function backlinksPropModule(kind: BacklinksPropKind): GeneratorModule {
  return defineGenerator({
    name: kind.name,
    group: 'prop',
    prefix: kind.prefix,
    summary: kind.summary,
    params: backlinksPropParams(kind.name === 'redirects'),
    flags: { generator: true },
    examples: {
      [`action=query&prop=${kind.name}&titles=${encodeURIComponent(kind.exampleTitle)}`]: `Get a list of pages for ${kind.exampleTitle}.`,
      [`action=query&generator=${kind.name}&titles=${encodeURIComponent(kind.exampleTitle)}&prop=info`]: `Get information about the pages of ${kind.exampleTitle}.`,
    },
    async execute(ctx, query) {
      const q = queryRunOf(query);
      const props = new Set<string>(ctx.params.prop);
      const targets = targetsOf(q);
      const resp = await run(ctx, q, kind, targets, false);
      for (const link of resp?.links ?? []) {
        const page = link.page;
        const id = targets.get(link.target);
        if (!page || id === undefined) continue;
        const vals: ResultObject = {};
        if (props.has('pageid')) vals.pageid = page.id;
        if (props.has('title')) Object.assign(vals, { ns: page.ns, title: page.title });
        if (props.has('fragment') && link.fragment !== '') vals.fragment = link.fragment;
        if (props.has('redirect')) vals.redirect = page.redirect;
        addPageSubItem(q.pages, id, kind.name, kind.prefix, vals);
      }
    },
    async generate(ctx, query) {
      const resp = await run(ctx, query, kind, targetsOf(query), true);
      return { titles: (resp?.links ?? []).flatMap((l) => (l.page ? [l.page.title] : [])) };
    },
  });
}

export const linkshereModule = backlinksPropModule({
  name: 'linkshere',
  prefix: 'lh',
  table: LinkTable.LINK_TABLE_PAGELINKS,
  summary: 'Find all pages that link to the given pages.',
  exampleTitle: 'Main Page',
});
export const transcludedinModule = backlinksPropModule({
  name: 'transcludedin',
  prefix: 'ti',
  table: LinkTable.LINK_TABLE_TEMPLATELINKS,
  summary: 'Find all pages that transclude the given pages.',
  exampleTitle: 'Main Page',
});
export const fileusageModule = backlinksPropModule({
  name: 'fileusage',
  prefix: 'fu',
  table: LinkTable.LINK_TABLE_IMAGELINKS,
  summary: 'Find all pages that use the given files.',
  exampleTitle: 'File:Example.jpg',
});
export const redirectsPropModule = backlinksPropModule({
  name: 'redirects',
  prefix: 'rd',
  table: LinkTable.LINK_TABLE_REDIRECT,
  summary: 'Returns all redirects to the given pages.',
  exampleTitle: 'Main Page',
});
