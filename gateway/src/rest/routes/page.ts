import { defineRoute } from '../types.js';
import { markOwnTalkPageSeen } from '../../newtalk.js';
import { loadPage, normalizationRedirect, pageCacheControl, pageMetadata, pageValidators, pageSourceParams, redirectTargetField } from './pageContent.js';

/** GET /v1/page/{title}: the page with the wikitext of its latest revision (MediaWiki's PageSourceHandler, format "source"). */
export const pageSourceRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}',
  summary: 'Get a page: its latest revision and wikitext source',
  params: pageSourceParams,
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const loaded = await loadPage(ctx.deps, ctx.params.title, true);
    // Only a user talk page can be the caller's own: other reads skip the session lookup.
    if (loaded.page.ns === 3) await markOwnTalkPageSeen(ctx.deps, await ctx.caller(), [loaded.page]);
    const moved = normalizationRedirect(ctx.params.title, loaded, ctx.routeUrl, ctx.route.path, ctx.params.redirect ? { redirect: ctx.params.redirect } : {});
    if (moved) return moved;
    const source = loaded.latest.content;
    if (source === undefined) throw new Error(`content service returned no content for revision ${loaded.latest.id}`);
    const target = redirectTargetField(loaded, ctx.params.redirect, ctx.routeUrl, ctx.route.path);
    return { json: { ...pageMetadata(loaded), source, ...target }, validators: pageValidators(loaded) };
  },
});
