import type { GetParserInfoResponse, GetStatisticsResponse, ListNamespacesResponse } from '@quire/proto/wiki/content/site/v1/site';
import { parserInfo } from './parser-info.js';
import { readSiteStats } from '../store/stats.js';
import type { ContentContext } from './context.js';

/** Namespaces, site counters and what the parser supports (siteinfo). */
export function siteHandlers(ctx: ContentContext) {
  const { namespaces } = ctx.codec;
  const listed: ListNamespacesResponse = {
    namespaces: namespaces.list.map((ns) => ({
      id: ns.id,
      name: ns.name,
      canonical: ns.canonical,
      case: ns.capitalized ? 'first-letter' : 'case-sensitive',
      content: ns.content,
      subpages: ns.subpages,
      nonincludable: ns.nonincludable,
      defaultContentModel: ns.defaultContentModel,
      protection: ns.protection,
    })),
    aliases: namespaces.aliases.map((a) => ({ id: a.id, alias: a.alias })),
  };
  return {
    async listNamespaces(): Promise<ListNamespacesResponse> {
      return listed;
    },
    async getParserInfo(): Promise<GetParserInfoResponse> {
      // Computed per call: the probe's clock-based variables must not be cached stale, and it is cheap.
      return parserInfo(ctx.codec);
    },
    async getStatistics(): Promise<GetStatisticsResponse> {
      const stats = await readSiteStats(ctx.db);
      // There is no job queue yet, so no job is ever pending.
      return { ...stats, jobs: 0 };
    },
  };
}
