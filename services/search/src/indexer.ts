/*
 * The indexing role: consumes content's change feed (StreamChanges) from the cursor this service
 * keeps for its engine (search.feed_cursors) and applies each batch idempotently — the pages' current state is
 * fetched (GetPagesForIndex) and upserted, pages that are gone are deleted — then advances the
 * cursor: in the same transaction for the SQL engine, right after for an external engine.
 * Delivery is at least once; a restart resumes from the cursor, so an outage loses nothing.
 *
 * One active indexer: a lease in the key-value store (Redis when configured), taken with
 * setIfAbsent and renewed while held. Batches are also fenced on the cursor (a batch whose last
 * position is not past the stored cursor is dropped), so an indexer that lost its lease while
 * paused cannot move the index backwards.
 */
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientReadableStream } from '@grpc/grpc-js';
import { unary, type Db, type KvStore, type Logger } from '@quire/kit';
import type { FeedServiceClient, IndexPage, PageChange } from '@quire/proto/wiki/content/feed/v1/feed';
import { countWords, type IndexDoc, type SearchBackend } from './backend.js';
import { advanceCursor, lockCursor, readCursorState, setCursor } from './store/cursor.js';

export { readCursor } from './store/cursor.js';

export const LEASE_KEY = 'indexer-lease';

/** How long a lease outlives its holder's last renewal, and how often the holder renews it. */
export interface LeaseTiming {
  ttlSeconds: number;
  renewMs: number;
}
const DEFAULT_LEASE: LeaseTiming = { ttlSeconds: 15, renewMs: 5_000 };
/** Changes applied per transaction. */
const BATCH = 500;
/**
 * After a batch, the next waits twice as long as this one took, collecting the changes meanwhile:
 * the indexer takes at most a third of the database's time. A page edited again and again is
 * indexed once per batch (a growing page's index row and postings cost tens of milliseconds on
 * the embedded database), so under a stream of edits batching bounds the cost, and when writes
 * are few a batch takes milliseconds and the delay is nothing (concurrent edits).
 */
const PAUSE_PER_BATCH_MS = 2;
/** Longest pause between batches, whatever the last one took. */
const MAX_PAUSE_MS = 2_000;
/**
 * Shortest pause between batches. A batch of one edit still costs the database several statements
 * (the cursor, the index row, the postings): a bot saving pages back to back had the indexer
 * taking its turn on the one embedded connection after nearly every save, and every save behind
 * it waited. A query waiting for the index to catch up (freshness.ts) ends the pause
 * (hurry()); the first change after a quiet spell is indexed at once.
 */
const MIN_PAUSE_MS = 250;
/** Pages per GetPagesForIndex call (the content service's own cap is 1000). */
export const FETCH_CHUNK = 200;
const RETRY_MS = 1_000;

/** A page from GetPagesForIndex as the engines index it (also the rebuild's). */
export function docOf(p: IndexPage): IndexDoc {
  return {
    pageId: p.pageId,
    namespace: p.namespace,
    title: p.title,
    titleText: p.dbkey.replace(/_/g, ' '),
    isRedirect: p.isRedirect,
    redirectTitle: p.redirectTitle,
    size: p.size,
    wordCount: countWords(p.text),
    text: p.text,
    touched: new Date(p.touched),
    created: new Date(p.created),
  };
}

export class FeedIndexer {
  private readonly id = crypto.randomBytes(8).toString('hex');
  private running = false;
  private loop: Promise<void> | undefined;
  private stream: ClientReadableStream<PageChange> | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private holding = false;
  /** Ends the pause between batches (hurry()); set while the indexer pauses. */
  private endPause: (() => void) | undefined;
  private hurried = false;

  constructor(
    private readonly db: Db,
    private readonly backend: SearchBackend,
    private readonly content: FeedServiceClient,
    private readonly kv: KvStore,
    private readonly log: Logger,
    private readonly lease: LeaseTiming = DEFAULT_LEASE,
  ) {}

  /** A query waits for the index: the next batch starts now rather than after the pause. */
  hurry(): void {
    this.hurried = true;
    this.endPause?.();
  }

