/*
 * ApiPageSet for action modules other than query (action=purge, action=watch): the page set from
 * titles, pageids or revids, or from a generator with its continuation, resolved exactly as
 * action=query resolves it; the `continue`/`batchcomplete` it leaves (ApiContinuationManager
 * without modules of its own).
 */
import type { ActionContext, ParamDecl, ResultObject } from '../types.js';
import type { ParamsOf } from '../define.js';
import { QueryContinuation } from './continuation.js';
import { isGenerator, type GeneratorModule } from './generator.js';
import { generatePageSet, pageSetSource, querySubmodules, resolvePageSet, type PageSetContext } from './index.js';
import { EMPTY_PAGE_SET, type PageSet } from './pageset.js';
import type { QueryRun } from './run.js';

/** The generators action=query offers (list and prop modules flagged as generators). */
export function generatorNames(): string[] {
  return querySubmodules
    .filter(isGenerator)
    .map((m) => m.name)
    .sort();
}

/** ApiPageSet's parameters beyond titles/pageids/redirects, as an action module declares them. */
export const PAGE_SET_EXTRA_PARAMS = {
  revids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of revision IDs to work on.' },
  generator: {
    type: generatorNames(),
    submoduleGroup: ['prop', 'list'],
    help: 'Get the list of pages to work on by executing the specified query module.',
  },
  converttitles: { type: 'boolean', default: false, help: 'Convert titles to other variants if necessary (only for languages with variants).' },
  continue: { type: 'string', help: 'When more results are available, use this to continue.' },
} as const satisfies Record<string, ParamDecl>;

/** The page-set parameters of an action module: titles/pageids/redirects as it declares them, and the extra ones. */
type ActionPageSetContext = PageSetContext & ActionContext<Partial<ParamsOf<typeof PAGE_SET_EXTRA_PARAMS>>>;

/** The module's page set and the continuation its generator leaves. */
export async function actionPageSet(ctx: ActionPageSetContext): Promise<{ pageSet: PageSet; continuation: QueryContinuation }> {
  const p = ctx.params;
  const continuation = new QueryContinuation(p.continue, [], []);
  const source = pageSetSource(ctx);
  const generator = querySubmodules.find((m): m is GeneratorModule => isGenerator(m) && m.name === p.generator);
  const run: QueryRun = {
    pageSet: { ...EMPTY_PAGE_SET, source },
    pages: new Map(),
    data: {},
    continuation,
    resolveRedirects: p.redirects === true && source !== 'revids',
  };
  // A finished generator ("-||") yields no more pages.
  if (continuation.generatorDone) return { pageSet: { ...EMPTY_PAGE_SET, source }, continuation };
  const pageSet = generator ? await generatePageSet(ctx, run, generator, source) : await resolvePageSet(ctx, source);
  return { pageSet, continuation };
}

/**
 * ApiPageSet::getInvalidTitlesAndRevisions: invalid titles, special pages, missing page ids,
 * missing revision ids, then (unless left out) missing titles, each as MediaWiki lists them.
 */
export function invalidEntries(ps: PageSet, withMissingTitles = true): ResultObject[] {
  const out: ResultObject[] = [];
  for (const { title, reason } of ps.invalid) out.push({ title, invalidreason: reason, invalid: true });
  for (const { page } of ps.special) out.push({ ns: page.ns, title: page.title, special: true });
  for (const pageid of ps.missingPageIds) out.push({ pageid, missing: true });
  for (const revid of ps.badRevIds) out.push({ revid, missing: true });
  if (withMissingTitles) for (const { page } of ps.missing) out.push({ ns: page.ns, title: page.title, missing: true });
  return out;
}

/** ApiContinuationManager::setContinuationIntoResult for a module without submodules. */
export function addPageSetContinuation(result: ResultObject, continuation: QueryContinuation): void {
  const { continue: cont, batchComplete } = continuation.continuation();
  if (batchComplete) result.batchcomplete = true;
  if (cont) result.continue = cont;
}
