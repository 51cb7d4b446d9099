import { EditCounter } from '../domain/editcount.js';
import { invalidArgument, notFound, failedPrecondition } from '@quire/kit';
import type { AsyncHandlers } from '@quire/kit';
import type { AuthServiceService, BotPassword, UserDetails } from '@quire/proto/wiki/auth/v1/auth';
import { generateBotPassword, type Accounts } from '../domain/accounts.js';
import { BadExpiryError, isoOrInfinite, parseExpiry } from '../expiry.js';
import { unknownGrants } from '../grants.js';
import { canonicalUserName, isIp, normalizeIp } from '../names.js';
import { hashPassword } from '../passwords.js';
import { msg } from '../messages.js';
import { newTotpSecret, otpauthUri } from '../totp.js';
import { blockInfo, iso, type BlockRow, type BotPasswordRow, type Membership, type UserRow } from '../store/users.js';
import { blockEntry, membershipsDiffer, rightsEntry, unblockEntry } from '../domain/logentries.js';

type Handlers = AsyncHandlers<typeof AuthServiceService>;

/** $wgActiveUserDays default: users who edited in the last 30 days are active. */
const ACTIVE_USER_DAYS = 30;
const MAX_LIST_LIMIT = 5000;

/**
 * The expiry of a group membership (UserrightsPage::expiryToTimestamp: `invalidexpiry`,
 * `pastexpiry` with ApiUserrights' messages) or of a block (BlockUser::placeBlockUnsafe:
 * `invalidexpiry` "Expiry time invalid." — also past 50 characters — and `ipb_expiry_old`).
 */
function expiryOf(raw: string, of: 'membership' | 'block', now = new Date()): Date | null {
  const invalid = () =>
    of === 'block' ? invalidArgument('invalidexpiry', 'Expiry time invalid.', { expiry: raw }) : invalidArgument('invalidexpiry', `Invalid expiry time "${raw}".`, { expiry: raw });
  if (of === 'block' && raw.length > 50) throw invalid();
  let d: Date | null;
  try {
    d = parseExpiry(raw || 'infinite', now);
  } catch (e) {
    if (e instanceof BadExpiryError) throw invalid();
    throw e;
  }
  if (d && d.getTime() <= now.getTime()) {
    throw of === 'block' ? invalidArgument('ipb_expiry_old', 'Expiry time is in the past.', { expiry: raw }) : invalidArgument('pastexpiry', `Expiry time "${raw}" is in the past.`, { expiry: raw });
  }
  return d;
}

function botPasswordOf(row: UserRow, bp: BotPasswordRow): BotPassword {
  return { userId: row.id, user: row.name, appId: bp.app_id, grants: bp.grants, created: iso(bp.created) };
}

