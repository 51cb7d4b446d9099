/*
 * The last-resort error handler: whatever error reaches the end of the gateway's express stack is
 * answered without express's own page (which prints the stack trace) and without ending anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { lastResortErrorHandler } from './app.js';
import type { GatewayDeps } from './context.js';

async function serve(fail: (req: express.Request) => unknown): Promise<{ url: string; logged: unknown[]; close: () => void }> {
  const logged: unknown[] = [];
  const deps = { log: { error: (o: unknown) => logged.push(o) } } as unknown as GatewayDeps;
  const app = express();
  app.get('/boom', (req, _res, next) => next(fail(req)));
  app.use(lastResortErrorHandler(deps));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logged, close: () => server.close() };
}

test('a client error (e.g. URIError from a route parameter, status 400) keeps its status, plain text, no stack, not logged as a fault', async () => {
  const s = await serve(() => Object.assign(new URIError("Failed to decode param '%E0'"), { status: 400 }));
  try {
    const r = await fetch(`${s.url}/boom`);
    assert.equal(r.status, 400);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    const body = await r.text();
    assert.equal(body, 'Bad request\n');
    assert.deepEqual(s.logged, []);
  } finally {
    s.close();
  }
});

test('any other error is a logged 500 whose body names nothing of the error', async () => {
  const s = await serve(() => new TypeError('secret detail at /work/x.ts:1'));
  try {
    const r = await fetch(`${s.url}/boom`);
    assert.equal(r.status, 500);
    const body = await r.text();
    assert.equal(body, 'Internal error\n');
    assert.equal(s.logged.length, 1);
  } finally {
    s.close();
  }
});
