import type { Redis } from 'ioredis';
import { kvErrors, kvSeconds } from './metrics.js';

/**
 * Key-value/token store with TTLs (sessions, tokens, rate limits, leases). REDIS_URL -> Redis;
 * unset -> an in-process store with the same semantics. Keys are namespaced by `prefix`.
 */
export interface KvStore {
  get(key: string): Promise<string | null>;
  /** ttlSeconds > 0 sets an expiry; omitted keeps the key until deleted. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets only when absent (a lease or a one-time marker); true when this call set it. */
  setIfAbsent(key: string, value: string, ttlSeconds?: number): Promise<boolean>;
  del(key: string): Promise<boolean>;
  /** Atomic increment; the expiry is set when the key is created by this call. */
  incr(key: string, ttlSeconds?: number): Promise<number>;
  /** Remaining seconds: -2 when missing, -1 when the key has no expiry. */
  ttl(key: string): Promise<number>;
  close(): Promise<void>;
}

export class MemoryKv implements KvStore {
  private readonly data = new Map<string, { value: string; expiresAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly prefix = '') {
    // Expired keys are dropped on read; the sweep only bounds memory.
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  private live(key: string) {
    const k = this.prefix + key;
    const e = this.data.get(k);
    if (e && e.expiresAt !== 0 && e.expiresAt <= Date.now()) {
      this.data.delete(k);
      return undefined;
    }
    return e;
  }

  private sweep() {
    const now = Date.now();
    for (const [k, e] of this.data) if (e.expiresAt !== 0 && e.expiresAt <= now) this.data.delete(k);
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }
  async set(key: string, value: string, ttlSeconds?: number) {
    this.data.set(this.prefix + key, { value, expiresAt: ttlSeconds && ttlSeconds > 0 ? Date.now() + ttlSeconds * 1000 : 0 });
  }
  async setIfAbsent(key: string, value: string, ttlSeconds?: number) {
    if (this.live(key)) return false;
    await this.set(key, value, ttlSeconds);
    return true;
  }
  async del(key: string) {
    const had = this.live(key) !== undefined;
    this.data.delete(this.prefix + key);
    return had;
  }
  async incr(key: string, ttlSeconds?: number) {
    const e = this.live(key);
    if (!e) {
      await this.set(key, '1', ttlSeconds);
      return 1;
    }
    const n = Number(e.value);
    if (!Number.isInteger(n)) throw new Error(`value of ${key} is not an integer`);
    e.value = String(n + 1);
    return n + 1;
  }
  async ttl(key: string) {
    const e = this.live(key);
    if (!e) return -2;
    if (e.expiresAt === 0) return -1;
    return Math.max(0, Math.ceil((e.expiresAt - Date.now()) / 1000));
  }
  async close() {
    clearInterval(this.sweeper);
  }
}

export class RedisKv implements KvStore {
  private constructor(
    private readonly redis: Redis,
    private readonly prefix = '',
  ) {
    this.redis.on('error', () => undefined); // surfaced per command; avoid unhandled 'error' events
  }

  /** The client is loaded here, only with REDIS_URL: the in-process default never loads ioredis. */
  static async create(url: string, prefix = ''): Promise<RedisKv> {
    const { Redis } = await import('ioredis');
    return new RedisKv(new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true }), prefix);
  }

  async get(key: string) {
    return this.redis.get(this.prefix + key);
  }
  async set(key: string, value: string, ttlSeconds?: number) {
    if (ttlSeconds && ttlSeconds > 0) await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds);
    else await this.redis.set(this.prefix + key, value);
  }
  async setIfAbsent(key: string, value: string, ttlSeconds?: number) {
    const r = ttlSeconds && ttlSeconds > 0 ? await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds, 'NX') : await this.redis.set(this.prefix + key, value, 'NX');
    return r === 'OK';
  }
  async del(key: string) {
    return (await this.redis.del(this.prefix + key)) > 0;
  }
  async incr(key: string, ttlSeconds?: number) {
    const k = this.prefix + key;
    if (!ttlSeconds || ttlSeconds <= 0) return this.redis.incr(k);
    const res = await this.redis.multi().incr(k).expire(k, ttlSeconds, 'NX').exec();
    const first = res?.[0];
    if (!first || first[0]) throw first?.[0] ?? new Error('redis transaction aborted');
    return Number(first[1]);
  }
  async ttl(key: string) {
    return this.redis.ttl(this.prefix + key);
  }
  /** Waits until Redis answers; a set-but-unreachable REDIS_URL fails start instead of later. */
  async ping(timeoutMs = 5000) {
    await Promise.race([this.redis.ping(), new Promise((_, rej) => setTimeout(() => rej(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs).unref())]);
  }
  async close() {
    this.redis.disconnect();
  }
}

/** Times every command of a store (quire_kv_command_duration_seconds) and counts its failures. */
export function measuredKv(kv: KvStore, backend: string): KvStore {
  const timed =
    <A extends unknown[], R>(command: string, fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const started = performance.now();
      try {
        return await fn(...a);
      } catch (e) {
        kvErrors.inc({ backend, command });
        throw e;
      } finally {
        kvSeconds.observe({ backend, command }, (performance.now() - started) / 1000);
      }
    };
  return {
    get: timed('get', (k: string) => kv.get(k)),
    set: timed('set', (k: string, v: string, ttl?: number) => kv.set(k, v, ttl)),
    setIfAbsent: timed('setnx', (k: string, v: string, ttl?: number) => kv.setIfAbsent(k, v, ttl)),
    del: timed('del', (k: string) => kv.del(k)),
    incr: timed('incr', (k: string, ttl?: number) => kv.incr(k, ttl)),
    ttl: timed('ttl', (k: string) => kv.ttl(k)),
    close: () => kv.close(),
  };
}

export async function openKv(opts: { url?: string; prefix?: string }): Promise<KvStore> {
  // The in-process map answers in microseconds: only Redis round trips are worth a histogram.
  if (!opts.url) return new MemoryKv(opts.prefix);
  const kv = await RedisKv.create(opts.url, opts.prefix);
  try {
    await kv.ping();
  } catch (e) {
    await kv.close(); // stop ioredis from retrying forever in the background
    throw e;
  }
  return measuredKv(kv, 'redis');
}
