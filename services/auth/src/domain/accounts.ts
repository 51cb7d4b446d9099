/*
 * The auth service's logic: who a session is (groups, rights, grants, block), login with a main
 * account or a bot password (throttled, with a TOTP second factor), account creation with the
 * password policy. The RPC handlers (rpc/*.ts) only translate to and from the proto messages.
 */
import crypto from 'node:crypto';
import { invalidArgument, notFound, alreadyExists, counter, rateLimitRefusals } from '@quire/kit';
import type { BlockInfo, LoginResponse, Message, User } from '@quire/proto/wiki/auth/v1/auth';
import { LoginResponse_Status as LoginStatus } from '@quire/proto/wiki/auth/v1/auth';
import { rightsOf, type GroupPermissions } from '../rights.js';
import { grantRights } from '../grants.js';
import { canonicalUserName, isCreatableUserName, isIp, normalizeIp, normalizeUserName } from '../names.js';
import { checkPasswordPolicy, dummyPasswordHash, hashPassword, verifyPassword } from '../passwords.js';
import { verifyTotp } from '../totp.js';
import { formatDuration, msg } from '../messages.js';
import { PENDING_LOGIN_MS, type SessionData, type SessionStore } from '../store/sessions.js';
import { type BlockRow, blockInfo, type Membership, type UserRow, type UserStore } from '../store/users.js';
import type { LogOutbox } from '../store/logoutbox.js';
import { newUserEntry, type Performer } from './logentries.js';
import type { Throttler } from '../store/throttle.js';
import type { AccountCache } from './account-cache.js';

const loginFailures = counter('quire_login_failures_total', 'Logins refused, by MediaWiki message code (wrongpassword, login-throttled, …)', ['reason']);

/** $wgAutoConfirmAge / $wgAutoConfirmCount defaults: every account is autoconfirmed at once. */
const AUTOCONFIRM_AGE_SECONDS = 0;
const AUTOCONFIRM_EDITS = 0;

/** Bot password login names: "<user>@<bot name>" (BotPassword::canonicalizeLoginData, $wgUserrightsInterwikiDelimiter). */
const BOT_PASSWORD_SEPARATOR = '@';
/** BotPassword::PASSWORD_MINLENGTH: generated passwords are 32 characters. */
export const BOT_PASSWORD_LENGTH = 32;

export interface AccountsOptions {
  perms: GroupPermissions;
  users: UserStore;
  /** Log entries of account creations, blocks and rights changes, written with the change. */
  outbox: LogOutbox;
  sessions: SessionStore;
  loginThrottle: Throttler;
  creationThrottle: Throttler;
  /** OATH second-factor throttle (OATHAuth's "badoath" limit per user). */
  totpThrottle: Throttler;
  /** Who sessions are, remembered until a change (the same one the UserStore reports its writes to); none: every call reads. */
  cache?: AccountCache;
}

export function implicitGroups(row: UserRow): string[] {
  const ageOk = (Date.now() - row.registration.getTime()) / 1000 >= AUTOCONFIRM_AGE_SECONDS;
  return ['*', 'user', ...(ageOk && row.editcount >= AUTOCONFIRM_EDITS ? ['autoconfirmed'] : [])];
}

/** A bot password's secret: 32 characters of base32-like alphabet, from crypto.randomBytes. */
export function generateBotPassword(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...crypto.randomBytes(BOT_PASSWORD_LENGTH)].map((b) => alphabet[b & 31]).join('');
}

/** Identifies a bot password's current secret without keeping the hash in the session. */
export function passwordStamp(hash: string): string {
  return crypto.createHash('sha256').update(hash).digest('base64url').slice(0, 16);
}

/** Throttler's key for a login attempt: the IP and the user name together. */
function loginThrottleSubject(ip: string, userName: string): string {
  return `${ip}|${userName}`;
}

export class Accounts {
  constructor(readonly o: AccountsOptions) {}

  anonymous(ip: string, block: BlockInfo | undefined): User {
    const user: User = { id: 0, name: normalizeIp(ip), anonymous: true, groups: ['*'], rights: rightsOf(this.o.perms, ['*']) };
    if (block) user.block = block;
    return user;
  }

