/*
 * Delivers the log outbox (store/logoutbox.ts) to the content service's log: RecordLogEntries
 * with each row's stable origin "auth:<id>", in id order, in batches. A row is marked delivered
 * only after the call succeeded; content skips an origin it already recorded, so a batch sent
 * twice (a crash between the call and the mark, a lease that lapsed) still records each entry
 * once — at-least-once delivery, exactly-once effect.
 *
 * When: every POLL_MS, and at once after a local commit appended a row (nudge). While content is
 * unavailable the relay backs off (doubling up to MAX_BACKOFF_MS) and the outbox keeps the backlog;
 * its channel reconnects with the same cap (CONTENT_CHANNEL_OPTIONS), so the backlog follows
 * within seconds of content's return instead of gRPC's default reconnect backoff (up to 2 minutes).
 *
 * One relay delivers at a time across replicas: a lease in the key-value store (Redis when
 * configured; replicas share it as they share sessions), taken with setIfAbsent and a TTL, renewed
 * while held and released on stop. It is not taken with `SELECT … FOR UPDATE SKIP LOCKED`: that
 * would hold a transaction — on the embedded database its only connection, which every request
 * needs — open across the call to content, and two replicas would deliver different rows
 * concurrently, out of order. A lease that lapses (a paused holder) can at worst let two relays
 * send the same rows, which content's origin key makes harmless.
 */
import crypto from 'node:crypto';
import { Metadata, type ClientUnaryCall } from '@grpc/grpc-js';
import { ServiceError, type KvStore, type Logger } from '@quire/kit';
import type { ExternalLogEntry, RecordLogEntriesResponse, LogServiceClient } from '@quire/proto/wiki/content/logs/v1/logs';
import { iso } from '../store/users.js';
import { originOf, type LogOutbox, type OutboxRow } from '../store/logoutbox.js';

export const LEASE_KEY = 'log-relay-lease';
const LEASE_TTL_S = 10;
const LEASE_RENEW_MS = 3_000;
export const POLL_MS = 500;
const MAX_BACKOFF_MS = 2_000;
/** grpc-js channel arguments of the relay's content client: reconnect at least every MAX_BACKOFF_MS. */
export const CONTENT_CHANNEL_OPTIONS = { 'grpc.initial_reconnect_backoff_ms': 500, 'grpc.max_reconnect_backoff_ms': MAX_BACKOFF_MS };
const BATCH = 100;
const CALL_DEADLINE_MS = 10_000;
/** Delivered rows are kept this long (for inspection), then pruned, at most once an hour. */
const KEEP_DELIVERED_DAYS = 7;
const PRUNE_EVERY_MS = 3_600_000;

function entryOf(row: OutboxRow): ExternalLogEntry {
  return {
    origin: originOf(row.id),
    type: row.log_type,
    action: row.log_action,
    timestamp: iso(row.created_at),
    userId: row.performer_id,
    userName: row.performer_name,
    ns: row.target_ns,
    dbkey: row.target_dbkey,
    comment: row.comment,
    paramsJson: JSON.stringify(row.params),
    bot: row.bot,
    logOnly: !row.publish,
    tags: row.tags,
  };
}

export class LogRelay {
  private readonly id = crypto.randomBytes(8).toString('hex');
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private nudged = false;
  private call: ClientUnaryCall | undefined;
  private leaseRenewedAt = 0;
  private lastPrune = 0;
  private failing = false;
  private unsubscribe: (() => void) | undefined;
  private client: LogServiceClient | undefined;

  /** `connect` opens the content service's client, when the relay first has something to send. */
  constructor(
    private readonly outbox: LogOutbox,
    private readonly connect: () => LogServiceClient,
    private readonly kv: KvStore,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.outbox.onAppended(() => this.nudge());
    this.loop = this.run();
  }

  /** Delivers soon (a row was just committed) unless the relay is backing off. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Stops polling, cancels a call in flight (its rows stay pending) and releases the lease. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.call?.cancel();
    this.wake?.();
    await this.loop;
    this.client?.close();
    this.client = undefined;
    if (this.leaseRenewedAt && (await this.kv.get(LEASE_KEY).catch(() => null)) === this.id) await this.kv.del(LEASE_KEY).catch(() => undefined);
    this.leaseRenewedAt = 0;
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      let full = false;
      try {
        if (await this.holdLease()) {
          full = (await this.deliverBatch()) === BATCH;
          if (this.failing) this.log.info('log relay: content reachable again, delivering the backlog');
          this.failing = false;
          backoff = 0;
          await this.maybePrune();
        }
      } catch (err) {
        if (!this.running) break;
        backoff = backoff ? Math.min(backoff * 2, MAX_BACKOFF_MS) : POLL_MS;
        // Once per outage at warn level: the outbox keeps every entry meanwhile.
        if (!this.failing) this.log.warn({ err }, 'log relay: delivery failed (content or the token store unavailable); retrying with backoff');
        else this.log.debug({ err, backoffMs: backoff }, 'log relay: delivery still failing');
        this.failing = true;
      }
      if (full && backoff === 0) continue;
      await this.sleep(backoff || POLL_MS, backoff === 0);
    }
  }

  /** Waits `ms`, or less when nudged (only if `wakeOnNudge`) or stopped. */
  private sleep(ms: number, wakeOnNudge: boolean): Promise<void> {
    if (wakeOnNudge && this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.nudged = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wake = () => {
        if (wakeOnNudge || !this.running) done();
      };
    });
  }

  private async holdLease(): Promise<boolean> {
    const now = Date.now();
    if (this.leaseRenewedAt && now - this.leaseRenewedAt < LEASE_RENEW_MS) return true;
    if (this.leaseRenewedAt) {
      // Renew only our own lease; one that lapsed and was taken by another replica stays theirs.
      if ((await this.kv.get(LEASE_KEY)) === this.id) {
        await this.kv.set(LEASE_KEY, this.id, LEASE_TTL_S);
        this.leaseRenewedAt = now;
        return true;
      }
      this.log.warn('log relay: lease lost to another replica');
      this.leaseRenewedAt = 0;
    }
    if (!(await this.kv.setIfAbsent(LEASE_KEY, this.id, LEASE_TTL_S))) return false;
    this.leaseRenewedAt = now;
    this.log.debug('log relay: lease acquired');
    return true;
  }

  /** Sends the oldest pending rows; returns how many were delivered. */
  private async deliverBatch(): Promise<number> {
    const rows = await this.outbox.pending(BATCH);
    if (rows.length === 0) return 0;
    const r = await this.record(rows.map(entryOf));
    await this.outbox.markDelivered(rows.map((row) => row.id));
    this.log.debug({ sent: rows.length, recorded: r.recorded, through: rows[rows.length - 1]!.id }, 'log relay: batch delivered');
    return rows.length;
  }

  /** RecordLogEntries, cancellable by stop(). */
  private record(entries: ExternalLogEntry[]): Promise<RecordLogEntriesResponse> {
    this.client ??= this.connect();
    const client = this.client;
    return new Promise((resolve, reject) => {
      this.call = client.recordLogEntries({ entries }, new Metadata(), { deadline: new Date(Date.now() + CALL_DEADLINE_MS) }, (err, res) => {
        this.call = undefined;
        if (err) reject(ServiceError.fromGrpc(err));
        else resolve(res);
      });
    });
  }

  private async maybePrune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const pruned = await this.outbox.prune(KEEP_DELIVERED_DAYS);
    if (pruned) this.log.debug({ pruned }, 'log relay: delivered rows pruned');
  }
}
