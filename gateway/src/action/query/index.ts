/*
 * action=query (MediaWiki's ApiQuery): resolves the page set, runs the requested prop, list and
 * meta submodules on it, and adds continuation (`continue` + `batchcomplete`, or
 * `query-continue` under rawcontinue).
 */
import { ApiUsageError, type ActionContext, type ModuleDecl, type ModuleGroup, type ResultObject } from '../types.js';
import { defineModule } from '../define.js';
import { message } from '../errors.js';
import { markOwnTalkPageSeen } from '../../newtalk.js';
import { QueryContinuation } from './continuation.js';
import { splitMultiValue, wfUrlencode } from './encoding.js';
import { allpagesModule } from './allpages.js';
import { searchModule } from './search.js';
import { prefixsearchModule } from './prefixsearch.js';
import { asGeneratorParams, isGenerator, type GeneratorModule } from './generator.js';
import { infoModule } from './info.js';
import { buildPageSet, EMPTY_PAGE_SET, interwikiTitle, pageSetOutput, type PageSet, type PageSetSource } from './pageset.js';
import { ResolvePagesResponse } from '../../clients/types.js';
import { revisionsModule } from './revisions.js';
import { modulePath, subContext, type QueryRun } from './run.js';
import { siteinfoModule } from './siteinfo.js';
import { tokensModule } from './tokens.js';
import { userinfoModule } from './userinfo.js';
import { allusersModule, blocksModule, usersModule } from './users.js';
import { logeventsModule } from './logevents.js';
import { recentchangesModule } from './recentchanges.js';
import { usercontribsModule } from './usercontribs.js';
import { imageinfoModule } from './imageinfo.js';
import { allimagesModule } from './allimages.js';
import { mystashedfilesModule } from './mystashedfiles.js';
import { filearchiveModule } from './filearchive.js';
import { stashimageinfoModule } from './stashimageinfo.js';
import { watchlistModule, watchlistrawModule } from './watchlist.js';
import { tagsModule } from './tags.js';
import { linksPropModule, templatesPropModule } from './links.js';
import { categoriesModule } from './categories.js';
import { langlinksModule } from './langlinks.js';
import { imagesModule } from './images.js';
import { extlinksModule } from './extlinks.js';
import { pagepropsModule } from './pageprops.js';
import { categoryinfoModule } from './categoryinfo.js';
import { backlinksListModule, embeddedinModule, imageusageModule } from './backlinks.js';
import { categorymembersModule } from './categorymembers.js';
import { exturlusageModule } from './exturlusage.js';
import { allmessagesModule } from './allmessages.js';
import { languageinfoModule } from './languageinfo.js';
import { filerepoinfoModule } from './filerepoinfo.js';
import { authmanagerinfoModule } from './authmanagerinfo.js';
import { oathModule } from './oath.js';
import { fileusageModule, linkshereModule, redirectsPropModule, transcludedinModule } from './linkshere.js';
import { allcategoriesModule } from './allcategories.js';
import { allfileusagesModule, alllinksModule, allredirectsModule, alltransclusionsModule } from './alllinks.js';
import { pagepropnamesModule, pageswithpropModule } from './pagepropnames.js';
import { protectedtitlesModule } from './protectedtitles.js';
import { querypageModule } from './querypage.js';
import { randomModule } from './random.js';
import { iwbacklinksModule, iwlinksModule, langbacklinksModule } from './foreignlinks.js';
import { contributorsModule } from './contributors.js';
import { duplicatefilesModule } from './duplicatefiles.js';
import { alldeletedrevisionsModule, deletedrevisionsModule, deletedrevsModule } from './deletedrevisions.js';
import { allrevisionsModule } from './allrevisions.js';
import { withDeletedRevisions } from './deleted-pageset.js';
import { doExport } from './export.js';
import { DUMP_SCHEMAS } from '../../dump/writer.js';

export const querySubmodules: ModuleDecl[] = [
  allpagesModule,
  infoModule,
  revisionsModule,
  siteinfoModule,
  tokensModule,
  userinfoModule,
  usersModule,
  allusersModule,
  blocksModule,
  searchModule,
  prefixsearchModule,
  logeventsModule,
  recentchangesModule,
  usercontribsModule,
  imageinfoModule,
  stashimageinfoModule,
  allimagesModule,
  mystashedfilesModule,
  filearchiveModule,
  watchlistModule,
  watchlistrawModule,
  tagsModule,
  linksPropModule,
  templatesPropModule,
  categoriesModule,
  langlinksModule,
  imagesModule,
  extlinksModule,
  pagepropsModule,
  categoryinfoModule,
  backlinksListModule,
  embeddedinModule,
  imageusageModule,
  categorymembersModule,
  exturlusageModule,
  linkshereModule,
  transcludedinModule,
  fileusageModule,
  redirectsPropModule,
  deletedrevisionsModule,
  alldeletedrevisionsModule,
  deletedrevsModule,
  allrevisionsModule,
  allmessagesModule,
  alllinksModule,
  alltransclusionsModule,
  allfileusagesModule,
  allredirectsModule,
  allcategoriesModule,
  randomModule,
  pagepropnamesModule,
  pageswithpropModule,
  protectedtitlesModule,
  querypageModule,
  languageinfoModule,
  filerepoinfoModule,
  langbacklinksModule,
  duplicatefilesModule,
  authmanagerinfoModule,
  oathModule,
  contributorsModule,
  iwbacklinksModule,
  iwlinksModule,
];

