import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuthServiceClient } from '@quire/proto/wiki/auth/v1/auth';
import { AuthClient } from './index.js';

/** An auth stub that records the calls it gets, in order, and answers each at once. */
function recordingStub(fail = false) {
  const calls: string[] = [];
  const answer = (name: string) => (req: unknown, _md: unknown, _opts: unknown, cb: (err: unknown, res: unknown) => void) => {
    calls.push(`${name} ${JSON.stringify(req)}`);
    setImmediate(() =>
      fail && name === 'increment'
        ? cb(Object.assign(new Error('down'), { code: 14, details: 'down' }), undefined)
        : cb(null, name === 'getUsers' ? { users: [], invalidNames: [], missingNames: [], missingIds: [] } : {}),
    );
  };
  const stub = { incrementEditCount: answer('increment'), getUsers: answer('getUsers'), listUsers: answer('listUsers'), close() {} };
  return { stub: stub as unknown as AuthServiceClient, calls };
}

test("a user's edits are sent as one count; reads of edit counts send what is collected first", async () => {
  const { stub, calls } = recordingStub();
  const auth = new AuthClient(stub);
  auth.incrementEditCount(7);
  auth.incrementEditCount(7);
  auth.incrementEditCount(9);
  auth.incrementEditCount(7);
  assert.deepEqual(calls, [], 'nothing is sent while edits are collected');
  await auth.getUsers({ ids: [7] });
  assert.deepEqual(calls, ['increment {"userId":7,"count":3}', 'increment {"userId":9,"count":1}', 'getUsers {"names":[],"ids":[7]}']);

  // Left alone, the collection is sent after its delay.
  calls.length = 0;
  auth.incrementEditCount(9);
  await new Promise((r) => setTimeout(r, 250));
  assert.deepEqual(calls, ['increment {"userId":9,"count":1}']);
  await auth.flushEditCounts();
  assert.deepEqual(calls, ['increment {"userId":9,"count":1}'], 'an empty flush sends nothing');
});

test('a count that cannot be sent is reported, and the read that flushed still runs', async () => {
  const { stub, calls } = recordingStub(true);
  const failed: number[] = [];
  const auth = new AuthClient(stub, (_err, userId) => failed.push(userId));
  auth.incrementEditCount(3);
  await auth.listUsers({});
  assert.deepEqual(failed, [3]);
  assert.equal(calls.length, 2);
  assert.match(calls[1]!, /^listUsers /);
});
