/*
 * CORS of the REST API (MediaWiki's CorsUtils, with our credential rule): a request whose Origin
 * is exactly the wiki's own origin or one of CORS_ORIGINS may use its session cookie and gets
 * `Access-Control-Allow-Origin: <origin>` with credentials; any other Origin gets `*`, is served
 * as anonymous, and may not write. Requests without Origin (bots, same-origin GETs) keep their
 * cookies. Responses vary by Origin because the allowed origin is echoed.
 */
import type { GatewayConfig } from '../config.js';

/** MediaWiki's $wgAllowedCorsHeaders plus what the REST API itself needs. */
const ALLOWED_HEADERS = [
  'Accept',
  'Accept-Language',
  'Content-Language',
  'Content-Type',
  'Accept-Encoding',
  'DNT',
  'Origin',
  'User-Agent',
  'Api-User-Agent',
  'Access-Control-Max-Age',
  'Authorization',
  'If-Match',
  'If-None-Match',
  'If-Modified-Since',
  'If-Unmodified-Since',
].join(', ');

export interface CorsDecision {
  /** The session cookie may be used. */
  allowCredentials: boolean;
  /** An Origin was sent and it is not allowed: anonymous writes are refused. */
  foreignOrigin: boolean;
  headers: Record<string, string>;
}

export function allowedOrigins(config: Pick<GatewayConfig, 'server' | 'corsOriginList'>): Set<string> {
  return new Set([new URL(config.server).origin, ...config.corsOriginList]);
}

export function decideCors(origin: string | undefined, allowed: ReadonlySet<string>): CorsDecision {
  if (origin !== undefined && allowed.has(origin)) {
    return {
      allowCredentials: true,
      foreignOrigin: false,
      headers: { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' },
    };
  }
  return { allowCredentials: origin === undefined, foreignOrigin: origin !== undefined, headers: { 'Access-Control-Allow-Origin': '*', Vary: 'Origin' } };
}

/** Headers of a preflight (OPTIONS) answer, from the methods the route table has for the path. */
export function preflightHeaders(allowedMethods: string[]): Record<string, string> {
  return { 'Access-Control-Allow-Methods': allowedMethods.join(', '), 'Access-Control-Allow-Headers': ALLOWED_HEADERS };
}
