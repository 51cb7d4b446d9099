/*
 * GET /v1/search/page and /v1/search/title (MediaWiki's SearchHandler, modes "fulltext" and
 * "completion"): the search service's results as page objects. description and thumbnail are
 * null (no extension provides them); a hit through a redirect is its target, with the redirect's
 * title in matched_title.
 */
import type { GatewayDeps } from '../../context.js';
import { defineRoute } from '../types.js';

const searchParams = {
  q: { source: 'query', type: 'string', required: true, description: 'The search terms' },
  limit: { source: 'query', type: 'integer', default: 50, min: 1, max: 100, description: 'Maximum number of results (1-100)' },
} as const;

interface PageObject {
  id: number;
  key: string;
  title: string;
  excerpt: string | null;
  matched_title: string | null;
  description: null;
  thumbnail: null;
}

function pageObject(pageId: number, title: string, excerpt: string, matchedTitle: string): PageObject {
  return {
    id: pageId,
    key: title.replace(/ /g, '_'),
    title,
    excerpt: excerpt === '' ? null : excerpt,
    matched_title: matchedTitle === '' ? null : matchedTitle,
    description: null,
    thumbnail: null,
  };
}

export const searchPageRoute = defineRoute({
  method: 'GET',
  path: '/v1/search/page',
  summary: 'Search page titles and contents for the given terms',
  params: searchParams,
  writes: false,
  async execute(ctx) {
    const r = await ctx.deps.clients.search.searchPages({ query: ctx.params.q, limit: ctx.params.limit, withSnippets: true });
    return { json: { pages: r.hits.map((h) => pageObject(h.pageId, h.title, h.snippet, h.redirectTitle)) } };
  },
});

export const searchTitleRoute = defineRoute({
  method: 'GET',
  path: '/v1/search/title',
  summary: 'Search page titles that begin with the given text (autocomplete)',
  params: searchParams,
  writes: false,
  cacheControl: (deps: GatewayDeps) => `public, max-age=${deps.config.searchSuggestMaxAge}`,
  async execute(ctx) {
    const r = await ctx.deps.clients.search.completeTitles({ prefix: ctx.params.q, limit: ctx.params.limit, resolveRedirects: true });
    // The excerpt of a suggestion is the title that matched (the redirect's, for a redirect).
    return { json: { pages: r.matches.map((m) => pageObject(m.pageId, m.title, m.redirectFrom || m.title, m.redirectFrom)) } };
  },
});