  /** The User record of an account: effective groups, rights (limited by grants), block. */
  async userRecord(row: UserRow, ip: string, grants?: string[], memberships?: Membership[], block?: BlockRow | null): Promise<User> {
    const explicit = (memberships ?? (await this.o.users.memberships(row.id))).map((m) => m.group);
    const groups = [...implicitGroups(row), ...explicit];
    let rights = rightsOf(this.o.perms, groups);
    if (grants) {
      const allowed = grantRights(grants);
      rights = rights.filter((r) => allowed.has(r));
    }
    const active = block === undefined ? await this.o.users.activeBlock(row.id, ip) : block;
    const user: User = { id: row.id, name: row.name, anonymous: false, groups, rights };
    if (active) user.block = blockInfo(active);
    return user;
  }

  /**
   * The caller behind a session (anonymous when there is none or it is anonymous). A bot-password
   * session uses the bot password's current grants, and ends when the bot password is deleted or
   * its password reset (as MediaWiki's bp_token does): `valid` is then false.
   */
  async resolve(session: SessionData | null, ip: string): Promise<{ user: User; valid: boolean }> {
    if (session && session.userId > 0) {
      // The account, its groups, its bot password and its block in one statement.
      const appId = session.botPassword?.appId;
      const load = () => this.o.users.sessionAccount(session.userId, appId, ip);
      const account = this.o.cache
        ? await this.o.cache.get(`session|${session.userId}|${appId ?? ''}|${ip}`, load, (a) => (a ? [...a.memberships.map((m) => m.expiry), a.block?.expiry ?? null] : []))
        : await load();
      const row = account?.row ?? null;
      let grants: string[] | undefined = session.oauthGrants;
      let valid = row !== null;
      if (row && session.botPassword) {
        const bp = account!.botPassword;
        valid = bp !== null && passwordStamp(bp.password_hash) === session.botPassword.stamp;
        grants = bp?.grants;
      }
      if (row && valid) return { user: await this.userRecord(row, ip, grants, account!.memberships, account!.block), valid };
      if (!valid) return { user: await this.resolveAnonymous(ip), valid: false };
    }
    return { user: await this.resolveAnonymous(ip), valid: session !== null };
  }

  private async resolveAnonymous(ip: string): Promise<User> {
    const address = normalizeIp(ip);
    const load = () => this.o.users.activeBlock(0, address);
    const block = this.o.cache ? await this.o.cache.get(`anonymous|${address}`, load, (b) => [b?.expiry ?? null]) : await load();
    return this.anonymous(ip, block ? blockInfo(block) : undefined);
  }

  /**
   * The performer of a logged action: the account of `id` (its current name; `bot` when its
   * groups have the bot right), or `name` as given for id 0 (an IP, or a maintenance name).
   */
  async performer(id: number, name: string): Promise<Performer> {
    const row = id > 0 ? await this.o.users.byId(id) : null;
    if (!row) return { id, name, bot: false };
    const groups = [...implicitGroups(row), ...(await this.o.users.memberships(row.id)).map((m) => m.group)];
    return { id: row.id, name: row.name, bot: rightsOf(this.o.perms, groups).includes('bot') };
  }

  async requireUser(name: string): Promise<UserRow> {
    const canonical = canonicalUserName(name);
    if (!canonical) throw invalidArgument('nosuchuser', `The user "${name}" does not exist.`, { user: name });
    const row = await this.o.users.byName(canonical);
    if (!row) throw notFound('nosuchuser', `The user "${canonical}" does not exist.`, { user: canonical });
    return row;
  }

  private fail(code: string, message: Message, status = LoginStatus.FAIL): LoginResponse {
    if (status === LoginStatus.FAIL) loginFailures.inc({ reason: code });
    return { status, message, messageCode: code, sessionId: '', botPassword: false, persistentSeconds: 0 };
  }

  /** Replaces the caller's session by a logged-in one (new id and secret: tokens change). */
  private async pass(oldSessionId: string, row: UserRow, ip: string, opts: { remember: boolean; botPassword?: SessionData['botPassword'] }): Promise<LoginResponse> {
    if (oldSessionId) await this.o.sessions.delete(oldSessionId);
    const created = await this.o.sessions.create({
      userId: row.id,
      userName: row.name,
      ...(opts.botPassword ? { botPassword: opts.botPassword } : {}),
      ...(opts.remember ? { persistent: true } : {}),
    });
    return {
      status: LoginStatus.PASS,
      messageCode: '',
      user: await this.userRecord(row, ip, opts.botPassword?.grants),
      sessionId: created.id,
      botPassword: opts.botPassword !== undefined,
      persistentSeconds: opts.remember ? this.o.sessions.persistentTtlSeconds : 0,
    };
  }

