import { defineRoute, RestError } from '../types.js';
import { titleParam } from './pageContent.js';
import { editBodyFields, mapEditError, writePage } from './pageWrite.js';

/**
 * PUT /v1/page/{title} (MediaWiki's UpdateHandler): creates the page (201) or, with the base
 * revision in `latest.id`, updates it (200) — a stale base is merged like action=edit does, or
 * refused with 409. Updating an existing page without `latest` is a 409 as well.
 */
export const pageUpdateRoute = defineRoute({
  method: 'PUT',
  path: '/v1/page/{title}',
  summary: 'Create or update a page',
  params: titleParam,
  body: {
    contentTypes: ['application/json'],
    fields: {
      ...editBodyFields,
      latest: { type: 'object', description: 'The base revision: {"id": revision id}; required to update an existing page', properties: { id: { type: 'integer', description: 'Revision id' } } },
    },
  },
  writes: true,
  needsToken: 'csrf',
  actionModule: {
    // UpdateHandler: a creation that finds the page tells the client to send the base revision.
    mapError: (err, ctx) =>
      err.code === 'articleexists'
        ? new RestError(
            409,
            `The page "${ctx.params.title}" cannot be created since it already exists. To update the existing page, provide the base revision ID in the structure under "latest" key in the request body.`,
          )
        : mapEditError(err),
  },
  async execute(ctx) {
    const { body } = ctx;
    return writePage(ctx, { title: ctx.params.title, source: body.source, comment: body.comment, contentModel: body.content_model, latestId: body.latest?.id }, {});
  },
});
