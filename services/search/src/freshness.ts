/*
 * Read-your-writes for queries. MediaWiki updates its search index within the request that saved
 * the page (SearchUpdate, a deferred update) and completes titles from the page table, so a search
 * sent right after an edit, a deletion or a move already sees it. This index follows content's
 * change feed asynchronously, so before a query runs it waits, briefly and boundedly, until the
 * index has applied every change committed before the query began (the feed's head then).
 *
 * It does not wait when waiting cannot help or would be long: no indexer holds the lease, content
 * does not answer, or the backlog is a rebuild rather than the last few writes. The query is then
 * answered from the index as it is, as before.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface FreshnessSources {
  /** The last change-feed position the index has applied (search.feed_cursor). */
  indexedThrough(): Promise<number>;
  /** The feed's latest committed position (content's GetChangeFeedStatus). */
  feedHead(after: number): Promise<number>;
  /** Whether an indexer is running (holds the lease): without one the index cannot move. */
  indexerActive(): Promise<boolean>;
}

export interface FreshnessLimits {
  /** Longest a query waits for the index. */
  maxWaitMs: number;
  /** How often the cursor is read while waiting. */
  pollMs: number;
  /** A backlog larger than this is a rebuild, not recent writes: queries do not wait for it. */
  maxBacklog: number;
}

/** The change feed is polled by content every 200 ms; a few polls cover the last writes. */
export const DEFAULT_FRESHNESS_LIMITS: FreshnessLimits = { maxWaitMs: 3_000, pollMs: 20, maxBacklog: 2_000 };

export class IndexFreshness {
  constructor(
    private readonly sources: FreshnessSources,
    private readonly limits: FreshnessLimits = DEFAULT_FRESHNESS_LIMITS,
  ) {}

  /** The check under way, and the one that starts after it (shared by the calls made meanwhile). */
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  /**
   * Resolves once the index includes every change committed before the call, or when waiting is
   * pointless or too long. Concurrent queries share a check (each costs two queries on the one
   * embedded connection and a call to content), but only one that begins after they did: a check
   * already under way may have read the feed's head before their writes.
   */
  caughtUp(): Promise<void> {
    if (!this.current) {
      this.current = this.check().finally(() => {
        this.current = undefined;
      });
      return this.current;
    }
    this.next ??= this.current
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.caughtUp();
      });
    return this.next;
  }

  private async check(): Promise<void> {
    let through = await this.sources.indexedThrough();
    let head: number;
    try {
      head = await this.sources.feedHead(through);
    } catch {
      return; // content unreachable: the index is as fresh as it can be now
    }
    if (head <= through || head - through > this.limits.maxBacklog || !(await this.sources.indexerActive())) return;
    const deadline = Date.now() + this.limits.maxWaitMs;
    while (through < head && Date.now() < deadline) {
      await sleep(this.limits.pollMs);
      through = await this.sources.indexedThrough();
    }
  }
}
