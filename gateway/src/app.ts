import { withRequestServer } from './request-server.js';
import express from 'express';
import { GrpcStatus } from '@quire/kit';
import { HealthClient, HealthCheckResponse_ServingStatus } from './clients/types.js';
import { READINESS_SERVICE, currentRequestId, makeClient, unary } from '@quire/kit';
import type { GatewayDeps } from './context.js';
import { createActionApiHandler } from './action/main.js';
import { createRestRouter } from './rest/router.js';
import { createImageRouter } from './images.js';
import { createSpecialPages } from './pages/index.js';
import { createOAuthPages } from './oauth/special.js';
import { createOAuth2Router } from './oauth/rest.js';
import { ARTICLE_PATH, SCRIPT_PATH } from './config.js';
import { htmlDocumentSafety } from './html-response.js';
import { grpcCallCounter } from './debug/grpc-calls.js';
import { actionReadCacheability, cachedReads, invalidateOnWrite, restPageCacheability, type ResponseCache } from './cache/response-cache.js';
import { AnonymousCallers } from './cache/anonymous-callers.js';
import { keepAnonymousCallers } from './caller.js';
import { ensureRequestId } from './observability.js';
import { FAVICON_ICO } from './pages/favicon.js';
import { SKIN_SCRIPT, SKIN_SCRIPT_PATH } from './pages/skin-script.js';

/** How far the search index lags behind content's change feed (monitoring); absent when search is down. */
async function searchIndexDetail(deps: GatewayDeps): Promise<{ search_index?: Record<string, unknown> }> {
  try {
    const s = await deps.clients.search.getIndexStatus({ deadlineMs: 2000 });
    return {
      search_index: {
        engine: s.engine,
        indexed_through: s.indexedThrough,
        lag_seconds: Math.round(s.lagSeconds * 1000) / 1000,
        pending_changes: s.pendingChanges,
        indexer_active: s.indexerActive,
      },
    };
  } catch {
    return {};
  }
}

/** "[<request id>] " as MediaWiki's exception pages begin (MWExceptionRenderer), when the request has one. */
function requestIdPrefix(): string {
  const id = currentRequestId();
  return id ? `[${id}] ` : '';
}

/**
 * What an error no route answered becomes (express's own page would print the stack): a client
 * mistake express or a body parser detected keeps its 4xx status, anything else is a logged 500.
 */
export function lastResortErrorHandler(deps: GatewayDeps): express.ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
    const clientError = typeof status === 'number' && status >= 400 && status < 500;
    if (!clientError) deps.log.error({ err, method: req.method, path: req.path }, 'request failed outside every API handler');
    res
      .status(clientError ? status : 500)
      .set('X-Content-Type-Options', 'nosniff')
      .type('text/plain')
      .send(clientError ? `${status === 400 ? 'Bad request' : 'Request refused'}\n` : `${requestIdPrefix()}Internal error\n`);
  };
}

/**
 * The gateway's HTTP surface: the action API, the REST API and a health endpoint. With
 * `readCache`, repeated anonymous reads are answered from it (cache/response-cache.ts) and
 * anonymous callers are kept briefly (cache/anonymous-callers.ts).
 */