  /** Whether this instance holds the lease (follows the feed) right now. */
  get active(): boolean {
    return this.holding;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.endPause?.();
    this.stream?.cancel();
    await this.loop;
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.holding && (await this.kv.get(LEASE_KEY)) === this.id) await this.kv.del(LEASE_KEY);
    this.holding = false;
  }

  private async acquireLease(): Promise<boolean> {
    if (this.holding) return true;
    if (!(await this.kv.setIfAbsent(LEASE_KEY, this.id, this.lease.ttlSeconds))) return false;
    this.holding = true;
    this.log.info('indexer lease acquired');
    this.renewTimer = setInterval(() => {
      void (async () => {
        // Renew only our own lease; one that expired and was taken by another stays theirs.
        if ((await this.kv.get(LEASE_KEY)) === this.id) await this.kv.set(LEASE_KEY, this.id, this.lease.ttlSeconds);
        else this.loseLease();
      })().catch((err: unknown) => this.log.warn({ err }, 'indexer lease renewal failed'));
    }, this.lease.renewMs);
    this.renewTimer.unref();
    return true;
  }

  private loseLease(): void {
    if (!this.holding) return;
    this.log.warn('indexer lease lost');
    this.holding = false;
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.stream?.cancel();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        if (!(await this.acquireLease())) {
          await sleep(RETRY_MS);
          continue;
        }
        await this.consume();
      } catch (err) {
        if (!this.running) break;
        this.log.warn({ err }, 'change feed consumer failed; retrying');
        await sleep(RETRY_MS);
      }
    }
  }

  /** One StreamChanges call: reads changes in batches until the stream ends or is cancelled. */
  private async consume(): Promise<void> {
    const { position: from, generation } = await readCursorState(this.db, this.backend.engine);
    const stream = this.content.streamChanges({ fromPosition: from, maxBatch: BATCH, maxWaitMs: 30_000 });
    this.stream = stream;
    const pending: PageChange[] = [];
    let ended = false;
    let failure: unknown;
    let wake: (() => void) | undefined;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    stream.on('data', (c: PageChange) => {
      pending.push(c);
      if (pending.length >= 4 * BATCH) stream.pause();
      notify();
    });
    stream.on('end', () => {
      ended = true;
      notify();
    });
    stream.on('error', (err: Error & { code?: number }) => {
      ended = true;
      // CANCELLED (1) is our own stop or a lost lease.
      if (err.code !== 1) failure = err;
      notify();
    });
    /** When the next batch may start (performance.now()). */
    let notBefore = 0;
    try {
      while (this.running && this.holding) {
        if (pending.length === 0) {
          if (ended) break;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        const wait = notBefore - performance.now();
        if (wait > 0 && !this.hurried) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, wait);
            this.endPause = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.endPause = undefined;
          continue;
        }
        this.hurried = false;
        const batch = pending.splice(0, BATCH);
        if (stream.isPaused() && pending.length < BATCH) stream.resume();
        const started = performance.now();
        if (!(await this.applyBatch(batch, generation))) break;
        const done = performance.now();
        notBefore = done + Math.max(MIN_PAUSE_MS, Math.min(MAX_PAUSE_MS, PAUSE_PER_BATCH_MS * (done - started)));
      }
    } finally {
      stream.cancel();
      this.stream = undefined;
    }
    if (failure) throw failure;
  }

  /** False when the stream must start again from the stored cursor (a rebuild reset it). */
  private async applyBatch(changes: PageChange[], generation: number): Promise<boolean> {
    const last = Math.max(...changes.map((c) => c.position));
    const ids = [...new Set(changes.map((c) => c.pageId))];
    // Fetched after the changes were read, so the state reflects at least every change <= last.
    const pages: IndexPage[] = [];
    for (let i = 0; i < ids.length; i += FETCH_CHUNK) {
      const r = await unary(this.content, this.content.getPagesForIndex, { pageIds: ids.slice(i, i + FETCH_CHUNK) }, { deadlineMs: 30_000 });
      pages.push(...r.pages);
    }
    const found = new Set(pages.map((p) => p.pageId));
    const upserts = pages.map(docOf);
    const deletes = ids.filter((id) => !found.has(id));
    const s = this.db.schema;
    const engine = this.backend.engine;
    // A rebuild that swapped its index in since this stream started set the cursor back to where
    // it read the feed: the stream must start again from there (not skip what lies between).
    const rebuilt = () => {
      this.log.info('index rebuilt under the indexer; resuming from its cursor');
      return false;
    };
    if (this.backend.transactional) {
      const ok = await this.db.tx(async (q) => {
        // The row lock also orders this batch against a rebuild's swap (rebuild.ts).
        const cursor = await lockCursor(q, s, engine);
        if (cursor.generation !== generation) return false;
        if (cursor.position >= last) return true; // applied already (by a previous lease holder)
        await this.backend.apply(upserts, deletes);
        await setCursor(q, s, engine, last);
        return true;
      });
      if (!ok) return rebuilt();
    } else {
      const cursor = await readCursorState(this.db, engine);
      if (cursor.generation !== generation) return rebuilt();
      if (cursor.position >= last) return true;
      await this.backend.apply(upserts, deletes);
      if (!(await advanceCursor(this.db, engine, last, generation))) return rebuilt();
    }
    this.log.debug({ through: last, upserts: upserts.length, deletes: deletes.length }, 'index batch applied');
    return true;
  }
}
