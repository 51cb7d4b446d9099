import type { Logger } from '@quire/kit';
import type { User } from './clients/types.js';
import type { Clients } from './clients/index.js';
import type { GatewayConfig } from './config.js';
import type { SiteCache } from './site.js';

/** What every handler of either API gets: the services, the config, and who is asking. */
export interface GatewayDeps {
  clients: Clients;
  config: GatewayConfig;
  log: Logger;
  site: SiteCache;
}

export interface Caller {
  user: User;
  /** Session id from the session cookie; "" when anonymous or when origin=* forbids credentials. */
  sessionId: string;
  /** A session cookie was sent but is unknown or expired. */
  sessionLost: boolean;
  ip: string;
  /** Sets or clears the session cookie on the response (login, logout, a new anonymous session). */
  cookies?: SessionCookieWriter;
  /** Credentials a browser never attaches by itself (OAuth): REST writes need no CSRF token. */
  csrfSafe?: boolean;
  /** Credentials of the API only (a bot password's session, OAuth): web pages never act as this caller (resolvePageCaller). */
  apiOnly?: boolean;
  /** A token checked with the session when it was resolved (one auth call for a write, not two). */
  checkedToken?: { type: string; token: string; valid: boolean };
}

export interface SessionCookieWriter {
  /** `<wikiId>_session=<id>`, HttpOnly, SameSite=Lax, Path=/; persistent for maxAgeSeconds when given. */
  set(sessionId: string, opts?: { maxAgeSeconds?: number }): void;
  clear(): void;
}

export const SESSION_COOKIE_SUFFIX = '_session';
