import { describe, test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { openKv, type KvStore } from './kv.js';
import { testBackends } from './testing.js';

for (const backend of testBackends()) {
  describe(`kv on ${backend}`, () => {
    let kv: KvStore;
    before(async () => {
      const prefix = `quire-test-${crypto.randomBytes(4).toString('hex')}:`;
      kv = await openKv({ url: backend === 'servers' ? process.env.REDIS_URL : undefined, prefix });
    });
    after(() => kv.close());

    test('get/set/del with and without expiry', async () => {
      assert.equal(await kv.get('a'), null);
      await kv.set('a', '1');
      assert.equal(await kv.get('a'), '1');
      assert.equal(await kv.ttl('a'), -1);
      await kv.set('b', '2', 30);
      const ttl = await kv.ttl('b');
      assert.ok(ttl > 25 && ttl <= 30, `ttl ${ttl}`);
      assert.equal(await kv.del('a'), true);
      assert.equal(await kv.del('a'), false);
      assert.equal(await kv.ttl('a'), -2);
    });

    test('keys expire', async () => {
      await kv.set('short', 'x', 1);
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal(await kv.get('short'), null);
    });

    test('setIfAbsent is a lease; incr keeps the expiry of the first call', async () => {
      assert.equal(await kv.setIfAbsent('lease', 'me', 10), true);
      assert.equal(await kv.setIfAbsent('lease', 'you', 10), false);
      assert.equal(await kv.get('lease'), 'me');
      assert.equal(await kv.incr('n', 60), 1);
      assert.equal(await kv.incr('n', 60), 2);
      assert.equal(await kv.incr('n'), 3);
      assert.ok((await kv.ttl('n')) > 0);
      assert.equal(await kv.incr('forever'), 1);
      assert.equal(await kv.ttl('forever'), -1);
    });
  });
}

test('an unreachable REDIS_URL fails at start', async () => {
  await assert.rejects(openKv({ url: 'redis://127.0.0.1:1' }), /did not answer|ECONNREFUSED|Connection is closed|Reached the max retries/);
});
