import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryKv } from '@quire/kit';
import { AccountCache } from './account-cache.js';

test('an answer is kept until a change on any replica, its earliest expiry, or a change made while it was read', async () => {
  const kv = new MemoryKv();
  try {
    const here = new AccountCache(kv);
    const there = new AccountCache(kv); // another replica, sharing the key-value store
    let loads = 0;
    let value = 'one';
    const load = async () => {
      loads++;
      return value;
    };
    const never = () => [null];
    assert.equal(await there.get('k', load, never), 'one');
    assert.equal(await there.get('k', load, never), 'one');
    assert.equal(loads, 1, 'the second answer came from memory');
    value = 'two';
    await here.invalidate(); // a write on the other replica
    assert.equal(await there.get('k', load, never), 'two');
    assert.equal(loads, 2);

    // An expiry in the past (a group membership ending) is not kept at all; one ahead is kept until then.
    const soon = new Date(Date.now() + 80);
    assert.equal(await there.get('e', load, () => [soon, null]), 'two');
    assert.equal(await there.get('e', load, () => [soon]), 'two');
    assert.equal(loads, 3);
    await new Promise((r) => setTimeout(r, 100));
    await there.get('e', load, () => [null]);
    assert.equal(loads, 4, 'read again once the expiry passed');

    // A change committed while the answer was being read: the answer is used once, not kept.
    let changing = true;
    const racing = async () => {
      loads++;
      if (changing) {
        changing = false;
        await here.invalidate();
      }
      return 'raced';
    };
    await there.get('r', racing, never);
    await there.get('r', racing, never);
    assert.equal(loads, 6);
  } finally {
    await kv.close();
  }
});
