/*
 * SQL of OAuth: consumers, acceptances (a user's authorization of a consumer), OAuth 2.0 access
 * and refresh tokens. Secrets are stored as seeds (see migrations/005_oauth.sql).
 */
import type { Db } from '@quire/kit';

export interface ConsumerRow {
  id: number;
  consumer_key: string;
  name: string;
  version: string;
  owner_id: number;
  owner_name: string;
  description: string;
  callback_url: string;
  callback_is_prefix: boolean;
  oauth_version: number;
  grants: string[];
  owner_only: boolean;
  oauth2_confidential: boolean;
  rsa_key: string;
  secret_seed: string;
  stage: number;
  stage_reason: string;
  registered_at: Date;
}

export interface AcceptanceRow {
  id: number;
  consumer_id: number;
  user_id: number;
  access_key: string;
  access_secret_seed: string;
  grants: string[];
  accepted_at: Date;
}

export interface AccessTokenRow {
  jti: string;
  consumer_id: number;
  acceptance_id: number | null;
  user_id: number;
  grants: string[];
  expires_at: Date;
  revoked: boolean;
}

export type NewConsumer = Omit<ConsumerRow, 'id' | 'owner_name' | 'registered_at' | 'stage_reason'>;

export class OAuthStore {
  constructor(private readonly db: Db) {}

  private get s(): string {
    return this.db.schema;
  }

  tx<T>(fn: () => Promise<T>): Promise<T> {
    return this.db.tx(fn);
  }

  private consumerSelect(where: string): string {
    return `SELECT c.*, u.name AS owner_name FROM ${this.s}.oauth_consumers c JOIN ${this.s}.users u ON u.id = c.owner_id WHERE ${where}`;
  }

  /** Inserts a consumer; null when the owner already has one of this name and version. */
  async insertConsumer(c: NewConsumer): Promise<ConsumerRow | null> {
    const r = await this.db.query<{ id: number }>(
      `INSERT INTO ${this.s}.oauth_consumers (consumer_key, name, version, owner_id, description, callback_url, callback_is_prefix,
         oauth_version, grants, owner_only, oauth2_confidential, rsa_key, secret_seed, stage)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (owner_id, name, version) DO NOTHING RETURNING id`,
      [
        c.consumer_key,
        c.name,
        c.version,
        c.owner_id,
        c.description,
        c.callback_url,
        c.callback_is_prefix,
        c.oauth_version,
        c.grants,
        c.owner_only,
        c.oauth2_confidential,
        c.rsa_key,
        c.secret_seed,
        c.stage,
      ],
    );
    const id = r.rows[0]?.id;
    return id === undefined ? null : this.consumerById(id);
  }

  async consumerById(id: number): Promise<ConsumerRow | null> {
    return (await this.db.query<ConsumerRow>(this.consumerSelect('c.id = $1'), [id])).rows[0] ?? null;
  }

  async consumerByKey(key: string): Promise<ConsumerRow | null> {
    return (await this.db.query<ConsumerRow>(this.consumerSelect('c.consumer_key = $1'), [key])).rows[0] ?? null;
  }

  async listConsumers(ownerId: number, stage: number | undefined): Promise<ConsumerRow[]> {
    const r = await this.db.query<ConsumerRow>(`${this.consumerSelect('($1::bigint = 0 OR c.owner_id = $1) AND ($2::smallint IS NULL OR c.stage = $2)')} ORDER BY c.id DESC LIMIT 500`, [
      ownerId,
      stage ?? null,
    ]);
    return r.rows;
  }

  async updateConsumer(id: number, set: { description?: string; callbackUrl?: string; grants?: string[]; secretSeed?: string }): Promise<void> {
    await this.db.query(
      `UPDATE ${this.s}.oauth_consumers SET description = COALESCE($2, description), callback_url = COALESCE($3, callback_url),
         grants = COALESCE($4, grants), secret_seed = COALESCE($5, secret_seed) WHERE id = $1`,
      [id, set.description ?? null, set.callbackUrl ?? null, set.grants ?? null, set.secretSeed ?? null],
    );
  }

