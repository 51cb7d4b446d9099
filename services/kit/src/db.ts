import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { GrpcStatus, ServiceError } from './errors.js';
import type { Logger } from './log.js';
import { ConnectionGate } from './connection-gate.js';
import { takeEmbeddedThread } from './embedded-thread.js';
import { dbPoolConnections, dbQueryErrors, dbQuerySeconds, onScrape } from './metrics.js';
import { SpanKind, tracingEnabled, withSpan } from './tracing.js';

// Ids and counters are int8 in SQL; they stay below 2^53, so read them as numbers in both modes.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<R>>;
}

/**
 * A service's database: `pg` is the only SQL API. With DATABASE_URL it is a pool on the real
 * server; without it, the embedded PGlite of this process, reached through `pg` over a Unix socket.
 * Inside `tx`, `query` on the Db itself joins the open transaction (AsyncLocalStorage), so a
 * helper that takes a Db can never deadlock the single embedded connection.
 */
export interface Db extends Queryable {
  readonly schema: string;
  readonly embedded: boolean;
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` after the enclosing transaction commits (never if it rolls back), or at once outside
   * a transaction. For side effects that must not be seen before the data is (cache invalidation).
   */
  onCommit(fn: () => void): void;
  /** Whether the caller runs inside `tx` (its queries hold the transaction's connection). */
  inTransaction(): boolean;
  /**
   * A count of the writes this process committed, when it is the database's only writer (the
   * embedded database: one owner process): a read's result stays true while the count has not
   * moved. Undefined on a server, where other processes write.
   */
  writeGeneration(): number | undefined;
  close(): Promise<void>;
}

interface PoolHandle {
  pool: pg.Pool;
  /** Embedded only: bumped by every committed transaction and every statement outside one but a SELECT. */
  writes?: { generation: number };
  /** Embedded only: its one connection shared by statements, alone for a transaction. */
  gate?: ConnectionGate<pg.PoolClient>;
  embedded: boolean;
  refs: number;
  /** Embedded only: registers a statement with the watchdog; the result marks it answered. */
  track?: (text: string) => () => void;
  close: () => Promise<void>;
  /** Removes the pool's metrics refresher. */
  stopGauge?: () => void;
}

/*
 * Parameterized statements are prepared once per connection under a name derived from their
 * text, so Postgres plans them once instead of on every call (planning dominates small lookups,
 * especially in PGlite). The SQL texts are the code's own, so the set is small; past the cap,
 * statements run unnamed.
 */
const MAX_NAMED_STATEMENTS = 2000;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS && text.length < 16_384) {
    name = `q_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * PostgreSQL text cannot hold U+0000: a parameter with it is refused ("invalid byte sequence"),
 * and PGlite's socket server even drops the connection. It becomes U+FFFD, the replacement
 * character MediaWiki's UtfNormal uses for what it cannot keep; no stored text contains U+0000,
 * so a lookup finds the same (nothing) either way.
 */
function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '\ufffd') : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  return value;
}

interface OpenTx {
  client: pg.PoolClient;
  afterCommit: (() => void)[];
}

const openTx = new AsyncLocalStorage<OpenTx>();
const pools = new Map<string, Promise<PoolHandle>>();

/**
 * A lost or refused connection to the database (a server restarting, the embedded database's
 * thread being opened again by its watchdog): the wiki is briefly unavailable. It becomes a
 * ServiceError UNAVAILABLE here, once, for every service (503 with Retry-After at the gateway),
 * not an internal error; every other error passes unchanged.
 */
function connectionLost(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ECONNREFUSED' || code === 'ENOENT' || code === 'ECONNRESET' || code === '57P01' || code === '57P03' || /^Connection terminated/.test(err.message);
}

function asUnavailable(err: unknown, log: Logger): unknown {
  if (!connectionLost(err)) return err;
  log.warn({ err }, 'database unavailable');
  return new ServiceError(GrpcStatus.UNAVAILABLE, 'serviceunavailable', 'The database is temporarily unavailable.');
}

