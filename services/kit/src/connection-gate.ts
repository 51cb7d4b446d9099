/*
 * The embedded database's one connection, shared by statements at once. PGlite is one
 * backend, so `pg` reaches it through exactly one connection; with a pool of one, every statement
 * waited for the previous one's answer to reach the services' thread before it was sent, and the
 * database's thread sat idle for that round trip (on the 100,000-page search load: 0.6 ms idle
 * per 1 ms statement, the database's thread under half busy while ten searches waited).
 *
 * `pg` in pipeline mode writes each statement as it is asked (each with its own Sync, so a failing
 * one fails alone) and matches the answers in order. Statements outside a transaction share the
 * connection so; a transaction has it alone: it waits for the shared statements sent before it
 * to be answered, and the statements asked after it wait for its end (first come, first served,
 * so neither starves the other).
 */

export interface GateClient {
  on(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
}

interface Waiter {
  exclusive: boolean;
  go: () => void;
}

export class ConnectionGate<C extends GateClient> {
  private held: C | undefined;
  private connecting: Promise<C> | undefined;
  /** An error the held client reported (the connection is lost): it is released with it. */
  private lost: Error | undefined;
  private readonly onError = (err: Error) => {
    this.lost = err;
  };
  private shared = 0;
  private exclusive = false;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly acquire: () => Promise<C>,
    private readonly release: (client: C, err?: Error) => void,
  ) {}

  /** Runs `fn` with the connection, beside other shared statements. */
  withShared<T>(fn: (client: C) => Promise<T>): Promise<T> {
    return this.run(false, fn);
  }

  /** Runs `fn` with the connection alone (a transaction). */
  withExclusive<T>(fn: (client: C) => Promise<T>): Promise<T> {
    return this.run(true, fn);
  }

  private async run<T>(exclusive: boolean, fn: (client: C) => Promise<T>): Promise<T> {
    await this.admit(exclusive);
    try {
      return await fn(await this.client());
    } finally {
      if (exclusive) this.exclusive = false;
      else this.shared--;
      this.pump();
    }
  }

  private canStart(exclusive: boolean): boolean {
    return exclusive ? !this.exclusive && this.shared === 0 : !this.exclusive;
  }

  private start(exclusive: boolean): void {
    if (exclusive) this.exclusive = true;
    else this.shared++;
  }

  private admit(exclusive: boolean): Promise<void> {
    if (this.waiting.length === 0 && this.canStart(exclusive)) {
      this.start(exclusive);
      return Promise.resolve();
    }
    return new Promise((go) => this.waiting.push({ exclusive, go }));
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.canStart(this.waiting[0]!.exclusive)) {
      const next = this.waiting.shift()!;
      this.start(next.exclusive);
      next.go();
    }
    // Idle: the connection goes back to the pool, which replaces it when it was lost.
    if (this.shared === 0 && !this.exclusive && this.held) {
      const client = this.held;
      const lost = this.lost;
      this.held = undefined;
      this.lost = undefined;
      client.off('error', this.onError);
      this.release(client, lost);
    }
  }

  private async client(): Promise<C> {
    // A lost connection is kept until the statements on it have failed: the pool has one.
    if (this.held) return this.held;
    this.connecting ??= this.acquire().then(
      (c) => {
        this.connecting = undefined;
        c.on('error', this.onError);
        this.held = c;
        return c;
      },
      (err: unknown) => {
        this.connecting = undefined;
        throw err;
      },
    );
    return this.connecting;
  }
}
