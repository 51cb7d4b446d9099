import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GrpcStatus, ServiceError } from '@quire/kit';
import { blockedError } from '../action/blockinfo.js';
import type { Caller } from '../context.js';
import { PathMatcher } from './paths.js';
import { actionModuleStatusError, restMessages } from './responses.js';
import type { CallerResolver } from './router.js';
import { serveRest, testDeps, type TestServer } from './testing.js';
import { defineRoute, JSON_CONTENT_TYPE, type RouteDecl } from './types.js';

const FIXTURE_ETAG = '"fixture-v1"';
const FIXTURE_MODIFIED = new Date('2026-11-21T05:13:14Z');
const LISTED_ORIGIN = 'https://app.example';

/** A GET route with every parameter type, validators and its own Cache-Control; echoes what it got. */
const echoRoute = defineRoute({
  method: 'GET',
  path: '/v1/fixture/{name}',
  summary: 'Echo the validated parameters',
  params: {
    name: { source: 'path', type: 'string', required: true, description: 'a name' },
    limit: { source: 'query', type: 'integer', min: 1, max: 100, default: 10, description: 'a limit' },
    mode: { source: 'query', type: 'enum', values: ['fast', 'slow'], description: 'a mode' },
    flag: { source: 'query', type: 'boolean', default: false, description: 'a flag' },
    trace: { source: 'header', type: 'string', description: 'X-Trace header' },
  },
  writes: false,
  cacheControl: () => 'max-age=7',
  async execute(ctx) {
    const caller = await ctx.caller();
    const { name, limit, mode, flag, trace } = ctx.params;
    return {
      json: { name, limit, mode: mode ?? null, flag, trace: trace ?? null, user: caller.user.name, sessionId: caller.sessionId },
      validators: { etag: FIXTURE_ETAG, lastModified: FIXTURE_MODIFIED },
    };
  },
});

/** A write route with a JSON body schema, a CSRF token and pre-execute validators. */
const putRoute = defineRoute({
  method: 'PUT',
  path: '/v1/fixture/{name}',
  summary: 'Store a fixture',
  params: { name: { source: 'path', type: 'string', required: true, description: 'a name' } },
  body: {
    contentTypes: [JSON_CONTENT_TYPE],
    fields: {
      source: { type: 'string', required: true, description: 'text' },
      latest: { type: 'object', description: 'base revision', properties: { id: { type: 'integer', required: true, description: 'revision id' } } },
      token: { type: 'string', description: 'CSRF token' },
    },
  },
  writes: true,
  needsToken: 'csrf',
  async validators() {
    return { etag: FIXTURE_ETAG, lastModified: FIXTURE_MODIFIED };
  },
  async execute(ctx) {
    return { status: 201, headers: { Location: ctx.routeUrl('/v1/fixture/{name}', { name: ctx.params.name }) }, json: { stored: ctx.body.source, base: ctx.body.latest?.id ?? null } };
  },
});

const GRPC_CODES = [
  'NOT_FOUND',
  'INVALID_ARGUMENT',
  'PERMISSION_DENIED',
  'ALREADY_EXISTS',
  'ABORTED',
  'RESOURCE_EXHAUSTED',
  'UNAUTHENTICATED',
  'INTERNAL',
  'UNAVAILABLE',
  'DEADLINE_EXCEEDED',
  'crash',
] as const;

/** Fails the way a route can: a service error with the given gRPC code, or an unexpected exception. */
const failRoute = defineRoute({
  method: 'GET',
  path: '/v1/fixture/{name}/fail',
  summary: 'Fail on purpose',
  params: {
    name: { source: 'path', type: 'string', required: true, description: 'a name' },
    code: { source: 'query', type: 'enum', values: GRPC_CODES, required: true, description: 'how to fail' },
  },
  writes: false,
  async execute(ctx) {
    const code = ctx.params.code;
    if (code === 'crash') throw new TypeError('secret internals at /srv/x.ts:12');
    throw new ServiceError(GrpcStatus[code], `mw-${code.toLowerCase()}`, `service says ${code}`, code === 'RESOURCE_EXHAUSTED' ? { retryAfter: 30 } : {});
  },
});

