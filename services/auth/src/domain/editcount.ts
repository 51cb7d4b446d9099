/**
 * Edit counts written together (issue 15). MediaWiki increments user_editcount in a deferred
 * update after the edit; here each edit's increment reaches this service as its own call, and a
 * bot editing from ten sessions at once made ten UPDATEs of one row queue on the database. While
 * one UPDATE of a user's count runs, the increments that arrive are added up and written by the
 * next one. Each caller's promise settles when its own increment is committed (or failed).
 */
export class EditCounter {
  private readonly users = new Map<number, { by: number; waiters: { resolve(): void; reject(e: unknown): void }[] }>();

  constructor(private readonly write: (userId: number, by: number) => Promise<void>) {}

  increment(userId: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const queued = this.users.get(userId);
      if (queued) {
        queued.by++;
        queued.waiters.push({ resolve, reject });
        return;
      }
      this.users.set(userId, { by: 0, waiters: [] });
      this.flush(userId, 1, [{ resolve, reject }]);
    });
  }

  /** Writes `by` for `waiters`, then whatever was added meanwhile, until nothing waits. */
  private flush(userId: number, by: number, waiters: { resolve(): void; reject(e: unknown): void }[]): void {
    const next = () => {
      const queued = this.users.get(userId)!;
      if (queued.by === 0) {
        this.users.delete(userId);
        return;
      }
      this.users.set(userId, { by: 0, waiters: [] });
      this.flush(userId, queued.by, queued.waiters);
    };
    this.write(userId, by).then(
      () => {
        for (const w of waiters) w.resolve();
        next();
      },
      (e: unknown) => {
        for (const w of waiters) w.reject(e);
        next();
      },
    );
  }
}
