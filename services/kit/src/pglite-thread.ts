/*
 * The embedded PGlite on its own thread (db.ts, EmbeddedDatabase): PostgreSQL's WASM runs each
 * statement synchronously, so on the services' thread one slow statement froze every service,
 * health check and timer with it. Here it blocks only this thread; the services' thread keeps
 * answering and can end a runaway statement by terminating the thread (the one way to interrupt
 * WASM), after which PostgreSQL recovers from its WAL on the next open.
 *
 * Protocol with the parent: workerData {pgDir, sockPath}; posts {type:'ready'} once the socket
 * serves, or {type:'error', message}; on {type:'stop'} closes and posts {type:'stopped'}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

interface ThreadData {
  pgDir: string;
  sockPath: string;
}

const port = parentPort;
if (!port) throw new Error('pglite-thread.ts runs as a worker thread (db.ts starts it)');
const { pgDir, sockPath } = workerData as ThreadData;

try {
  const db = await PGlite.create(pgDir);
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
