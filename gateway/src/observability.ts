/*
 * What the gateway tells operators about each HTTP request: its id (X-Request-Id, taken from the
 * client or a proxy when plain, else made here; returned on every answer, in every log line and
 * in every gRPC call), its metrics (quire_http_*) and, with tracing on, its server span.
 * `observeRequests` wraps the whole HTTP handler (server.ts), so answers from the read cache in
 * front of express count too; the pipelines name the endpoint with `labelRequest`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpanKind, acceptRequestId, counter, currentRequestId, extractHttpTraceContext, histogram, markSpanError, newRequestId, runWithRequestId, startSpan } from '@quire/kit';
import { SCRIPT_PATH } from './config.js';

export const httpRequests = counter('quire_http_requests_total', 'HTTP requests the gateway answered, by API, endpoint (action module or REST route), method and status', [
  'api',
  'endpoint',
  'method',
  'status',
]);
export const httpSeconds = histogram('quire_http_request_duration_seconds', 'Time from a request to the end of its answer, by API and endpoint', ['api', 'endpoint']);
export const responseCacheLookups = counter('quire_response_cache_lookups_total', 'Cacheable anonymous reads looked up in the gateway read cache, by result (hit, miss)', ['result']);

/** What a request was, for its metrics: the action module or REST route (bounded sets). */
interface RequestLabels {
  endpoint: string;
}
const labelsOf = new WeakMap<ServerResponse, RequestLabels>();

/** Names the endpoint a request reached (the action module's path, the REST route's template). */
export function labelRequest(res: ServerResponse, endpoint: string): void {
  labelsOf.set(res, { endpoint });
}

export function requestEndpoint(res: ServerResponse): string | undefined {
  return labelsOf.get(res)?.endpoint;
}

/** Which API a path belongs to (the metrics' `api` label). */
function apiOf(url: string): string {
  if (url.startsWith(`${SCRIPT_PATH}/api.php`)) return 'action';
  if (url.startsWith(`${SCRIPT_PATH}/rest.php`)) return 'rest';
  if (url === '/healthz' || url === '/readyz' || url.startsWith('/healthz?') || url.startsWith('/readyz?')) return 'health';
  return 'pages';
}

/**
 * The request's id: the caller's X-Request-Id when it is short and plain and `external` allows
 * it (ALLOW_EXTERNAL_REQUEST_ID, MediaWiki's $wgAllowExternalReqID), else a new one.
 */
export function requestIdFor(req: IncomingMessage, external = true): string {
  return (external ? acceptRequestId(req.headers['x-request-id']) : undefined) ?? newRequestId();
}

/**
 * Gives the request its id (set on the answer before anything else), runs `handler` with it and
 * with its server span active, and counts the answer when it is finished.
 */
export function observeRequests(handler: (req: IncomingMessage, res: ServerResponse) => void, opts: { externalRequestIds?: boolean } = {}): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    const id = requestIdFor(req, opts.externalRequestIds ?? true);
    res.setHeader('X-Request-Id', id);
    const url = req.url ?? '/';
    const api = apiOf(url);
    const method = req.method ?? 'GET';
    runWithRequestId(id, () =>
      startSpan(
        `${method} ${url.split('?')[0]}`,
        { kind: SpanKind.SERVER, parent: extractHttpTraceContext(req.headers), attributes: { 'http.request.method': method, 'url.path': url.split('?')[0], 'quire.request_id': id } },
        (span) => {
          let counted = false;
          const done = () => {
            if (counted) return;
            counted = true;
            const endpoint = labelsOf.get(res)?.endpoint ?? (api === 'action' || api === 'rest' ? 'unknown' : api);
            httpRequests.inc({ api, endpoint, method, status: String(res.statusCode) });
            httpSeconds.observe({ api, endpoint }, (performance.now() - started) / 1000);
            if (span) {
              span.setAttribute('http.response.status_code', res.statusCode);
              span.setAttribute('quire.endpoint', endpoint);
              if (res.statusCode >= 500) markSpanError(span);
              span.end();
            }
          };
          res.once('finish', done);
          res.once('close', done);
          handler(req, res);
        },
      ),
    );
  };
}

/**
 * For an app used without `observeRequests` (tests build it alone): the request still gets an id
 * of its own, on its answer and in its logs.
 */
export function ensureRequestId(req: IncomingMessage, res: ServerResponse, next: () => void, external = true): void {
  const id = currentRequestId();
  if (id) {
    next();
    return;
  }
  const fresh = requestIdFor(req, external);
  res.setHeader('X-Request-Id', fresh);
  runWithRequestId(fresh, next);
}