const MODULE_FAILURES = ['permissiondenied', 'protectedpage', 'ratelimited', 'blocked', 'unavailable', 'crash'] as const;

/**
 * A route that runs an action module (like the page write routes run action=edit): its module
 * errors become 400 + actionModuleErrorCode, except `protectedpage` and `ratelimited`, which its
 * mapError answers with their own statuses.
 */
const moduleRoute = defineRoute({
  method: 'GET',
  path: '/v1/fixture/{name}/module',
  summary: 'Run a fixture action module that fails',
  params: {
    name: { source: 'path', type: 'string', required: true, description: 'a name' },
    failure: { source: 'query', type: 'enum', values: MODULE_FAILURES, required: true, description: 'how to fail' },
  },
  writes: false,
  actionModule: {
    mapError: (err) => (err.code === 'protectedpage' ? actionModuleStatusError(err, 403) : err.code === 'ratelimited' ? actionModuleStatusError(err, 429) : undefined),
  },
  async execute(ctx) {
    switch (ctx.params.failure) {
      case 'permissiondenied':
        throw new ServiceError(GrpcStatus.PERMISSION_DENIED, 'permissiondenied', 'You may not.');
      case 'protectedpage':
        throw new ServiceError(GrpcStatus.PERMISSION_DENIED, 'protectedpage', 'This page has been protected.');
      case 'ratelimited':
        throw new ServiceError(GrpcStatus.RESOURCE_EXHAUSTED, 'ratelimited', 'Slow down.', { retryAfter: 12.5 });
      case 'blocked':
        throw blockedError({
          id: 3,
          by: 'Admin',
          byId: 1,
          reason: 'spam',
          timestamp: '2026-01-02T03:04:05Z',
          expiry: 'infinite',
          partial: false,
          nocreate: true,
          anononly: false,
          noemail: false,
          allowusertalk: true,
          pages: [],
          namespaces: [],
        });
      case 'unavailable':
        throw new ServiceError(GrpcStatus.UNAVAILABLE, 'serviceunavailable', 'connect ECONNREFUSED 10.0.0.1:50051');
      default:
        throw new TypeError('secret internals');
    }
  },
});

const fixtureRoutes: RouteDecl[] = [echoRoute, putRoute, failRoute, moduleRoute];

/** Session "s1" is Alice's; everything else is anonymous. Records whether credentials were allowed. */
const credentialLog: boolean[] = [];
const resolveCaller: CallerResolver = async (req, _deps, { allowCredentials }) => {
  credentialLog.push(allowCredentials);
  const loggedIn = allowCredentials && /(?:^|;\s*)sid=s1\b/.test(req.get('Cookie') ?? '');
  const user = loggedIn
    ? { id: 7, name: 'Alice', anonymous: false, groups: ['*', 'user'], rights: ['read', 'edit', 'writeapi'] }
    : { id: 0, name: '127.0.0.1', anonymous: true, groups: ['*'], rights: ['read', 'writeapi'] };
  return { user, sessionId: loggedIn ? 's1' : '', sessionLost: false, ip: '127.0.0.1' } satisfies Caller;
};

const errorLogs: unknown[] = [];
let server: TestServer;

before(async () => {
  const deps = testDeps(
    { auth: { checkToken: async (sessionId, type, token) => ({ valid: type === 'csrf' && token === `tok-${sessionId}+\\`, generated: 0 }) } },
    { CORS_ORIGINS: `${LISTED_ORIGIN}, https://other.example` },
  );
  deps.log.error = ((obj: unknown) => void errorLogs.push(obj)) as typeof deps.log.error;
  server = await serveRest(deps, { routes: fixtureRoutes, resolveCaller });
});
after(() => server.close());

