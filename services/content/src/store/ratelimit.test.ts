import test from 'node:test';
import assert from 'node:assert/strict';
import { MemoryKv } from '@quire/kit';
import { parseRateLimits, RateLimiter } from './ratelimit.js';

const anon = { userId: 0, ip: '192.0.2.1', rights: ['edit'], groups: ['*'] };

test('MediaWiki defaults: 8 edits a minute per IP for anonymous users; noratelimit is exempt', async () => {
  const limiter = new RateLimiter(new MemoryKv(), parseRateLimits(undefined));
  for (let i = 0; i < 8; i++) assert.deepEqual(await limiter.hit('edit', anon), { limited: false });
  const refused = await limiter.hit('edit', anon);
  assert.equal(refused.limited, true);
  assert.ok(refused.limited && refused.retryAfter > 0 && refused.retryAfter <= 60);
  assert.deepEqual(await limiter.hit('edit', { ...anon, ip: '192.0.2.2' }), { limited: false }, 'another IP has its own count');
  assert.deepEqual(await limiter.hit('edit', { ...anon, rights: ['edit', 'noratelimit'] }), { limited: false });
  assert.deepEqual(await limiter.hit('move', anon), { limited: false }, 'actions without limits are not counted');
});

test('users: newbie until autoconfirmed, then user or the most generous group limit (bots)', async () => {
  const limiter = new RateLimiter(new MemoryKv(), parseRateLimits(JSON.stringify({ edit: { newbie: [1, 60], user: [2, 60], bot: [5, 60] } })));
  const newbie = { userId: 7, ip: '192.0.2.9', rights: ['edit'], groups: ['*', 'user'] };
  assert.equal((await limiter.hit('edit', newbie)).limited, false);
  assert.equal((await limiter.hit('edit', newbie)).limited, true);
  const user = { userId: 8, ip: '192.0.2.9', rights: ['edit', 'autoconfirmed'], groups: ['*', 'user', 'autoconfirmed'] };
  assert.deepEqual([(await limiter.hit('edit', user)).limited, (await limiter.hit('edit', user)).limited, (await limiter.hit('edit', user)).limited], [false, false, true]);
  const bot = { userId: 9, ip: '192.0.2.9', rights: ['edit', 'autoconfirmed', 'bot'], groups: ['*', 'user', 'bot'] };
  const outcomes = [];
  for (let i = 0; i < 6; i++) outcomes.push((await limiter.hit('edit', bot)).limited);
  assert.deepEqual(outcomes, [false, false, false, false, false, true]);
});

test('RATE_LIMITS_JSON is validated', () => {
  assert.throws(() => parseRateLimits('{'), /not valid JSON/);
  assert.throws(() => parseRateLimits('{"edit": {"ip": [0, 60]}}'), /positive integers/);
  assert.deepEqual(parseRateLimits('{"edit": {"ip": [3, 10]}}').edit, { ip: [3, 10] });
});