export function accountHandlers(
  accounts: Accounts,
  siteName: string,
  editCounts = new EditCounter((id, by) => accounts.o.users.incrementEditCount(id, by)),
): Omit<Handlers, 'resolveSession' | 'getTokens' | 'checkToken' | 'login' | 'continueLogin' | 'logout'> {
  const { users, sessions, outbox } = accounts.o;

  async function details(row: UserRow, memberships: Membership[]): Promise<UserDetails> {
    const options = row.options ?? {};
    return {
      user: await accounts.userRecord(row, '', undefined, memberships),
      memberships: memberships.map((m) => ({ group: m.group, expiry: isoOrInfinite(m.expiry, 'infinity') })),
      editcount: row.editcount,
      registration: iso(row.registration),
      email: row.email,
      realname: row.realname,
      optionsJson: JSON.stringify(options),
      totpEnabled: row.totp_secret !== null,
      gender: typeof options.gender === 'string' ? options.gender : 'unknown',
      emailAuthenticated: row.email_authenticated ? iso(row.email_authenticated) : '',
    };
  }

  async function detailsOf(rows: UserRow[]): Promise<UserDetails[]> {
    const ms = await users.membershipsOf(rows.map((r) => r.id));
    return Promise.all(rows.map((r) => details(r, ms.get(r.id) ?? [])));
  }

  function blockListEntry(b: BlockRow) {
    return { block: blockInfo(b), user: b.target_name ?? b.target_ip ?? '', userId: b.target_user_id ?? 0 };
  }

  /** A block target: a user name (must exist) or an IP. */
  async function blockTarget(raw: string): Promise<{ userId: number; name: string } | { ip: string }> {
    const t = raw.trim();
    if (isIp(t)) return { ip: normalizeIp(t) };
    const name = canonicalUserName(t);
    const row = name ? await users.byName(name) : null;
    if (!row) throw notFound('nosuchuser', `The user "${name ?? t}" does not exist.`, { user: name ?? t });
    return { userId: row.id, name: row.name };
  }

  return {
    async createAccount(req) {
      const r = await users.tx(() => accounts.createAccount(req));
      if (!r.ok) return { ok: false, message: r.message, messageCode: r.code, sessionId: '' };
      let sessionId = '';
      if (req.logIn) {
        if (req.sessionId) await sessions.delete(req.sessionId);
        sessionId = (await sessions.create({ userId: r.row.id, userName: r.row.name })).id;
      }
      return { ok: true, messageCode: '', user: await accounts.userRecord(r.row, req.ip), sessionId };
    },
    async validatePassword(req) {
      const name = canonicalUserName(req.username) ?? req.username;
      const problems = await accounts.passwordPolicy(name, req.password);
      const validity = problems.length === 0 ? 'Good' : problems.some((p) => p.fatal) ? 'Invalid' : 'Change';
      return { validity, messages: problems.map((p) => msg(p.key, p.params)) };
    },
    async changePassword(req) {
      const row = await accounts.requireUser(req.username);
      await users.setPassword(row.id, await hashPassword(req.password));
      return {};
    },
    async getUsers(req) {
      // Edit counts still collecting are written first: three edits, then userinfo, shows all three
      // (MediaWiki's own API tests read it so).
      await editCounts.flush();
      const found: UserRow[] = [];
      const invalidNames: string[] = [];
      const missingNames: string[] = [];
      const missingIds: number[] = [];
      for (const raw of req.names) {
        const name = canonicalUserName(raw);
        if (!name) invalidNames.push(raw);
        else {
          const row = await users.byName(name);
          if (row) found.push(row);
          else missingNames.push(name);
        }
      }
      for (const id of req.ids) {
        const row = await users.byId(id);
        if (row) found.push(row);
        else missingIds.push(id);
      }
      return { users: await detailsOf(found), invalidNames, missingNames, missingIds };
    },
    async listUsers(req) {
      await editCounts.flush();
      const limit = Math.min(Math.max(req.limit || 10, 1), MAX_LIST_LIMIT);
      const norm = (s: string) => (s ? (canonicalUserName(s) ?? s) : '');
      const rows = await users.list({
        from: norm(req.from),
        to: norm(req.to),
        prefix: norm(req.prefix),
        groups: req.groups,
        excludeGroups: req.excludeGroups,
        descending: req.descending,
        limit: limit + 1,
        withEdits: req.withEditsOnly,
      });
      const more = rows.length > limit ? rows.pop() : undefined;
      return { users: await detailsOf(rows), continueFrom: more?.name ?? '' };
    },
    async changeUserGroups(req) {
      return users.tx(async () => {
        const row = req.userId ? await users.byId(req.userId) : await accounts.requireUser(req.username);
        if (!row) throw notFound('nosuchuser', `The user with ID ${req.userId} does not exist.`, { userid: req.userId });
        const known = new Set(Object.keys(accounts.o.perms).filter((g) => !['*', 'user', 'autoconfirmed'].includes(g)));
        for (const g of [...req.add.map((a) => a.group), ...req.remove]) {
          if (!known.has(g)) throw invalidArgument('badvalue', `Unrecognized value for parameter "group": ${g}.`, { group: g });
        }
        const memberships = await users.memberships(row.id);
        const before = new Set(memberships.map((m) => m.group));
        const added = [];
        for (const a of req.add) {
          const expiry = expiryOf(a.expiry, 'membership');
          await users.addGroup(row.id, a.group, expiry);
          added.push({ group: a.group, expiry: isoOrInfinite(expiry, 'infinity') });
        }
        const removed: string[] = [];
        for (const g of req.remove) if (before.has(g) && (await users.removeGroup(row.id, g))) removed.push(g);
        // Maintenance (performer 0, the admin CLI's createAndPromote) changes groups without a
        // log entry, as MediaWiki's maintenance script does through UserGroupManager.
        const after = await users.memberships(row.id);
        if (req.performerId > 0 && membershipsDiffer(memberships, after)) {
          await outbox.append({ ...rightsEntry(row, memberships, after, req.reason, await accounts.performer(req.performerId, '')), tags: req.tags });
        }
        return { userId: row.id, user: row.name, added, removed };
      });
    },
    async block(req) {
      const target = await blockTarget(req.target);
      // One clock reading, in whole seconds, for the expiry and the log entry's time, so "3 days"
      // ends exactly three days after the logged block (not a second before, across a tick).
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const expiry = expiryOf(req.expiry, 'block', now);
      // BlockUser::placeBlockUnsafe: a partial block must let the user edit their own talk page
      // unless it restricts the User talk namespace.
      if (req.partial && !req.allowusertalk && !req.namespaces.includes(3)) {
        throw invalidArgument('ipb-prevent-user-talk-edit', 'Editing their own talk page must be allowed for a partial block, unless it includes a restriction on the User Talk namespace.');
      }
      return users.tx(async () => {
        const existing = await users.blockOfTarget('ip' in target ? { ip: target.ip } : { userId: target.userId });
        if (existing && !req.reblock) {
          throw failedPrecondition('alreadyblocked', `"${'ip' in target ? target.ip : target.name}" is already blocked.`, { user: 'ip' in target ? target.ip : target.name });
        }
        const b = await users.upsertBlock({
          target_user_id: 'ip' in target ? null : target.userId,
          target_ip: 'ip' in target ? target.ip : null,
          by_id: req.performerId,
          by_name: req.performer,
          reason: req.reason,
          expiry,
          anononly: 'ip' in target && req.anononly,
          nocreate: req.nocreate,
          noemail: req.noemail,
          allowusertalk: req.allowusertalk,
          sitewide: !req.partial,
          restrictions: [...req.pages.map((pg) => ({ type: 1, value: pg.id, ns: pg.ns, title: pg.title })), ...req.namespaces.map((ns) => ({ type: 2, value: ns, ns: null, title: null }))],
        });
        await outbox.append({ ...blockEntry(existing ? 'reblock' : 'block', b, req.expiry || 'infinite', await accounts.performer(req.performerId, req.performer)), tags: req.tags, at: now });
        return blockListEntry(b);
      });
    },
    async unblock(req) {
      return users.tx(async () => {
        let b: BlockRow | null;
        if (req.id) {
          b = await users.blockById(req.id);
          if (!b) throw notFound('nosuchblockid', `There is no block with ID ${req.id}.`, { id: req.id });
        } else {
          const target = await blockTarget(req.target);
          b = await users.blockOfTarget('ip' in target ? { ip: target.ip } : { userId: target.userId });
          if (!b) throw notFound('cantunblock', 'The block you specified was not found. It may have been unblocked already.');
        }
        await users.deleteBlock(b.id);
        await outbox.append({ ...unblockEntry(b, req.reason, await accounts.performer(req.performerId, req.performer)), tags: req.tags });
        return blockListEntry(b);
      });
    },
    async listBlocks(req) {
      const limit = Math.min(Math.max(req.limit || 10, 1), MAX_LIST_LIMIT);
      const userIds: number[] = [];
      const ips: string[] = [];
      for (const u of req.users) {
        if (isIp(u)) ips.push(normalizeIp(u));
        else {
          const name = canonicalUserName(u);
          const row = name ? await users.byName(name) : null;
          if (row) userIds.push(row.id);
        }
      }
      if (req.ip) ips.push(normalizeIp(req.ip));
      // Named targets that do not exist match nothing rather than everything.
      if (req.users.length && !userIds.length && !ips.length) return { blocks: [], continueId: 0 };
      const bound = (iso: string) => (iso ? new Date(iso) : undefined);
      const rows = await users.listBlocks({
        ids: req.ids,
        userIds,
        ips,
        descending: req.descending,
        limit: limit + 1,
        continueId: req.continueId,
        start: bound(req.start),
        end: bound(req.end),
        show: req.show,
      });
      const more = rows.length > limit ? rows.pop() : undefined;
      return { blocks: rows.map(blockListEntry), continueId: more?.id ?? 0 };
    },
    async createBotPassword(req) {
      const bad = unknownGrants(req.grants);
      if (bad.length) throw invalidArgument('badvalue', `Unrecognized grants: ${bad.join(', ')}.`, { grants: bad });
      const { row, bp, password } = await users.tx(() => accounts.createBotPassword(req.user, req.appId, req.grants));
      return { botPassword: botPasswordOf(row, bp), password };
    },
    async listBotPasswords(req) {
      const row = await accounts.requireUser(req.user);
      return { botPasswords: (await users.botPasswords(row.id)).map((bp) => botPasswordOf(row, bp)) };
    },
    async updateBotPassword(req) {
      const bad = unknownGrants(req.grants);
      if (bad.length) throw invalidArgument('badvalue', `Unrecognized grants: ${bad.join(', ')}.`, { grants: bad });
      const row = await accounts.requireUser(req.user);
      const bp = await users.updateBotPassword(row.id, req.appId, { grants: req.grants });
      if (!bp) throw notFound('botpasswords-not-exist', msg('botpasswords-not-exist', [row.name, req.appId]).text);
      return botPasswordOf(row, bp);
    },
    async resetBotPassword(req) {
      const row = await accounts.requireUser(req.user);
      const password = generateBotPassword();
      const bp = await users.updateBotPassword(row.id, req.appId, { passwordHash: await hashPassword(password) });
      if (!bp) throw notFound('botpasswords-not-exist', msg('botpasswords-not-exist', [row.name, req.appId]).text);
      return { botPassword: botPasswordOf(row, bp), password };
    },
    async deleteBotPassword(req) {
      const row = await accounts.requireUser(req.user);
      if (!(await users.deleteBotPassword(row.id, req.appId))) throw notFound('botpasswords-not-exist', msg('botpasswords-not-exist', [row.name, req.appId]).text);
      return {};
    },
    async enableTotp(req) {
      const row = await accounts.requireUser(req.user);
      const secret = newTotpSecret();
      await users.setTotp(row.id, secret);
      return { secret, uri: otpauthUri(secret, row.name, siteName) };
    },
    async disableTotp(req) {
      const row = await accounts.requireUser(req.user);
      await users.setTotp(row.id, null);
      return {};
    },
    async incrementEditCount(req) {
      await editCounts.increment(req.userId, Math.max(1, req.count));
      return {};
    },
    async changeOptions(req) {
      const options = await users.changeOptions(req.userId, { reset: req.reset, set: req.set, unset: req.unset });
      if (!options) throw notFound('nosuchuser', `The user with ID ${req.userId} does not exist.`);
      if (req.email !== undefined) await users.setEmail(req.userId, req.email);
      return { optionsJson: JSON.stringify(options) };
    },
    async listUserIdsWithRight(req) {
      if (!req.right) throw invalidArgument('missingparam', 'The "right" parameter must be set.');
      // Only explicit groups have user_groups rows; a right of an implicit group (*, user,
      // autoconfirmed) is not a membership MediaWiki's history counts either.
      const groups = Object.entries(accounts.o.perms)
        .filter(([, rights]) => rights[req.right] === true)
        .map(([group]) => group);
      return { userIds: await users.idsInGroups(groups) };
    },
    async listGroupPermissions(req) {
      const [sizes, stats] = req.countMembers ? await Promise.all([users.groupSizes(), users.statistics(ACTIVE_USER_DAYS)]) : [new Map<string, number>(), undefined];
      return {
        groups: Object.entries(accounts.o.perms).map(([name, rights]) => ({
          name,
          rights: Object.entries(rights)
            .filter(([, granted]) => granted)
            .map(([right]) => right),
          // "user" counts every account (SiteStats::users); "*" and the automatic groups have no size.
          members: name === 'user' ? (stats?.users ?? 0) : (sizes.get(name) ?? 0),
        })),
      };
    },
    async getUserStatistics() {
      const s = await users.statistics(ACTIVE_USER_DAYS);
      return { users: s.users, activeUsers: s.active, admins: s.admins };
    },
  };
}
