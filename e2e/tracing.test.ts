/*
 * One trace per request across gateway → service → SQL. The services and the gateway
 * run in this thread (not on the gateway thread of `npm start`), so one tracer provider with an
 * in-memory exporter sees every span of the edit.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind } from '@opentelemetry/api';
import { createLogger, initTracing, shutdownTracing, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, type TestEnv } from '@quire/kit/testing';
import { authService } from '@quire/auth/server';
import { contentService } from '@quire/content/server';
import { searchService } from '@quire/search/server';
import { startGateway, type RunningGateway } from '@quire/gateway/server';
import { WikiClient } from './harness.js';

const exporter = new InMemorySpanExporter();
let testEnv: TestEnv;
const services: RunningService[] = [];
let gateway: RunningGateway;
let wiki: WikiClient;

before(async () => {
  assert.equal(await initTracing('quire-test', {}, exporter), true);
  testEnv = await makeTestEnv('embedded', { PORT: '0', HOST: '127.0.0.1', AUTH_GRPC_PORT: '0', CONTENT_GRPC_PORT: '0', SEARCH_GRPC_PORT: '0' });
  const log = createLogger('tracing-test', 'silent');
  for (const mod of [contentService, authService, searchService]) {
    const content = services.find((s) => s.name === 'content');
    services.push(await startService(mod, content ? { ...testEnv.env, CONTENT_GRPC_ADDR: content.address } : testEnv.env, log));
  }
  const addr = (name: string) => services.find((s) => s.name === name)!.address;
  gateway = await startGateway({ ...testEnv.env, AUTH_GRPC_ADDR: addr('auth'), CONTENT_GRPC_ADDR: addr('content'), SEARCH_GRPC_ADDR: addr('search') }, log);
  wiki = new WikiClient(gateway.url);
});

after(async () => {
  await gateway?.stop();
  for (const s of [...services].reverse()) await s.stop();
  await shutdownTracing();
  await testEnv?.cleanup();
});

const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

test('an edit is one trace: the gateway HTTP span, the gRPC client and server spans of Edit (traceparent in metadata), and its SQL', async () => {
  exporter.reset();
  const r = await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: '+\\', title: 'Traced page', text: 'one trace' });
  assert.equal(r.json().edit?.result, 'Success', r.text);
  // The HTTP span ends on 'finish', just after the answer.
  await new Promise((res) => setTimeout(res, 50));
  const spans = exporter.getFinishedSpans();
  const http = spans.find((s) => s.kind === SpanKind.SERVER && s.name === 'POST /w/api.php');
  assert.ok(http, `an HTTP server span among ${spans.map((s) => s.name).join(', ')}`);
  assert.equal(http.attributes['http.response.status_code'], 200);
  assert.equal(http.attributes['quire.endpoint'], 'edit');
  assert.equal(http.attributes['quire.request_id'], r.headers.get('x-request-id'));
  const traceId = http.spanContext().traceId;
  const trace = spans.filter((s) => s.spanContext().traceId === traceId);

  const name = 'wiki.content.edit.v1.EditService/Edit';
  const client = trace.find((s) => s.kind === SpanKind.CLIENT && s.name === name);
  const server = trace.find((s) => s.kind === SpanKind.SERVER && s.name === name);
  assert.ok(client && server, `Edit on both sides in the trace: ${trace.map((s) => `${s.name}/${SpanKind[s.kind]}`).join(', ')}`);
  assert.equal(parentOf(client), http.spanContext().spanId, 'the gateway called Edit while serving the request');
  // Only the metadata's traceparent links them: the server span's parent is taken from it alone.
  assert.equal(parentOf(server), client.spanContext().spanId);
  assert.equal(server.attributes['quire.request_id'], r.headers.get('x-request-id'), 'the request id travelled too');

  const sql = trace.filter((s) => s.attributes['db.system'] === 'postgresql' && s.attributes['db.namespace'] === 'content');
  const byId = new Map(trace.map((s) => [s.spanContext().spanId, s]));
  const underEdit = (s: ReadableSpan): boolean => {
    for (let p = parentOf(s); p; p = byId.get(p) && parentOf(byId.get(p)!)) if (p === server.spanContext().spanId) return true;
    return false;
  };
  const inserts = sql.filter((s) => s.name === 'INSERT content' && underEdit(s));
  assert.ok(inserts.length >= 2, `the edit's inserts (revision, content…) under its server span: ${sql.map((s) => s.name).join(', ')}`);
  assert.match(String(inserts[0]!.attributes['db.query.text']), /^\s*INSERT INTO content\./);
  // The caller's session and token were checked in the same trace (auth service).
  assert.ok(
    trace.some((s) => s.kind === SpanKind.SERVER && s.name.startsWith('wiki.auth.v1.')),
    'an auth service span in the trace',
  );
});

test('an incoming traceparent (a proxy or mesh started the trace) is continued', async () => {
  exporter.reset();
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const r = await wiki.request('GET', '/w/rest.php/v1/page/Main_Page', undefined, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
  assert.equal(r.status, 200);
  await new Promise((res) => setTimeout(res, 50));
  const http = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.name === 'GET /w/rest.php/v1/page/Main_Page');
  assert.ok(http);
  assert.equal(http.spanContext().traceId, traceId);
  assert.equal(parentOf(http), '00f067aa0ba902b7');
});
