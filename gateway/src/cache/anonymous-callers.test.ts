/*
 * Anonymous callers kept by IP: a read without credentials does not call the auth service again,
 * a write always does, and a write through the gateway (a block) is seen by the next request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'express';
import type { User } from '../clients/types.js';
import { AnonymousCallers } from './anonymous-callers.js';
import { invalidateOnWrite } from './response-cache.js';
import { keepAnonymousCallers, resolveCaller } from '../caller.js';
import type { GatewayDeps } from '../context.js';

function fakeDeps() {
  const calls: { sid: string; ip: string }[] = [];
  let blocked = false;
  const deps = {
    config: { wikiId: 'wiki', server: 'http://localhost', isTrustedProxy: undefined },
    clients: {
      auth: {
        async resolveSession(sid: string, ip: string) {
          calls.push({ sid, ip });
          const user = { id: 0, name: ip, anonymous: true, groups: ['*'], rights: ['read', 'edit'], ...(blocked ? { block: { id: 1 } } : {}) } as unknown as User;
          return { user, sessionValid: false };
        },
      },
    },
  } as unknown as GatewayDeps;
  return { deps, calls, block: () => (blocked = true) };
}

const request = (method: string, ip: string, headers: Record<string, string> = {}) => ({ method, headers, socket: { remoteAddress: ip } }) as unknown as Request;

test('resolveCaller: anonymous reads of one IP ask the auth service once; writes, sessions and other IPs always ask', async () => {
  const { deps, calls } = fakeDeps();
  keepAnonymousCallers(deps, new AnonymousCallers());
  const opts = { allowCredentials: true };
  const first = await resolveCaller(request('GET', '10.0.0.1'), deps, opts);
  const second = await resolveCaller(request('GET', '10.0.0.1'), deps, opts);
  assert.equal(calls.length, 1);
  assert.equal(second.user.name, '10.0.0.1');
  assert.deepEqual(second.user.rights, first.user.rights);
  assert.equal(second.sessionId, '');
  await resolveCaller(request('GET', '10.0.0.2'), deps, opts);
  await resolveCaller(request('POST', '10.0.0.1'), deps, opts);
  await resolveCaller(request('GET', '10.0.0.1', { cookie: 'wiki_session=abc' }), deps, opts);
  assert.deepEqual(
    calls.map((c) => [c.sid, c.ip]),
    [
      ['', '10.0.0.1'],
      ['', '10.0.0.2'],
      ['', '10.0.0.1'],
      ['abc', '10.0.0.1'],
    ],
  );
});

test('a write through the gateway (e.g. a block) makes the next read of that IP ask again', async () => {
  const { deps, calls, block } = fakeDeps();
  const callers = new AnonymousCallers();
  keepAnonymousCallers(deps, callers);
  const opts = { allowCredentials: true };
  await resolveCaller(request('GET', '10.0.0.1'), deps, opts);
  // The block request passes the write middleware, which forgets the kept callers.
  const res = { end() {}, once() {} };
  invalidateOnWrite(callers)(request('POST', '10.0.0.9'), res as never, () => {});
  block();
  const after = await resolveCaller(request('GET', '10.0.0.1'), deps, opts);
  assert.equal(calls.length, 2);
  assert.ok((after.user as unknown as { block?: unknown }).block, 'the block is seen');
});

test('AnonymousCallers: entries expire, and a resolution begun before an invalidation is not kept', () => {
  const callers = new AnonymousCallers(1000, 2);
  const user = { id: 0, name: '1.1.1.1' } as User;
  callers.put('1.1.1.1', callers.begin(), user, 0);
  assert.equal(callers.get('1.1.1.1', 999), user);
  assert.equal(callers.get('1.1.1.1', 1000), undefined);
  const since = callers.begin();
  callers.invalidate();
  callers.put('1.1.1.1', since, user, 0);
  assert.equal(callers.get('1.1.1.1', 1), undefined);
  for (const ip of ['a', 'b', 'c']) callers.put(ip, callers.begin(), user, 0);
  assert.equal(callers.get('a', 1), undefined, 'the oldest goes beyond maxEntries');
  assert.equal(callers.get('c', 1), user);
});
