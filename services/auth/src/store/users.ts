/* Accounts, group memberships, bot passwords and blocks in the auth schema (migrations/001_users.sql). */
import type { Db, Queryable } from '@quire/kit';
import type { BlockInfo } from '@quire/proto/wiki/auth/v1/auth';
import { isoOrInfinite } from '../expiry.js';

export interface UserRow {
  id: number;
  name: string;
  password_hash: string;
  email: string;
  email_authenticated: Date | null;
  realname: string;
  options: Record<string, unknown>;
  editcount: number;
  registration: Date;
  totp_secret: string | null;
}

export interface Membership {
  group: string;
  expiry: Date | null;
}

export interface BotPasswordRow {
  user_id: number;
  app_id: string;
  password_hash: string;
  grants: string[];
  created: Date;
}

export interface BlockRow {
  id: number;
  target_user_id: number | null;
  target_ip: string | null;
  target_name: string | null;
  by_id: number;
  by_name: string;
  reason: string;
  created: Date;
  expiry: Date | null;
  anononly: boolean;
  nocreate: boolean;
  noemail: boolean;
  allowusertalk: boolean;
  /** False for a partial block: it applies only to its restrictions. */
  sitewide: boolean;
  restrictions: BlockRestrictionRow[];
}

/** A row of block_restrictions: type 1 a page (value its id), type 2 a namespace. */
export interface BlockRestrictionRow {
  type: number;
  value: number;
  ns: number | null;
  title: string | null;
}

export function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function blockInfo(b: BlockRow): BlockInfo {
  return {
    id: b.id,
    by: b.by_name,
    byId: b.by_id,
    reason: b.reason,
    timestamp: iso(b.created),
    expiry: isoOrInfinite(b.expiry),
    partial: !b.sitewide,
    nocreate: b.nocreate,
    anononly: b.anononly,
    noemail: b.noemail,
    allowusertalk: b.allowusertalk,
    pages: b.restrictions.filter((r) => r.type === 1).map((r) => ({ id: Number(r.value), ns: r.ns ?? 0, title: r.title ?? '' })),
    namespaces: b.restrictions.filter((r) => r.type === 2).map((r) => Number(r.value)),
  };
}

const ACTIVE = '(expiry IS NULL OR expiry > now())';
/** A block with its target's name and its restrictions (pages by id, then namespaces). */
const blockColumns = (s: string) =>
  `b.*, u.name AS target_name,
   COALESCE((SELECT json_agg(json_build_object('type', r.type, 'value', r.value, 'ns', r.ns, 'title', r.title) ORDER BY r.type, r.value)
               FROM ${s}.block_restrictions r WHERE r.block_id = b.id), '[]'::json) AS restrictions`;

/**
 * The active block applying to user `userParam` (0 for an IP) from IP `ipParam`: by account, or a
 * non-anononly block of the IP (only the IP's block for IPs); the account's own first.
 */
const activeBlockQuery = (s: string, userParam: string, ipParam: string) =>
  `SELECT ${blockColumns(s)} FROM ${s}.blocks b LEFT JOIN ${s}.users u ON u.id = b.target_user_id
    WHERE ${ACTIVE.replaceAll('expiry', 'b.expiry')}
      AND ((b.target_user_id = ${userParam} AND ${userParam} > 0) OR (b.target_ip = ${ipParam} AND (${userParam} = 0 OR NOT b.anononly)))
    ORDER BY b.target_user_id IS NULL, b.id LIMIT 1`;

/** A block row as row_to_json gives it: timestamps as text. */
type BlockJson = Omit<BlockRow, 'created' | 'expiry'> & { created: string; expiry: string | null };

function blockFromJson(b: BlockJson): BlockRow {
  return { ...b, created: new Date(b.created), expiry: b.expiry === null ? null : new Date(b.expiry) };
}

export class UserStore {
  /**
   * `changed` is told of every write to accounts, groups, bot passwords and blocks (the edit count
   * aside), at once and again when its transaction commits: the domain's AccountCache forgets.
   */
  constructor(
    private readonly db: Db,
    private readonly changed: () => Promise<void> = async () => undefined,
  ) {}