const SUBMODULE_GROUPS = ['prop', 'list', 'meta'] as const satisfies readonly ModuleGroup[];

function submoduleNames(group: ModuleGroup): string[] {
  return querySubmodules
    .filter((m) => m.group === group)
    .map((m) => m.name)
    .sort();
}

/** Modules usable as `generator=` (list and prop modules flagged as generators). */
function generatorNames(): string[] {
  return querySubmodules
    .filter(isGenerator)
    .map((m) => m.name)
    .sort();
}

/**
 * ApiPageSet with a generator: the generator runs on the page set the request names (titles,
 * pageids or revids, resolved as without a generator but not shown), and its pages — or
 * revisions — in its order become the page set, with redirects resolved when asked. A generator
 * whose batches are all done ("-" in `continue`) yields nothing.
 */
export async function generatePageSet(ctx: PageSetContext, run: QueryRun, generator: GeneratorModule, source: PageSetSource): Promise<PageSet> {
  const decl = asGeneratorParams(generator);
  const params = ctx.validateSubmodule(decl);
  run.pageSet = await resolvePageSet(ctx, source);
  const generated = await generator.generate(subContext(ctx, decl, params), run);
  if ('titles' in generated) {
    if (generated.titles.length === 0) return { ...EMPTY_PAGE_SET, source: 'titles' };
    const resp = await ctx.deps.clients.content.resolvePages({ titles: generated.titles, resolveRedirects: run.resolveRedirects });
    return buildPageSet(resp, { source: 'titles', titles: generated.titles, resolveRedirects: run.resolveRedirects });
  }
  const revIds = Array.isArray(generated) ? [] : generated.revIds;
  const pageIds = Array.isArray(generated) ? generated : [];
  const generatedSource: PageSetSource = Array.isArray(generated) ? 'pageids' : 'revids';
  if (pageIds.length === 0 && revIds.length === 0) return { ...EMPTY_PAGE_SET, source: generatedSource };
  const resp = await ctx.deps.clients.content.resolvePages({ pageIds, revIds, resolveRedirects: run.resolveRedirects });
  // Unlike a request's revids, generated revisions do not turn redirect resolution off.
  const ps: PageSet = { ...buildPageSet(resp, { source: generatedSource, titles: [], resolveRedirects: run.resolveRedirects }), resolvingRedirects: run.resolveRedirects };
  return generatedSource === 'revids' ? withDeletedRevisions(ctx, ps) : ps;
}

/** The page-set parameters of action=query (and of the modules that take a page set). */
export type PageSetContext = ActionContext<{ titles?: string[] | undefined; pageids?: number[] | undefined; revids?: number[] | undefined; redirects?: boolean | undefined }>;

/** ApiPageSet: exactly one of titles, pageids and revids. */
export function pageSetSource(ctx: PageSetContext): PageSetSource {
  const { titles, pageids, revids } = ctx.params;
  let source: PageSetSource = 'none';
  if (titles !== undefined) source = 'titles';
  if (pageids !== undefined) {
    if (source !== 'none') throw new ApiUsageError('multisource', `The "pageids" parameter cannot be used with "${source}".`);
    source = 'pageids';
  }
  if (revids !== undefined) {
    if (source !== 'none') throw new ApiUsageError('multisource', `The "revids" parameter cannot be used with "${source}".`);
    source = 'revids';
  }
  return source;
}

