/*
 * action=query (MediaWiki's ApiQuery): resolves the page set, runs the requested prop, list and
 * meta submodules on it, and adds continuation (`continue` + `batchcomplete`, or
 * `query-continue` under rawcontinue).
 */
import { ApiUsageError, type ActionContext, type ModuleDecl, type ModuleGroup, type ResultObject } from '../types.js';
import { QueryContinuation } from './continuation.js';
import { splitMultiValue } from './encoding.js';
import { infoModule } from './info.js';
import { buildPageSet, EMPTY_PAGE_SET, pageSetOutput, type PageSet, type PageSetSource } from './pageset.js';
import { revisionsModule } from './revisions.js';
import { subContext, type QueryRun } from './run.js';
import { siteinfoModule } from './siteinfo.js';
import { tokensModule } from './tokens.js';
import { userinfoModule } from './userinfo.js';

export const querySubmodules: ModuleDecl[] = [infoModule, revisionsModule, siteinfoModule, tokensModule, userinfoModule];

const SUBMODULE_GROUPS = ['prop', 'list', 'meta'] as const satisfies readonly ModuleGroup[];

function submoduleNames(group: ModuleGroup): string[] {
  return querySubmodules
    .filter((m) => m.group === group)
    .map((m) => m.name)
    .sort();
}

const REDIRECTS_AND_REVIDS_TEXT =
  'Redirect resolution cannot be used together with the "revids" parameter. Any redirects the "revids" point to have not been resolved.';

/** ApiPageSet: exactly one of titles, pageids and revids. */
function pageSetSource(ctx: ActionContext): PageSetSource {
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

async function resolvePageSet(ctx: ActionContext, source: PageSetSource): Promise<PageSet> {
  const p = ctx.params;
  let resolveRedirects = p.redirects === true;
  if (source === 'revids' && resolveRedirects) {
    ctx.addWarning('query', { code: 'redirectsandrevids', text: REDIRECTS_AND_REVIDS_TEXT });
    resolveRedirects = false;
  }
  const titles = source === 'titles' ? (p.titles as string[]).map((t) => t.normalize('NFC')) : [];
  const pageIds = source === 'pageids' ? (p.pageids as number[]) : [];
  const revIds = source === 'revids' ? (p.revids as number[]) : [];
  if (!titles.length && !pageIds.length && !revIds.length) return { ...EMPTY_PAGE_SET, source };
  const resp = await ctx.deps.clients.content.resolvePages({ titles, pageIds, revIds, resolveRedirects });
  const rawTitles = ctx.raw.get('titles');
  return buildPageSet(resp, {
    source,
    titles,
    rawTitles: rawTitles === undefined ? undefined : splitMultiValue(rawTitles),
    resolveRedirects,
  });
}

/** ApiResult::ADD_ON_TOP for several keys: they go first, in the given order. */
function addOnTop(result: Record<string, unknown>, values: Record<string, unknown>): void {
  const rest = Object.entries(result).filter(([k]) => !(k in values));
  for (const k of Object.keys(result)) delete result[k];
  Object.assign(result, values, Object.fromEntries(rest));
}

export const queryModule: ModuleDecl = {
  name: 'query',
  group: 'action',
  prefix: '',
  summary: 'Fetch data from and about MediaWiki.',
  params: {
    prop: { type: submoduleNames('prop'), multi: true, submoduleGroup: 'prop', help: 'Which properties to get for the queried pages.' },
    list: { type: submoduleNames('list'), multi: true, submoduleGroup: 'list', help: 'Which lists to get.' },
    meta: { type: submoduleNames('meta'), multi: true, submoduleGroup: 'meta', help: 'Which metadata to get.' },
    indexpageids: { type: 'boolean', default: false, help: 'Include an additional pageids section listing all returned page IDs.' },
    iwurl: { type: 'boolean', default: false, help: 'Whether to get the full URL if the title is an interwiki link.' },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    rawcontinue: { type: 'boolean', default: false, help: 'Return raw query-continue data for continuation.' },
    titles: { type: 'string', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of titles to work on.' },
    pageids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of page IDs to work on.' },
    revids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of revision IDs to work on.' },
    redirects: { type: 'boolean', default: false, help: 'Automatically resolve redirects in titles, pageids and revids.' },
    converttitles: { type: 'boolean', default: false, help: 'Convert titles to other variants if necessary (only for languages with variants).' },
  },
  flags: {},
  examples: {
    'action=query&prop=revisions&meta=siteinfo&titles=Main%20Page&rvprop=user|comment&continue=': 'Fetch site info and revisions of Main Page.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const modules: ModuleDecl[] = [];
    for (const group of SUBMODULE_GROUPS) {
      for (const name of (p[group] as string[] | undefined) ?? []) {
        const sub = ctx.registry.get(group, name);
        if (sub && !modules.includes(sub)) modules.push(sub);
      }
    }
    const continuation = new QueryContinuation(
      p.continue as string | undefined,
      modules.map((m) => m.name),
      modules.filter((m) => m.group === 'prop').map((m) => m.name),
    );

    const source = pageSetSource(ctx);
    const data: ResultObject = {};
    ctx.result.query = data;
    const run: QueryRun = { pageSet: { ...EMPTY_PAGE_SET, source }, pages: new Map(), data, continuation };
    // A finished page set ("-||…") is not resolved again: only list/meta modules continue.
    if (!continuation.generatorDone) {
      run.pageSet = await resolvePageSet(ctx, source);
      const out = pageSetOutput(run.pageSet, { indexPageIds: p.indexpageids === true });
      Object.assign(data, out.query);
      run.pages = out.pages;
    }

    for (const sub of modules) {
      const params = ctx.validateSubmodule(sub);
      if (continuation.shouldRun(sub.name)) await sub.execute(subContext(ctx, sub, params), run);
    }

    if (Object.keys(data).length === 0) delete ctx.result.query;
    if (p.rawcontinue === true) {
      const raw = continuation.rawContinuation();
      if (Object.keys(raw).length) addOnTop(ctx.result, { 'query-continue': raw });
    } else {
      const { continue: cont, batchComplete } = continuation.continuation();
      addOnTop(ctx.result, { ...(batchComplete ? { batchcomplete: true } : {}), ...(cont ? { continue: cont } : {}) });
    }
  },
};
