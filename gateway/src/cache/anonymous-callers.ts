/*
 * Anonymous callers by IP, kept briefly so that a read without credentials does not call the
 * auth service. What the auth service adds to an anonymous caller is the rights of
 * `*` and the IP's block: the gateway that forwards a block (any write) forgets every entry as
 * the write starts and as it answers, so the next request from the blocked address sees it;
 * blocks made through another gateway apply here within `ttlMs`. Writes (not GET/HEAD) never use
 * an entry (caller.ts), so a block always stops an edit.
 */
import type { User } from '../clients/types.js';

export class AnonymousCallers {
  private readonly byIp = new Map<string, { user: User; expiresAt: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs = 2000,
    private readonly maxEntries = 10_000,
  ) {}

  get(ip: string, now = Date.now()): User | undefined {
    const e = this.byIp.get(ip);
    if (e && e.expiresAt > now) return e.user;
    if (e) this.byIp.delete(ip);
    return undefined;
  }

  /** The token a resolution takes before it asks the auth service; `put` refuses it after `invalidate`. */
  begin(): number {
    return this.generation;
  }

  put(ip: string, since: number, user: User, now = Date.now()): void {
    if (since !== this.generation) return;
    if (this.byIp.size >= this.maxEntries) this.byIp.delete(this.byIp.keys().next().value!);
    this.byIp.set(ip, { user, expiresAt: now + this.ttlMs });
  }

  invalidate(): void {
    this.generation++;
    this.byIp.clear();
  }
}
