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
  /** Asks the indexer to apply what waits now instead of after its pause between batches. */
  hurry?(): void;
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

/**
 * A read shared by concurrent callers, but only one that began after a caller did: a read already
 * under way may have looked before the caller's writes.
 */
function sharedAfterCall<T>(read: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const call = (): Promise<T> => {
    if (!current) {
      current = read().finally(() => {
        current = undefined;
      });
      return current;
    }
    next ??= current
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return call();
      });
    return next;
  };
  return call;
}

export class IndexFreshness {
  /** The highest cursor seen: the status call's `after` (content counts the changes past it). */
  private known: number | undefined;

  constructor(
    private readonly sources: FreshnessSources,
    private readonly limits: FreshnessLimits = DEFAULT_FRESHNESS_LIMITS,
  ) {}

  /**
   * Resolves once the index includes every change committed before the call, or when waiting is
   * pointless or too long. Concurrent queries share a check (each costs two queries on the one
   * embedded connection and a call to content), but only one that began after they did.
   */
  readonly caughtUp: () => Promise<void> = sharedAfterCall(async () => {
    const through = await this.sources.indexedThrough();
    this.saw(through);
    let head: number;
    try {
      head = await this.sources.feedHead(through);
    } catch {
      return; // content unreachable: the index is as fresh as it can be now
    }
    await this.waitFor(head, through);
  });

  /**
   * The feed's head read after the call began (shared like caughtUp), undefined when content
   * does not answer. With an engine that reads its cursor with its matches (MatchPage's
   * indexedThrough), a search asks for it while it runs and compares after (`stale`): one call to
   * content and no statement of its own, instead of two statements before the search.
   */
  readonly head: () => Promise<number | undefined> = sharedAfterCall(async () => {
    this.known ??= await this.sources.indexedThrough();
    try {
      return await this.sources.feedHead(this.known);
    } catch {
      return undefined;
    }
  });

  /**
   * Whether a search that read the index at cursor `through` missed changes committed before it
   * began (the feed's `head` then) and waiting can help: it then waits until the index has them
   * (or for maxWaitMs) and answers true, and the search is made again.
   */
  async stale(head: number | undefined, through: number): Promise<boolean> {
    this.saw(through);
    if (head === undefined || head <= through) return false;
    return this.waitFor(head, through);
  }

  private saw(through: number): void {
    if (this.known === undefined || through > this.known) this.known = through;
  }

  /** Waits for the cursor to reach `head` when it can; false when it did not wait. */
  private async waitFor(head: number, through: number): Promise<boolean> {
    if (head <= through || head - through > this.limits.maxBacklog || !(await this.sources.indexerActive())) return false;
    this.sources.hurry?.();
    const deadline = Date.now() + this.limits.maxWaitMs;
    while (through < head && Date.now() < deadline) {
      await sleep(this.limits.pollMs);
      through = await this.sources.indexedThrough();
    }
    this.saw(through);
    return true;
  }
}
