/*
 * The OpenAPI 3 document of a route table, generated from the same declarations the pipeline
 * validates with (served at /w/rest.php/specs/v0/module/-, as newer MediaWiki does).
 */
import type { GatewayConfig } from '../config.js';
import { REST_PATH } from './paths.js';
import type { BodyFieldDecl, RestParamDecl, RouteDecl } from './types.js';

type Schema = Record<string, unknown>;

function paramSchema(decl: RestParamDecl): Schema {
  const schema: Schema = { type: decl.type === 'enum' || decl.type === 'user' ? 'string' : decl.type };
  if (decl.type === 'enum') schema.enum = [...decl.values];
  if (decl.type === 'integer') {
    if (decl.min !== undefined) schema.minimum = decl.min;
    if (decl.max !== undefined) schema.maximum = decl.max;
  }
  if (decl.default !== undefined) schema.default = decl.default;
  return schema;
}

function fieldSchema(f: BodyFieldDecl): Schema {
  if (f.type === 'object' && f.properties) return { ...objectSchema(f.properties), description: f.description };
  // A schema without a type admits any JSON value.
  if (f.type === 'any') return { description: f.description };
  return { type: f.type, description: f.description };
}

function objectSchema(fields: Record<string, BodyFieldDecl>): Schema {
  const required = Object.entries(fields).flatMap(([name, f]) => (f.required ? [name] : []));
  const properties = Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, fieldSchema(f)]));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function operation(route: RouteDecl): Schema {
  const parameters = Object.entries(route.params).map(([name, decl]) => ({
    name,
    in: decl.source,
    // OpenAPI requires path parameters to be required.
    required: decl.source === 'path' || decl.required === true,
    description: decl.description,
    schema: paramSchema(decl),
  }));
  return {
    summary: route.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: Object.fromEntries(route.body.contentTypes.map((ct) => [ct, { schema: objectSchema(route.body!.fields) }])) } } : {}),
    responses: {
      '2XX': { description: 'Success' },
      default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  };
}

export function buildOpenApiDocument(routes: readonly RouteDecl[], config: Pick<GatewayConfig, 'server' | 'sitename'>): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.0.0',
    info: { title: `${config.sitename} REST API`, version: '1.0' },
    servers: [{ url: `${config.server}${REST_PATH}` }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          description: 'MediaWiki REST error',
          properties: {
            messageTranslations: { type: 'object', additionalProperties: { type: 'string' } },
            httpCode: { type: 'integer' },
            httpReason: { type: 'string' },
            error: { type: 'string' },
            name: { type: 'string' },
            failureCode: { type: 'string' },
          },
          required: ['httpCode', 'httpReason'],
        },
      },
    },
  };
}
