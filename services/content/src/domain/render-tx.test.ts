/*
 * A render inside a transaction on the embedded database runs on the calling thread: through the
 * worker pool it could wait behind another render whose lookups need the one connection that
 * transaction holds (an edit's pre-save transform behind the job runner's refreshLinks: deadlock).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, openDb } from '@quire/kit';
import { makeTestEnv } from '@quire/kit/testing';
import { JobQueue } from '../store/jobs.js';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';
import type { RenderPool } from '../render/pool.js';
import { RenderService } from './render.js';

test('embedded: renders inside a transaction bypass the worker pool; others use it', async () => {
  const te = await makeTestEnv('embedded');
  const log = createLogger('test', 'silent');
  const db = await openDb({ dataDir: te.dataDir, schema: 'rendertx', log });
  const used: string[] = [];
  const output = { html: '' };
  const pool = {
    render: async () => (used.push('pool'), output),
    renderInProcess: async () => (used.push('calling thread'), output),
  } as unknown as RenderPool;
  const svc = new RenderService(db, new TitleCodec(new NamespaceTable('Quire')), pool, new JobQueue(db), log);
  const req = { text: 'x', title: { ns: 0, dbkey: 'X' }, pageId: 0, revId: 0 };
  await svc.render(req);
  await db.tx(() => svc.render(req));
  assert.deepEqual(used, ['pool', 'calling thread']);
  await db.close();
  await te.cleanup();
});