  /**
   * $wgPasswordAttemptThrottle around one password check: refused once the failures of the
   * subject reach a limit; a failure counts, a success clears. Only failures count, so logins
   * with the right password at the same moment (ten bot sessions starting) never throttle each
   * other, while wrong guesses still do.
   */
  private async throttledCheck(subjects: string[], check: () => Promise<boolean>): Promise<{ ok: boolean; refused?: LoginResponse }> {
    const limit = await this.o.loginThrottle.exceededCondition(subjects);
    if (limit) {
      rateLimitRefusals.inc({ action: 'login' });
      return { ok: false, refused: this.fail('login-throttled', msg('login-throttled', [formatDuration(limit.seconds)])) };
    }
    const ok = await check();
    if (ok) await this.o.loginThrottle.clear(subjects);
    else await this.o.loginThrottle.increase(subjects);
    return { ok };
  }

  async login(req: { sessionId: string; username: string; password: string; ip: string; botPasswordAllowed: boolean; remember: boolean }): Promise<LoginResponse> {
    const ip = normalizeIp(req.ip);
    const wrong = () => this.fail('wrongpassword', msg('wrongpassword'));
    // Bot passwords first (ApiLogin): "<user>@<bot>" with a valid user part.
    const sep = req.username.lastIndexOf(BOT_PASSWORD_SEPARATOR);
    if (req.botPasswordAllowed && sep > 0) {
      const userName = canonicalUserName(req.username.slice(0, sep));
      const appId = req.username.slice(sep + 1).trim();
      if (userName && appId) {
        const row = await this.o.users.byName(userName);
        const bp = row ? await this.o.users.botPassword(row.id, appId) : null;
        const { ok, refused } = await this.throttledCheck([loginThrottleSubject(ip, `${userName}@${appId}`)], async () => Boolean(row && bp && (await verifyPassword(bp.password_hash, req.password))));
        if (refused) return refused;
        if (!(row && bp)) await verifyPassword(await dummyPasswordHash(), req.password); // the same time whether or not it exists
        if (row && bp && ok) {
          return this.pass(req.sessionId, row, ip, { remember: false, botPassword: { appId, grants: bp.grants, stamp: passwordStamp(bp.password_hash) } });
        }
        // Otherwise the name may still be a main account's ("Foo@bar" cannot be created, though).
      }
    }
    if (req.password === '') return this.fail('wrongpasswordempty', msg('wrongpasswordempty'));
    const name = canonicalUserName(req.username);
    if (!name) return this.fail('noname', msg('noname'));
    const row = await this.o.users.byName(name);
    const { ok, refused } = await this.throttledCheck([loginThrottleSubject(ip, name)], async () =>
      verifyPassword(row?.password_hash || (await dummyPasswordHash()), req.password).then((v) => v && row !== null),
    );
    if (refused) return refused;
    if (!row || !ok) return wrong();
    if (row.totp_secret) {
      if (req.botPasswordAllowed) return this.fail('api-login-fail-aborted', msg('api-login-fail-aborted'), LoginStatus.ABORTED);
      // The password step passed: the session remembers it until the code arrives.
      let sessionId = req.sessionId;
      let session = sessionId ? await this.o.sessions.get(sessionId) : null;
      if (!session) {
        const created = await this.o.sessions.create({ userId: 0, userName: '' });
        sessionId = created.id;
        session = created.data;
      }
      await this.o.sessions.put(sessionId, { ...session, pendingLogin: { userId: row.id, remember: req.remember, at: Date.now() } });
      return { status: LoginStatus.UI, message: msg('oathauth-auth-ui'), messageCode: 'oathauth-auth-ui', user: await this.userRecord(row, ip), sessionId, botPassword: false, persistentSeconds: 0 };
    }
    return this.pass(req.sessionId, row, ip, { remember: req.remember });
  }

