/*
 * Structure test: every declared route is well-formed, and the OpenAPI document describes
 * exactly the route table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildOpenApiDocument } from './openapi.js';
import { PathMatcher, templateParamNames } from './paths.js';
import { coreRoutes, devRoutes } from './routes/index.js';

/** Every declared route: the core table and the development routes (REST_DEV_ROUTES). */
const allRoutes = [...coreRoutes, ...devRoutes];
import { serveRest, testDeps, type TestServer } from './testing.js';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MULTIPART_CONTENT_TYPE, WRITE_METHODS, type BodyFieldDecl, type RestParamDecl } from './types.js';

const PARAM_TYPES = new Set(['string', 'integer', 'boolean', 'enum', 'user']);
const PARAM_SOURCES = new Set(['path', 'query', 'header']);
const FIELD_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object', 'any']);

function checkParam(where: string, name: string, decl: RestParamDecl): void {
  assert.ok(PARAM_TYPES.has(decl.type), `${where}: ${name} has unknown type ${decl.type}`);
  assert.ok(PARAM_SOURCES.has(decl.source), `${where}: ${name} has unknown source ${decl.source}`);
  assert.ok(decl.description.trim().length > 0, `${where}: ${name} needs a description`);
  if (decl.type === 'enum') {
    assert.ok(decl.values.length > 0, `${where}: enum ${name} has no values`);
    assert.equal(new Set(decl.values).size, decl.values.length, `${where}: enum ${name} repeats a value`);
    if (decl.default !== undefined) assert.ok(decl.values.includes(decl.default), `${where}: default of ${name} is not one of its values`);
  }
  if (decl.type === 'integer') {
    for (const bound of [decl.min, decl.max, decl.default]) if (bound !== undefined) assert.ok(Number.isSafeInteger(bound), `${where}: ${name} bounds/default must be integers`);
    if (decl.min !== undefined && decl.max !== undefined) assert.ok(decl.min <= decl.max, `${where}: ${name} has min > max`);
    if (decl.default !== undefined) {
      assert.ok(decl.min === undefined || decl.default >= decl.min, `${where}: default of ${name} below min`);
      assert.ok(decl.max === undefined || decl.default <= decl.max, `${where}: default of ${name} above max`);
    }
  }
  if (decl.type !== 'integer') assert.ok(!('min' in decl) && !('max' in decl), `${where}: min/max only apply to integers`);
  if (decl.required) assert.equal(decl.default, undefined, `${where}: required ${name} cannot have a default`);
}

function checkFields(where: string, fields: Record<string, BodyFieldDecl>): void {
  for (const [name, f] of Object.entries(fields)) {
    assert.ok(FIELD_TYPES.has(f.type), `${where}: body field ${name} has unknown type ${f.type}`);
    assert.ok(f.description.trim().length > 0, `${where}: body field ${name} needs a description`);
    if (f.type === 'object' && f.properties) checkFields(`${where}.${name}`, f.properties);
  }
}

describe('REST route declarations', () => {
  test('the table is not empty and method+path pairs are unique', () => {
    assert.ok(coreRoutes.length > 0);
    const keys = allRoutes.map((r) => `${r.method} ${r.path}`);
    assert.equal(new Set(keys).size, keys.length, `duplicates in ${keys.join(', ')}`);
  });

  test('no two routes of a method can match the same path', () => {
    assert.doesNotThrow(() => new PathMatcher(allRoutes));
  });

  for (const route of allRoutes) {
    const where = `${route.method} ${route.path}`;
    test(`${where} is well-formed`, () => {
      assert.match(route.path, /^\/[^?#\s]*$/, `${where}: path must start with / and hold no query`);
      assert.ok(route.summary.trim().length > 0, `${where}: needs a summary`);

      const templateParams = templateParamNames(route.path);
      assert.equal(new Set(templateParams).size, templateParams.length, `${where}: repeats a path parameter`);
      for (const name of templateParams) {
        const decl = route.params[name];
        assert.ok(decl, `${where}: {${name}} is not declared`);
        assert.equal(decl.source, 'path', `${where}: {${name}} must have source "path"`);
        // An optional string path parameter takes an empty segment (TransformHandler's {title}: `…/to/html/`).
        assert.ok(decl.required === true || decl.type === 'string', `${where}: path parameter {${name}} must be required`);
      }
      for (const [name, decl] of Object.entries(route.params)) {
        checkParam(where, name, decl);
        if (decl.source === 'path') assert.ok(templateParams.includes(name), `${where}: path parameter ${name} is not in the template`);
      }

      const writeMethod = WRITE_METHODS.includes(route.method);
      if (route.writes) assert.ok(writeMethod, `${where}: a write route cannot be ${route.method}`);
      if (route.writes && route.method !== 'DELETE') assert.ok(route.body, `${where}: write routes need a body schema`);
      if (route.body) {
        assert.ok(writeMethod, `${where}: ${route.method} requests have no body`);
        assert.ok(route.body.contentTypes.length > 0, `${where}: accepts no Content-Type`);
        for (const ct of route.body.contentTypes) assert.ok(ct === JSON_CONTENT_TYPE || ct === FORM_CONTENT_TYPE || ct === MULTIPART_CONTENT_TYPE, `${where}: cannot parse ${ct}`);
        checkFields(where, route.body.fields);
      }
      if (route.needsToken) {
        assert.ok(route.writes, `${where}: only write routes take a CSRF token`);
        assert.equal(route.body?.fields.token?.type, 'string', `${where}: needs a string "token" body field`);
      }
    });
  }

  test('the OpenAPI document has exactly one operation per route, with its parameters', () => {
    const doc = buildOpenApiDocument(allRoutes, testDeps().config) as { openapi: string; paths: Record<string, Record<string, { summary: string; parameters?: { name: string; in: string }[] }>> };
    assert.match(doc.openapi, /^3\./);
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    assert.deepEqual(operations.sort(), allRoutes.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of allRoutes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      assert.equal(op?.summary, route.summary);
      assert.deepEqual(
        (op?.parameters ?? []).map((p) => `${p.in}:${p.name}`),
        Object.entries(route.params).map(([name, d]) => `${d.source}:${name}`),
      );
    }
  });
});

describe('served by the real router', () => {
  let server: TestServer;
  before(async () => {
    server = await serveRest(testDeps({}, { WIKI_SERVER: 'https://wiki.example', WIKI_NAME: 'Testwiki' }));
  });
  after(() => server.close());

  test('GET /specs/v0/module/- serves the OpenAPI document of the route table', async () => {
    const res = await fetch(`${server.rest}/specs/v0/module/-`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const doc = (await res.json()) as { info: { title: string }; servers: { url: string }[]; paths: Record<string, unknown> };
    assert.equal(doc.info.title, 'Testwiki REST API');
    assert.deepEqual(doc.servers, [{ url: 'https://wiki.example/w/rest.php' }]);
    assert.deepEqual(Object.keys(doc.paths).sort(), [...new Set(coreRoutes.map((r) => r.path))].sort());
  });

  test('GET /v1/ is a 404 as in MediaWiki', async () => {
    const res = await fetch(`${server.rest}/v1/`);
    assert.equal(res.status, 404);
    assert.equal(await res.text(), '{"messageTranslations":{"en":"The requested relative path (/v1/) did not match any known handler"},"httpCode":404,"httpReason":"Not Found"}');
  });
});
