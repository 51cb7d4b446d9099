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
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
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

try {
  // A new data folder starts as a copy of the pristine cluster when there is one (pglite-template.ts), not by initdb.
  seedFromTemplate(pgDir);
  // shared_buffers is PostgreSQL's own page cache, inside the WASM memory: its default (128 MB,
  // touched as it fills) was a third of the wiki's memory. The file system's cache is still there below it.
  const db = await PGlite.create({ dataDir: pgDir, startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`] });
  // One connection only: PGlite is a single backend, and multiplexing several clients onto it
  // could interleave their extended-protocol messages.
  const server = new PGLiteSocketServer({ db, path: sockPath, maxConnections: 1 });
  await server.start();
  port.on('message', (m: { type?: string }) => {
    if (m?.type !== 'stop') return;
    void (async () => {
      await server.stop().catch(() => undefined);
      await db.close().catch(() => undefined);
      port.postMessage({ type: 'stopped' });
    })();
  });
  port.postMessage({ type: 'ready' });
} catch (e) {
  port.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
}
