/*
 * The embedded database's thread (pglite-thread.ts) and its owner lock on the data folder, apart
 * from db.ts so that `npm start` can begin opening the database before it loads anything else
 * (pg, gRPC, the services): this module loads only node's own modules and kit's small ones
 * (first start to first answer; the database's opening is the longest chain of a
 * start). db.ts takes the thread over and serves it to `pg`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { loadConfig, v } from './config.js';
import { lockDataDir } from './datadir.js';
import type { Logger } from './log.js';
import { threadWorker } from './thread-entry.js';

/**
 * A statement of the embedded database running longer than this is a runaway (every other
 * statement of every service waits behind it on the one backend): the database thread is
 * terminated and opened again.
 */
const embeddedDbConfigSpec = {
  statementTimeoutSeconds: v.int(['EMBEDDED_DB_STATEMENT_TIMEOUT_SECONDS'], { default: 60, min: 1 }),
  sharedBuffersMb: v.int(['EMBEDDED_DB_SHARED_BUFFERS_MB'], {
    min: 1,
    max: 4096,
    doc: "the embedded database's shared_buffers (its page cache inside the WASM memory); unset, sized to the database (sharedBuffersFor)",
  }),
};

const MB = 1024 * 1024;
/** shared_buffers of a new or small database: the whole cache is touched as PGlite opens (start time and memory). */
const MIN_SHARED_BUFFERS_MB = 16;
/** The most the embedded database takes unasked, and at most an eighth of the machine's memory. */
const MAX_AUTO_SHARED_BUFFERS_MB = 256;

/**
 * shared_buffers for a cluster of `clusterBytes` on a machine of `totalMemBytes`: an eighth of
 * the database, between 16 MB and 256 MB (and an eighth of the memory). PGlite touches the whole
 * cache as it opens, so a new wiki keeps the 16 MB its start-up and memory targets were measured
 * with; a large one (100,000 pages: 3 GB) gets the cache its searches and history reads need
 * rather than reading its pages from the file system again and again (search on the
 * scale wiki, 221-285 against 255-334 searches a second with 256 MB).
 */
export function sharedBuffersFor(clusterBytes: number, totalMemBytes: number): number {
  const ceiling = Math.max(MIN_SHARED_BUFFERS_MB, Math.min(MAX_AUTO_SHARED_BUFFERS_MB, Math.floor(totalMemBytes / 8 / MB)));
  return Math.min(ceiling, Math.max(MIN_SHARED_BUFFERS_MB, Math.floor(clusterBytes / 8 / MB)));
}

/** The bytes of the files under `dir` (0 when it does not exist yet: a new wiki is seeded small). */
function folderBytes(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += folderBytes(p);
    else if (e.isFile()) {
      try {
        total += fs.statSync(p).size;
      } catch {
        // gone meanwhile
      }
    }
  }
  return total;
}

/**
 * The embedded PGlite on its own worker thread (pglite-thread.ts), served on a Unix socket, with
 * a watchdog: PostgreSQL's WASM cannot be interrupted from inside (no signals, so no
 * statement_timeout), so a statement still running after the limit ends the thread; the
 * statement and everything queued behind it fail, and the database opens again (PostgreSQL's
 * crash recovery), instead of the whole wiki hanging on it.
 */
export class EmbeddedThread {
  private worker: Worker | undefined;
  private readonly running = new Map<number, { since: number; text: string }>();
  private seq = 0;
  private lastAnswer = Date.now();
  private restarting: Promise<void> | undefined;
  private readonly watchdog: NodeJS.Timeout;
  restarts = 0;

  constructor(
    private readonly pgDir: string,
    private readonly sockPath: string,
    private readonly log: Logger,
    readonly timeoutMs: number,
    private readonly sharedBuffersMb: number,
  ) {
    this.watchdog = setInterval(() => this.check(), Math.min(1000, timeoutMs / 2));
    this.watchdog.unref();
  }

