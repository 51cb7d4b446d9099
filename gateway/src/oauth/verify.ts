/*
 * OAuth credentials on API requests (the OAuth extension's SessionProvider, gateway side): an
 * `Authorization: OAuth …` header (1.0a, signed) or `Authorization: Bearer …` (2.0). The auth
 * service verifies them; the caller is the user limited to the grants, with a session that
 * serves only its CSRF tokens. A bad credential is an error, never an anonymous request.
 */
import type { Request } from 'express';
import type { Param, SignedRequest } from '../clients/types.js';
import { clientProtocol } from '../client-ip.js';
import type { Caller, GatewayDeps } from '../context.js';

export type OAuthCredentials = { kind: 'bearer'; token: string } | { kind: 'oauth1'; headerParams: Param[] };

/** OAuthUtil::urldecode_rfc3986 (PHP's urldecode): percent-escapes, and '+' is a space. */
function urldecode(value: string): string {
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * OAuthUtil::split_header: the oauth_* parameters of an `Authorization: OAuth` header (RFC 5849
 * 3.5.1), quoted or bare values; `realm` and any other name are no parameter of the signature.
 */
function authorizationParams(header: string): Param[] {
  return [...header.matchAll(/(oauth_[a-z_-]*)=(?::?"([^"]*)"|([^,]*))/g)].map((m) => ({ name: m[1]!, value: urldecode(m[2] || m[3] || '') }));
}

/** The OAuth credentials of a request, or null when it carries none (Utils::hasOAuthHeaders, ResourceServer::isOAuth2Request). */
export function oauthCredentials(req: Request): OAuthCredentials | null {
  const header = req.headers.authorization;
  if (!header) return null;
  // An empty or malformed Bearer header is a bad credential, not an anonymous request.
  const bearer = /^Bearer(?:\s+(.*))?$/i.exec(header);
  if (bearer) return { kind: 'bearer', token: (bearer[1] ?? '').trim() };
  if (!/^OAuth\s/i.test(header)) return null;
  return { kind: 'oauth1', headerParams: authorizationParams(header) };
}

function queryParams(req: Request): Param[] {
  const url = req.originalUrl ?? req.url;
  const q = url.indexOf('?');
  if (q < 0) return [];
  return [...new URLSearchParams(url.slice(q + 1))].map(([name, value]) => ({ name, value }));
}

/** One value per name, the last given (PHP's $_GET; split_header's array). */
function lastOfEach(params: readonly Param[]): Param[] {
  return [...new Map(params.map((p) => [p.name, p])).values()];
}

/**
 * The parameters an OAuth 1.0a signature covers, as MWOAuthRequest::fromRequest merges the places
 * RFC 5849 3.5 allows: the query string (last value of a name), then a form body (every value of
 * a name: OAuthUtil::parse_parameters), then the Authorization header (array_merge). A name given
 * in a later place replaces all its values from the earlier ones, so a parameter that a client
 * sends in two places is signed once.
 */
export function oauthSignedParams(query: readonly Param[], form: readonly Param[], header: readonly Param[]): Param[] {
  const merged = new Map<string, Param[]>();
  for (const place of [lastOfEach(query), form, lastOfEach(header)]) {
    const byName = new Map<string, Param[]>();
    for (const p of place) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
    for (const [name, values] of byName) merged.set(name, values);
  }
  return [...merged.values()].flat();
}

/** MWOAuthRequest::fromRequest reads a body only when it is a form: a POST of application/x-www-form-urlencoded. */
function isFormPost(req: Request): boolean {
  return req.method === 'POST' && (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/**
 * The signed request as the client signed it: the URL it asked for (scheme, Host, path) and the
 * parameters of the query, of a form body (`formParams`, read by the caller) and of the header,
 * merged as MediaWiki merges them (oauthSignedParams).
 */
export function signedRequest(req: Request, deps: GatewayDeps, ip: string, headerParams: Param[], formParams: ReadonlyArray<readonly [string, string]> = []): SignedRequest {
  const url = req.originalUrl ?? req.url;
  const path = url.split('?')[0]!;
  const host = req.headers.host ?? new URL(deps.config.server).host;
  const form = isFormPost(req) ? formParams.map(([name, value]) => ({ name, value })) : [];
  return {
    method: req.method === 'HEAD' ? 'GET' : req.method,
    url: `${clientProtocol(req, deps.config.isTrustedProxy)}://${host}${path}`,
    params: oauthSignedParams(queryParams(req), form, headerParams),
    ip,
  };
}

/** The caller of a request with OAuth credentials; a ServiceError (mwoauth-invalid-authorization, …) when they do not verify. */
export async function resolveOAuthCaller(req: Request, deps: GatewayDeps, ip: string, creds: OAuthCredentials, formParams?: ReadonlyArray<readonly [string, string]>): Promise<Caller> {
  const r = await deps.clients.oauth.resolveOAuthRequest(creds.kind === 'bearer' ? { bearerToken: creds.token, ip } : { signed: signedRequest(req, deps, ip, creds.headerParams, formParams), ip });
  return { user: r.user!, sessionId: r.sessionId, sessionLost: false, ip, csrfSafe: true, apiOnly: true };
}
