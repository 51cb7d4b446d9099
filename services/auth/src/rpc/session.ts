import { ServiceError } from '@quire/kit';
import type { AsyncHandlers } from '@quire/kit';
import type { AuthServiceService, User } from '@quire/proto/wiki/auth/v1/auth';
import type { SessionStore } from '../store/sessions.js';
import { rightsOf, type GroupPermissions } from '../rights.js';
import { ANON_TOKEN, checkToken, sessionTokens } from '../tokens.js';

type Handlers = AsyncHandlers<typeof AuthServiceService>;

export function sessionHandlers(sessions: SessionStore, perms: GroupPermissions): Pick<Handlers, 'resolveSession' | 'getTokens' | 'checkToken'> {
  const anonymous = (ip: string): User => ({ id: 0, name: ip, anonymous: true, groups: ['*'], rights: rightsOf(perms, ['*']) });

  return {
    async resolveSession(req) {
      const session = req.sessionId ? await sessions.get(req.sessionId) : null;
      if (!session) return { user: anonymous(req.ip), sessionValid: false };
      const groups = ['*', 'user', ...session.groups];
      return {
        user: { id: session.userId, name: session.userName, anonymous: false, groups, rights: rightsOf(perms, groups) },
        sessionValid: true,
      };
    },
    async getTokens(req) {
      const session = req.sessionId ? await sessions.get(req.sessionId) : null;
      const tokens: Record<string, string> = {};
      for (const type of req.types) tokens[type] = session ? sessionTokens(session.secret, type) : ANON_TOKEN;
      return { tokens };
    },
    async checkToken(req) {
      if (!req.type) throw new ServiceError(3, 'missingparam', 'The type parameter must be set.');
      const session = req.sessionId ? await sessions.get(req.sessionId) : null;
      return checkToken(session?.secret ?? null, req.type, req.token);
    },
  };
}
