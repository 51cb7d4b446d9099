import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bind, loadConfig, v, type ServiceModule } from '@quire/kit';
import { AuthServiceService } from '@quire/proto/wiki/auth/v1/auth';
import { loadGroupPermissions } from './rights.js';
import { SessionStore } from './store/sessions.js';
import { sessionHandlers } from './rpc/session.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export const authConfigSpec = {
  sessionTtl: v.int(['SESSION_TTL_SECONDS'], { default: 3600 * 24, min: 60 }),
  groupPermissionsJson: v.string(['GROUP_PERMISSIONS_JSON']),
};

export const authService: ServiceModule = {
  name: 'auth',
  migrationsDir: path.join(here, '..', 'migrations'),
  async create(rt) {
    const cfg = loadConfig(authConfigSpec, rt.env);
    const perms = loadGroupPermissions(cfg.groupPermissionsJson);
    const sessions = new SessionStore(rt.kv, cfg.sessionTtl);
    return { bindings: [bind('wiki.auth.v1.AuthService', AuthServiceService, sessionHandlers(sessions, perms))] };
  },
};
