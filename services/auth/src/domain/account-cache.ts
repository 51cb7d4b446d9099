/*
 * Who a session is, remembered. Every request with a session cookie asked the database
 * for the account, its groups, its bot password and its block: a quarter of the embedded
 * database's time in an edit run of ten bot sessions. MediaWiki keeps users in its object cache
 * too (User::loadFromCache, purged by User::invalidateCache); here an answer is kept until
 *   - any change to accounts, groups, bot passwords or blocks, on any replica: UserStore reports
 *     each write (and again once its transaction commits), which empties this replica's entries at
 *     once and replaces a generation in the key-value store that every replica compares with the one
 *     its entry was read under;
 *   - the earliest expiry among the answer's group memberships and block, when a time-limited
 *     right or block would end;
 *   - at most MAX_AGE_MS.
 * An answer read while a change was made is not kept (the generation moved during the read).
 * Edit counts are not a reason to forget: they only feed autoconfirmed, as MediaWiki's cached
 * user_editcount does.
 */
import crypto from 'node:crypto';
import type { KvStore } from '@quire/kit';

const GENERATION_KEY = 'auth:accounts:generation';
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  generation: string;
  until: number;
  value: unknown;
}

export class AccountCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly kv: KvStore) {}

  /**
   * The answer for `key`, from memory when still valid, else from `load`. `expiries` gives the
   * instants after which the loaded answer would no longer hold (null: none).
   */
  async get<T>(key: string, load: () => Promise<T>, expiries: (value: T) => (Date | null)[]): Promise<T> {
    const generation = await this.generation();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation && hit.until > Date.now()) return hit.value as T;
    const value = await load();
    if ((await this.generation()) === generation) {
      const until = Math.min(Date.now() + MAX_AGE_MS, ...expiries(value).map((d) => (d ? d.getTime() : Number.POSITIVE_INFINITY)));
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { generation, until, value });
    }
    return value;
  }

  /** An account, group, bot password or block changed: forget every answer, here and on the other replicas. */
  async invalidate(): Promise<void> {
    this.entries.clear();
    // A fresh random value rather than a counter: a store that lost the key (a restarted Redis)
    // cannot bring back a generation an old entry was read under.
    await this.kv.set(GENERATION_KEY, crypto.randomBytes(9).toString('base64url'));
  }

  private async generation(): Promise<string> {
    return (await this.kv.get(GENERATION_KEY)) ?? '0';
  }
}
