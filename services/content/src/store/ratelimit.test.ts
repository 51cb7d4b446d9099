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

test('RATE_LIMITS is validated', () => {
  assert.throws(() => parseRateLimits('{'), /not valid JSON/);
  assert.throws(() => parseRateLimits('{"edit": {"ip": [0, 60]}}'), /positive integers/);
  assert.deepEqual(parseRateLimits('{"edit": {"ip": [3, 10]}}').edit, { ip: [3, 10], newbie: [8, 60], user: [90, 60] }, 'merged over the defaults per kind');
});

test('MediaWiki defaults for moves, uploads and rollbacks; RATE_LIMITS adds to them', async () => {
  const limits = parseRateLimits(JSON.stringify({ edit: { ip: [1000000, 60] } }));
  assert.deepEqual(limits.move, { newbie: [2, 120], user: [8, 60] });
  assert.deepEqual(limits.upload, { ip: [8, 60], newbie: [8, 60] });
  assert.deepEqual(limits.rollback, { user: [10, 60], newbie: [5, 120] });
  const limiter = new RateLimiter(new MemoryKv(), limits);
  const user = { userId: 3, ip: '192.0.2.3', rights: ['move', 'autoconfirmed'], groups: ['*', 'user', 'autoconfirmed'] };
  const moves = [];
  for (let i = 0; i < 9; i++) moves.push((await limiter.hit('move', user)).limited);
  assert.deepEqual(moves, [false, false, false, false, false, false, false, false, true], '8 moves a minute per user');
  const sysop = { ...user, userId: 4, rights: [...user.rights, 'noratelimit'] };
  for (let i = 0; i < 20; i++) assert.equal((await limiter.hit('move', sysop)).limited, false, 'noratelimit exempts sysops and bots');
  const anonEdits = [];
  for (let i = 0; i < 20; i++) anonEdits.push((await limiter.hit('edit', anon)).limited);
  assert.ok(
    anonEdits.every((x) => !x),
    'the lifted per-IP edit limit',
  );
});
