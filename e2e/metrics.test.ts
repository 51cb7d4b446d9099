/*
 * /metrics of `npm start`'s process (its own port, METRICS_PORT; the gateway thread's
 * registry aggregated in) scraped before and after a set of requests: the right counters move.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

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

for (const backend of testBackends()) {
  describe(`metrics on ${backend}: the process of npm start serves /metrics on METRICS_PORT and the counters move`, () => {
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
      wiki = await startWiki(backend, { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', RATE_LIMITS: JSON.stringify({ edit: { ip: [1, 60] } }) });
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
      const edits = { grpc_service: 'wiki.content.edit.v1.EditService', grpc_method: 'Edit' };
      assert.equal(moved('quire_grpc_server_handled_total', { ...edits, grpc_code: 'OK' }), 1);
      assert.equal(moved('quire_grpc_client_handled_total', { ...edits, grpc_code: 'OK' }), 1, 'counted by the gateway thread, aggregated into the one scrape');
      assert.equal(moved('quire_grpc_server_handled_total', { ...edits, grpc_code: 'RESOURCE_EXHAUSTED' }), 1);
      assert.ok(moved('quire_grpc_server_handling_seconds_count', edits) >= 2);
      assert.ok(moved('quire_db_query_duration_seconds_count', { schema: 'content', op: 'INSERT' }) >= 1, 'the edit inserted rows');
      assert.equal(moved('quire_rate_limit_refusals_total', { action: 'edit' }), 1);
      assert.equal(moved('quire_login_failures_total', { reason: 'wrongpassword' }), 1);
      assert.equal(moved('quire_response_cache_lookups_total'), 3, 'each anonymous page read is looked up');
      assert.ok(moved('quire_response_cache_lookups_total', { result: 'hit' }) >= 1, 'a repeated read is a hit');
      if (backend === 'embedded') assert.ok(sample(after, 'quire_db_pool_connections', { pool: 'embedded', state: 'total' }) >= 1);
      else {
        assert.ok(sample(after, 'quire_db_pool_connections', { state: 'total' }) >= 1);
        assert.equal(sample(after, 'quire_db_pool_connections', { pool: 'embedded' }), 0);
        // Sessions, tokens and rate limits live in Redis there: its commands are timed.
        assert.ok(moved('quire_kv_command_duration_seconds_count', { backend: 'redis' }) >= 2);
      }
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
}
