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

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The OAuth credentials of a request, or null when it carries none (Utils::hasOAuthHeaders, ResourceServer::isOAuth2Request). */
export function oauthCredentials(req: Request): OAuthCredentials | null {
  const header = req.headers.authorization;
  if (!header) return null;
  // An empty or malformed Bearer header is a bad credential, not an anonymous request.
  const bearer = /^Bearer(?:\s+(.*))?$/i.exec(header);
  if (bearer) return { kind: 'bearer', token: (bearer[1] ?? '').trim() };
  if (!/^OAuth\s/i.test(header)) return null;
  const headerParams: Param[] = [];
  // RFC 5849 3.5.1: name="percent-encoded value" pairs separated by commas.
  for (const m of header.slice(6).matchAll(/([A-Za-z0-9_.~%-]+)\s*=\s*"([^"]*)"/g)) {
    headerParams.push({ name: decode(m[1]!), value: decode(m[2]!) });
  }
  return { kind: 'oauth1', headerParams };
}

function queryParams(req: Request): Param[] {
  const url = req.originalUrl ?? req.url;
  const q = url.indexOf('?');
  if (q < 0) return [];
  return [...new URLSearchParams(url.slice(q + 1))].map(([name, value]) => ({ name, value }));
}

/**
 * The signed request as the client signed it: the URL it asked for (scheme, Host, path) and every
 * parameter of the query, of a form body (`formParams`, read by the caller) and of the header.
 */
export function signedRequest(req: Request, deps: GatewayDeps, ip: string, headerParams: Param[], formParams: ReadonlyArray<readonly [string, string]> = []): SignedRequest {
  const url = req.originalUrl ?? req.url;
  const path = url.split('?')[0]!;
  const host = req.headers.host ?? new URL(deps.config.server).host;
  return {
    method: req.method === 'HEAD' ? 'GET' : req.method,
    url: `${clientProtocol(req, deps.config.isTrustedProxy)}://${host}${path}`,
    params: [...queryParams(req), ...formParams.map(([name, value]) => ({ name, value })), ...headerParams],
    ip,
  };
}

/** The caller of a request with OAuth credentials; a ServiceError (mwoauth-invalid-authorization, …) when they do not verify. */
export async function resolveOAuthCaller(req: Request, deps: GatewayDeps, ip: string, creds: OAuthCredentials, formParams?: ReadonlyArray<readonly [string, string]>): Promise<Caller> {
  const r = await deps.clients.oauth.resolveOAuthRequest(creds.kind === 'bearer' ? { bearerToken: creds.token, ip } : { signed: signedRequest(req, deps, ip, creds.headerParams, formParams), ip });
  return { user: r.user!, sessionId: r.sessionId, sessionLost: false, ip, csrfSafe: true, apiOnly: true };
}