export function createGatewayApp(deps: GatewayDeps, serviceAddrs: Record<string, string>, readCache?: ResponseCache): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // each API computes its own validators
  app.set('query parser', 'simple');
  // Each request runs with its own id (given by observeRequests in front of the app): its gRPC
  // calls carry it to the services, and whatever is logged while it is served (an uncaught error
  // included, see kit's crash policy) names it.
  app.use((req, res, next) => ensureRequestId(req, res, next, deps.config.allowExternalRequestId !== false));
  // The wiki's URL is the one this request was made to, unless WIKI_SERVER fixes it.
  app.use(withRequestServer(deps.config, (_req, _res: express.Response, next: express.NextFunction) => next()));
  const countGrpcCalls = grpcCallCounter();
  if (countGrpcCalls) app.use(countGrpcCalls);
  if (readCache) {
    // Reads without credentials skip the auth service too; writes here forget both at once.
    const anonymousCallers = new AnonymousCallers();
    keepAnonymousCallers(deps, anonymousCallers);
    app.use(invalidateOnWrite(readCache, anonymousCallers));
  }

  // Every HTML document of the APIs and pages (not uploaded files, which carry their own sandbox).
  app.use(
    [`${SCRIPT_PATH}/api.php`, `${SCRIPT_PATH}/rest.php`, `${SCRIPT_PATH}/index.php`, ARTICLE_PATH.replace('/$1', '')],
    htmlDocumentSafety(() => deps.config.server),
  );
  if (readCache) app.get(`${SCRIPT_PATH}/api.php`, cachedReads(readCache, actionReadCacheability));
  app.all(`${SCRIPT_PATH}/api.php`, createActionApiHandler(deps));
  // The OAuth extension's OAuth 2.0 endpoints, ahead of the REST route table.
  app.use(`${SCRIPT_PATH}/rest.php/oauth2`, createOAuth2Router(deps));
  if (readCache) app.use(`${SCRIPT_PATH}/rest.php`, cachedReads(readCache, restPageCacheability));
  app.use(`${SCRIPT_PATH}/rest.php`, createRestRouter(deps));
  // Uploaded files at the URLs imageinfo reports.
  app.use(createImageRouter(deps));

  const health = Object.fromEntries(Object.entries(serviceAddrs).map(([name, addr]) => [name, makeClient(HealthClient, addr)]));
  const probe = async (names: string[], service = '') => {
    const checks = await Promise.all(
      names.map(async (name) => {
        const client = health[name]!;
        try {
          const r = await unary(client, client.check, { service }, { deadlineMs: 2000 });
          return [name, r.status === HealthCheckResponse_ServingStatus.SERVING ? 'serving' : 'not serving'] as const;
        } catch (e) {
          return [name, (e as { grpcCode?: number }).grpcCode === GrpcStatus.UNAVAILABLE ? 'unavailable' : 'error'] as const;
        }
      }),
    );
    const ok = checks.every(([, s]) => s === 'serving');
    return { ok, body: { status: ok ? 'ok' : 'degraded', services: Object.fromEntries(checks) } };
  };
  // Every service (monitoring).
  // A 503 says when to ask again, as every overload answer of the wiki does (readiness is
  // re-checked every 5 s).
  app.get('/healthz', async (_req, res) => {
    const r = await probe(Object.keys(health));
    if (!r.ok) res.setHeader('Retry-After', '5');
    res.status(r.ok ? 200 : 503).json({ ...r.body, ...(await searchIndexDetail(deps)) });
  });
  // Readiness: the services reads and writes of pages need, each ready (its database and token
  // store answer); a search outage must not take every gateway out.
  app.get('/readyz', async (_req, res) => {
    const r = await probe(['auth', 'content'], READINESS_SERVICE);
    if (!r.ok) res.setHeader('Retry-After', '5');
    res.status(r.ok ? 200 : 503).json(r.body);
  });
  // Liveness: this process answers; no dependency is asked (their outage must not restart gateways).
  app.get('/livez', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });

  // Special:UserLogin, Special:BotPasswords, Special:UserLogout (server-rendered HTML).
  app.use(createOAuthPages(deps));
  app.use(createSpecialPages(deps));

  // The icon every page links to (and browsers ask for anyway); a day in caches.
  app.get('/favicon.ico', (_req, res) => {
    res.set({ 'Content-Type': 'image/x-icon', 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).send(FAVICON_ICO);
  });

  // The skin's script: the page links it with its content hash, so that address never changes meaning.
  app.get(SKIN_SCRIPT_PATH.split('?')[0]!, (req, res) => {
    const current = req.originalUrl === SKIN_SCRIPT_PATH;
    res
      .set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': current ? 'public, max-age=31536000, immutable' : 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' })
      .send(SKIN_SCRIPT);
  });

  // MediaWiki's own entry: the Main Page (a permanent redirect, as its default Apache rewrite sends).
  app.get('/', (_req, res) => res.redirect(301, ARTICLE_PATH.replace('$1', 'Main_Page')));
  app.use(lastResortErrorHandler(deps));
  return app;
}
