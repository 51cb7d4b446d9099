/*
 * The gateway's handlers, built by its real app constructor over real service clients,
 * with the content client made to fail (as a lost connection or a bug below the handler would):
 * each API answers that request in its own error format, without details, and the next request
 * is served normally.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FaultSwitch } from '@quire/kit/faults';
import { startWiki, type TestWiki, type WikiClient } from './harness.js';
import { startFaultyGateway } from './faulty-gateway.js';

let wiki: TestWiki;
let faulty: Awaited<ReturnType<typeof startFaultyGateway>>;
let gateway: WikiClient;
const fault: FaultSwitch = { failing: false, injected: 0 };

before(async () => {
  wiki = await startWiki('embedded');
  faulty = await startFaultyGateway(wiki, fault);
  gateway = faulty.gateway;
});
after(async () => {
  await faulty?.close();
  await wiki?.close();
});

test('REST: a failing content client is a 500 in the REST error shape, and the next request is served', async () => {
  fault.failing = true;
  const failed = await gateway.rest('/v1/page/Main_Page');
  fault.failing = false;
  assert.ok(fault.injected > 0, 'the route reached the failing client');
  assert.equal(failed.status, 500);
  const body = failed.json();
  assert.equal(body.httpCode, 500);
  assert.equal(body.httpReason, 'Internal Server Error');
  assert.doesNotMatch(failed.text, /injected/, 'the cause is logged, not sent');

  const next = await gateway.rest('/v1/page/Main_Page');
  assert.equal(next.status, 200);
  assert.equal(next.json().title, 'Main Page');
});

test('Action API: a failing content client is internal_api_error_<class>, and the next request is served', async () => {
  const params = { action: 'query', prop: 'revisions', titles: 'Main Page', rvprop: 'content', rvslots: 'main', formatversion: '2' };
  fault.failing = true;
  const failed = await gateway.api(params);
  fault.failing = false;
  assert.equal(failed.headers.get('mediawiki-api-error'), 'internal_api_error_InjectedFault');
  const error = failed.json().error;
  assert.equal(error.code, 'internal_api_error_InjectedFault');
  assert.doesNotMatch(JSON.stringify(error), /injected fault/, 'the cause is logged, not sent');

  const next = await gateway.api(params);
  assert.equal(next.status, 200);
  assert.equal(next.json().query.pages[0].title, 'Main Page');
  assert.ok(next.json().query.pages[0].revisions[0].slots.main.content.length > 0);
});
