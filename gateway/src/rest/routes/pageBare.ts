import { defineRoute } from '../types.js';
import { loadPage, pageCacheControl, pageMetadata, pageValidators, titleParam } from './pageContent.js';

/** GET /v1/page/{title}/bare: the page's metadata and the URL of its HTML (MediaWiki's PageSourceHandler, format "bare"). */
export const pageBareRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/bare',
  summary: 'Get a page: its latest revision and the URL of its HTML, without the source',
  params: titleParam,
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const loaded = await loadPage(ctx.deps, ctx.params.title, false);
    // MediaWiki 1.39 links the title text (rawurlencoded: spaces as %20), not the DB key.
    const html_url = ctx.routeUrl('/v1/page/{title}/html', { title: loaded.page.title });
    return { json: { ...pageMetadata(loaded), html_url }, validators: pageValidators(loaded) };
  },
});
