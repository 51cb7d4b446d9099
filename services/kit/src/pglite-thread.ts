/*
 * The embedded PGlite on its own thread (db.ts, EmbeddedDatabase): PostgreSQL's WASM runs each
 * statement synchronously, so on the services' thread one slow statement froze every service,
 * health check and timer with it. Here it blocks only this thread; the services' thread keeps
 * answering and can end a runaway statement by terminating the thread (the one way to interrupt
 * WASM), after which PostgreSQL recovers from its WAL on the next open.
 *
 * Protocol with the parent: workerData {pgDir, sockPath, sharedBuffersMb}; posts {type:'ready'} once the socket
 * serves, or {type:'error', message}; on {type:'stop'} closes and posts {type:'stopped'}.
 */
import fs from 'node:fs';
import net from 'node:net';
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { seedFromTemplate } from './pglite-template.js';

interface ThreadData {
  pgDir: string;
  sockPath: string;
  /** PostgreSQL's shared_buffers in MB (EMBEDDED_DB_SHARED_BUFFERS_MB). */
  sharedBuffersMb: number;
}

const port = parentPort;
if (!port) throw new Error('pglite-thread.ts runs as a worker thread (db.ts starts it)');
const { pgDir, sockPath, sharedBuffersMb } = workerData as ThreadData;

// V8 compiles PostgreSQL's WASM with its baseline compiler and moves a function to the optimizing
// one once it has run for a budget. With the default budget, opening the database and a first
// start's statements made hundreds of PostgreSQL's functions "hot": some 1.5 s of optimizing
// compilation on a 2-core machine and 50 MB of code at every start, for statements that mostly
// wait on the file system. A hundred times the budget leaves start-up in baseline code while a
// long scan or sort still gets optimized (measured: the same statement rates; a full-text scan of
// 100,000 rows as fast as with the default). Set before the module is instantiated; the flag
// concerns only WASM, of which PGlite is the only user in the process.
v8.setFlagsFromString('--wasm-tiering-budget=180000000');

