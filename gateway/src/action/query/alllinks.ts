/*
 * list=alllinks, list=alltransclusions, list=allfileusages and list=allredirects (MediaWiki's
 * ApiQueryAllLinks, one implementation over pagelinks, templatelinks, imagelinks and redirect):
 * every link target of one namespace in title order, each with the page linking (or only the
 * distinct targets with `unique`); generators of the linking pages, or of the targets when unique.
 */
import { AllLinksTable } from '../../clients/types.js';
import { ApiUsageError, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { defineParam, defineParams, type ParamsOf } from '../define.js';
import { titlePartKeyer } from './allpages.js';
import { defineGenerator, type GeneratorModule } from './generator.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { queryRunOf, type QueryRun } from './run.js';

const NS_FILE = 6;
const NS_TEMPLATE = 10;

interface AllLinksKind {
  name: 'alllinks' | 'alltransclusions' | 'allfileusages' | 'allredirects';
  prefix: 'al' | 'at' | 'af' | 'ar';
  table: AllLinksTable;
  /** The default namespace; allfileusages has no namespace parameter (always File). */
  namespace: number;
  hasNamespace: boolean;
  /** Extra prop values (allredirects: fragment, interwiki). */
  extraProps: readonly string[];
  indexTag: string;
  summary: string;
  what: string;
}

function allLinksParams(kind: AllLinksKind) {
  return defineParams({
    continue: CONTINUE_PARAM,
    from: { type: 'string', help: `The title of the ${kind.what} to start enumerating from.` },
    to: { type: 'string', help: `The title of the ${kind.what} to stop enumerating at.` },
    prefix: { type: 'string', help: `Search for all ${kind.what} titles that begin with this value.` },
    unique: {
      type: 'boolean',
      default: false,
      help: `Only show distinct ${kind.what} titles. Cannot be used with ${kind.prefix}prop=ids. When used as a generator, yields target pages instead of source pages.`,
    },
    prop: { type: ['ids', 'title', ...kind.extraProps], multi: true, default: 'title', help: 'Which pieces of information to include.' },
    // allfileusages has none (always File).
    ...(kind.hasNamespace ? { namespace: defineParam({ type: 'namespace', default: kind.namespace, extraNamespaces: [-2, -1], help: 'The namespace to enumerate.' }) } : {}),
    limit: { ...LIMIT_PARAM, help: 'How many total items to return.' },
    dir: DIR_PARAM,
  });
}

async function fetchLinks(ctx: ActionContext<ParamsOf<ReturnType<typeof allLinksParams>>>, kind: AllLinksKind) {
  const p = ctx.params;
  const props = new Set<string>(p.prop);
  const unique = p.unique;
  if (unique) {
    const clash = ['ids', ...kind.extraProps].filter((v) => props.has(v));
    if (clash.length) throw new ApiUsageError('invalidparammix', `The "${kind.prefix}prop=${clash.join('|')}" parameter cannot be used with "${kind.prefix}unique".`);
  }
  const ns = kind.hasNamespace ? (p.namespace ?? kind.namespace) : kind.namespace;
  const key = await titlePartKeyer(ctx, ns);
  return ctx.deps.clients.lists.listAllLinks({
    table: kind.table,
    namespace: ns,
    from: key(p.from) ?? '',
    to: key(p.to) ?? '',
    prefix: key(p.prefix) ?? '',
    unique,
    descending: p.dir === 'descending',
    limit: p.limit,
    continue: p.continue ?? '',
  });
}

function allLinksModule(kind: AllLinksKind): GeneratorModule {
  return defineGenerator({
    name: kind.name,
    group: 'list',
    prefix: kind.prefix,
    summary: kind.summary,
    params: allLinksParams(kind),
    flags: { generator: true },
    examples: {
      [`action=query&list=${kind.name}&${kind.prefix}unique=&${kind.prefix}from=B`]: `List unique ${kind.what} titles, starting at B.`,
      [`action=query&generator=${kind.name}&g${kind.prefix}unique=&g${kind.prefix}from=B`]: `Gets pages of the ${kind.what} titles.`,
      [`action=query&generator=${kind.name}&g${kind.prefix}from=B&prop=info`]: 'Gets pages containing the links.',
    },
    async execute(ctx, query) {
      const run = queryRunOf(query);
      const props = new Set<string>(ctx.params.prop);
      const resp = await fetchLinks(ctx, kind);
      run.data[kind.name] = setIndexedTagName(
        resp.links.map((l): ResultObject => {
          const vals: ResultObject = {};
          if (props.has('ids')) vals.fromid = l.fromPageId;
          if (props.has('title')) Object.assign(vals, { ns: l.ns, title: l.title });
          if (props.has('fragment') && l.fragment !== '') vals.fragment = l.fragment;
          if (props.has('interwiki') && l.interwiki !== '') vals.interwiki = l.interwiki;
          return vals;
        }),
        kind.indexTag,
      );
      setContinue(ctx, run, `${kind.prefix}continue`, resp.continue, false);
    },
    async generate(ctx, run: QueryRun) {
      const resp = await fetchLinks(ctx, kind);
      setContinue(ctx, run, `${kind.prefix}continue`, resp.continue, true);
      if (ctx.params.unique) return { titles: resp.links.map((l) => l.title) };
      return resp.links.map((l) => l.fromPageId);
    },
  });
}

export const alllinksModule = allLinksModule({
  name: 'alllinks',
  prefix: 'al',
  table: AllLinksTable.ALL_LINKS_TABLE_PAGELINKS,
  namespace: 0,
  hasNamespace: true,
  extraProps: [],
  indexTag: 'l',
  summary: 'Enumerate all links that point to a given namespace.',
  what: 'linked',
});
export const alltransclusionsModule = allLinksModule({
  name: 'alltransclusions',
  prefix: 'at',
  table: AllLinksTable.ALL_LINKS_TABLE_TEMPLATELINKS,
  namespace: NS_TEMPLATE,
  hasNamespace: true,
  extraProps: [],
  indexTag: 't',
  summary: 'List all transclusions (pages embedded using {{x}}), including non-existing.',
  what: 'transcluded',
});
export const allfileusagesModule = allLinksModule({
  name: 'allfileusages',
  prefix: 'af',
  table: AllLinksTable.ALL_LINKS_TABLE_IMAGELINKS,
  namespace: NS_FILE,
  hasNamespace: false,
  extraProps: [],
  indexTag: 'f',
  summary: 'List all file usages, including non-existing.',
  what: 'file',
});
export const allredirectsModule = allLinksModule({
  name: 'allredirects',
  prefix: 'ar',
  table: AllLinksTable.ALL_LINKS_TABLE_REDIRECT,
  namespace: 0,
  hasNamespace: true,
  extraProps: ['fragment', 'interwiki'],
  indexTag: 'r',
  summary: 'List all redirects to a namespace.',
  what: 'redirected',
});
