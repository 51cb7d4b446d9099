/*
 * Issue 20, operable in production: request ids from the HTTP request to the error body and the
 * log line; /metrics of `npm start`'s process (its own port) scraped before and after a set of
 * requests; maxlag counting a search indexer that is behind.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '@quire/kit';
import type { FaultSwitch } from '@quire/kit/faults';
import { startFaultyGateway } from './faulty-gateway.js';
import { startWiki, type TestWiki, type WikiClient } from './harness.js';

type Json = Record<string, any>;

/** Prometheus text → the value of the sample `name` whose labels include `labels` (summed over the others); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(m[3]);
  }
  return total;
}

describe('request ids: one id in the answer, its body and its log line', () => {
  let wiki: TestWiki;
  let faulty: Awaited<ReturnType<typeof startFaultyGateway>>;
  let gateway: WikiClient;
  const fault: FaultSwitch = { failing: false, injected: 0 };
  const lines: Json[] = [];

  before(async () => {
    wiki = await startWiki('embedded');
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l) as Json);
        done();
      },
    });
    faulty = await startFaultyGateway(wiki, fault, createLogger('gateway', 'info', sink));
    gateway = faulty.gateway;
  });
  after(async () => {
    await faulty?.close();
    await wiki?.close();
  });

  test("action API: a forced internal error names the caller's X-Request-Id in its info, its header and its log line", async () => {
    fault.failing = true;
    const r = await gateway.request('GET', '/w/api.php?action=query&prop=revisions&titles=Main_Page&format=json', undefined, { headers: { 'X-Request-Id': 'ops-e2e-1' } });
    fault.failing = false;
    assert.equal(r.headers.get('x-request-id'), 'ops-e2e-1');
    const err = r.json().error;
    assert.equal(err.code, 'internal_api_error_InjectedFault');
    // apierror-exceptioncaughttype: "[$1] Caught exception of type $2" with WebRequest::getRequestId().
    assert.equal(err.info, '[ops-e2e-1] Caught exception of type InjectedFault');
    const logged = lines.filter((l) => l.msg === 'action API internal error');
    assert.equal(logged.length, 1);
    assert.equal(logged[0]!.requestId, 'ops-e2e-1');
  });

  test('REST: a forced 500 carries the id (reqId) it was logged under; a malformed X-Request-Id is replaced', async () => {
    lines.length = 0;
    fault.failing = true;
    const r = await gateway.request('GET', '/w/rest.php/v1/page/Main_Page', undefined, { headers: { 'X-Request-Id': 'not a plain id\u00e9' } });
    fault.failing = false;
    assert.equal(r.status, 500);
    const id = r.headers.get('x-request-id') ?? '';
    assert.match(id, /^[0-9a-f]{24}$/, 'a fresh id, not the malformed one');
    assert.deepEqual(r.json(), { message: 'Error: exception of type InjectedFault', reqId: id, httpCode: 500, httpReason: 'Internal Server Error' });
    const logged = lines.filter((l) => l.msg === 'REST request failed');
    assert.equal(logged.length, 1);
    assert.equal(logged[0]!.requestId, id);
    // A client mistake (404) names no id in its body, as MediaWiki's.
    const missing = await gateway.rest('/v1/page/No_such_page_here');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().reqId, undefined);
    assert.match(missing.headers.get('x-request-id') ?? '', /^[0-9a-f]{24}$/);
  });

  test('every answer has an id; the services receive it (gRPC metadata) and the next request gets its own', async () => {
    const a = await gateway.request('GET', '/w/api.php?action=query&meta=siteinfo&format=json', undefined, { headers: { 'X-Request-Id': 'ops-e2e-2' } });
    assert.equal(a.status, 200);
    assert.equal(a.headers.get('x-request-id'), 'ops-e2e-2');
    const b = await gateway.rest('/v1/page/Main_Page');
    assert.equal(b.status, 200);
    assert.notEqual(b.headers.get('x-request-id'), 'ops-e2e-2');
  });
});

describe('metrics: the embedded process serves /metrics on METRICS_PORT and the counters move', () => {
  let wiki: TestWiki;
  let metricsUrl: string;
  const scrape = async () => {
    const r = await fetch(metricsUrl);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return r.text();
  };

  before(async () => {
    // One anonymous edit a minute: the second is refused (quire_rate_limit_refusals_total).
    wiki = await startWiki('embedded', { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', RATE_LIMITS: JSON.stringify({ edit: { ip: [1, 60] } }) });
    assert.ok(wiki.stack.metrics, 'METRICS_PORT set: served');
    metricsUrl = wiki.stack.metrics.url;
  });
  after(() => wiki?.close());

  test('scraped before and after: HTTP per module and route, gRPC both sides, SQL, cache, login failures, rate limits', async () => {
    // The read cache works only while the gateway follows the change feed.
    for (let i = 0; i < 50 && sample(await scrape(), 'quire_change_feed_connected', { consumer: 'gateway-read-cache' }) !== 1; i++) await new Promise((r) => setTimeout(r, 100));
    const before = await scrape();

    const edit = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: '+\\', title: 'Metrics page', text: 'counted' })).json<Json>();
    assert.equal(edit.edit?.result, 'Success', JSON.stringify(edit));
    const refused = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: '+\\', title: 'Metrics page', text: 'again' })).json<Json>();
    assert.equal(refused.error?.code, 'ratelimited');
    for (let i = 0; i < 3; i++) assert.equal((await wiki.rest('/v1/page/Metrics_page')).status, 200);
    const token = (await wiki.api({ action: 'query', meta: 'tokens', type: 'login', format: 'json' })).json<Json>().query.tokens.logintoken;
    const login = (await wiki.post('/w/api.php', { action: 'login', format: 'json', lgname: 'Nobody here', lgpassword: 'wrong-password-1', lgtoken: token })).json<Json>();
    assert.equal(login.login?.result, 'Failed');
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);

    assert.equal(moved('quire_http_requests_total', { api: 'action', endpoint: 'edit', method: 'POST', status: '200' }), 2);
    assert.equal(moved('quire_http_request_duration_seconds_count', { api: 'action', endpoint: 'edit' }), 2);
    assert.equal(moved('quire_http_requests_total', { api: 'rest', endpoint: '/v1/page/{title}', method: 'GET', status: '200' }), 3);
    assert.equal(moved('quire_http_requests_total', { api: 'action', endpoint: 'login' }), 1);
    const edits = { grpc_service: 'wiki.content.v1.ContentService', grpc_method: 'Edit' };
    assert.equal(moved('quire_grpc_server_handled_total', { ...edits, grpc_code: 'OK' }), 1);
    assert.equal(moved('quire_grpc_client_handled_total', { ...edits, grpc_code: 'OK' }), 1, 'counted by the gateway thread, aggregated into the one scrape');
    assert.equal(moved('quire_grpc_server_handled_total', { ...edits, grpc_code: 'RESOURCE_EXHAUSTED' }), 1);
    assert.ok(moved('quire_grpc_server_handling_seconds_count', edits) >= 2);
    assert.ok(moved('quire_db_query_duration_seconds_count', { schema: 'content', op: 'INSERT' }) >= 1, 'the edit inserted rows');
    assert.equal(moved('quire_rate_limit_refusals_total', { action: 'edit' }), 1);
    assert.equal(moved('quire_login_failures_total', { reason: 'wrongpassword' }), 1);
    assert.equal(moved('quire_response_cache_lookups_total'), 3, 'each anonymous page read is looked up');
    assert.ok(moved('quire_response_cache_lookups_total', { result: 'hit' }) >= 1, 'a repeated read is a hit');
    assert.ok(sample(after, 'quire_db_pool_connections', { pool: 'embedded', state: 'total' }) >= 1);
    // Read when scraped: the search indexer's lag, the job queue, the render pool; default process metrics.
    assert.match(after, /^quire_change_feed_lag_seconds\{consumer="search-indexer"\} /m);
    assert.match(after, /^quire_change_feed_pending_changes\{consumer="search-indexer"\} /m);
    assert.match(after, /^# HELP quire_job_queue_depth /m);
    assert.match(after, /^quire_render_queue_depth /m);
    assert.match(after, /^process_cpu_user_seconds_total /m);
    assert.match(after, /^nodejs_eventloop_lag_seconds /m);
  });

  test('the public port serves no metrics', async () => {
    const r = await wiki.request('GET', '/metrics');
    assert.notEqual(r.status, 200);
    assert.doesNotMatch(r.text, /quire_http_requests_total/);
  });
});

describe('maxlag counts the search indexer', () => {
  let wiki: TestWiki;
  before(async () => {
    // Query role only: no indexer runs, so every change waits in the feed (an indexer far behind).
    wiki = await startWiki('embedded', { SEARCH_ROLE: 'query' });
  });
  after(() => wiki?.close());

  test('maxlag=0 on a lagging indexer answers maxlag with type search-indexer; a larger maxlag passes', async () => {
    const edit = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: '+\\', title: 'Unindexed', text: 'waiting' })).json<Json>();
    assert.equal(edit.edit?.result, 'Success', JSON.stringify(edit));
    let r = await wiki.api({ action: 'query', meta: 'siteinfo', format: 'json', maxlag: '0' });
    // The lag counts in whole seconds: wait for the oldest unindexed change to be one second old.
    for (let i = 0; i < 40 && r.json<Json>().error === undefined; i++) {
      await new Promise((res) => setTimeout(res, 100));
      r = await wiki.api({ action: 'query', meta: 'siteinfo', format: 'json', maxlag: '0' });
    }
    const err = r.json<Json>().error;
    assert.equal(err?.code, 'maxlag', r.text);
    assert.equal(err.type, 'search-indexer');
    assert.ok(Number.isInteger(err.lag) && err.lag >= 1, `lag ${err.lag}`);
    assert.equal(r.headers.get('mediawiki-api-error'), 'maxlag');
    assert.equal(r.headers.get('retry-after'), '5');
    assert.equal(r.headers.get('x-database-lag'), String(err.lag));
    const fine = await wiki.api({ action: 'query', meta: 'siteinfo', format: 'json', maxlag: '3600' });
    assert.equal(fine.json<Json>().error, undefined);
  });
});