export async function resolvePageSet(ctx: PageSetContext, source: PageSetSource): Promise<PageSet> {
  const p = ctx.params;
  let resolveRedirects = p.redirects === true;
  if (source === 'revids' && resolveRedirects) {
    ctx.addWarning('query', message('redirectsandrevids', 'apiwarn-redirectsandrevids'));
    resolveRedirects = false;
  }
  // Already cleaned up (NFC) by parameter validation.
  const titles = source === 'titles' ? (p.titles ?? []) : [];
  const pageIds = source === 'pageids' ? (p.pageids ?? []) : [];
  const revIds = source === 'revids' ? (p.revids ?? []) : [];
  if (!titles.length && !pageIds.length && !revIds.length) return { ...EMPTY_PAGE_SET, source };
  const { local, interwiki } = await splitInterwikiTitles(ctx, titles);
  const resp =
    local.length || pageIds.length || revIds.length ? await ctx.deps.clients.content.resolvePages({ titles: local, pageIds, revIds, resolveRedirects }) : ResolvePagesResponse.fromPartial({});
  const rawTitles = ctx.raw.get('titles');
  const ps = buildPageSet(resp, {
    source,
    titles: local,
    rawTitles: rawTitles === undefined ? undefined : splitMultiValue(rawTitles),
    resolveRedirects,
  });
  // Title::isKnown: a Media: title is known when its file exists.
  const media = ps.special.filter((x) => x.page.ns === -2);
  if (media.length) {
    const files = await ctx.deps.clients.content.getFileInfo({ titles: media.map((x) => `File:${x.page.title.slice(x.page.title.indexOf(':') + 1)}`), limit: 1 });
    media.forEach((x, i) => {
      if (files.files[i]?.exists) x.page = { ...x.page, missing: false };
    });
  }
  if (interwiki.length) {
    ps.interwiki = interwiki.map((t) => ((ctx.params as { iwurl?: boolean }).iwurl ? { ...t, url: t.url } : { title: t.title, iw: t.iw }));
    for (const t of interwiki) if (t.from !== t.title) ps.normalized.push({ fromencoded: false, from: t.from, to: t.title });
  }
  return source === 'revids' ? withDeletedRevisions(ctx, ps) : ps;
}

/** The titles of other wikis among `titles` (ApiPageSet::processTitlesArray's interwiki case), and this wiki's. */
async function splitInterwikiTitles(ctx: PageSetContext, titles: readonly string[]) {
  const interwiki: { from: string; title: string; iw: string; url: string }[] = [];
  if (!titles.some((t) => t.includes(':'))) return { local: [...titles], interwiki };
  const [info, namespaces] = await Promise.all([ctx.deps.clients.content.getParserInfo(), ctx.deps.site.namespaces()]);
  const urls = new Map(info.interwikis.map((i) => [i.prefix, i.url]));
  const names = new Set([...namespaces.namespaces.flatMap((n) => [n.name, n.canonical]), ...namespaces.aliases.map((a) => a.alias)].map((n) => n.toLowerCase().replace(/_/g, ' ')));
  const local: string[] = [];
  for (const t of titles) {
    const iw = interwikiTitle(t, new Set(urls.keys()), (name) => names.has(name.toLowerCase()));
    if (!iw) local.push(t);
    else if (!interwiki.some((x) => x.title === iw.title)) {
      interwiki.push({ from: t, ...iw, url: (urls.get(iw.iw) ?? '').replace('$1', wfUrlencode(iw.title.slice(iw.iw.length + 1).replace(/ /g, '_'))) });
    }
  }
  return { local, interwiki };
}

/** ApiResult::ADD_ON_TOP for several keys: they go first, in the given order. */
function addOnTop(result: Record<string, unknown>, values: Record<string, unknown>): void {
  const rest = Object.entries(result).filter(([k]) => !(k in values));
  for (const k of Object.keys(result)) delete result[k];
  Object.assign(result, values, Object.fromEntries(rest));
}

