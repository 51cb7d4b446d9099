import type { Request, Response } from 'express';
import type { GatewayDeps, Caller, SessionCookieWriter } from './context.js';
import { SESSION_COOKIE_SUFFIX } from './context.js';
import { clientAddress, clientProtocol } from './client-ip.js';
import { oauthCredentials, resolveOAuthCaller } from './oauth/verify.js';
import type { AnonymousCallers } from './cache/anonymous-callers.js';
import { SessionKind } from './clients/types.js';

/** Sessions of the API only (BotPasswordSessionProvider, the OAuth extension's SessionProvider). */
const API_ONLY_SESSIONS: readonly SessionKind[] = [SessionKind.SESSION_KIND_BOT_PASSWORD, SessionKind.SESSION_KIND_OAUTH];

/** OAuth credentials on a web page: MediaWiki's `mwoauth-not-api` (the OAuth extension's SessionProvider outside the API). */
export class OAuthNotApiError extends Error {
  readonly code = 'mwoauth-not-api';
  constructor() {
    super('OAuth can only be used with the API');
  }
}

/** The gateways that keep anonymous callers (createGatewayApp with a read cache). */
const anonymousCallers = new WeakMap<GatewayDeps, AnonymousCallers>();

export function keepAnonymousCallers(deps: GatewayDeps, callers: AnonymousCallers): void {
  anonymousCallers.set(deps, callers);
}

export function sessionCookieName(deps: GatewayDeps): string {
  return `${deps.config.wikiId}${SESSION_COOKIE_SUFFIX}`;
}

export function readCookie(req: Request, name: string): string {
  const header = req.headers.cookie;
  if (!header) return '';
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return '';
      }
    }
  }
  return '';
}

export interface CallerOptions {
  allowCredentials: boolean;
  /** A token the request will be checked for: checked with the session, in the same auth call. */
  token?: { type: string; token: string };
  /** The request's form body parameters (an OAuth 1.0a signature covers them). */
  formParams?: ReadonlyArray<readonly [string, string]>;
}

/**
 * Who is calling: OAuth credentials or the session cookie, resolved by the auth service. With credentials disallowed
 * (action API origin=*, or a REST cross-origin request from an unlisted origin) the caller is
 * anonymous and no session is used.
 */
export async function resolveCaller(req: Request, deps: GatewayDeps, opts: CallerOptions): Promise<Caller> {
  const ip = clientAddress(req, deps.config.isTrustedProxy);
  // OAuth credentials take the place of the session (the OAuth extension's session provider).
  const oauth = opts.allowCredentials ? oauthCredentials(req) : null;
  if (oauth) return resolveOAuthCaller(req, deps, ip, oauth, opts.formParams);
  return sessionCaller(req, deps, ip, opts.allowCredentials ? readCookie(req, sessionCookieName(deps)) : '', opts.token);
}

/** The caller of a session cookie's value ("" = none), as the auth service resolves it. */
async function sessionCaller(req: Request, deps: GatewayDeps, ip: string, sid: string, token?: CallerOptions['token']): Promise<Caller> {
  // A read without a session: the anonymous caller of this IP, when known (no auth call).
  const kept = !sid && (req.method === 'GET' || req.method === 'HEAD') ? anonymousCallers.get(deps) : undefined;
  const known = kept?.get(ip);
  if (known) return withCookies(req, deps, { user: known, sessionId: '', sessionLost: false, ip });
  const since = kept?.begin();
  const r = await deps.clients.auth.resolveSession(sid, ip, undefined, token);
  const user = r.user ?? { id: 0, name: ip, anonymous: true, groups: ['*'], rights: [] };
  if (kept && r.user) kept.put(ip, since!, r.user);
  const caller: Caller = { user, sessionId: sid && r.sessionValid ? sid : '', sessionLost: sid !== '' && !r.sessionValid, ip };
  if (API_ONLY_SESSIONS.includes(r.sessionKind)) caller.apiOnly = true;
  // (An auth service that did not check it answers no tokenValid: checkToken then asks.)
  if (token && typeof r.tokenValid === 'boolean') caller.checkedToken = { ...token, valid: r.tokenValid };
  return withCookies(req, deps, caller);
}

/**
 * The caller of a web page (index.php, /wiki/…, the OAuth consent): credentials of the API only
 * are not theirs. OAuth credentials are refused (OAuthNotApiError); a bot password's session is an
 * anonymous visitor here, as BotPasswordSessionProvider gives no session outside the API.
 */
export async function resolvePageCaller(req: Request, deps: GatewayDeps): Promise<Caller> {
  if (oauthCredentials(req)) throw new OAuthNotApiError();
  const caller = await resolveCaller(req, deps, { allowCredentials: true });
  return caller.apiOnly ? sessionCaller(req, deps, caller.ip, '') : caller;
}

function withCookies(req: Request, deps: GatewayDeps, caller: Caller): Caller {
  if (req.res) caller.cookies = sessionCookieWriter(req.res, deps);
  return caller;
}

/**
 * The session cookie on a response: HttpOnly (scripts never see it), SameSite=Lax (no cross-site
 * POSTs carry it), Secure when the wiki is served over https or the request came over https
 * (a trusted proxy's X-Forwarded-Proto, as MediaWiki's $wgCookieSecure = 'detect').
 */
export function sessionCookieWriter(res: Response, deps: GatewayDeps): SessionCookieWriter {
  const name = sessionCookieName(deps);
  const secure = deps.config.server.startsWith('https:') || clientProtocol(res.req, deps.config.isTrustedProxy) === 'https';
  const base = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };
  return {
    set(sessionId, opts) {
      res.cookie(name, sessionId, { ...base, encode: String, ...(opts?.maxAgeSeconds ? { maxAge: opts.maxAgeSeconds * 1000 } : {}) });
    },
    clear() {
      res.clearCookie(name, base);
    },
  };
}
