/* What a special page handler gets: the caller, the submitted fields, and the session's tokens. */
import type { Request, Response } from 'express';
import type { Caller, GatewayDeps } from '../context.js';
import { sendPage, setSecurityHeaders, type PageOptions } from './html.js';

export interface PageRequest {
  req: Request;
  res: Response;
  deps: GatewayDeps;
  caller: Caller;
  method: 'GET' | 'POST';
  /** Special:Name/<subpage>, or null. */
  subpage: string | null;
}

export type PageHandler = (p: PageRequest) => Promise<void>;

function values(source: unknown, name: string): string[] {
  const v = source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** A posted field (the last value when repeated), or "" when absent. */
export function field(p: PageRequest, name: string): string {
  return values(p.req.body, name).at(-1) ?? '';
}

/** Every value of a repeated posted field (checkbox groups). */
export function fields(p: PageRequest, name: string): string[] {
  return values(p.req.body, name);
}

/** A query-string parameter, or "" when absent. */
export function queryParam(p: PageRequest, name: string): string {
  return values(p.req.query, name).at(-1) ?? '';
}

/** A field posted in the form, else given in the query string (returnto comes either way). */
export function param(p: PageRequest, name: string): string {
  return field(p, name) || queryParam(p, name);
}

/**
 * Tokens of the visitor's session for a form, starting an anonymous session (and setting its
 * cookie) when there is none, as MediaWiki's login and account-creation forms do: a first visitor's
 * form then comes back with tokens its session validates.
 */
export async function sessionFormTokens<T extends string>(p: PageRequest, types: readonly T[], sessionId = p.caller.sessionId): Promise<Record<T, string>> {
  const r = await p.deps.clients.auth.getTokensWithSession(sessionId, [...types]);
  if (r.newSessionId) p.caller.cookies?.set(r.newSessionId);
  return Object.fromEntries(types.map((t) => [t, r.tokens[t] ?? ''])) as Record<T, string>;
}

/** The session's csrf token (wpEditToken of every form of a logged-in page). */
export async function csrfToken(p: PageRequest): Promise<string> {
  return (await p.deps.clients.auth.getTokens(p.caller.sessionId, ['csrf'])).csrf ?? '';
}

/** Whether the posted wpEditToken is this session's csrf token (checked by the auth service, in constant time). */
export async function validCsrf(p: PageRequest): Promise<boolean> {
  const token = field(p, 'wpEditToken');
  if (!token || !p.caller.sessionId || p.caller.user.anonymous) return false;
  return (await p.deps.clients.auth.checkToken(p.caller.sessionId, 'csrf', token)).valid;
}

/** A caller without a session (before resolving one failed, or after logging out). */
export function anonymousCaller(ip: string): Caller {
  return { user: { id: 0, name: ip, anonymous: true, groups: ['*'], rights: [] }, sessionId: '', sessionLost: false, ip };
}

export function send(p: PageRequest, page: PageOptions): void {
  sendPage(p.res, p.deps, p.caller, page);
}

/** A 302 to a path of this wiki (Post/Redirect/Get, and sending visitors to log in). */
export function redirect(p: PageRequest, location: string): void {
  setSecurityHeaders(p.res);
  p.res.redirect(302, location);
}

/** MediaWiki's "sessionfailure": a form came back without this session's token. */
export const SESSION_FAILURE = 'There seems to be a problem with your login session;\nthis action has been canceled as a precaution against session hijacking.\nPlease resubmit the form.';