/** Embedded PGlite, owned by this process, on its own thread (embedded-thread.ts), served to `pg` on a Unix socket in the data folder. */
async function openEmbedded(dataDir: string, log: Logger): Promise<PoolHandle> {
  const { thread, sockDir, release, started } = await takeEmbeddedThread(dataDir, log);
  // Pipeline mode: statements asked at once are written at once (connection-gate.ts).
  const pool = new pg.Pool({ host: sockDir, port: 5432, user: 'postgres', database: 'postgres', max: 1, idleTimeoutMillis: 0, pipeline: true });
  pool.on('error', (err) => log.error({ err }, 'embedded pool error'));
  // PGlite is one backend whose session outlives a dropped socket connection: a new client must
  // not inherit its open transaction or its prepared statements (the client would prepare them
  // again and fail with "prepared statement already exists" from then on). pg runs this first;
  // ROLLBACK outside a transaction is only a warning. Notices are not sent: nothing reads them,
  // and the 100k fuzz run stalled the embedded database inside the NOTICE of to_tsquery() on a
  // query with no lexemes (planning a prepared search, never returning).
  pool.on('connect', (client) => {
    client.query('ROLLBACK; DEALLOCATE ALL; SET client_min_messages = warning').catch((err: unknown) => log.error({ err }, 'could not reset the embedded session'));
  });
  log.info({ dataDir, ms: Date.now() - started }, 'embedded PGlite ready');
  return {
    pool,
    writes: { generation: 0 },
    gate: new ConnectionGate(
      () => pool.connect(),
      (client, err) => client.release(err),
    ),
    embedded: true,
    refs: 0,
    track: (text) => thread.track(text),
    close: async () => {
      await pool.end();
      await thread.stop();
      release();
    },
  };
}

/**
 * Drops the cluster's template databases (template0, template1: CREATE DATABASE's templates),
 * those there are: the embedded template cluster holds only the wiki's database (pglite-template.ts).
 */
