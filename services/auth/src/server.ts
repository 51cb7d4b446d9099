import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bind, loadConfig, makeClient, v, type ServiceModule } from '@quire/kit';
import { AuthServiceService } from '@quire/proto/wiki/auth/v1/auth';
import { LogServiceClient } from '@quire/proto/wiki/content/logs/v1/logs';
import { Accounts } from './domain/accounts.js';
import { AccountCache } from './domain/account-cache.js';
import { EditCounter } from './domain/editcount.js';
import { loadGroupPermissions } from './rights.js';
import { SessionStore } from './store/sessions.js';
import { UserStore } from './store/users.js';
import { LogOutbox } from './store/logoutbox.js';
import { CONTENT_CHANNEL_OPTIONS, LogRelay } from './domain/logrelay.js';
import { parseThrottle, Throttler } from './store/throttle.js';
import { sessionHandlers } from './rpc/session.js';
import { accountHandlers } from './rpc/accounts.js';
import { OAuthServiceService } from '@quire/proto/wiki/auth/v1/oauth';
import { createOAuth } from './oauth/index.js';
import { AccountServiceService } from '@quire/proto/wiki/auth/v1/account';
import { AccountSecurity } from './domain/security.js';
import { accountServiceHandlers } from './rpc/account.js';

/** How long edit-count increments are collected before one UPDATE writes them. */
const EDIT_COUNT_DELAY_MS = 250;

const here = path.dirname(fileURLToPath(import.meta.url));

export const authConfigSpec = {
  sessionTtl: v.int(['SESSION_TTL_SECONDS'], { default: 3600 * 24, min: 60 }),
  /** "Remember me" sessions ($wgExtendedLoginCookieExpiration: 180 days). */
  persistentSessionTtl: v.int(['PERSISTENT_SESSION_TTL_SECONDS'], { default: 180 * 86400, min: 60 }),
  groupPermissionsJson: v.string(['GROUP_PERMISSIONS_JSON']),
  /** $wgPasswordAttemptThrottle: count/seconds conditions, each counted per (user name, IP). */
  passwordAttemptThrottle: v.string(['AUTH_PASSWORD_ATTEMPT_THROTTLE'], { default: '5/300,150/172800' }),
  /** $wgAccountCreationThrottle per IP: MediaWiki's default count 0 is unlimited (Wikimedia sets 6 a day). */
  accountCreationThrottle: v.string(['AUTH_ACCOUNT_CREATION_THROTTLE'], { default: '0/86400' }),
  /** OATHAuth's badoath rate limit: second-factor attempts per user. */
  totpThrottle: v.string(['AUTH_TOTP_THROTTLE'], { default: '10/60' }),
  siteName: v.string(['WIKI_NAME'], { default: 'Quire' }),
  /** Where the log outbox is delivered; unset (auth alone), the outbox keeps the entries. */
  contentAddr: v.string(['CONTENT_GRPC_ADDR'], { doc: 'the content service (log entries of accounts, blocks, rights)' }),
};

export const authService: ServiceModule = {
  name: 'auth',
  migrationsDir: path.join(here, '..', 'migrations'),
  async create(rt) {
    const cfg = loadConfig(authConfigSpec, rt.env);
    const perms = loadGroupPermissions(cfg.groupPermissionsJson);
    const sessions = new SessionStore(rt.kv, cfg.sessionTtl, cfg.persistentSessionTtl);
    const outbox = new LogOutbox(rt.db);
    const { contentAddr } = cfg;
    const relay = contentAddr ? new LogRelay(outbox, () => makeClient(LogServiceClient, contentAddr, CONTENT_CHANNEL_OPTIONS, rt.secretKey), rt.kv, rt.log.child({ role: 'log-relay' })) : undefined;
    if (relay) relay.start();
    else rt.log.info('CONTENT_GRPC_ADDR is not set: log entries (new users, blocks, rights) stay in auth.log_outbox until a relay delivers them');
    const cache = new AccountCache(rt.kv);
    const accounts = new Accounts({
      perms,
      users: new UserStore(rt.db, () => cache.invalidate()),
      cache,
      outbox,
      sessions,
      loginThrottle: new Throttler(rt.kv, 'password', parseThrottle(cfg.passwordAttemptThrottle, 'AUTH_PASSWORD_ATTEMPT_THROTTLE')),
      creationThrottle: new Throttler(rt.kv, 'acctcreate', parseThrottle(cfg.accountCreationThrottle, 'AUTH_ACCOUNT_CREATION_THROTTLE')),
      totpThrottle: new Throttler(rt.kv, 'badoath', parseThrottle(cfg.totpThrottle, 'AUTH_TOTP_THROTTLE')),
    });
    // Edit counts are written a quarter of a second at a time (domain/editcount.ts).
    const editCounts = new EditCounter((id, by) => accounts.o.users.incrementEditCount(id, by), EDIT_COUNT_DELAY_MS);
    return {
      bindings: [
        bind('wiki.auth.v1.AuthService', AuthServiceService, { ...sessionHandlers(sessions, accounts), ...accountHandlers(accounts, cfg.siteName, editCounts) }),
        bind('wiki.auth.v1.AccountService', AccountServiceService, accountServiceHandlers(new AccountSecurity({ ...accounts.o, performer: (id, name) => accounts.performer(id, name) }))),
        bind('wiki.auth.v1.OAuthService', OAuthServiceService, createOAuth({ db: rt.db, kv: rt.kv, accounts, sessions, secretKey: rt.secretKey }).handlers),
      ],
      close: async () => {
        await relay?.stop();
        await editCounts.flush();
      },
    };
  },
};
