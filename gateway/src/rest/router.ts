/*
 * The REST API pipeline (MediaWiki's Rest\Router + EntryPoint), mounted at /w/rest.php:
 * match the path → CORS → cross-origin write check → parameters → body → CSRF token →
 * conditional headers → execute → ETag/Last-Modified/Cache-Control → send. Every failure,
 * including service errors and unexpected exceptions, leaves as MediaWiki's JSON error body.
 */
import express, { type Request, type Response } from 'express';
import { resolveCaller as resolveSessionCaller } from '../caller.js';
import type { Caller, GatewayDeps } from '../context.js';
import { checkPreconditions, formatHttpDate, type ConditionalHeaders } from './conditional.js';
import { allowedOrigins, decideCors, preflightHeaders } from './cors.js';
import { PathMatcher, REST_PATH, substPathParams } from './paths.js';
import { actionModuleErrorOf, actionModuleRestError, errorBody, restMessages, toRestError } from './responses.js';
import { coreRoutes, devRoutes } from './routes/index.js';
import { RestError, type HttpMethod, type ParamDecls, type RestContext, type RestResponse, type RouteDecl, type Validators } from './types.js';
import { parseQuery, validateBody, validateParams } from './validate.js';
import { labelRequest } from '../observability.js';

export type CallerResolver = (req: Request, deps: GatewayDeps, opts: { allowCredentials: boolean }) => Promise<Caller>;

export interface RestRouterOptions {
  /** The route table; default: the core routes, and the development routes with REST_DEV_ROUTES. */
  routes?: readonly RouteDecl[];
  /** Who is calling; default: the session cookie resolved by the auth service. */
  resolveCaller?: CallerResolver;
}

/** How long the anonymous rights are reused (GROUP_PERMISSIONS_JSON changes need a restart anyway). */
const ANON_RIGHTS_TTL_MS = 5000;

const ROUTE_METHODS: ReadonlySet<string> = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** Largest accepted request body: the article size limit with room for JSON escaping. */
function bodyLimitBytes(deps: GatewayDeps): number {
  return deps.config.maxArticleSizeKb * 1024 * 8 + 64 * 1024;
}

async function readRawBody(req: Request, limit: number): Promise<Buffer> {
  if (Buffer.isBuffer(req.body)) return req.body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep draining so the error response can still be delivered.
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) throw new RestError(413, `The request body is larger than the limit of ${limit} bytes.`);
  return Buffer.concat(chunks);
}

function conditionalHeaders(req: Request): ConditionalHeaders {
  return {
    ifMatch: req.get('If-Match'),
    ifNoneMatch: req.get('If-None-Match'),
    ifModifiedSince: req.get('If-Modified-Since'),
    ifUnmodifiedSince: req.get('If-Unmodified-Since'),
  };
}

function validatorHeaders(v: Validators | undefined): Record<string, string> {
  const h: Record<string, string> = {};
  if (v?.etag !== undefined) h.ETag = v.etag;
  if (v?.lastModified !== undefined) h['Last-Modified'] = formatHttpDate(v.lastModified);
  return h;
}

function send(res: Response, status: number, headers: Record<string, string>, body?: { data: string; contentType: string }): void {
  res.status(status);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (body) {
    res.setHeader('Content-Type', body.contentType);
    res.setHeader('Content-Length', Buffer.byteLength(body.data));
    res.end(body.data);
  } else {
    res.end();
  }
}

function sendError(res: Response, err: RestError, corsHeaders: Record<string, string>): void {
  send(res, err.status, { ...corsHeaders, ...err.headers }, { data: JSON.stringify(errorBody(err)), contentType: 'application/json' });
}

/** Runs a route; the errors of the action module it runs are mapped as MediaWiki's ActionModuleBasedHandler does. */
async function runRoute(route: RouteDecl, ctx: RestContext<ParamDecls, Record<string, unknown>>): Promise<RestResponse> {
  try {
    return await route.execute(ctx);
  } catch (e) {
    const moduleError = route.actionModule ? actionModuleErrorOf(e) : undefined;
    if (!moduleError) throw e;
    throw route.actionModule?.mapError?.(moduleError, ctx) ?? actionModuleRestError(moduleError);
  }
}