  private async wrote(): Promise<void> {
    await this.changed();
    if (this.db.inTransaction()) this.db.onCommit(() => void this.changed().catch(() => undefined));
  }

  private get s() {
    return this.db.schema;
  }

  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.db.tx(fn);
  }

  async byName(name: string): Promise<UserRow | null> {
    const r = await this.db.query<UserRow>(`SELECT * FROM ${this.s}.users WHERE name = $1`, [name]);
    return r.rows[0] ?? null;
  }

  async byId(id: number): Promise<UserRow | null> {
    const r = await this.db.query<UserRow>(`SELECT * FROM ${this.s}.users WHERE id = $1`, [id]);
    return r.rows[0] ?? null;
  }

  /**
   * What resolving a session reads of its account, in one statement (every request of a
   * logged-in caller resolves its session): the user row, its active group memberships, for a
   * bot-password session that bot password's hash and grants, and the block applying to it from `ip`
   * (as activeBlock).
   */
  async sessionAccount(
    userId: number,
    appId: string | undefined,
    ip: string,
  ): Promise<{ row: UserRow; memberships: Membership[]; botPassword: Pick<BotPasswordRow, 'password_hash' | 'grants'> | null; block: BlockRow | null } | null> {
    const r = await this.db.query<UserRow & { sa_groups: string[]; sa_expiries: (Date | null)[]; sa_bp_hash: string | null; sa_bp_grants: string[] | null; sa_block: BlockJson | null }>(
      `SELECT u.*,
          ARRAY(SELECT grp FROM ${this.s}.user_groups WHERE user_id = u.id AND ${ACTIVE} ORDER BY grp) AS sa_groups,
          ARRAY(SELECT expiry FROM ${this.s}.user_groups WHERE user_id = u.id AND ${ACTIVE} ORDER BY grp) AS sa_expiries,
          bp.password_hash AS sa_bp_hash, bp.grants AS sa_bp_grants,
          (SELECT row_to_json(ab) FROM (${activeBlockQuery(this.s, '$1', '$3')}) ab) AS sa_block
        FROM ${this.s}.users u LEFT JOIN ${this.s}.bot_passwords bp ON bp.user_id = u.id AND bp.app_id = $2
       WHERE u.id = $1`,
      [userId, appId ?? null, ip],
    );
    const found = r.rows[0];
    if (!found) return null;
    const { sa_groups, sa_expiries, sa_bp_hash, sa_bp_grants, sa_block, ...row } = found;
    return {
      row: row as UserRow,
      memberships: sa_groups.map((group, i) => ({ group, expiry: sa_expiries[i] ?? null })),
      botPassword: appId !== undefined && sa_bp_hash !== null ? { password_hash: sa_bp_hash, grants: sa_bp_grants ?? [] } : null,
      block: sa_block ? blockFromJson(sa_block) : null,
    };
  }

  async create(u: { name: string; passwordHash: string; email: string; realname: string }): Promise<UserRow | null> {
    const r = await this.db.query<UserRow>(`INSERT INTO ${this.s}.users (name, password_hash, email, realname) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING RETURNING *`, [
      u.name,
      u.passwordHash,
      u.email,
      u.realname,
    ]);
    await this.wrote();
    return r.rows[0] ?? null;
  }

  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db.query(`UPDATE ${this.s}.users SET password_hash = $2 WHERE id = $1`, [id, passwordHash]);
    await this.wrote();
  }

  async setTotp(id: number, secret: string | null): Promise<void> {
    await this.db.query(`UPDATE ${this.s}.users SET totp_secret = $2 WHERE id = $1`, [id, secret]);
    await this.wrote();
  }

  /**
   * action=options in one statement: the overrides after an optional reset, with `set` applied
   * and `unset` removed (NULL when the user does not exist).
   */
  async changeOptions(id: number, change: { reset: boolean; set: Record<string, string>; unset: string[] }): Promise<Record<string, unknown> | null> {
    const r = await this.db.query<{ options: Record<string, unknown> }>(
      `UPDATE ${this.s}.users SET options = ((CASE WHEN $2 THEN '{}'::jsonb ELSE options END) - $4::text[]) || $3::jsonb
       WHERE id = $1 RETURNING options`,
      [id, change.reset, JSON.stringify(change.set), change.unset],
    );
    await this.wrote();
    return r.rows[0]?.options ?? null;
  }

  /** A new email address (or none: ""), not confirmed until it is again. */
  async setEmail(id: number, email: string): Promise<void> {
    await this.db.query(`UPDATE ${this.s}.users SET email = $2, email_authenticated = NULL WHERE id = $1`, [id, email]);
    await this.wrote();
  }

  async incrementEditCount(id: number, by = 1): Promise<void> {
    await this.db.query(`UPDATE ${this.s}.users SET editcount = editcount + $2, last_edit = now() WHERE id = $1`, [id, by]);
  }

  /** Explicit, unexpired memberships, by group name. */
  async memberships(userId: number): Promise<Membership[]> {
    const r = await this.db.query<{ grp: string; expiry: Date | null }>(`SELECT grp, expiry FROM ${this.s}.user_groups WHERE user_id = $1 AND ${ACTIVE} ORDER BY grp`, [userId]);
    return r.rows.map((m) => ({ group: m.grp, expiry: m.expiry }));
  }

  async membershipsOf(userIds: number[]): Promise<Map<number, Membership[]>> {
    const out = new Map<number, Membership[]>();
    if (userIds.length === 0) return out;
    const r = await this.db.query<{ user_id: number; grp: string; expiry: Date | null }>(
      `SELECT user_id, grp, expiry FROM ${this.s}.user_groups WHERE user_id = ANY($1::bigint[]) AND ${ACTIVE} ORDER BY grp`,
      [userIds],
    );
    for (const m of r.rows) {
      const list = out.get(m.user_id) ?? [];
      list.push({ group: m.grp, expiry: m.expiry });
      out.set(m.user_id, list);
    }
    return out;
  }

  /** Ids of the users with an unexpired membership in any of these groups, ascending. */
  async idsInGroups(groups: readonly string[]): Promise<number[]> {
    if (groups.length === 0) return [];
    const r = await this.db.query<{ user_id: number }>(`SELECT DISTINCT user_id FROM ${this.s}.user_groups WHERE grp = ANY($1::text[]) AND ${ACTIVE} ORDER BY user_id`, [[...groups]]);
    return r.rows.map((x) => Number(x.user_id));
  }

  /** Users now (unexpired membership) in each explicit group that has any. */
  async groupSizes(): Promise<Map<string, number>> {
    const r = await this.db.query<{ grp: string; n: number }>(`SELECT grp, count(DISTINCT user_id)::int AS n FROM ${this.s}.user_groups WHERE ${ACTIVE} GROUP BY grp`);
    return new Map(r.rows.map((x) => [x.grp, Number(x.n)]));
  }

  async addGroup(userId: number, group: string, expiry: Date | null): Promise<void> {
    await this.db.query(`INSERT INTO ${this.s}.user_groups (user_id, grp, expiry) VALUES ($1, $2, $3) ON CONFLICT (user_id, grp) DO UPDATE SET expiry = EXCLUDED.expiry`, [userId, group, expiry]);
    await this.wrote();
  }

  async removeGroup(userId: number, group: string): Promise<boolean> {
    const r = await this.db.query(`DELETE FROM ${this.s}.user_groups WHERE user_id = $1 AND grp = $2 AND ${ACTIVE}`, [userId, group]);
    await this.wrote();
    return r.rowCount > 0;
  }

  /** Users by name order for list=allusers. */
  async list(o: { from?: string; to?: string; prefix?: string; groups: string[]; excludeGroups: string[]; descending: boolean; limit: number; withEdits: boolean }): Promise<UserRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const cmp = o.descending ? '<=' : '>=';
    if (o.from) where.push(`u.name ${cmp} ${p(o.from)}`);
    if (o.to) where.push(`u.name ${o.descending ? '>=' : '<='} ${p(o.to)}`);
    if (o.prefix) where.push(`starts_with(u.name, ${p(o.prefix)})`);
    if (o.withEdits) where.push('u.editcount > 0');
    if (o.groups.length) where.push(`EXISTS (SELECT 1 FROM ${this.s}.user_groups g WHERE g.user_id = u.id AND g.grp = ANY(${p(o.groups)}::text[]) AND (g.expiry IS NULL OR g.expiry > now()))`);
    if (o.excludeGroups.length)
      where.push(`NOT EXISTS (SELECT 1 FROM ${this.s}.user_groups g WHERE g.user_id = u.id AND g.grp = ANY(${p(o.excludeGroups)}::text[]) AND (g.expiry IS NULL OR g.expiry > now()))`);
    const r = await this.db.query<UserRow>(
      `SELECT u.* FROM ${this.s}.users u ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY u.name COLLATE "C" ${o.descending ? 'DESC' : 'ASC'} LIMIT ${p(o.limit)}`,
      params,
    );
    return r.rows;
  }

  async statistics(activeDays: number): Promise<{ users: number; active: number; admins: number }> {
    const r = await this.db.query<{ users: number; active: number; admins: number }>(
      `SELECT (SELECT count(*) FROM ${this.s}.users)::int AS users,
              (SELECT count(*) FROM ${this.s}.users WHERE last_edit > now() - make_interval(days => $1))::int AS active,
              (SELECT count(DISTINCT user_id) FROM ${this.s}.user_groups WHERE grp = 'sysop' AND ${ACTIVE})::int AS admins`,
      [activeDays],
    );
    return r.rows[0]!;
  }

  // Bot passwords.

  async botPassword(userId: number, appId: string): Promise<BotPasswordRow | null> {
    const r = await this.db.query<BotPasswordRow>(`SELECT * FROM ${this.s}.bot_passwords WHERE user_id = $1 AND app_id = $2`, [userId, appId]);
    return r.rows[0] ?? null;
  }

  async botPasswords(userId: number): Promise<BotPasswordRow[]> {
    const r = await this.db.query<BotPasswordRow>(`SELECT * FROM ${this.s}.bot_passwords WHERE user_id = $1 ORDER BY app_id`, [userId]);
    return r.rows;
  }

  async insertBotPassword(userId: number, appId: string, passwordHash: string, grants: string[]): Promise<BotPasswordRow | null> {
    const r = await this.db.query<BotPasswordRow>(`INSERT INTO ${this.s}.bot_passwords (user_id, app_id, password_hash, grants) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING *`, [
      userId,
      appId,
      passwordHash,
      grants,
    ]);
    await this.wrote();
    return r.rows[0] ?? null;
  }

  async updateBotPassword(userId: number, appId: string, change: { grants?: string[]; passwordHash?: string }): Promise<BotPasswordRow | null> {
    const r = await this.db.query<BotPasswordRow>(
      `UPDATE ${this.s}.bot_passwords SET grants = COALESCE($3, grants), password_hash = COALESCE($4, password_hash) WHERE user_id = $1 AND app_id = $2 RETURNING *`,
      [userId, appId, change.grants ?? null, change.passwordHash ?? null],
    );
    await this.wrote();
    return r.rows[0] ?? null;
  }

  async deleteBotPassword(userId: number, appId: string): Promise<boolean> {
    const r = await this.db.query(`DELETE FROM ${this.s}.bot_passwords WHERE user_id = $1 AND app_id = $2`, [userId, appId]);
    await this.wrote();
    return r.rowCount > 0;
  }

  // Blocks.

  /** The active block applying to a logged-in user (by account, or a non-anononly block of their IP), or to an IP. */
  async activeBlock(userId: number, ip: string): Promise<BlockRow | null> {
    const r = await this.db.query<BlockRow>(activeBlockQuery(this.s, '$1', '$2'), [userId, ip]);
    return r.rows[0] ?? null;
  }

  async blockOfTarget(target: { userId: number } | { ip: string }): Promise<BlockRow | null> {
    const [col, val] = 'userId' in target ? ['target_user_id', target.userId] : ['target_ip', target.ip];
    const r = await this.db.query<BlockRow>(
      `SELECT ${blockColumns(this.s)} FROM ${this.s}.blocks b LEFT JOIN ${this.s}.users u ON u.id = b.target_user_id WHERE b.${col} = $1 AND ${ACTIVE.replaceAll('expiry', 'b.expiry')}`,
      [val],
    );
    return r.rows[0] ?? null;
  }

  async blockById(id: number): Promise<BlockRow | null> {
    const r = await this.db.query<BlockRow>(
      `SELECT ${blockColumns(this.s)} FROM ${this.s}.blocks b LEFT JOIN ${this.s}.users u ON u.id = b.target_user_id WHERE b.id = $1 AND ${ACTIVE.replaceAll('expiry', 'b.expiry')}`,
      [id],
    );
    return r.rows[0] ?? null;
  }

  /** Replaces any block of the target (expired ones included): one row per target. */
  async upsertBlock(b: Omit<BlockRow, 'id' | 'created' | 'target_name'>): Promise<BlockRow> {
    const col = b.target_user_id !== null ? 'target_user_id' : 'target_ip';
    await this.db.query(`DELETE FROM ${this.s}.blocks WHERE ${col} = $1`, [b.target_user_id ?? b.target_ip]);
    const r = await this.db.query<{ id: number }>(
      `INSERT INTO ${this.s}.blocks (target_user_id, target_ip, by_id, by_name, reason, expiry, anononly, nocreate, noemail, allowusertalk, sitewide)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [b.target_user_id, b.target_ip, b.by_id, b.by_name, b.reason, b.expiry, b.anononly, b.nocreate, b.noemail, b.allowusertalk, b.sitewide],
    );
    const id = r.rows[0]!.id;
    for (const x of b.sitewide ? [] : b.restrictions) {
      await this.db.query(`INSERT INTO ${this.s}.block_restrictions (block_id, type, value, ns, title) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, [id, x.type, x.value, x.ns, x.title]);
    }
    await this.wrote();
    return (await this.blockById(id))!;
  }

  async deleteBlock(id: number): Promise<void> {
    await this.db.query(`DELETE FROM ${this.s}.blocks WHERE id = $1`, [id]);
    await this.wrote();
  }

  async listBlocks(o: {
    ids: number[];
    userIds: number[];
    ips: string[];
    descending: boolean;
    limit: number;
    continueId: number;
    start?: Date;
    end?: Date;
    show?: readonly string[];
  }): Promise<BlockRow[]> {
    const where = [ACTIVE.replaceAll('expiry', 'b.expiry')];
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    if (o.ids.length) where.push(`b.id = ANY(${p(o.ids)}::bigint[])`);
    if (o.userIds.length || o.ips.length) where.push(`(b.target_user_id = ANY(${p(o.userIds)}::bigint[]) OR b.target_ip = ANY(${p(o.ips)}::text[]))`);
    if (o.continueId > 0) where.push(`b.id ${o.descending ? '<=' : '>='} ${p(o.continueId)}`);
    // ApiQueryBlocks: start..end in the listing's direction.
    const [newest, oldest] = o.descending ? [o.start, o.end] : [o.end, o.start];
    if (newest) where.push(`b.created <= ${p(newest)}`);
    if (oldest) where.push(`b.created >= ${p(oldest)}`);
    const range = `(b.target_ip IS NOT NULL AND b.target_ip LIKE '%/%')`;
    const conditions: Record<string, string> = {
      account: 'b.target_user_id IS NOT NULL',
      '!account': 'b.target_user_id IS NULL',
      ip: `(b.target_ip IS NOT NULL AND b.target_ip NOT LIKE '%/%')`,
      '!ip': `(b.target_user_id IS NOT NULL OR ${range})`,
      range,
      '!range': `NOT ${range}`,
      temp: 'b.expiry IS NOT NULL',
      '!temp': 'b.expiry IS NULL',
    };
    for (const flag of o.show ?? []) if (conditions[flag]) where.push(conditions[flag]);
    const r = await this.db.query<BlockRow>(
      `SELECT ${blockColumns(this.s)} FROM ${this.s}.blocks b LEFT JOIN ${this.s}.users u ON u.id = b.target_user_id
        WHERE ${where.join(' AND ')} ORDER BY b.id ${o.descending ? 'DESC' : 'ASC'} LIMIT ${p(o.limit)}`,
      params,
    );
    return r.rows;
  }
}
