import { defineRoute } from '../types.js';
import { editBodyFields, mapEditError, writePage } from './pageWrite.js';

/** POST /v1/page (MediaWiki's CreationHandler): creates a page; 201 with its Location, 409 when it exists. */
export const pageCreateRoute = defineRoute({
  method: 'POST',
  path: '/v1/page',
  summary: 'Create a page',
  params: {},
  body: {
    contentTypes: ['application/json'],
    fields: {
      title: { type: 'string', required: true, description: 'Title of the page to create' },
      ...editBodyFields,
    },
  },
  writes: true,
  needsToken: 'csrf',
  actionModule: { mapError: mapEditError },
  async execute(ctx) {
    const { body } = ctx;
    return writePage(ctx, { title: body.title, source: body.source, comment: body.comment, contentModel: body.content_model, latestId: undefined }, { location: true });
  },
});
