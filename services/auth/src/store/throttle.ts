/*
 * Throttles in the token store, as MediaWiki's Throttler: each condition is "count per seconds";
 * a key is counted per condition and subject. As Throttler::increase( $username, $ip ), a login
 * subject is the pair (IP, user name), so one address can log in to many accounts and one account
 * from many addresses; a success clears the pair. $wgPasswordAttemptThrottle defaults to 5 per
 * 5 minutes and 150 per 48 hours; account creation ($wgAccountCreationThrottle) is per IP and
 * off by default (count 0).
 */
import type { KvStore } from '@quire/kit';

export interface ThrottleCondition {
  count: number;
  seconds: number;
}

/** Parses "5/300,150/172800". */
export function parseThrottle(spec: string, variable: string): ThrottleCondition[] {
  if (spec.trim() === '') return [];
  return spec.split(',').map((part) => {
    const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(part);
    if (!m || Number(m[2]) <= 0) throw new Error(`${variable}: "${part}" is not count/seconds`);
    return { count: Number(m[1]), seconds: Number(m[2]) };
  });
}

export class Throttler {
  constructor(
    private readonly kv: KvStore,
    private readonly type: string,
    private readonly conditions: ThrottleCondition[],
  ) {}

  private key(index: number, subject: string) {
    return `throttle:${this.type}:${index}:${Buffer.from(subject).toString('base64url')}`;
  }

  /**
   * Counts one attempt for every subject; returns the first condition exceeded (the attempt
   * that crosses it is refused), or null.
   */
  async increase(subjects: string[]): Promise<ThrottleCondition | null> {
    let hit: ThrottleCondition | null = null;
    for (const [i, c] of this.conditions.entries()) {
      if (c.count <= 0) continue; // 0: this condition is off, as in MediaWiki
      for (const s of subjects) {
        const n = await this.kv.incr(this.key(i, s), c.seconds);
        if (n > c.count && !hit) hit = c;
      }
    }
    return hit;
  }

  /** Whether the limit is already reached, without counting an attempt (pingLimiter with an increment of 0). */
  async exceeded(subjects: string[]): Promise<boolean> {
    return (await this.exceededCondition(subjects)) !== null;
  }

  /** The first condition whose limit is already reached, without counting an attempt; null when none is. */
  async exceededCondition(subjects: string[]): Promise<ThrottleCondition | null> {
    for (const [i, c] of this.conditions.entries()) {
      if (c.count <= 0) continue;
      for (const s of subjects) if (Number((await this.kv.get(this.key(i, s))) ?? 0) >= c.count) return c;
    }
    return null;
  }

  async clear(subjects: string[]): Promise<void> {
    for (const i of this.conditions.keys()) for (const s of subjects) await this.kv.del(this.key(i, s));
  }
}
