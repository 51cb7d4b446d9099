/*
 * The read-response cache: what it keeps, what empties it (writes through the gateway, page
 * changes from the feed), and that an answer computed before an invalidation is never stored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Request } from 'express';
import type { ClientReadableStream } from '@grpc/grpc-js';
import type { PageChange } from '../clients/types.js';
import type { Logger } from '@quire/kit';
import { actionReadCacheability, answerFromCache, cachedReads, ChangeFeedFollower, invalidateOnWrite, ResponseCache, restPageCacheability } from './response-cache.js';
import { observeRequests } from '../observability.js';

const entry = (body: string, ttlMs = 60_000) => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(body), expiresAt: Date.now() + ttlMs });

test('ResponseCache: entries expire, an invalidation empties it and refuses answers begun before it', () => {
  const cache = new ResponseCache();
  const before = cache.begin();
  cache.put('/a', before, entry('a'));
  assert.equal(cache.get('/a'), undefined, 'nothing is stored while disabled (feed not followed)');
  cache.enabled = true;
  cache.put('/a', before, entry('a'));
  assert.equal(cache.get('/a')?.body.toString(), 'a');
  cache.put('/old', before, entry('x', -1));
  assert.equal(cache.get('/old'), undefined, 'expired');
  const during = cache.begin();
  cache.invalidate();
  assert.equal(cache.size, 0);
  cache.put('/b', during, entry('stale'));
  assert.equal(cache.get('/b'), undefined, 'a read that began before the invalidation is not kept');
  cache.put('/b', cache.begin(), entry('fresh'));
  assert.equal(cache.get('/b')?.body.toString(), 'fresh');
});

test('ResponseCache: the least recently used entries go first beyond the byte budget', () => {
  const cache = new ResponseCache(16 * 100);
  cache.enabled = true;
  for (const k of ['/1', '/2', '/3']) cache.put(k, cache.begin(), entry('x'.repeat(90)));
  cache.get('/1');
  for (let i = 4; i < 20; i++) cache.put(`/${i}`, cache.begin(), entry('x'.repeat(90)));
  assert.equal(cache.get('/2'), undefined);
  assert.ok(cache.size <= 17);
  cache.put('/big', cache.begin(), entry('x'.repeat(200)));
  assert.equal(cache.get('/big'), undefined, 'an entry larger than 1/16 of the budget is not kept');
});

const req = (url: string, headers: Record<string, string> = {}, method = 'GET') => ({ method, originalUrl: url, url, headers }) as unknown as Request;

test('action API reads kept: anonymous action=query of main-namespace titles with prop=revisions, or meta=siteinfo (within its second)', () => {
  assert.deepEqual(actionReadCacheability(req('/w/api.php?action=query&prop=revisions&rvprop=content&rvslots=main&titles=Main_Page&format=json&formatversion=2')), { ttlMs: 60_000 });
  const siteinfo = actionReadCacheability(req('/w/api.php?action=query&meta=siteinfo&format=json'));
  assert.ok(siteinfo && siteinfo.ttlMs > 0 && siteinfo.ttlMs <= 1000 && (Date.now() + siteinfo.ttlMs) % 1000 < 50, 'until the end of the current second');
  assert.deepEqual(actionReadCacheability(req('/w/api.php?action=query&prop=revisions&indexpageids=1&titles=A|B&format=json')), { ttlMs: 60_000 });
  for (const url of [
    '/w/api.php?action=query&prop=revisions&titles=User_talk:1.2.3.4&format=json', // own talk page: newtalk
    '/w/api.php?action=query&prop=revisions&titles=A&rvlimit=5&format=json', // unknown parameter
    '/w/api.php?action=query&prop=revisions&pageids=1&format=json',
    '/w/api.php?action=query&prop=revisions&redirects=1&titles=A&format=json', // a redirect to one's own talk page
    '/w/api.php?action=query&prop=info&titles=A&format=json', // touched moves with deferred updates
    '/w/api.php?action=query&prop=revisions|info&titles=A&format=json',
    '/w/api.php?action=query&prop=links&titles=A&format=json',
    '/w/api.php?action=query&meta=userinfo&format=json',
    '/w/api.php?action=query&meta=siteinfo&format=json&callback=f',
    '/w/api.php?action=query&meta=siteinfo&format=jsonfm',
    '/w/api.php?action=query&meta=siteinfo&meta=siteinfo&format=json', // repeated: the last one wins in the API
    '/w/api.php?action=parse&page=A&format=json',
    '/w/api.php?action=query&prop=revisions&format=json', // no titles
    '/w/api.php',
  ]) {
    assert.equal(actionReadCacheability(req(url)), undefined, url);
  }
  const url = '/w/api.php?action=query&meta=siteinfo&format=json';
  const credentials: Record<string, string>[] = [{ cookie: 'x=1' }, { authorization: 'Bearer x' }, { origin: 'https://example.org' }, { 'treat-as-untrusted': '1' }];
  for (const h of credentials) {
    assert.equal(actionReadCacheability(req(url, h)), undefined, JSON.stringify(h));
  }
  assert.equal(actionReadCacheability(req(url, {}, 'POST')), undefined);
});

test('REST reads kept: anonymous page and page/bare of main-namespace titles, without query or If-Match', () => {
  assert.deepEqual(restPageCacheability(req('/v1/page/Main_Page')), { ttlMs: 60_000 });
  assert.deepEqual(restPageCacheability(req('/v1/page/Main%20Page/bare')), { ttlMs: 60_000 });
  for (const url of ['/v1/page/User_talk%3A1.2.3.4', '/v1/page/A/html', '/v1/page/A/history', '/v1/page/A?x=1', '/v1/page/%E0', '/v1/search/page']) {
    assert.equal(restPageCacheability(req(url)), undefined, url);
  }
  assert.equal(restPageCacheability(req('/v1/page/A', { 'if-match': '"x"' })), undefined);
  assert.equal(restPageCacheability(req('/v1/page/A', { cookie: 'wiki_session=1' })), undefined);
});

/** An app whose page read counts its runs and whose POST changes the page. */
async function serve(cache: ResponseCache) {
  let text = 'one';
  let runs = 0;
  const app = express();
  app.use(invalidateOnWrite(cache));
  app.use('/rest.php', cachedReads(cache, restPageCacheability));
  app.get('/rest.php/v1/page/:title', (_req, res) => {
    runs++;
    res.set({ ETag: `"${text}"`, 'Last-Modified': 'Wed, 25 Nov 2026 10:00:00 GMT', 'X-Request-Id': String(runs) }).json({ source: text });
  });
  app.get('/rest.php/v1/page/:title/bare', (_req, res) => {
    runs++;
    res.status(404).json({ httpCode: 404 });
  });
  app.post('/rest.php/v1/page/:title', (_req, res) => {
    text = 'two';
    res.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest.php/v1/page/A`;
  return { url, runs: () => runs, close: () => server.close() };
}

test('a repeated read is answered from the cache, a write through the gateway is seen by the next read, errors are not kept', async () => {
  const cache = new ResponseCache();
  cache.enabled = true;
  const s = await serve(cache);
  try {
    const first = await fetch(s.url);
    assert.deepEqual(await first.json(), { source: 'one' });
    const second = await fetch(s.url);
    assert.equal(second.status, 200);
    assert.deepEqual(await second.json(), { source: 'one' });
    assert.equal(second.headers.get('etag'), '"one"');
    assert.equal(second.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(s.runs(), 1);

    const notModified = await fetch(s.url, { headers: { 'If-None-Match': '"one"' } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.get('etag'), '"one"');
    assert.equal(s.runs(), 1, 'the 304 comes from the cache');
    assert.equal((await fetch(s.url, { headers: { 'If-Modified-Since': 'Wed, 25 Nov 2026 11:00:00 GMT' } })).status, 304);

    assert.equal((await fetch(s.url, { method: 'POST' })).status, 200);
    assert.deepEqual(await (await fetch(s.url)).json(), { source: 'two' }, 'the write is visible to the next read');
    assert.equal(s.runs(), 2);
    assert.equal((await fetch(s.url, { headers: { cookie: 'a=b' } })).status, 200);
    assert.equal(s.runs(), 3, 'a caller with cookies is never served from the cache');

    await fetch(`${s.url}/bare`);
    await fetch(`${s.url}/bare`);
    assert.equal(s.runs(), 5, 'a 404 is not kept');
  } finally {
    s.close();
  }
});

class FakeStream extends EventEmitter {
  cancelled = false;
  cancel() {
    this.cancelled = true;
  }
}

test('ChangeFeedFollower: enables the cache while the feed is followed, empties it at each change, resumes after the last position', async () => {
  const cache = new ResponseCache();
  const streams: { from: number; stream: FakeStream }[] = [];
  let headFails = true;
  const source = {
    async changeFeedHead() {
      if (headFails) throw new Error('content down');
      return 7;
    },
    streamChanges(from: number) {
      const stream = new FakeStream();
      streams.push({ from, stream });
      return stream as unknown as ClientReadableStream<PageChange>;
    },
  };
  const warnings: unknown[] = [];
  const log = { warn: (o: unknown) => warnings.push(o) } as unknown as Logger;
  const follower = new ChangeFeedFollower(source, cache, log, 10).start();
  try {
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(cache.enabled, false, 'content unreachable: nothing cached');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(warnings.length, 1, 'one warning per outage, not per retry');
    headFails = false;
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(cache.enabled, true);
    assert.equal(streams[0]?.from, 7, 'follows from the head');
    cache.put('/a', cache.begin(), entry('a'));
    streams[0]!.stream.emit('data', { position: 9 } as PageChange);
    assert.equal(cache.get('/a'), undefined, 'a page change empties the cache');
    streams[0]!.stream.emit('end');
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(streams[1]?.from, 9, 'the next stream resumes after the last change');
    assert.equal(cache.enabled, true);
    cache.put('/a', cache.begin(), entry('a'));
    streams[1]!.stream.emit('error', Object.assign(new Error('UNAVAILABLE'), { code: 14 }));
    assert.equal(cache.enabled, false);
    assert.equal(cache.get('/a'), undefined, 'the feed lost: emptied');
  } finally {
    follower.stop();
  }
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(streams.length, 2, 'stopped: no retry');
  assert.equal(cache.enabled, false);
});

test('ChangeFeedFollower: a failed stream (error, then end, as grpc-js does) is followed once again, not twice', async () => {
  const cache = new ResponseCache();
  let streams = 0;
  const source = {
    async changeFeedHead() {
      return 1;
    },
    streamChanges() {
      streams++;
      const stream = new FakeStream();
      // grpc-js on a failed call: push(null) and emit('error') at once; 'end' follows on a later tick.
      setImmediate(() => {
        stream.emit('error', Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }));
        setImmediate(() => stream.emit('end'));
      });
      return stream as unknown as ClientReadableStream<PageChange>;
    },
  };
  const log = { warn: () => {} } as unknown as Logger;
  const follower = new ChangeFeedFollower(source, cache, log, 10).start();
  await new Promise((r) => setTimeout(r, 200));
  follower.stop();
  // One retry every 10 ms: about 20 streams; a follower doubling at each failure makes thousands.
  assert.ok(streams >= 3 && streams <= 25, `${streams} streams in 200 ms`);
});

test('answerFromCache: a plain GET of a kept URL is answered before the app; other requests reach it', async () => {
  const cache = new ResponseCache();
  cache.enabled = true;
  cache.put('/w/api.php?action=query&meta=siteinfo', cache.begin(), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'old', ETag: '"v1"' },
    body: Buffer.from('{"kept":true}'),
    expiresAt: Date.now() + 60_000,
  });
  let reached = 0;
  const front = answerFromCache(cache, (_req, res) => {
    reached++;
    res.end('{"kept":false}');
  });
  // As server.ts arranges it: the request id is given in front of the cache.
  const server = http.createServer(observeRequests(front)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const r = await fetch(`${base}/w/api.php?action=query&meta=siteinfo`);
    assert.equal(await r.text(), '{"kept":true}');
    assert.equal(r.headers.get('content-type'), 'application/json');
    assert.match(r.headers.get('x-request-id') ?? '', /^[0-9a-f]{24}$/, 'a request id of its own, not the kept one');
    assert.equal((await fetch(`${base}/w/api.php?action=query&meta=siteinfo`, { headers: { 'If-None-Match': '"v1"' } })).status, 304);
    assert.equal(reached, 0);
    const others: RequestInit[] = [{ headers: { cookie: 'a=b' } }, { headers: { origin: 'https://example.org' } }, { headers: { 'if-match': '"v1"' } }, { method: 'POST' }, { method: 'HEAD' }];
    for (const init of others) {
      await fetch(`${base}/w/api.php?action=query&meta=siteinfo`, init);
    }
    await fetch(`${base}/w/api.php?action=query&meta=siteinfo&x=1`);
    assert.equal(reached, 6);
  } finally {
    server.close();
  }
});
