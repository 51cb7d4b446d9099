/*
 * What the link-table query modules share (links, templates, categories, images, langlinks,
 * extlinks; backlinks, embeddedin, imageusage): the content service's ListPageLinks call on the
 * page set, continuation in list or generator mode, and the parameters MediaWiki repeats.
 */
import type { LinkTable, ListPageLinksRequest, ListPageLinksResponse } from '../../clients/types.js';
import type { ActionContext } from '../types.js';
import { defineParam } from '../define.js';
import type { QueryRun } from './run.js';
import { modulePath } from './run.js';
import { URL_PROTOCOLS as WIKI_URL_PROTOCOLS } from '@quire/kit/html-safety';

export const LIMIT_PARAM = defineParam({ type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many to return.' });
export const CONTINUE_PARAM = defineParam({ type: 'string', help: 'When more results are available, use this to continue.' });
export const DIR_PARAM = defineParam({ type: ['ascending', 'descending'], default: 'ascending', help: 'The direction in which to list.' });

/** $wgUrlProtocols (the default), which the renderer links and siteinfo's `protocols` lists. */
export const URL_PROTOCOL_PREFIXES: readonly string[] = WIKI_URL_PROTOCOLS;

/** $wgUrlProtocols as ApiQueryExtLinksUsage::prepareProtocols lists them ("" = all), with their prefixes. */
const URL_PROTOCOLS: Record<string, string> = Object.fromEntries(URL_PROTOCOL_PREFIXES.filter((p) => p !== '//').map((p) => [p.replace(/:(\/\/)?$/, ''), p]));
export const PROTOCOL_PARAM = defineParam({ type: ['', ...Object.keys(URL_PROTOCOLS)], default: '', help: 'Protocol of the URL. If empty and a query is set, the protocol is http and https.' });

/** ApiQueryExtLinksUsage::getProtocolPrefix: the protocol's URL prefix ("" for all). */
export function protocolPrefix(name: unknown): string {
  return typeof name === 'string' ? (URL_PROTOCOLS[name] ?? '') : '';
}

/**
 * Records where a module continues (`param` is its unprefixed continuation parameter, e.g.
 * "plcontinue"): setContinueEnumParameter, or in generator mode the generator's next batch
 * ("gplcontinue", and the current one, repeated while prop modules continue within it).
 */
export function setContinue(ctx: ActionContext, run: QueryRun, param: string, next: string, generator: boolean): void {
  if (generator) {
    const current = ctx.params.continue;
    if (typeof current === 'string') run.continuation.addGeneratorNonContinueParam(`g${param}`, current);
    if (next) run.continuation.addGeneratorContinueParam(`g${param}`, next);
  } else if (next) {
    run.continuation.addContinueParam(ctx.module.name, param, next);
  }
}

/** ListPageLinks on the good pages of the page set; undefined when there are none. */
/** The listing parameters pageSetLinks reads (prop=extlinks has no `dir`). */
type PageSetLinksContext = ActionContext<{ limit: number; continue?: string | undefined; dir?: string | undefined }>;

export async function pageSetLinks(ctx: PageSetLinksContext, run: QueryRun, table: LinkTable, filters: Partial<ListPageLinksRequest> = {}): Promise<ListPageLinksResponse | undefined> {
  const pageIds = run.pageSet.good.map((p) => p.id);
  if (!pageIds.length) return undefined;
  const p = ctx.params;
  const resp = await ctx.deps.clients.content.listPageLinks({
    table,
    pageIds,
    limit: p.limit,
    continue: p.continue ?? '',
    descending: p.dir === 'descending',
    ...filters,
  });
  for (const t of resp.invalidTargets) {
    ctx.addWarning(modulePath(ctx.module), { code: 'invalidtitle', text: `"${t}" is not a valid title.`, key: 'apiwarn-invalidtitle', params: [t] });
  }
  return resp;
}
