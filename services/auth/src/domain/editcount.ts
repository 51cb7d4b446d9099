/**
 * Edit counts written together. MediaWiki increments user_editcount in a deferred
 * update after the edit, a counter it documents as approximate; here each edit's increment
 * reaches this service as its own call, and every one was an UPDATE on the one embedded
 * connection, which the next edit's statements queued behind. The increments of a user are
 * collected for `delayMs` (and while the previous write of the user's row runs) and written as one
 * UPDATE. Each caller's promise settles when its own increment is committed (or failed); `flush()`
 * writes what is collected at once (before the service reads edit counts, and when it stops). What
 * a crash takes is at most the last `delayMs` of increments, as a fatal error loses MediaWiki's
 * pending deferred updates; another replica reading a count may miss the last `delayMs` of them.
 */
interface Batch {
  by: number;
  waiters: { resolve(): void; reject(e: unknown): void }[];
}

export class EditCounter {
  /** Batches still collecting, by user. */
  private readonly collecting = new Map<number, Batch>();
  /** The write in flight, by user: the next batch of the user waits for it. */
  private readonly writing = new Map<number, Promise<void>>();
  /** Batches waiting for their delay, and how to start them now. */
  private readonly delayed = new Map<Batch, { timer: NodeJS.Timeout; start(): void }>();

  constructor(
    private readonly write: (userId: number, by: number) => Promise<void>,
    private readonly delayMs = 0,
  ) {}

  increment(userId: number, by = 1): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let batch = this.collecting.get(userId);
      if (!batch) {
        batch = { by: 0, waiters: [] };
        this.collecting.set(userId, batch);
        this.schedule(userId, batch);
      }
      batch.by += by;
      batch.waiters.push({ resolve, reject });
    });
  }

  /** Writes every collected batch now; resolves when all writes are done. */
  async flush(): Promise<void> {
    for (const [batch, d] of [...this.delayed]) {
      clearTimeout(d.timer);
      this.delayed.delete(batch);
      d.start();
    }
    await Promise.allSettled([...this.writing.values()]);
  }

  private schedule(userId: number, batch: Batch): void {
    const start = () => {
      // One write of a user's row at a time; the batch keeps collecting until its own begins.
      const p = (this.writing.get(userId) ?? Promise.resolve()).then(async () => {
        if (this.collecting.get(userId) === batch) this.collecting.delete(userId);
        try {
          await this.write(userId, batch.by);
          for (const w of batch.waiters) w.resolve();
        } catch (e) {
          for (const w of batch.waiters) w.reject(e);
        }
      });
      this.writing.set(userId, p);
      void p.finally(() => {
        if (this.writing.get(userId) === p) this.writing.delete(userId);
      });
    };
    if (this.delayMs <= 0) {
      start();
      return;
    }
    const timer = setTimeout(() => {
      this.delayed.delete(batch);
      start();
    }, this.delayMs);
    this.delayed.set(batch, { timer, start });
  }
}
