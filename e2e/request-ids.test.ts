/*
 * One request id from the HTTP request (X-Request-Id) to the answer, the action API's
 * internal_api_error_* info, the REST 5xx body and the log line of the failure.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '@quire/kit';
import type { FaultSwitch } from '@quire/kit/faults';
import { startFaultyGateway } from './faulty-gateway.js';
import { startWiki, type TestWiki, type WikiClient } from './harness.js';

type Json = Record<string, any>;

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
