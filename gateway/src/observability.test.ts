import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { currentRequestId, metricsRegistry as register } from '@quire/kit';
import { labelRequest, observeRequests } from './observability.js';

async function serve(opts: { externalRequestIds?: boolean }, handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer(observeRequests(handler, opts)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

test('X-Request-Id: a plain one is kept, a malformed one replaced, none taken with ALLOW_EXTERNAL_REQUEST_ID off; the handler runs under it', async () => {
  const seen: (string | undefined)[] = [];
  const handler = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    // After an await, as the pipelines read ids (AsyncLocalStorage carries it).
    void Promise.resolve().then(() => {
      seen.push(currentRequestId());
      res.end('ok');
    });
  };
  const on = await serve({}, handler);
  const off = await serve({ externalRequestIds: false }, handler);
  try {
    const kept = await fetch(`${on.base}/w/api.php`, { headers: { 'X-Request-Id': 'edge-1234:abc' } });
    assert.equal(kept.headers.get('x-request-id'), 'edge-1234:abc');
    assert.equal(seen.at(-1), 'edge-1234:abc');
    const long = await fetch(`${on.base}/w/api.php`, { headers: { 'X-Request-Id': 'x'.repeat(65) } });
    assert.match(long.headers.get('x-request-id') ?? '', /^[0-9a-f]{24}$/);
    assert.equal(seen.at(-1), long.headers.get('x-request-id'));
    const refused = await fetch(`${off.base}/w/api.php`, { headers: { 'X-Request-Id': 'edge-1234' } });
    assert.match(refused.headers.get('x-request-id') ?? '', /^[0-9a-f]{24}$/, "MediaWiki's default: the client's id is not taken");
  } finally {
    await on.close();
    await off.close();
  }
});

test('each answer is counted under its API and the endpoint the pipeline named, with its status', async () => {
  const count = async (labels: Record<string, string>) =>
    (await register.getSingleMetric('quire_http_requests_total')!.get()).values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;
  const s = await serve({}, (req, res) => {
    if (req.url?.startsWith('/w/rest.php')) labelRequest(res, '/v1/page/{title}');
    res.statusCode = req.url?.includes('Missing') ? 404 : 200;
    res.end();
  });
  const page = { api: 'rest', endpoint: '/v1/page/{title}', method: 'GET' };
  const [ok0, missing0, other0] = [await count({ ...page, status: '200' }), await count({ ...page, status: '404' }), await count({ api: 'pages', endpoint: 'pages', status: '200' })];
  try {
    await (await fetch(`${s.base}/w/rest.php/v1/page/Main_Page`)).text();
    await (await fetch(`${s.base}/w/rest.php/v1/page/Missing`)).text();
    await (await fetch(`${s.base}/wiki/Main_Page`)).text();
    assert.equal(await count({ ...page, status: '200' }), ok0 + 1);
    assert.equal(await count({ ...page, status: '404' }), missing0 + 1);
    assert.equal(await count({ api: 'pages', endpoint: 'pages', status: '200' }), other0 + 1);
  } finally {
    await s.close();
  }
});
