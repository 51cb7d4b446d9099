import { defineRoute } from '../types.js';
import { pageCacheControl } from './pageContent.js';
import { assertTextVisible, loadRevision, revisionIdParam, revisionMetadata, revisionValidators } from './revision.js';

/** GET /v1/revision/{id}/bare: the revision's metadata and the URL of its HTML (RevisionSourceHandler, format "bare"). */
export const revisionBareRoute = defineRoute({
  method: 'GET',
  path: '/v1/revision/{id}/bare',
  summary: 'Get a revision: its metadata and the URL of its HTML, without the source',
  params: revisionIdParam,
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const loaded = await loadRevision(ctx.deps, ctx.params.id, false);
    assertTextVisible(loaded);
    const html_url = ctx.routeUrl('/v1/revision/{id}/html', { id: String(loaded.revision.id) });
    return { json: { ...(await revisionMetadata(ctx, loaded)), html_url }, validators: revisionValidators(loaded) };
  },
});