  async setStage(id: number, stage: number, reason: string): Promise<void> {
    await this.db.query(`UPDATE ${this.s}.oauth_consumers SET stage = $2, stage_reason = $3, stage_at = now() WHERE id = $1`, [id, stage, reason]);
  }

  /** Records (or replaces the grants of) a user's authorization of a consumer. */
  async upsertAcceptance(a: Omit<AcceptanceRow, 'id' | 'accepted_at'>): Promise<AcceptanceRow> {
    const r = await this.db.query<AcceptanceRow>(
      `INSERT INTO ${this.s}.oauth_acceptances (consumer_id, user_id, access_key, access_secret_seed, grants)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (consumer_id, user_id) DO UPDATE SET grants = EXCLUDED.grants
       RETURNING *`,
      [a.consumer_id, a.user_id, a.access_key, a.access_secret_seed, a.grants],
    );
    return r.rows[0]!;
  }

  async acceptanceByKey(accessKey: string): Promise<AcceptanceRow | null> {
    return (await this.db.query<AcceptanceRow>(`SELECT * FROM ${this.s}.oauth_acceptances WHERE access_key = $1`, [accessKey])).rows[0] ?? null;
  }

  async acceptanceById(id: number): Promise<AcceptanceRow | null> {
    return (await this.db.query<AcceptanceRow>(`SELECT * FROM ${this.s}.oauth_acceptances WHERE id = $1`, [id])).rows[0] ?? null;
  }

  async acceptance(consumerId: number, userId: number): Promise<AcceptanceRow | null> {
    return (await this.db.query<AcceptanceRow>(`SELECT * FROM ${this.s}.oauth_acceptances WHERE consumer_id = $1 AND user_id = $2`, [consumerId, userId])).rows[0] ?? null;
  }

  async acceptancesOf(userId: number): Promise<AcceptanceRow[]> {
    return (await this.db.query<AcceptanceRow>(`SELECT * FROM ${this.s}.oauth_acceptances WHERE user_id = $1 ORDER BY accepted_at DESC`, [userId])).rows;
  }

  /** Removes an authorization; its OAuth 2.0 tokens go with it (ON DELETE CASCADE). */
  async deleteAcceptance(id: number): Promise<void> {
    await this.db.query(`DELETE FROM ${this.s}.oauth_acceptances WHERE id = $1`, [id]);
  }

  async insertAccessToken(t: Omit<AccessTokenRow, 'revoked'>): Promise<void> {
    await this.db.query(`INSERT INTO ${this.s}.oauth2_access_tokens (jti, consumer_id, acceptance_id, user_id, grants, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      t.jti,
      t.consumer_id,
      t.acceptance_id,
      t.user_id,
      t.grants,
      t.expires_at,
    ]);
  }

  async accessToken(jti: string): Promise<AccessTokenRow | null> {
    return (await this.db.query<AccessTokenRow>(`SELECT * FROM ${this.s}.oauth2_access_tokens WHERE jti = $1`, [jti])).rows[0] ?? null;
  }

  async insertRefreshToken(tokenHash: string, accessJti: string, expiresAt: Date): Promise<void> {
    await this.db.query(`INSERT INTO ${this.s}.oauth2_refresh_tokens (token_hash, access_jti, expires_at) VALUES ($1, $2, $3)`, [tokenHash, accessJti, expiresAt]);
  }

  /**
   * Uses a refresh token once: marks it and its access token revoked and returns that access
   * token's row; null when unknown, expired or already used.
   */
  async consumeRefreshToken(tokenHash: string): Promise<AccessTokenRow | null> {
    return this.db.tx(async () => {
      const r = await this.db.query<{ access_jti: string }>(
        `UPDATE ${this.s}.oauth2_refresh_tokens SET revoked = true WHERE token_hash = $1 AND NOT revoked AND expires_at > now() RETURNING access_jti`,
        [tokenHash],
      );
      const jti = r.rows[0]?.access_jti;
      if (!jti) return null;
      const a = await this.db.query<AccessTokenRow>(`UPDATE ${this.s}.oauth2_access_tokens SET revoked = true WHERE jti = $1 RETURNING *`, [jti]);
      return a.rows[0] ?? null;
    });
  }
}
