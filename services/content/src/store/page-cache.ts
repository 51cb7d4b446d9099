import pg from 'pg';
import { LRUCache } from 'lru-cache';
import { counter, gauge, type Db, type Logger, type Queryable } from '@quire/kit';
import type { GetPageResponse } from '@quire/proto/wiki/content/pages/v1/pages';

/** Postgres channel on which every content instance announces the pages it changed. */
const CHANNEL = 'quire_content_page_changed';

const key = (ns: number, dbkey: string, withContent: boolean) => `${ns}:${dbkey}:${withContent ? 1 : 0}`;

/**
 * Hot page reads (REST page endpoints) served from memory. Correctness rules:
 * - entries are dropped after the commit of any change to their page (PageChanges);
 * - a read that started before an invalidation may not store its (possibly older) result: every
 *   invalidation bumps `version`, and `set` only accepts results read at the current version;
 * - while other instances' changes cannot be heard (listener down), nothing is cached.
 */
const lookups = counter('quire_page_cache_lookups_total', "Page reads looked up in the content service's page cache, by result (hit, miss)", ['result']);
const listenerConnected = gauge('quire_change_feed_connected', 'Whether a consumer follows the change feed now (1) or is retrying (0)', ['consumer']);
const LISTENER = { consumer: 'content-page-cache' };

export class PageReadCache {
  private readonly lru: LRUCache<string, GetPageResponse>;
  private version = 0;
  private suspended = false;
  private readonly enabled: boolean;

  /** maxBytes 0 disables caching. */
  constructor(maxBytes: number) {
    this.enabled = maxBytes > 0;
    this.lru = new LRUCache({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (v) => 512 + 2 * (v.latest?.content?.length ?? 0),
    });
  }

  /** The version to pass to `set` for a read that starts now. */
  begin(): number {
    return this.version;
  }

  get(ns: number, dbkey: string, withContent: boolean): GetPageResponse | undefined {
    const hit = this.lru.get(key(ns, dbkey, withContent));
    lookups.inc({ result: hit ? 'hit' : 'miss' });
    return hit;
  }

  set(ns: number, dbkey: string, withContent: boolean, value: GetPageResponse, readAt: number): void {
    if (this.enabled && !this.suspended && readAt === this.version) this.lru.set(key(ns, dbkey, withContent), value);
  }

  invalidate(ns: number, dbkey: string): void {
    this.version++;
    this.lru.delete(key(ns, dbkey, false));
    this.lru.delete(key(ns, dbkey, true));
  }

  /** Stops caching (and forgets everything) until `resume`. */
  suspend(): void {
    this.suspended = true;
    this.version++;
    this.lru.clear();
  }

  resume(): void {
    this.version++;
    this.lru.clear();
    this.suspended = false;
  }

  get size(): number {
    return this.lru.size;
  }
}

const caches = new WeakMap<Db, PageReadCache>();

/** The page cache of one database handle: every reader and writer of that handle shares it. */
export function pageCacheOf(db: Db, maxBytes = 64 * 1024 * 1024): PageReadCache {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new PageReadCache(maxBytes)));
  return c;
}

/**
 * Every write that changes what a page read returns calls this inside its transaction: the
 * local cache entry is dropped after commit, and other instances (real Postgres) hear about it
 * through NOTIFY, which Postgres delivers only on commit. With embedded PGlite this process owns
 * the database, so no other writer exists and local invalidation is complete.
 */
export async function recordPageChange(db: Db, q: Queryable, ns: number, dbkey: string): Promise<void> {
  if (!db.embedded) await q.query('SELECT pg_notify($1, $2)', [CHANNEL, `${ns}:${dbkey}`]);
  const cache = pageCacheOf(db);
  db.onCommit(() => cache.invalidate(ns, dbkey));
}

/**
 * Listens for other instances' page changes on a dedicated connection. The cache is suspended
 * until the listener is connected and again whenever it drops, so a missed notification can
 * never leave a stale entry behind.
 */
export class PageChangeListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly cache: PageReadCache,
    private readonly log: Logger,
  ) {
    cache.suspend();
  }

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      listenerConnected.set(LISTENER, 0);
      this.cache.suspend();
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.log.warn({ err }, 'page change listener lost; page cache suspended');
      this.retryTimer = setTimeout(() => void this.start(), 1000);
      this.retryTimer.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (n) => {
      const m = /^(-?\d+):(.*)$/.exec(n.payload ?? '');
      if (m) this.cache.invalidate(Number(m[1]), m[2]!);
      else this.cache.resume(); // unknown payload: forget everything rather than guess
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.client = client;
      listenerConnected.set(LISTENER, 1);
      this.cache.resume();
    } catch (err) {
      this.client = client;
      lost(err as Error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }
}