export async function dropTemplateDatabases(db: Queryable): Promise<void> {
  const templates = await db.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname IN ('template0', 'template1')`);
  for (const { datname } of templates.rows) {
    await db.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
    await db.query(`DROP DATABASE ${datname}`);
  }
}

/** Whether the database answers (readiness): a trivial statement, within `timeoutMs`. */
export async function pingDb(db: Queryable, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.query('SELECT 1'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the database did not answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A statement's kind for metrics and span names: its first keyword (SELECT, INSERT, WITH…). */
function statementKind(text: string): string {
  const m = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(text);
  const kw = m?.[1]?.toUpperCase();
  return kw && ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'WITH', 'BEGIN', 'COMMIT', 'ROLLBACK', 'CREATE', 'ALTER', 'DROP', 'LOCK', 'NOTIFY', 'LISTEN', 'SET', 'TRUNCATE'].includes(kw) ? kw : 'OTHER';
}

/** A pool's label: host and database of its URL, never its credentials. */
function poolName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return 'postgres';
  }
}

export interface OpenDbOptions {
  /** Postgres URL; unset -> embedded PGlite in dataDir. */
  url?: string;
  dataDir: string;
  /** The service's schema; every table of the service lives in it. */
  schema: string;
  /** Folder of forward-only NNN_name.sql migrations, applied in order at start. */
  migrationsDir?: string;
  log: Logger;
  poolSize?: number;
}

export async function openDb(opts: OpenDbOptions): Promise<Db> {
  const key = opts.url ?? `embedded:${path.resolve(opts.dataDir)}`;
  let handleP = pools.get(key);
  if (!handleP) {
    handleP = opts.url
      ? Promise.resolve<PoolHandle>({
          pool: new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 }),
          embedded: false,
          refs: 0,
          close: async () => undefined,
        }).then((h) => {
          h.close = () => h.pool.end();
          h.pool.on('error', (err) => opts.log.error({ err }, 'pool error'));
          return h;
        })
      : openEmbedded(opts.dataDir, opts.log);
    pools.set(key, handleP);
    handleP.catch(() => pools.delete(key));
  }
  const handle = await handleP;
  handle.refs++;
  const { pool } = handle;
  // The pool's use, read when scraped: one refresher per pool (the services of `npm start` share
  // one), registered by its first Db, so that it reads the pool before other refreshers query.
  if (handle.refs === 1) {
    const poolLabel = opts.url ? poolName(opts.url) : 'embedded';
    const stop = onScrape(() => {
      dbPoolConnections.set({ pool: poolLabel, state: 'total' }, pool.totalCount);
      dbPoolConnections.set({ pool: poolLabel, state: 'idle' }, pool.idleCount);
      dbPoolConnections.set({ pool: poolLabel, state: 'waiting' }, pool.waitingCount);
    });
    // A closed pool's series go (a process may open another: tests, a restarted stack).
    handle.stopGauge = () => {
      stop();
      for (const state of ['total', 'idle', 'waiting']) dbPoolConnections.remove({ pool: poolLabel, state });
    };
  }

  const run = async <R>(text: string, params?: unknown[]): Promise<QueryResult<R>> => {
    const inTx = openTx.getStore()?.client;
    if (params) params = params.map(withoutNul);
    const name = params && params.length > 0 ? statementName(text) : undefined;
    const op = statementKind(text);
    const started = performance.now();
    const answered = handle.track?.(text);
    const send = (target: pg.Pool | pg.PoolClient) => (name ? target.query({ name, text, values: params }) : target.query(text, params as unknown[]));
    try {
      // A write outside a transaction counts once sent: it may be visible before its answer.
      if (!inTx && handle.writes && op !== 'SELECT') handle.writes.generation++;
      const r = await (inTx ? send(inTx) : handle.gate ? handle.gate.withShared(send) : send(pool));
      return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
    } catch (e) {
      dbQueryErrors.inc({ schema: opts.schema });
      throw asUnavailable(e, opts.log);
    } finally {
      answered?.();
      dbQuerySeconds.observe({ schema: opts.schema, op }, (performance.now() - started) / 1000);
    }
  };
  // With tracing on, each statement is a span (PGlite is reached through pg, but no pg
  // instrumentation is loaded: see tracing.ts). The text is the code's own, never a value.
  const query = <R>(text: string, params?: unknown[]): Promise<QueryResult<R>> =>
    tracingEnabled()
      ? withSpan(`${statementKind(text)} ${opts.schema}`, { kind: SpanKind.CLIENT, attributes: { 'db.system': 'postgresql', 'db.namespace': opts.schema, 'db.query.text': text.slice(0, 2000) } }, () =>
          run<R>(text, params),
        )
      : run<R>(text, params);

  /** A transaction's connection, alone: the embedded one through its gate, or a client of the pool. */
  const exclusively = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    if (handle.gate) return handle.gate.withExclusive(fn);
    const client = await pool.connect();
    // A connection lost while checked out (the server went away) emits 'error' on the client,
    // which pg's pool only listens for while it is idle: unheard, it would end the process. It
    // is noted and the client is destroyed on release. (The gate does the same.)
    let lost: Error | undefined;
    const onLost = (err: Error) => {
      lost = err;
    };
    client.on('error', onLost);
    try {
      return await fn(client);
    } finally {
      client.off('error', onLost);
      client.release(lost);
    }
  };

  let closed = false;
  const db: Db = {
    schema: opts.schema,
    embedded: handle.embedded,
    query,
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      if (openTx.getStore()) return fn(db); // nested: join the open transaction
      try {
        return await exclusively(async (client) => {
          const tx: OpenTx = { client, afterCommit: [] };
          try {
            await client.query('BEGIN');
            const result = await openTx.run(tx, () => fn(db));
            if (handle.writes) handle.writes.generation++;
            await client.query('COMMIT');
            for (const cb of tx.afterCommit) cb();
            return result;
          } catch (e) {
            await client.query('ROLLBACK').catch(() => undefined);
            throw e;
          }
        });
      } catch (e) {
        throw asUnavailable(e, opts.log);
      }
    },
    inTransaction() {
      return openTx.getStore() !== undefined;
    },
    writeGeneration() {
      return handle.writes?.generation;
    },
    onCommit(fn: () => void) {
      const tx = openTx.getStore();
      if (tx) tx.afterCommit.push(fn);
      else fn();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (--handle.refs === 0) {
        handle.stopGauge?.();
        pools.delete(key);
        await handle.close();
      }
    },
  };
  await migrate(db, opts.schema, opts.migrationsDir, opts.log);
  return db;
}

/**
 * Applies forward-only migrations from a folder: files named NNN_description.sql, each run once,
 * in one transaction with its bookkeeping row. `${schema}` in a file is the service's schema.
 */
export async function migrate(db: Db, schema: string, dir: string | undefined, log: Logger): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  await db.tx(async (q) => {
    // Serialize concurrent starters of the same service on a real server.
    await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`quire-migrate-${schema}`]);
    await q.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await q.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    if (!dir) return;
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d+_.+\.sql$/.test(f))
      .sort();
    const done = new Set((await q.query<{ version: string }>(`SELECT version FROM ${schema}.schema_migrations`)).rows.map((r) => r.version));
    for (const f of files) {
      if (done.has(f)) continue;
      const sql = fs.readFileSync(path.join(dir, f), 'utf8').replaceAll('${schema}', schema);
      await q.query(sql);
      await q.query(`INSERT INTO ${schema}.schema_migrations(version) VALUES ($1)`, [f]);
      log.info({ schema, migration: f }, 'migration applied');
    }
  });
}