export const queryModule = defineModule({
  name: 'query',
  group: 'action',
  prefix: '',
  summary: 'Fetch data from and about MediaWiki.',
  params: {
    prop: { type: submoduleNames('prop'), multi: true, submoduleGroup: 'prop', help: 'Which properties to get for the queried pages.' },
    list: { type: submoduleNames('list'), multi: true, submoduleGroup: 'list', help: 'Which lists to get.' },
    meta: { type: submoduleNames('meta'), multi: true, submoduleGroup: 'meta', help: 'Which metadata to get.' },
    indexpageids: { type: 'boolean', default: false, help: 'Include an additional pageids section listing all returned page IDs.' },
    export: { type: 'boolean', default: false, help: 'Export the current revisions of all given or generated pages.' },
    exportnowrap: { type: 'boolean', default: false, help: 'Return the export XML without wrapping it in an XML result (same format as Special:Export). Can only be used with query+export.' },
    exportschema: { type: [...DUMP_SCHEMAS], default: '0.11', help: 'Target the given version of the XML dump format when exporting. Can only be used with query+export.' },
    iwurl: { type: 'boolean', default: false, help: 'Whether to get the full URL if the title is an interwiki link.' },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    rawcontinue: { type: 'boolean', default: false, help: 'Return raw query-continue data for continuation.' },
    titles: { type: 'string', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of titles to work on.' },
    generator: {
      type: generatorNames(),
      submoduleGroup: ['prop', 'list'],
      // ApiPageSet::executeInternal: a module that is no generator, or no module at all.
      unknownValue: (name) =>
        querySubmodules.some((m) => m.name === name && (m.group === 'prop' || m.group === 'list'))
          ? { code: 'badgenerator', key: 'apierror-badgenerator-notgenerator', params: [name] }
          : { code: 'badgenerator', key: 'apierror-badgenerator-unknown', params: [name] },
      help: 'Get the list of pages to work on by executing the specified query module.',
    },
    pageids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of page IDs to work on.' },
    revids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of revision IDs to work on.' },
    redirects: { type: 'boolean', default: false, help: 'Automatically resolve redirects in titles, pageids and revids.' },
    converttitles: { type: 'boolean', default: false, help: 'Convert titles to other variants if necessary (only for languages with variants).' },
  },
  flags: {},
  examples: {
    'action=query&prop=revisions&meta=siteinfo&titles=Main%20Page&rvprop=user|comment&continue=': 'Fetch site info and revisions of Main Page.',
  },
  /**
   * ApiQuery::isReadMode: no `read` right is needed for meta modules that do not need it (tokens)
   * when nothing else is asked for: meta present, every other parameter but rawcontinue and
   * indexpageids absent.
   */
  isReadMode({ has, params, registry }) {
    for (const name of Object.keys(queryModule.params)) {
      if (name === 'rawcontinue' || name === 'indexpageids') continue;
      if (has(name) !== (name === 'meta')) return true;
    }
    return (params.meta ?? []).some((name) => registry.get('meta', name)?.flags.readRights !== false);
  },
  async execute(ctx) {
    const p = ctx.params;
    const modules: ModuleDecl[] = [];
    for (const group of SUBMODULE_GROUPS) {
      for (const name of p[group] ?? []) {
        const sub = ctx.registry.get(group, name);
        if (sub && !modules.includes(sub)) modules.push(sub);
      }
    }
    const continuation = new QueryContinuation(
      p.continue,
      modules.map((m) => m.name),
      modules.filter((m) => m.group === 'prop').map((m) => m.name),
    );

    const source = pageSetSource(ctx);
    const data: ResultObject = {};
    ctx.result.query = data;
    const run: QueryRun = {
      pageSet: { ...EMPTY_PAGE_SET, source },
      pages: new Map(),
      data,
      continuation,
      resolveRedirects: p.redirects && source !== 'revids',
    };
    const generatorName = p.generator;
    const generator = querySubmodules.find((m): m is GeneratorModule => isGenerator(m) && m.name === generatorName);
    // A finished page set ("-||…") is not resolved again: only list/meta modules continue.
    if (!continuation.generatorDone) {
      run.pageSet = generator ? await generatePageSet(ctx, run, generator, source) : await resolvePageSet(ctx, source);
      const out = pageSetOutput(run.pageSet, { indexPageIds: p.indexpageids });
      Object.assign(data, out.query);
      run.pages = out.pages;
      for (const [id, fields] of run.generatorData ?? []) {
        const entry = run.pages.get(id);
        if (entry) Object.assign(entry, fields);
      }
      await markOwnTalkPageSeen(ctx.deps, ctx.caller, run.pageSet.good);
    } else if (generator) {
      // Its parameters are still the request's, not unrecognized ones.
      ctx.validateSubmodule(asGeneratorParams(generator));
    }

    for (const sub of modules) {
      const params = ctx.validateSubmodule(sub);
      if (!continuation.shouldRun(sub.name)) continue;
      try {
        await sub.execute(subContext(ctx, sub, params), run);
      } catch (e) {
        // ApiBase::dieWithError: a submodule's error names the submodule ("query+watchlist").
        if (e instanceof ApiUsageError && e.modulePath === undefined) e.modulePath = modulePath(sub);
        throw e;
      }
    }

    if (p.export) {
      await doExport(ctx, run.pageSet, { nowrap: p.exportnowrap, schema: p.exportschema }, data);
    }
    if (Object.keys(data).length === 0) delete ctx.result.query;
    if (p.rawcontinue) {
      const raw = continuation.rawContinuation();
      if (Object.keys(raw).length) addOnTop(ctx.result, { 'query-continue': raw });
    } else {
      const { continue: cont, batchComplete } = continuation.continuation();
      addOnTop(ctx.result, { ...(batchComplete ? { batchcomplete: true } : {}), ...(cont ? { continue: cont } : {}) });
    }
  },
});
