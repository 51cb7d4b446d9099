/*
 * GET /v1/search/page and /v1/search/title (MediaWiki's SearchHandler, modes "fulltext" and
 * "completion"): the search service's results as page objects. description and thumbnail are
 * null (no extension provides them); a hit through a redirect is its target, with the redirect's
 * title in matched_title.
 */
import type { TitleMatch } from '../../clients/types.js';
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
    const r = await ctx.deps.clients.search.searchPages({ query: ctx.params.q, limit: ctx.params.limit, withSnippets: true, withoutTotal: true });
    return { json: { pages: r.hits.map((h) => pageObject(h.pageId, h.title, h.snippet, h.redirectTitle)) } };
  },
});

/** One completion suggestion as SearchHandler::buildSinglePage sees it: the page it stands for, and the redirect that led there. */
interface Suggestion {
  page: { id: number; title: string };
  /** The suggested title (SearchSuggestion::getText): the excerpt. */
  text: string;
  redirectFrom: string | null;
}

/**
 * SearchHandler::buildPageObjects for completion: suggestions in the engine's (title) order, each
 * redirect replaced by its target; a page suggested twice keeps its first place, and when that
 * first came through a redirect a later suggestion replaces its text while matched_title stays.
 */
export function mergeSuggestions(suggestions: readonly Suggestion[]): Suggestion[] {
  const byPage = new Map<string, Suggestion>();
  for (const s of suggestions) {
    const key = s.page.title;
    const seen = byPage.get(key);
    if (!seen) byPage.set(key, { ...s });
    else if (seen.redirectFrom !== null) seen.text = s.text;
  }
  return [...byPage.values()];
}

/** The suggestions with redirects resolved one hop, as SearchHandler does with RedirectLookup and PageStore. */
async function resolveSuggestions(deps: GatewayDeps, matches: readonly TitleMatch[]): Promise<Suggestion[]> {
  if (matches.length === 0) return [];
  const resolved = await deps.clients.content.resolvePages({ titles: matches.map((m) => m.title), resolveRedirects: true });
  const targetOf = new Map(resolved.redirects.map((r) => [r.from, r.to]));
  const pages = new Map(resolved.pages.map((p) => [p.title, p]));
  return matches.map((m) => {
    const target = pages.get(targetOf.get(m.title) ?? '');
    // A redirect into a virtual namespace is suggested as itself (T301346).
    if (!target || target.special) return { page: { id: m.pageId, title: m.title }, text: m.title, redirectFrom: null };
    return { page: { id: target.id, title: target.title }, text: m.title, redirectFrom: m.title };
  });
}

export const searchTitleRoute = defineRoute({
  method: 'GET',
  path: '/v1/search/title',
  summary: 'Search page titles that begin with the given text (autocomplete)',
  params: searchParams,
  writes: false,
  cacheControl: (deps: GatewayDeps) => `public, max-age=${deps.config.searchSuggestMaxAge}`,
  async execute(ctx) {
    const r = await ctx.deps.clients.search.completeTitles({ prefix: ctx.params.q, limit: ctx.params.limit, resolveRedirects: false });
    const merged = mergeSuggestions(await resolveSuggestions(ctx.deps, r.matches));
    return { json: { pages: merged.map((s) => pageObject(s.page.id, s.page.title, s.text, s.redirectFrom ?? '')) } };
  },
});
