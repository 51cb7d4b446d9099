import { rateLimitRefusals, resourceExhausted, type KvStore } from '@quire/kit';

/*
 * MediaWiki's $wgRateLimits and RateLimiter::limit for page actions, counted in the service's
 * KvStore (Redis when configured, so every instance shares the counts). Each limit is a
 * fixed window: [count, seconds]; an attempt beyond the count is refused until the window ends.
 */

export type Limit = [count: number, seconds: number];
/** action → kind → limit; kinds: anon, user, newbie, ip, or a user group name. */
export type RateLimits = Record<string, Record<string, Limit>>;

/** MediaWiki 1.39's defaults (MainConfigSchema::RateLimits) for the actions Quire counts. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  edit: { ip: [8, 60], newbie: [8, 60], user: [90, 60] },
  move: { newbie: [2, 120], user: [8, 60] },
  upload: { ip: [8, 60], newbie: [8, 60] },
  rollback: { user: [10, 60], newbie: [5, 120] },
};

/** The answer to a limited attempt, as MediaWiki's `ratelimited` (REST: 429). */
export async function enforceRateLimit(limiter: RateLimiter, action: string, actor: { id: number; ip: string; rights: readonly string[]; groups: readonly string[] } | undefined): Promise<void> {
  if (!actor) return;
  const outcome = await limiter.hit(action, { userId: actor.id, ip: actor.ip, rights: actor.rights, groups: actor.groups });
  if (outcome.limited) {
    rateLimitRefusals.inc({ action });
    throw resourceExhausted('ratelimited', "You've exceeded your rate limit. Please wait some time and try again.", { retryAfter: outcome.retryAfter });
  }
}

export interface RateLimitSubject {
  /** 0 for anonymous users. */
  userId: number;
  ip: string;
  rights: readonly string[];
  groups: readonly string[];
}

export type RateLimitOutcome = { limited: false } | { limited: true; retryAfter: number };

/** Parses RATE_LIMITS ({"edit": {"user": [90, 60]}}); merged over the defaults per action and kind, as LocalSettings' $wgRateLimits['edit']['ip'] = … is. */
export function parseRateLimits(json: string | undefined): RateLimits {
  const limits: RateLimits = structuredClone(DEFAULT_RATE_LIMITS);
  if (json === undefined || json.trim() === '') return limits;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('RATE_LIMITS is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('RATE_LIMITS must be an object of actions');
  for (const [action, kinds] of Object.entries(parsed)) {
    if (typeof kinds !== 'object' || kinds === null || Array.isArray(kinds)) throw new Error(`RATE_LIMITS: ${action} must map kinds to [count, seconds]`);
    limits[action] = { ...limits[action] };
    for (const [kind, limit] of Object.entries(kinds as Record<string, unknown>)) {
      const ok = Array.isArray(limit) && limit.length === 2 && limit.every((n) => Number.isInteger(n) && (n as number) > 0);
      if (!ok) throw new Error(`RATE_LIMITS: ${action}.${kind} must be [count, seconds] with positive integers`);
      limits[action]![kind] = limit as Limit;
    }
  }
  return limits;
}

const perSecond = ([count, seconds]: Limit) => count / seconds;

export class RateLimiter {
  constructor(
    private readonly kv: KvStore,
    private readonly limits: RateLimits,
  ) {}

  /**
   * Counts one attempt of `action` (User::pingLimiter): holders of `noratelimit` are exempt; all
   * anonymous users share `anon`; anonymous and new (not autoconfirmed) users are counted per IP;
   * a logged-in user counts against `newbie` when new, else the most generous of `user` and
   * their groups' limits (so a `bot` limit can raise bots above `user`).
   */
  async hit(action: string, subject: RateLimitSubject): Promise<RateLimitOutcome> {
    const conds = this.limits[action];
    if (!conds || subject.rights.includes('noratelimit')) return { limited: false };
    const newbie = !subject.rights.includes('autoconfirmed');
    const keys: { key: string; limit: Limit }[] = [];
    if (subject.userId === 0 && conds.anon) keys.push({ key: 'anon', limit: conds.anon });
    if (newbie && subject.ip && conds.ip) keys.push({ key: `ip:${subject.ip}`, limit: conds.ip });
    if (subject.userId !== 0) {
      let kind: string | undefined = conds.user ? 'user' : undefined;
      if (newbie && conds.newbie) kind = 'newbie';
      else {
        for (const group of subject.groups) {
          const g = conds[group];
          if (g && (kind === undefined || perSecond(g) > perSecond(conds[kind]!))) kind = group;
        }
      }
      if (kind) keys.push({ key: `${kind}:${subject.userId}`, limit: conds[kind]! });
    }
    let retryAfter = 0;
    for (const { key, limit } of keys) {
      const fullKey = `ratelimit:${action}:${key}`;
      const count = await this.kv.incr(fullKey, limit[1]);
      if (count > limit[0]) retryAfter = Math.max(retryAfter, Math.max(1, await this.kv.ttl(fullKey)));
    }
    return retryAfter > 0 ? { limited: true, retryAfter } : { limited: false };
  }
}
