import type { Request, Response } from 'express';
import type { GatewayDeps, Caller, SessionCookieWriter } from './context.js';
import { SESSION_COOKIE_SUFFIX } from './context.js';
import { clientAddress, clientProtocol } from './client-ip.js';
import { oauthCredentials, resolveOAuthCaller } from './oauth/verify.js';
import type { AnonymousCallers } from './cache/anonymous-callers.js';

/** The gateways that keep anonymous callers (createGatewayApp with a read cache). */
const anonymousCallers = new WeakMap<GatewayDeps, AnonymousCallers>();

export function keepAnonymousCallers(deps: GatewayDeps, callers: AnonymousCallers): void {
  anonymousCallers.set(deps, callers);
}

export function sessionCookieName(deps: GatewayDeps): string {
  return `${deps.config.wikiId}${SESSION_COOKIE_SUFFIX}`;
}

function readCookie(req: Request, name: string): string {
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
  const sid = opts.allowCredentials ? readCookie(req, sessionCookieName(deps)) : '';
  // A read without a session: the anonymous caller of this IP, when known (no auth call).
  const kept = !sid && (req.method === 'GET' || req.method === 'HEAD') ? anonymousCallers.get(deps) : undefined;
  const known = kept?.get(ip);
  if (known) return withCookies(req, deps, { user: known, sessionId: '', sessionLost: false, ip });
  const since = kept?.begin();
  const r = await deps.clients.auth.resolveSession(sid, ip, undefined, opts.token);
  const user = r.user ?? { id: 0, name: ip, anonymous: true, groups: ['*'], rights: [] };
  if (kept && r.user) kept.put(ip, since!, r.user);
  const caller: Caller = { user, sessionId: sid && r.sessionValid ? sid : '', sessionLost: sid !== '' && !r.sessionValid, ip };
  // (An auth service that did not check it answers no tokenValid: checkToken then asks.)
  if (opts.token && typeof r.tokenValid === 'boolean') caller.checkedToken = { ...opts.token, valid: r.tokenValid };
  return withCookies(req, deps, caller);
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
