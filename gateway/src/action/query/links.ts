/*
 * prop=links and prop=templates (MediaWiki's ApiQueryLinks): the pages the page set links to or
 * transcludes, by (page, namespace, title), continuing on `from|ns|title`; both are generators
 * whose titles need not exist.
 */
import { LinkTable, type ListPageLinksResponse } from '../../clients/types.js';
import type { ActionContext, Params } from '../types.js';
import { defineParams, type ParamsOf } from '../define.js';
import { defineGenerator, type GeneratorModule } from './generator.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, pageSetLinks, setContinue } from './linktables.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf, type QueryRun } from './run.js';

interface LinksKind {
  name: 'links' | 'templates';
  prefix: 'pl' | 'tl';
  table: LinkTable;
  /** The parameter naming the only targets wanted (pltitles, tltemplates). */
  titlesParam: 'titles' | 'templates';
  tag: 'pl' | 'tl';
  summary: string;
}

function linksParams(kind: LinksKind) {
  return defineParams({
    namespace: { type: 'namespace', multi: true, extraNamespaces: [-2, -1], help: `Show ${kind.name} in these namespaces only.` },
    limit: { ...LIMIT_PARAM, help: `How many ${kind.name} to return.` },
    continue: CONTINUE_PARAM,
    [kind.titlesParam]: { type: 'string', multi: true, help: `Only list ${kind.name} to these titles. Useful for checking whether a certain page links to a certain title.` },
    dir: DIR_PARAM,
  });
}

async function run(ctx: ActionContext<ParamsOf<ReturnType<typeof linksParams>>>, query: QueryRun, kind: LinksKind, generator: boolean): Promise<ListPageLinksResponse | undefined> {
  const p = ctx.params;
  // The targets' parameter name depends on the kind (pltitles, tltemplates).
  const all: Params = p;
  const targets = all[kind.titlesParam];
  const resp = await pageSetLinks(ctx, query, kind.table, {
    namespaces: p.namespace ?? [],
    targets: Array.isArray(targets) ? targets.map(String) : [],
  });
  if (resp) setContinue(ctx, query, `${kind.prefix}continue`, resp.continue, generator);
  return resp;
}

function linksModule(kind: LinksKind): GeneratorModule {
  return defineGenerator({
    name: kind.name,
    group: 'prop',
    prefix: kind.prefix,
    summary: kind.summary,
    params: linksParams(kind),
    flags: { generator: true },
    examples: {
      [`action=query&prop=${kind.name}&titles=Main%20Page`]: `Get ${kind.name} from the page Main Page.`,
      [`action=query&generator=${kind.name}&titles=Main%20Page&prop=info`]: `Get information about the ${kind.name} pages in the page Main Page.`,
    },
    async execute(ctx, query) {
      const q = queryRunOf(query);
      const resp = await run(ctx, q, kind, false);
      for (const l of resp?.links ?? []) addPageSubItem(q.pages, l.fromPageId, kind.name, kind.tag, { ns: l.ns, title: l.title });
    },
    async generate(ctx, query) {
      const resp = await run(ctx, query, kind, true);
      return { titles: (resp?.links ?? []).map((l) => l.title) };
    },
  });
}

export const linksPropModule = linksModule({
  name: 'links',
  prefix: 'pl',
  table: LinkTable.LINK_TABLE_PAGELINKS,
  titlesParam: 'titles',
  tag: 'pl',
  summary: 'Returns all links from the given pages.',
});

export const templatesPropModule = linksModule({
  name: 'templates',
  prefix: 'tl',
  table: LinkTable.LINK_TABLE_TEMPLATELINKS,
  titlesParam: 'templates',
  tag: 'tl',
  summary: 'Returns all pages transcluded on the given pages.',
});
