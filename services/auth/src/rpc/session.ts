import { ServiceError } from '@quire/kit';
import type { AsyncHandlers } from '@quire/kit';
import { SessionKind, type AuthServiceService } from '@quire/proto/wiki/auth/v1/auth';
import type { Accounts } from '../domain/accounts.js';
import type { SessionData, SessionStore } from '../store/sessions.js';
import { ANON_TOKEN, checkToken, sessionTokens, SESSION_TOKEN_TYPES_FOR_ANONYMOUS } from '../tokens.js';

type Handlers = AsyncHandlers<typeof AuthServiceService>;

/** Which secret a token of `type` is checked against for this session ("+\" only: null). */
function secretFor(session: SessionData | null, type: string): string | null {
  if (!session) return null;
  if (session.userId > 0 || SESSION_TOKEN_TYPES_FOR_ANONYMOUS.includes(type)) return session.secret;
  return null;
}

/** What a valid session was made from: bot-password and OAuth sessions are the API's only. */
function sessionKind(session: SessionData | null): SessionKind {
  if (!session || session.userId === 0) return SessionKind.SESSION_KIND_UNSPECIFIED;
  if (session.botPassword) return SessionKind.SESSION_KIND_BOT_PASSWORD;
  if (session.oauthGrants) return SessionKind.SESSION_KIND_OAUTH;
  return SessionKind.SESSION_KIND_LOGIN;
}

/** CheckToken's answer for a session as loaded (null: none). */
function tokenCheck(session: SessionData | null, type: string, token: string) {
  // A logged-in session never accepts the anonymous token.
  if (session && session.userId > 0 && token === ANON_TOKEN) return { valid: false, generated: 0 };
  return checkToken(secretFor(session, type), type, token);
}

export function sessionHandlers(sessions: SessionStore, accounts: Accounts): Pick<Handlers, 'resolveSession' | 'getTokens' | 'checkToken' | 'login' | 'continueLogin' | 'logout'> {
  const load = (id: string) => (id ? sessions.get(id) : Promise.resolve(null));

  return {
    async resolveSession(req) {
      const session = await load(req.sessionId);
      const r = await accounts.resolve(session, req.ip);
      // A session whose bot password is gone is over: drop it so its tokens die too.
      if (session && !r.valid) await sessions.delete(req.sessionId);
      // The token check of a write in the same call (CheckToken's answer for the session as loaded).
      // (A session just dropped is none, as CheckToken would find it.)
      const tokenValid = req.tokenType !== '' && tokenCheck(session && r.valid ? session : null, req.tokenType, req.token).valid;
      return { user: r.user, sessionValid: r.valid, tokenValid, sessionKind: sessionKind(r.valid ? session : null) };
    },
    async getTokens(req) {
      let session = await load(req.sessionId);
      if (session && !(await accounts.resolve(session, '')).valid) session = null;
      let newSessionId = '';
      if (!session && req.createSession && req.types.some((t) => SESSION_TOKEN_TYPES_FOR_ANONYMOUS.includes(t))) {
        const created = await sessions.create({ userId: 0, userName: '' });
        session = created.data;
        newSessionId = created.id;
      }
      const tokens: Record<string, string> = {};
      for (const type of req.types) {
        const secret = secretFor(session, type);
        tokens[type] = secret ? sessionTokens(secret, type) : ANON_TOKEN;
      }
      return { tokens, newSessionId };
    },
    async checkToken(req) {
      if (!req.type) throw new ServiceError(3, 'missingparam', 'The type parameter must be set.');
      return tokenCheck(await load(req.sessionId), req.type, req.token);
    },
    login(req) {
      return accounts.login(req);
    },
    continueLogin(req) {
      return accounts.continueLogin(req);
    },
    async logout(req) {
      if (req.sessionId) await sessions.delete(req.sessionId);
      return {};
    },
  };
}
