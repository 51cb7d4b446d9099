import { defineRoute } from '../types.js';
import { loadPage, normalizationRedirect, pageCacheControl, pageMetadata, pageValidators, pageSourceParams, redirectTargetField } from './pageContent.js';

/** GET /v1/page/{title}/bare: the page's metadata and the URL of its HTML (MediaWiki's PageSourceHandler, format "bare"). */
export const pageBareRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/bare',
  summary: 'Get a page: its latest revision and the URL of its HTML, without the source',
  params: pageSourceParams,
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const loaded = await loadPage(ctx.deps, ctx.params.title, false);
    const moved = normalizationRedirect(ctx.params.title, loaded, ctx.routeUrl, ctx.route.path, ctx.params.redirect ? { redirect: ctx.params.redirect } : {});
    if (moved) return moved;
    const html_url = ctx.routeUrl('/v1/page/{title}/html', { title: loaded.page.title });
    const target = redirectTargetField(loaded, ctx.params.redirect, ctx.routeUrl, ctx.route.path);
    return { json: { ...pageMetadata(loaded), html_url, ...target }, validators: pageValidators(loaded) };
  },
});
