import { defineRoute } from '../types.js';
import { markOwnTalkPageSeen } from '../../newtalk.js';
import { loadPage, pageCacheControl, pageMetadata, pageValidators, titleParam } from './pageContent.js';

/**
 * GET /v1/page/{title}: the page with the wikitext of its latest revision (MediaWiki's
 * PageSourceHandler, format "source"). Any form of the title is served directly, and a redirect
 * page is served as itself: MediaWiki 1.39 has neither normalization nor wiki redirects here.
 */
export const pageSourceRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}',
  summary: 'Get a page: its latest revision and wikitext source',
  params: titleParam,
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const loaded = await loadPage(ctx.deps, ctx.params.title, true);
    // Only a user talk page can be the caller's own: other reads skip the session lookup.
    if (loaded.page.ns === 3) await markOwnTalkPageSeen(ctx.deps, await ctx.caller(), [loaded.page]);
    const source = loaded.latest.content;
    if (source === undefined) throw new Error(`content service returned no content for revision ${loaded.latest.id}`);
    return { json: { ...pageMetadata(loaded), source }, validators: pageValidators(loaded) };
  },
});