  async continueLogin(req: { sessionId: string; totpCode: string; ip: string }): Promise<LoginResponse> {
    const session = req.sessionId ? await this.o.sessions.get(req.sessionId) : null;
    const pending = session?.pendingLogin;
    if (!session || !pending || Date.now() - pending.at > PENDING_LOGIN_MS) {
      return this.fail('authmanager-authn-not-in-progress', msg('authmanager-authn-not-in-progress'));
    }
    const row = await this.o.users.byId(pending.userId);
    if (!row?.totp_secret) return this.fail('authmanager-authn-not-in-progress', msg('authmanager-authn-not-in-progress'));
    if (await this.o.totpThrottle.increase([String(row.id)])) {
      return this.fail('oathauth-login-failed', msg('oathauth-login-failed'));
    }
    if (!verifyTotp(row.totp_secret, req.totpCode)) {
      // OATHAuth answers UI again: the client may retry with another code.
      return {
        status: LoginStatus.UI,
        message: msg('oathauth-login-failed'),
        messageCode: 'oathauth-login-failed',
        user: await this.userRecord(row, req.ip),
        sessionId: req.sessionId,
        botPassword: false,
        persistentSeconds: 0,
      };
    }
    await this.o.totpThrottle.clear([String(row.id)]);
    return this.pass(req.sessionId, row, normalizeIp(req.ip), { remember: pending.remember });
  }

  /** Policy messages for a password of `name` (an account's effective groups, or a new account's). */
  async passwordPolicy(name: string, password: string): Promise<{ key: string; params: string[]; fatal: boolean }[]> {
    const row = await this.o.users.byName(name);
    const groups = row ? [...implicitGroups(row), ...(await this.o.users.memberships(row.id)).map((m) => m.group)] : ['*'];
    return checkPasswordPolicy(name, groups, password);
  }

  /**
   * Creates an account and its newusers log entry; run it inside a transaction (the entry
   * commits with the account). A logged-in caller's session (`sessionId`) makes it a `create2`
   * by them, with `reason`; maintenance (`skipThrottle`, the admin CLI) an `autocreate`.
   */
  async createAccount(req: {
    username: string;
    password: string;
    email: string;
    realname: string;
    ip: string;
    skipThrottle: boolean;
    sessionId: string;
    reason: string;
  }): Promise<{ ok: true; row: UserRow } | { ok: false; code: string; message: Message }> {
    const name = normalizeUserName(req.username);
    if (!isCreatableUserName(name)) return { ok: false, code: 'noname', message: msg('noname') };
    if (await this.o.users.byName(name)) return { ok: false, code: 'userexists', message: msg('userexists') };
    const ip = normalizeIp(req.ip);
    if (!req.skipThrottle) {
      const block = isIp(ip) ? await this.o.users.activeBlock(0, ip) : null;
      if (block?.nocreate) return { ok: false, code: 'cantcreateaccount-text', message: msg('cantcreateaccount-text', [ip, block.reason, block.by_name]) };
      const hit = await this.o.creationThrottle.increase([ip]);
      if (hit) rateLimitRefusals.inc({ action: 'createaccount' });
      if (hit) return { ok: false, code: 'acct_creation_throttle_hit', message: msg('acct_creation_throttle_hit', [hit.count, formatDuration(hit.seconds)]) };
    }
    const problems = checkPasswordPolicy(name, ['*'], req.password);
    const first = problems[0];
    if (first) return { ok: false, code: first.key, message: msg(first.key, first.params) };
    const row = await this.o.users.create({ name, passwordHash: await hashPassword(req.password), email: req.email, realname: req.realname });
    if (!row) return { ok: false, code: 'userexists', message: msg('userexists') };
    const creator = req.sessionId ? (await this.resolve(await this.o.sessions.get(req.sessionId), ip)).user : null;
    const how = req.skipThrottle
      ? ({ kind: 'autocreate' } as const)
      : creator && !creator.anonymous
        ? ({ kind: 'create2', creator: { id: creator.id, name: creator.name, bot: creator.rights.includes('bot') }, reason: req.reason } as const)
        : ({ kind: 'create' } as const);
    await this.o.outbox.append(newUserEntry(row, how));
    return { ok: true, row };
  }

  async createBotPassword(userName: string, appId: string, grants: string[]) {
    const row = await this.requireUser(userName);
    const app = appId.trim();
    // BotPassword::isValidAppId-ish: not empty, no separator, at most 32 characters.
    if (!app || app.includes(BOT_PASSWORD_SEPARATOR) || [...app].length > 32) {
      throw invalidArgument('botpasswords-bad-appid', msg('botpasswords-bad-appid', [app]).text);
    }
    const password = generateBotPassword();
    const bp = await this.o.users.insertBotPassword(row.id, app, await hashPassword(password), grants);
    if (!bp) throw alreadyExists('botpasswords-insert-failed', msg('botpasswords-insert-failed', [app]).text);
    return { row, bp, password };
  }
}