// PostgreSQL's WASM compiles on V8's helper threads while this thread copies the template
// cluster, rather than after it inside PGlite.create (first start to first answer).
// (WebAssembly is a global of node's that this project's type libraries do not declare.)
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<NonNullable<PGliteOptions['pgliteWasmModule']>> } };
const pgliteWasm = wasm.compile(fs.readFileSync(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite'))));
// A failure is PGlite.create's to report (it compiles the file itself then).
pgliteWasm.catch(() => undefined);

try {
  // A new data folder starts as a copy of the pristine cluster when there is one (pglite-template.ts), not by initdb.
  seedFromTemplate(pgDir);
  // shared_buffers is PostgreSQL's own page cache, inside the WASM memory: its default (128 MB,
  // touched as it fills) was a third of the wiki's memory. The file system's cache is still there below it.
  const pgliteWasmModule = await pgliteWasm.catch(() => undefined);
  const db = await PGlite.create({ dataDir: pgDir, pgliteWasmModule, startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`] });
  const server = await serveWireProtocol(db, sockPath);
  port.on('message', (m: { type?: string }) => {
    if (m?.type !== 'stop') return;
    void (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close().catch(() => undefined);
      port.postMessage({ type: 'stopped' });
    })();
  });
  port.postMessage({ type: 'ready' });
} catch (e) {
  port.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
}

/**
 * Whether output ends with a ReadyForQuery message ('Z', length 5, a status byte), the end of a
 * statement's answer. (A row's bytes that look like one only make a write happen earlier.)
 */
function endsWithReadyForQuery(data: Uint8Array): boolean {
  const n = data.length;
  return n >= 6 && data[n - 6] === 0x5a && data[n - 5] === 0 && data[n - 4] === 0 && data[n - 3] === 0 && data[n - 2] === 5;
}

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;

/**
 * Serves the database on a Unix socket in PostgreSQL's wire protocol, to one client at a time
 * (PGlite is one backend: several clients could interleave their extended-protocol messages; `pg`'s
 * pool in db.ts holds exactly one connection).
 *
 * Why not @electric-sql/pglite-socket's server (edit cost): it ran each protocol message
 * of a statement (Parse, Bind, Describe, Execute, Sync) as its own call into PostgreSQL behind an
 * async queue, and wrote each piece of output to the socket as PostgreSQL produced it: four or five
 * socket writes, and as many wake-ups of the services' thread, for one statement, a quarter of this
 * thread's time. PGlite's execProtocolRaw* run every message of a buffer through PostgreSQL's
 * main loop (its ignore-till-Sync error handling included), so what
 * `pg` sent at once (it writes a statement's messages together) is run at once and answered with
 * one write.
 */
async function serveWireProtocol(db: PGlite, path: string): Promise<net.Server> {
  fs.rmSync(path, { force: true });
  let active: net.Socket | undefined;
  const server = net.createServer((socket) => {
    if (active) {
      // The one connection is taken (pg's pool never opens a second one while the first lives).
      socket.destroy();
      return;
    }
    active = socket;
    socket.setNoDelay?.(true);
    let pending: Buffer = Buffer.alloc(0);
    let started = false;
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const out: Buffer[] = [];
      // PostgreSQL's output as it is produced (a view of the WASM memory: copied). The stream form
      // hands it over raw; execProtocolRawSync also parsed every message of it into PGlite's own
      // results (and decoded each row's text), work nobody read: 6% of this thread's time with ten
      // edit sessions. The stream call runs PostgreSQL synchronously (syncToFs false: nothing is
      // awaited before it returns), so `out` is complete when it returns; its promise carries a failure.
      const flush = () => {
        const bytes = out.splice(0).filter((b) => b.length > 0);
        if (bytes.length > 0) socket.write(bytes.length === 1 ? bytes[0]! : Buffer.concat(bytes));
      };
      // `pg` pipelines (db.ts): a chunk may hold several statements, run in one call. PostgreSQL
      // flushes its output at each statement's ReadyForQuery, which is written to the socket then,
      // not after the chunk's slowest statement (two-word searches took 30-50 ms together).
      const onRawData = (data: Uint8Array) => {
        out.push(Buffer.from(data));
        if (endsWithReadyForQuery(data)) flush();
      };
      const runs: Promise<void>[] = [];
      const run = (bytes: Uint8Array) => runs.push(db.execProtocolRawStream(bytes, { syncToFs: false, onRawData }));
      for (;;) {
        if (!started) {
          // Untyped start-up packets: length, then a code (SSL or cancel request) or the protocol version.
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          const packet = pending.subarray(0, length);
          pending = pending.subarray(length);
          if (code === SSL_REQUEST) out.push(Buffer.from('N'));
          else if (code === CANCEL_REQUEST) continue;
          else {
            started = true;
            run(packet);
          }
          continue;
        }
        // Typed messages: a type byte, then a length that counts itself. Run every complete one at once.
        let end = 0;
        while (pending.length - end >= 5) {
          const length = 1 + pending.readInt32BE(end + 1);
          if (pending.length - end < length) break;
          end += length;
        }
        if (end === 0) break;
        const batch = pending.subarray(0, end);
        pending = pending.subarray(end);
        // 'X' (Terminate): the client goes; the socket's end follows.
        if (batch[0] !== 0x58) run(batch);
        break;
      }
      Promise.all(runs).then(
        () => flush(),
        (err: unknown) => {
          // PostgreSQL answers a failing statement with an ErrorResponse; a throw is a WASM trap or
          // abort, after which the backend's state is unknown: this thread ends, and db.ts opens the
          // database again (PostgreSQL's crash recovery), as for a runaway statement.
          port?.postMessage({ type: 'log', message: `embedded database failed: ${err instanceof Error ? err.message : String(err)}; opening it again` });
          process.exit(1);
        },
      );
    });
    const gone = () => {
      if (active !== socket) return;
      active = undefined;
      // The backend's session outlives the connection: what the client left open is rolled back
      // (db.ts also resets the session on its next connect).
      try {
        if (db.isInTransaction()) void db.exec('ROLLBACK').catch(() => undefined);
      } catch {
        // the database is closing
      }
    };
    socket.on('close', gone);
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
