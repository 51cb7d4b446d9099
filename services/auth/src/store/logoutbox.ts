/*
 * The outbox of the auth service's log entries (migrations/003_log_outbox.sql). `append` runs in
 * the transaction of the change it records, so the entry exists exactly when the change does;
 * the relay (../logrelay.ts) delivers pending rows to the content service's log in id order.
 */
import type { Db } from '@quire/kit';

/** MediaWiki's User namespace: newusers, block and rights entries target the user page. */
export const USER_NAMESPACE = 2;

export interface OutboxEntry {
  type: string;
  action: string;
  /** id 0 with the IP address as name for an anonymous performer. */
  performer: { id: number; name: string };
  /** The user (or IP) the action is about: its user page is the log target. */
  targetName: string;
  comment: string;
  /** The parameters as list=logevents shows them. */
  params: Record<string, unknown>;
  /** rc_bot: the performer has the bot right. */
  bot: boolean;
  /** false: recorded in the log without a recent change (AuthManager's autocreate entries). */
  publish: boolean;
  /** Change tags of the entry (already checked by the gateway). */
  tags?: readonly string[];
  /** The entry's time when the change computed others from it (a block's expiry); else the commit's clock. */
  at?: Date;
}

export interface OutboxRow {
  id: number;
  log_type: string;
  log_action: string;
  created_at: Date;
  performer_id: number;
  performer_name: string;
  target_ns: number;
  target_dbkey: string;
  comment: string;
  params: Record<string, unknown>;
  bot: boolean;
  publish: boolean;
  tags: string[];
}

/** The origin key content records with each delivered entry (logging.log_origin, unique). */
export const originOf = (id: number) => `auth:${id}`;

export class LogOutbox {
  private readonly appended = new Set<() => void>();

  constructor(private readonly db: Db) {}

  private get s() {
    return this.db.schema;
  }

  /**
   * Adds an entry inside the caller's open transaction (db.tx): it commits or rolls back with the
   * change. Listeners (the relay's nudge) run once it has committed.
   */
  async append(e: OutboxEntry): Promise<number> {
    const r = await this.db.query<{ id: number }>(
      `INSERT INTO ${this.s}.log_outbox (log_type, log_action, performer_id, performer_name, target_ns, target_dbkey, comment, params, bot, publish, tags, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, COALESCE($12::timestamptz, date_trunc('second', now()))) RETURNING id`,
      [e.type, e.action, e.performer.id, e.performer.name, USER_NAMESPACE, e.targetName.replace(/ /g, '_'), e.comment, JSON.stringify(e.params), e.bot, e.publish, e.tags ?? [], e.at ?? null],
    );
    this.db.onCommit(() => {
      for (const fn of this.appended) fn();
    });
    return r.rows[0]!.id;
  }

  /** Calls `fn` after each committed append (in this process). Returns the unsubscribe function. */
  onAppended(fn: () => void): () => void {
    this.appended.add(fn);
    return () => this.appended.delete(fn);
  }

  /** The oldest undelivered rows, in the order they were written. */
  async pending(limit: number): Promise<OutboxRow[]> {
    const r = await this.db.query<OutboxRow>(
      `SELECT id, log_type, log_action, created_at, performer_id, performer_name, target_ns, target_dbkey, comment, params, bot, publish, tags
         FROM ${this.s}.log_outbox WHERE delivered_at IS NULL ORDER BY id LIMIT $1`,
      [limit],
    );
    return r.rows;
  }

  async markDelivered(ids: number[]): Promise<void> {
    await this.db.query(`UPDATE ${this.s}.log_outbox SET delivered_at = now() WHERE id = ANY($1::bigint[]) AND delivered_at IS NULL`, [ids]);
  }

  /** Drops rows delivered more than `days` ago; the log itself lives in the content service. */
  async prune(days: number): Promise<number> {
    const r = await this.db.query(`DELETE FROM ${this.s}.log_outbox WHERE delivered_at < now() - make_interval(days => $1)`, [days]);
    return r.rowCount;
  }
}