async function call(path: string, init?: RequestInit) {
  const res = await fetch(server.rest + path, init);
  const text = await res.text();
  return { res, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

function put(path: string, body: unknown, headers: Record<string, string> = {}) {
  return call(path, { method: 'PUT', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

describe('routing', () => {
  test('unknown path: 404 with MediaWiki rest-no-match body', async () => {
    const { res, text } = await call('/v1/nope');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(text, '{"messageTranslations":{"en":"The requested relative path (/v1/nope) did not match any known handler"},"httpCode":404,"httpReason":"Not Found"}');
  });

  test('a path parameter never spans a slash, but %2F puts one in its value', async () => {
    assert.equal((await call('/v1/fixture/a/b')).res.status, 404);
    assert.equal((await call('/v1/fixture/a%2Fb')).json?.name, 'a/b');
  });

  test('path parameters are rawurldecoded: %20 is a space, + stays a plus, UTF-8 is decoded', async () => {
    assert.equal((await call('/v1/fixture/A%20b+c')).json?.name, 'A b+c');
    assert.equal((await call('/v1/fixture/%C3%A9t%C3%A9')).json?.name, 'été');
  });

  test('wrong method: 405 with Allow listing HEAD for GET routes', async () => {
    const { res, json } = await call('/v1/fixture/x', { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'HEAD, GET, PUT');
    assert.deepEqual(json, {
      messageTranslations: { en: 'The request method (DELETE) was not one of the allowed methods for this path (HEAD, GET, PUT)' },
      httpCode: 405,
      httpReason: 'Method Not Allowed',
    });
  });

  test('405 on a GET-only path allows HEAD and GET', async () => {
    const { res, json } = await call('/v1/fixture/x/fail', { method: 'POST' });
    assert.equal(res.headers.get('allow'), 'HEAD, GET');
    assert.deepEqual(json?.messageTranslations, { en: 'The request method (POST) was not one of the allowed methods for this path (HEAD, GET)' });
  });

  test('405 with a single allowed method uses the singular message', () => {
    const err = restMessages.wrongMethod('GET', ['POST']);
    assert.equal(err.message, 'The request method (GET) was not the allowed method for this path (POST)');
    assert.deepEqual(err.headers, { Allow: 'POST' });
  });

  test('templates of one method that could match the same path are refused', () => {
    const clash = defineRoute({ ...echoRoute, path: '/v1/{other}/x', params: { other: { source: 'path', type: 'string', required: true, description: 'x' } } });
    assert.throws(() => new PathMatcher([echoRoute, clash]), /conflicts with \/v1\/fixture\/\{name\}/);
    assert.doesNotThrow(() => new PathMatcher([echoRoute, putRoute, failRoute]));
  });

  test('HEAD runs the GET route without a body', async () => {
    const { res, text } = await call('/v1/fixture/x', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('etag'), FIXTURE_ETAG);
    assert.equal(text, '');
  });
});

describe('parameter validation', () => {
  test('defaults and typed values reach the route', async () => {
    const { res, json } = await call('/v1/fixture/x?limit=%2B42&mode=slow&flag=yes', { headers: { trace: 'abc' } });
    assert.equal(res.status, 200);
    assert.deepEqual({ limit: json?.limit, mode: json?.mode, flag: json?.flag, trace: json?.trace }, { limit: 42, mode: 'slow', flag: true, trace: 'abc' });
    const d = (await call('/v1/fixture/x')).json;
    assert.deepEqual({ limit: d?.limit, mode: d?.mode, flag: d?.flag }, { limit: 10, mode: null, flag: false });
  });

  test('empty required path parameter: missingparam with the empty value', async () => {
    const { res, json } = await call('/v1/fixture/');
    assert.equal(res.status, 400);
    assert.deepEqual(json, {
      error: 'parameter-validation-failed',
      name: 'name',
      value: '',
      failureCode: 'missingparam',
      failureData: null,
      messageTranslations: { en: 'The "name" parameter must be set.' },
      httpCode: 400,
      httpReason: 'Bad Request',
    });
  });

  test('absent required query parameter: missingparam with value null', async () => {
    const { json } = await call('/v1/fixture/x/fail');
    assert.equal(json?.value, null);
    assert.equal(json?.failureCode, 'missingparam');
    assert.deepEqual(json?.messageTranslations, { en: 'The "code" parameter must be set.' });
  });

  test('bad integer', async () => {
    const { res, json } = await call('/v1/fixture/x?limit=5.5');
    assert.equal(res.status, 400);
    assert.deepEqual(json, {
      error: 'parameter-validation-failed',
      name: 'limit',
      value: '5.5',
      failureCode: 'badinteger',
      failureData: null,
      messageTranslations: { en: 'Invalid value "5.5" for integer parameter "limit".' },
      httpCode: 400,
      httpReason: 'Bad Request',
    });
  });

  test('integer out of range: outofrange with MediaWiki failureData', async () => {
    const { json } = await call('/v1/fixture/x?limit=1000');
    assert.deepEqual(json, {
      error: 'parameter-validation-failed',
      name: 'limit',
      value: '1000',
      failureCode: 'outofrange',
      failureData: { min: 1, curmax: 100, max: 100, highmax: 100 },
      messageTranslations: { en: 'The value "1000" for parameter "limit" must be between 1 and 100.' },
      httpCode: 400,
      httpReason: 'Bad Request',
    });
  });

  test('bad enum value: badvalue with failureData []', async () => {
    const { json } = await call('/v1/fixture/x?mode=bogus');
    assert.deepEqual(json, {
      error: 'parameter-validation-failed',
      name: 'mode',
      value: 'bogus',
      failureCode: 'badvalue',
      failureData: [],
      messageTranslations: { en: 'Unrecognized value for parameter "mode": bogus.' },
      httpCode: 400,
      httpReason: 'Bad Request',
    });
  });

  test('bad boolean: badbool with the accepted spellings', async () => {
    const { json } = await call('/v1/fixture/x?flag=Maybe');
    assert.equal(json?.failureCode, 'badbool');
    assert.equal(json?.value, 'maybe');
    assert.deepEqual(json?.messageTranslations, {
      en: 'Invalid value "maybe" for boolean parameter "flag". Pass "true", "t", "yes", "y", "on" and "1" for true, or "false", "f", "no", "n", "off", "0" and the empty string for false.',
    });
  });
});

describe('request bodies', () => {
  const good = { source: 'text', latest: { id: 3 }, token: 'tok-+\\' };

  test('a valid JSON body reaches the route; 201 with Location', async () => {
    const { res, json } = await put('/v1/fixture/x', good);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('location'), 'http://wiki.test/w/rest.php/v1/fixture/x');
    assert.deepEqual(json, { stored: 'text', base: 3 });
  });

  test('wrong Content-Type: 415 with MediaWiki body', async () => {
    const { res, text } = await put('/v1/fixture/x', 'x', { 'Content-Type': 'text/plain' });
    assert.equal(res.status, 415);
    assert.equal(text, '{"message":"Unsupported Content-Type","content_type":"text/plain","httpCode":415,"httpReason":"Unsupported Media Type"}');
  });

  test('no Content-Type: 415 no-content-type', async () => {
    const { res, json } = await call('/v1/fixture/x', { method: 'PUT', body: new Blob(['{}']) });
    assert.equal(res.status, 415);
    assert.deepEqual(json, { message: 'A Content-Type header must be supplied with a request payload.', error: 'no-content-type', httpCode: 415, httpReason: 'Unsupported Media Type' });
  });

  test('unparseable JSON: 400', async () => {
    const { res, json } = await put('/v1/fixture/x', '{bad');
    assert.equal(res.status, 400);
    assert.match((json!.messageTranslations as { en: string }).en, /^Parsing request body as JSON failed: /);
  });

  test('JSON that is not an object: 400', async () => {
    const { res, json } = await put('/v1/fixture/x', '[1]');
    assert.equal(res.status, 400);
    assert.deepEqual(json?.messageTranslations, { en: 'Bad request body, must be a JSON object.' });
  });

  test('missing mandatory field (absent or null): MediaWiki message', async () => {
    for (const body of [{ token: 'tok-+\\' }, { source: null, token: 'tok-+\\' }]) {
      const { res, text } = await put('/v1/fixture/x', body);
      assert.equal(res.status, 400);
      assert.equal(text, '{"messageTranslations":{"en":"Mandatory field \\"source\\" missing from request body."},"httpCode":400,"httpReason":"Bad Request"}');
    }
  });

  test('field of the wrong type, also inside a declared object', async () => {
    const top = await put('/v1/fixture/x', { ...good, source: 12 });
    assert.equal(top.res.status, 400);
    assert.deepEqual({ name: top.json?.name, value: top.json?.value, failureCode: top.json?.failureCode }, { name: 'source', value: 12, failureCode: 'badbodyfield' });
    const nested = await put('/v1/fixture/x', { ...good, latest: { id: 'three' } });
    assert.equal(nested.json?.name, 'latest.id');
    assert.deepEqual(nested.json?.messageTranslations, { en: 'Invalid value for field "latest.id" of the request body: expected an integer.' });
  });

  test('CSRF token: missing is 400 missingparam, invalid is 403', async () => {
    const missing = await put('/v1/fixture/x', { source: 'a' });
    assert.equal(missing.res.status, 400);
    assert.equal(missing.text, '{"actionModuleErrorCode":"missingparam","messageTranslations":{"en":"The \\"token\\" parameter must be set."},"httpCode":400,"httpReason":"Bad Request"}');
    const bad = await put('/v1/fixture/x', { source: 'a', token: 'bogus' });
    assert.equal(bad.res.status, 403);
    assert.equal(bad.text, '{"messageTranslations":{"en":"Invalid CSRF token."},"httpCode":403,"httpReason":"Forbidden"}');
  });

  test('the token is checked against the caller session', async () => {
    const asAlice = await put('/v1/fixture/x', { source: 'a', token: 'tok-s1+\\' }, { Cookie: 'sid=s1' });
    assert.equal(asAlice.res.status, 201);
    const anonWithAlicesToken = await put('/v1/fixture/x', { source: 'a', token: 'tok-s1+\\' });
    assert.equal(anonWithAlicesToken.res.status, 403);
  });
});

describe('conditional requests', () => {
  test('validators and Cache-Control on a 200', async () => {
    const { res } = await call('/v1/fixture/x');
    assert.equal(res.headers.get('etag'), FIXTURE_ETAG);
    assert.equal(res.headers.get('last-modified'), 'Sat, 21 Nov 2026 05:13:14 GMT');
    assert.equal(res.headers.get('cache-control'), 'max-age=7');
  });

  test('If-None-Match matching (also weakly, also in a list): 304 without body', async () => {
    for (const inm of [FIXTURE_ETAG, `W/${FIXTURE_ETAG}`, `"other", ${FIXTURE_ETAG}`]) {
      const { res, text } = await call('/v1/fixture/x', { headers: { 'If-None-Match': inm } });
      assert.equal(res.status, 304, inm);
      assert.equal(text, '');
      assert.equal(res.headers.get('etag'), FIXTURE_ETAG);
    }
  });

  test('If-None-Match not matching: 200', async () => {
    const { res, json } = await call('/v1/fixture/x', { headers: { 'If-None-Match': '"stale"' } });
    assert.equal(res.status, 200);
    assert.equal(json?.name, 'x');
  });

  test('If-Modified-Since: 304 at or after Last-Modified, 200 before it', async () => {
    assert.equal((await call('/v1/fixture/x', { headers: { 'If-Modified-Since': 'Sat, 21 Nov 2026 05:13:14 GMT' } })).res.status, 304);
    assert.equal((await call('/v1/fixture/x', { headers: { 'If-Modified-Since': 'Sun, 22 Nov 2026 00:00:00 GMT' } })).res.status, 304);
    assert.equal((await call('/v1/fixture/x', { headers: { 'If-Modified-Since': 'Sat, 21 Nov 2026 05:13:13 GMT' } })).res.status, 200);
    assert.equal((await call('/v1/fixture/x', { headers: { 'If-Modified-Since': 'not a date' } })).res.status, 200);
  });

  test('If-None-Match takes precedence over If-Modified-Since', async () => {
    const { res } = await call('/v1/fixture/x', { headers: { 'If-None-Match': '"stale"', 'If-Modified-Since': 'Sun, 22 Nov 2026 00:00:00 GMT' } });
    assert.equal(res.status, 200);
  });

  test('writes: If-Match mismatch or If-Unmodified-Since too early is 412 before the write; a match proceeds', async () => {
    const body = { source: 'a', token: 'tok-+\\' };
    const mismatch = await put('/v1/fixture/x', body, { 'If-Match': '"stale"' });
    assert.equal(mismatch.res.status, 412);
    assert.equal(mismatch.json?.httpCode, 412);
    assert.equal((await put('/v1/fixture/x', body, { 'If-Unmodified-Since': 'Fri, 20 Nov 2026 00:00:00 GMT' })).res.status, 412);
    assert.equal((await put('/v1/fixture/x', body, { 'If-Match': FIXTURE_ETAG })).res.status, 201);
    assert.equal((await put('/v1/fixture/x', body, { 'If-Match': '*' })).res.status, 201);
    assert.equal((await put('/v1/fixture/x', body, { 'If-None-Match': '*' })).res.status, 412);
  });

  test('no Cache-Control or validators on errors', async () => {
    const { res } = await call('/v1/fixture/x?limit=0');
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('cache-control'), null);
    assert.equal(res.headers.get('etag'), null);
  });
});

describe('CORS', () => {
  test('no Origin: ACAO * and the session cookie is honoured', async () => {
    credentialLog.length = 0;
    const { res, json } = await call('/v1/fixture/x', { headers: { Cookie: 'sid=s1' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    assert.equal(json?.user, 'Alice');
    assert.deepEqual(credentialLog, [true]);
  });

  test('listed Origin: echoed with credentials, Vary: Origin, session honoured', async () => {
    const { res, json } = await call('/v1/fixture/x', { headers: { Cookie: 'sid=s1', Origin: LISTED_ORIGIN } });
    assert.equal(res.headers.get('access-control-allow-origin'), LISTED_ORIGIN);
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    assert.equal(json?.user, 'Alice');
  });

  test("the wiki's own origin counts as listed", async () => {
    const { res } = await call('/v1/fixture/x', { headers: { Origin: 'http://wiki.test' } });
    assert.equal(res.headers.get('access-control-allow-origin'), 'http://wiki.test');
  });

  test('unlisted Origin: ACAO *, no credentials, served as anonymous', async () => {
    credentialLog.length = 0;
    const { res, json } = await call('/v1/fixture/x', { headers: { Cookie: 'sid=s1', Origin: 'https://evil.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    assert.equal(json?.user, '127.0.0.1');
    assert.equal(json?.sessionId, '');
    assert.deepEqual(credentialLog, [false]);
  });

  test('a prefix of a listed origin is not listed', async () => {
    const { res } = await call('/v1/fixture/x', { headers: { Origin: 'https://app.example.evil.net' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });

  test('unlisted Origin may not write: 403 rest-cross-origin-anon-write', async () => {
    const { res, text } = await put('/v1/fixture/x', { source: 'a', token: 'tok-+\\' }, { Origin: 'https://evil.example' });
    assert.equal(res.status, 403);
    assert.equal(text, '{"error":"rest-cross-origin-anon-write","httpCode":403,"httpReason":"Forbidden"}');
  });

  test('preflight: 204 with the methods of the path and the allowed headers', async () => {
    const { res, text } = await call('/v1/fixture/x', { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'PUT' } });
    assert.equal(res.status, 204);
    assert.equal(text, '');
    assert.equal(res.headers.get('access-control-allow-methods'), 'HEAD, GET, PUT');
    const allowHeaders = (res.headers.get('access-control-allow-headers') ?? '').split(', ');
    for (const h of ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'If-Modified-Since']) assert.ok(allowHeaders.includes(h), h);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });

  test('preflight from a listed origin allows credentials', async () => {
    const { res } = await call('/v1/fixture/x', { method: 'OPTIONS', headers: { Origin: LISTED_ORIGIN, 'Access-Control-Request-Method': 'PUT' } });
    assert.equal(res.headers.get('access-control-allow-origin'), LISTED_ORIGIN);
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
  });

  test('errors carry CORS headers too', async () => {
    const { res } = await call('/v1/nope', { headers: { Origin: LISTED_ORIGIN } });
    assert.equal(res.headers.get('access-control-allow-origin'), LISTED_ORIGIN);
  });
});

describe('failures', () => {
  const expected: Record<string, number> = {
    NOT_FOUND: 404,
    INVALID_ARGUMENT: 400,
    PERMISSION_DENIED: 403,
    ALREADY_EXISTS: 409,
    ABORTED: 409,
    RESOURCE_EXHAUSTED: 429,
    UNAUTHENTICATED: 401,
  };
  for (const [code, status] of Object.entries(expected)) {
    test(`ServiceError ${code} → ${status} with the service's message`, async () => {
      const { res, json } = await call(`/v1/fixture/x/fail?code=${code}`);
      assert.equal(res.status, status);
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.deepEqual(json?.messageTranslations, { en: `service says ${code}` });
      assert.equal(json?.httpCode, status);
    });
  }

  test('INVALID_ARGUMENT names the MediaWiki code; RESOURCE_EXHAUSTED sends Retry-After', async () => {
    assert.equal((await call('/v1/fixture/x/fail?code=INVALID_ARGUMENT')).json?.actionModuleErrorCode, 'mw-invalid_argument');
    assert.equal((await call('/v1/fixture/x/fail?code=RESOURCE_EXHAUSTED')).res.headers.get('retry-after'), '30');
  });

  test('a route running an action module: 400 + actionModuleErrorCode unless the route maps the code', async () => {
    const denied = await call('/v1/fixture/x/module?failure=permissiondenied');
    assert.equal(denied.res.status, 400);
    assert.equal(denied.text, '{"actionModuleErrorCode":"permissiondenied","messageTranslations":{"en":"You may not."},"httpCode":400,"httpReason":"Bad Request"}');
    // The gateway's own module errors (ApiUsageError) are mapped the same way.
    const blocked = await call('/v1/fixture/x/module?failure=blocked');
    assert.equal(blocked.res.status, 400);
    assert.deepEqual(blocked.json, { actionModuleErrorCode: 'blocked', messageTranslations: { en: 'You have been blocked from editing.' }, httpCode: 400, httpReason: 'Bad Request' });
    const protectedPage = await call('/v1/fixture/x/module?failure=protectedpage');
    assert.equal(protectedPage.res.status, 403);
    assert.equal(protectedPage.text, '{"messageTranslations":{"en":"This page has been protected."},"httpCode":403,"httpReason":"Forbidden"}');
    const limited = await call('/v1/fixture/x/module?failure=ratelimited');
    assert.equal(limited.res.status, 429);
    assert.equal(limited.res.headers.get('retry-after'), '13');
    assert.deepEqual(limited.json, { messageTranslations: { en: 'Slow down.' }, httpCode: 429, httpReason: 'Too Many Requests' });
    // Failures of the service itself are not the module's refusals.
    const down = await call('/v1/fixture/x/module?failure=unavailable');
    assert.equal(down.res.status, 503);
    assert.ok(!down.text.includes('ECONNREFUSED'));
    assert.equal((await call('/v1/fixture/x/module?failure=crash')).res.status, 500);
  });

  test('ServiceError INTERNAL → 500 with a generic message', async () => {
    const { res, json } = await call('/v1/fixture/x/fail?code=INTERNAL');
    assert.equal(res.status, 500);
    assert.deepEqual(json, { message: 'Error: exception of type ServiceError', httpCode: 500, httpReason: 'Internal Server Error' });
  });

  for (const code of ['UNAVAILABLE', 'DEADLINE_EXCEEDED']) {
    test(`ServiceError ${code} → 503 with Retry-After, without the gRPC details`, async () => {
      const { res, json, text } = await call(`/v1/fixture/x/fail?code=${code}`);
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '5');
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.deepEqual(json, {
        messageTranslations: { en: 'The wiki is temporarily unavailable. Please try again later.' },
        httpCode: 503,
        httpReason: 'Service Unavailable',
      });
      assert.ok(!text.includes(code) && !text.includes('service says'));
    });
  }

  test('an unexpected exception: 500 JSON without its message or stack, logged', async () => {
    errorLogs.length = 0;
    const { res, text } = await call('/v1/fixture/x/fail?code=crash');
    assert.equal(res.status, 500);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(text, '{"message":"Error: exception of type TypeError","httpCode":500,"httpReason":"Internal Server Error"}');
    assert.equal(errorLogs.length, 1);
    assert.ok((errorLogs[0] as { err: unknown }).err instanceof TypeError);
  });
});
