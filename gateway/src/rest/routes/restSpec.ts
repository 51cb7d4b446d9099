import { buildOpenApiDocument } from '../openapi.js';
import { defineRoute } from '../types.js';

/** GET /specs/v0/module/-: the OpenAPI document of the route table (as newer MediaWiki serves it). */
export const restSpecRoute = defineRoute({
  method: 'GET',
  path: '/specs/v0/module/-',
  summary: 'Get the OpenAPI 3 document of this REST API',
  params: {},
  writes: false,
  async execute(ctx) {
    return { json: buildOpenApiDocument(ctx.routes, ctx.deps.config) };
  },
});