export function createRestRouter(deps: GatewayDeps, opts: RestRouterOptions = {}): express.Router {
  const routes = opts.routes ?? (deps.config.restDevRoutes ? [...coreRoutes, ...devRoutes] : coreRoutes);
  const matcher = new PathMatcher(routes);
  // Fixed with WIKI_SERVER; else the wiki's own origin is the request's.
  const fixedOrigins = deps.config.serverFixed ? allowedOrigins(deps.config) : undefined;
  const resolveCaller = opts.resolveCaller ?? resolveSessionCaller;
  const bodyLimit = bodyLimitBytes(deps);

  let anonRights: { at: number; rights: readonly string[] } | undefined;

  /**
   * The caller's rights. A request without cookies or Authorization (or one whose credentials
   * CORS ignores) is anonymous, and anonymous rights change only with the configuration, so they
   * are remembered briefly instead of asking the auth service on every page read.
   */
  async function callerRights(req: Request, allowCredentials: boolean, caller: () => Promise<Caller>): Promise<readonly string[]> {
    const anonymous = !allowCredentials || (req.headers.cookie === undefined && req.headers.authorization === undefined);
    if (!anonymous) return (await caller()).user.rights;
    if (anonRights && Date.now() - anonRights.at < ANON_RIGHTS_TTL_MS) return anonRights.rights;
    const { rights } = (await caller()).user;
    anonRights = { at: Date.now(), rights };
    return rights;
  }

  async function handle(req: Request, res: Response): Promise<void> {
    const cors = decideCors(req.get('Origin'), fixedOrigins ?? allowedOrigins(deps.config));
    const queryAt = req.url.indexOf('?');
    const relPath = queryAt < 0 ? req.url : req.url.slice(0, queryAt);
    const search = queryAt < 0 ? '' : req.url.slice(queryAt + 1);
    const method = req.method.toUpperCase();

    // HEAD runs the GET route; Node drops the body.
    const match = ROUTE_METHODS.has(method) ? matcher.match(method as HttpMethod, relPath) : method === 'HEAD' ? matcher.match('GET', relPath) : undefined;
    if (!match) {
      labelRequest(res, 'unmatched');
      const allowed = matcher.allowedMethods(relPath);
      if (method === 'OPTIONS') return send(res, 204, { ...preflightHeaders(allowed), ...cors.headers });
      return sendError(res, allowed.length > 0 ? restMessages.wrongMethod(method, allowed) : restMessages.noMatch(relPath), cors.headers);
    }

    const { route } = match;
    labelRequest(res, route.path);
    let callerPromise: Promise<Caller> | undefined;
    const caller = () => (callerPromise ??= resolveCaller(req, deps, { allowCredentials: cors.allowCredentials }));
    try {
      if (route.writes && cors.foreignOrigin) throw restMessages.crossOriginAnonWrite();

      // BasicRequestAuthorizer: every route reads (`read`); writing routes also need `writeapi`.
      const rights = await callerRights(req, cors.allowCredentials, caller);
      if (!rights.includes('read')) throw restMessages.readDenied();
      if (route.writes && !rights.includes('writeapi')) throw restMessages.writeDenied();

      const params = validateParams(route.params, { path: match.params, query: parseQuery(search), header: (name) => req.get(name) });
      // Routes without a body schema (reads) get an empty body.
      const body = route.body && method !== 'GET' && method !== 'HEAD' ? await validateBody(route.body, req.get('Content-Type'), await readRawBody(req, bodyLimit)) : {};

      const ctx: RestContext<ParamDecls, Record<string, unknown>> = {
        route,
        method: method as HttpMethod | 'HEAD',
        params,
        body,
        deps,
        routes,
        caller,
        routeUrl: (template, pathParams = {}, query) =>
          `${deps.config.server}${REST_PATH}${substPathParams(template, pathParams)}${query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : ''}`,
      };

      if (route.needsToken) {
        const caller = await ctx.caller();
        // OAuth credentials are never sent by a browser on its own: no CSRF token (safeAgainstCsrf).
        if (!caller.csrfSafe) {
          const token = body.token;
          if (typeof token !== 'string' || token === '') throw restMessages.missingToken();
          if (!(await deps.clients.auth.checkToken(caller.sessionId, route.needsToken, token)).valid) throw restMessages.badToken();
        }
      }

      const conditional = conditionalHeaders(req);
      const getOrHead = method === 'GET' || method === 'HEAD';
      const cacheHeaders = (v: Validators | undefined): Record<string, string> => ({
        ...(route.cacheControl ? { 'Cache-Control': route.cacheControl(deps) } : {}),
        ...(getOrHead ? validatorHeaders(v) : {}),
      });
      /** Evaluates the conditional headers: throws the 412, tells whether to answer 304. */
      const notModified = (v: Validators): boolean => {
        const outcome = checkPreconditions(method, conditional, v);
        if (outcome === 412) throw new RestError(412, 'The precondition given in the request headers was not met.');
        return outcome === 304;
      };

      const before = route.validators ? await route.validators(ctx) : undefined;
      if (before && notModified(before)) return send(res, 304, { ...cacheHeaders(before), ...cors.headers });

      const out: RestResponse = await runRoute(route, ctx);
      const validators = out.validators ?? before;
      if (!before && getOrHead && out.validators && notModified(out.validators)) return send(res, 304, { ...cacheHeaders(out.validators), ...cors.headers });

      const status = out.status ?? 200;
      const headers = withCorsHeaders({ ...(status < 300 ? cacheHeaders(validators) : {}), ...out.headers }, cors.headers);
      if (out.json !== undefined) return send(res, status, headers, { data: JSON.stringify(out.json), contentType: 'application/json' });
      if (out.text !== undefined) return send(res, status, headers, { data: out.text, contentType: out.contentType ?? 'text/plain; charset=utf-8' });
      return send(res, status, headers);
    } catch (e) {
      const err = toRestError(e);
      if (err.status >= 500) deps.log.error({ err: e, method, path: req.originalUrl, route: route.path }, 'REST request failed');
      sendError(res, err, cors.headers);
    }
  }

  const router = express.Router();
  router.use(async (req, res) => {
    await handle(req, res);
  });
  return router;
}

/** Adds the CORS headers to a response's own; both may name request headers in Vary, so those lists merge. */
function withCorsHeaders(headers: Record<string, string>, corsHeaders: Record<string, string>): Record<string, string> {
  const vary = (h: Record<string, string>) => Object.entries(h).find(([k]) => k.toLowerCase() === 'vary')?.[1];
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...headers, ...corsHeaders })) if (k.toLowerCase() !== 'vary') merged[k] = v;
  const names = [vary(headers), vary(corsHeaders)].flatMap((v) =>
    v
      ? v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : [],
  );
  if (names.length > 0) merged.Vary = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()].join(', ');
  return merged;
}