  async start(): Promise<void> {
    fs.rmSync(this.sockPath, { force: true });
    // The thread's JavaScript only relays protocol messages: a small young generation (V8 sizes
    // it for allocation-heavy code, 16 MB and up committed) is enough (memory).
    const worker = threadWorker(import.meta.url, 'pglite-thread', {
      workerData: { pgDir: this.pgDir, sockPath: this.sockPath, sharedBuffersMb: this.sharedBuffersMb },
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    this.worker = worker;
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the embedded database thread stopped while opening (exit code ${code})`));
      worker.once('exit', onExit);
      worker.on('message', (m: { type?: string; message?: string }) => {
        if (m?.type === 'ready') {
          worker.off('exit', onExit);
          resolve();
        } else if (m?.type === 'log') {
          this.log.error(m.message);
        } else if (m?.type === 'error') {
          worker.off('exit', onExit);
          void worker.terminate();
          reject(new Error(`the embedded database did not open: ${m.message}`));
        }
      });
      worker.once('error', (err) => {
        worker.off('exit', onExit);
        reject(err);
      });
    });
    worker.on('exit', (code) => {
      if (this.worker === worker && !this.restarting) {
        this.log.error({ code }, 'the embedded database thread stopped unexpectedly; opening it again');
        void this.restart();
      }
    });
  }

  /** Registers a statement sent to the database; the returned function marks it answered. */
  track(text: string): () => void {
    const id = ++this.seq;
    this.running.set(id, { since: Date.now(), text });
    return () => {
      this.running.delete(id);
      this.lastAnswer = Date.now();
    };
  }

  /**
   * Stuck means no statement answered for the limit while some wait: statements queue for the
   * one connection, so the time since the last answer (or since the oldest was sent, after a
   * quiet spell) is what the one executing has taken, however long the queue.
   */
  private check(): void {
    if (this.restarting || this.running.size === 0) return;
    const now = Date.now();
    const [oldest] = this.running.values();
    const stuckMs = now - Math.max(this.lastAnswer, oldest!.since);
    if (stuckMs < this.timeoutMs) return;
    this.log.error(
      { seconds: Math.round(stuckMs / 1000), limitSeconds: this.timeoutMs / 1000, waiting: this.running.size, oldestStatement: oldest!.text.slice(0, 1000) },
      'embedded database: no statement answered within the limit; ending the one running by opening the database again',
    );
    void this.restart();
  }

  private restart(): Promise<void> {
    this.restarting ??= (async () => {
      this.restarts++;
      this.running.clear();
      this.lastAnswer = Date.now();
      const old = this.worker;
      this.worker = undefined;
      await old?.terminate();
      for (let attempt = 1; ; attempt++) {
        try {
          await this.start();
          this.lastAnswer = Date.now();
          this.log.warn({ restarts: this.restarts }, 'embedded database open again');
          return;
        } catch (err) {
          this.log.error({ err, attempt }, 'embedded database: opening again failed; retrying');
          await new Promise((r) => setTimeout(r, Math.min(5000, 200 * attempt)));
        }
      }
    })().finally(() => {
      this.restarting = undefined;
    });
    return this.restarting;
  }

  async stop(): Promise<void> {
    clearInterval(this.watchdog);
    await this.restarting;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    const stopped = new Promise<void>((resolve) => {
      worker.on('message', (m: { type?: string }) => m?.type === 'stopped' && resolve());
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ type: 'stop' });
    // A thread stuck in a statement never answers: it is terminated (PostgreSQL recovers on the next open).
    const timer = setTimeout(() => void worker.terminate(), 10_000);
    await stopped;
    clearTimeout(timer);
    await worker.terminate();
    fs.rmSync(this.sockPath, { force: true });
  }
}

/** A data folder's database thread, open and serving on the socket in `sockDir`. */
export interface OpenEmbeddedThread {
  thread: EmbeddedThread;
  sockDir: string;
  /** Releases the data folder's lock (after the thread stopped). */
  release: () => void;
  /** When the opening began (Date.now()). */
  started: number;
}

/** Takes the data folder's lock and opens its database thread. */
async function openThread(dataDir: string, log: Logger): Promise<OpenEmbeddedThread> {
  const started = Date.now();
  const release = lockDataDir(dataDir);
  try {
    const pgDir = path.join(dataDir, 'pgdata');
    const sockDir = path.join(dataDir, 'run');
    fs.mkdirSync(sockDir, { recursive: true });
    const cfg = loadConfig(embeddedDbConfigSpec);
    const sharedBuffersMb = cfg.sharedBuffersMb ?? sharedBuffersFor(folderBytes(pgDir), os.totalmem());
    const thread = new EmbeddedThread(pgDir, path.join(sockDir, '.s.PGSQL.5432'), log, cfg.statementTimeoutSeconds * 1000, sharedBuffersMb);
    try {
      await thread.start();
    } catch (e) {
      await thread.stop();
      throw e;
    }
    return { thread, sockDir, release, started };
  } catch (e) {
    release();
    throw e;
  }
}

/** Threads opened ahead (openEmbeddedThreadAhead) and not yet taken, by data folder. */
const ahead = new Map<string, Promise<OpenEmbeddedThread>>();

/**
 * Starts opening the embedded database of `dataDir` (its lock, thread, PGlite's WASM, the
 * cluster) ahead of the first Db of that folder, which takes it over (takeEmbeddedThread). The
 * returned function closes it if nothing took it (the start failed before).
 */
export function openEmbeddedThreadAhead(dataDir: string, log: Logger): () => Promise<void> {
  const key = path.resolve(dataDir);
  let opening = ahead.get(key);
  if (!opening) {
    opening = openThread(key, log);
    // A failure is reported to whoever takes it; until then it is not an unhandled rejection.
    opening.catch(() => undefined);
    ahead.set(key, opening);
  }
  const mine = opening;
  return async () => {
    if (ahead.get(key) !== mine) return;
    ahead.delete(key);
    const opened = await mine.catch(() => undefined);
    if (!opened) return;
    await opened.thread.stop();
    opened.release();
  };
}

/** The thread opened ahead for `dataDir`, or a new one: the caller owns it from here. */
export function takeEmbeddedThread(dataDir: string, log: Logger): Promise<OpenEmbeddedThread> {
  const key = path.resolve(dataDir);
  const opening = ahead.get(key);
  if (opening) {
    ahead.delete(key);
    return opening;
  }
  return openThread(key, log);
}
