/* Unit tests of the auth service's rules: user names, TOTP, expiries, password policy, grants, throttles. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryKv } from '@quire/kit';
import { canonicalUserName, isCreatableUserName, isUsableUserName } from './names.js';
import { base32Decode, base32Encode, hotp, totpAt, verifyTotp } from './totp.js';
import { parseExpiry } from './expiry.js';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './passwords.js';
import { grantRights } from './grants.js';
import { Throttler, parseThrottle } from './store/throttle.js';
import { checkToken, sessionTokens, ANON_TOKEN } from './tokens.js';

test('user names: normalized like titles; invalid ones rejected', () => {
  assert.equal(canonicalUserName('alice_smith '), 'Alice smith');
  assert.equal(canonicalUserName('ärger'), 'Ärger');
  for (const bad of ['', '127.0.0.1', '2001:db8::1', 'A/B', 'A#b', 'User:Alice', 'x'.repeat(256), 'a[b]']) assert.equal(canonicalUserName(bad), null, bad);
  assert.equal(canonicalUserName('Foo@bar'), 'Foo@bar', 'valid, though not creatable');
  assert.equal(isCreatableUserName('Foo@bar'), false);
  assert.equal(isCreatableUserName('Foo:bar'), false);
  assert.equal(isUsableUserName('MediaWiki default'), false);
  assert.equal(isCreatableUserName('Bob'), true);
});

test('TOTP: RFC 6238 SHA-1 test vectors, ±1 step window', () => {
  const secret = base32Encode(Buffer.from('12345678901234567890'));
  assert.equal(base32Decode(secret).toString(), '12345678901234567890');
  // RFC 6238 appendix B (8-digit values; the last 6 digits are the 6-digit code).
  assert.equal(totpAt(secret, 59), '287082');
  assert.equal(totpAt(secret, 1111111109), '081804');
  assert.equal(totpAt(secret, 2000000000), '279037');
  assert.equal(hotp(Buffer.from('12345678901234567890'), 0), '755224'); // RFC 4226
  assert.equal(verifyTotp(secret, totpAt(secret, 1000 - 30), 1000), true);
  assert.equal(verifyTotp(secret, totpAt(secret, 1000 + 30), 1000), true);
  assert.equal(verifyTotp(secret, totpAt(secret, 1000 - 90), 1000), false);
  assert.equal(verifyTotp(secret, 'abc', 1000), false);
});

test('expiries: infinite, absolute and relative', () => {
  const now = new Date('2024-01-31T00:00:00Z');
  assert.equal(parseExpiry('infinite', now), null);
  assert.equal(parseExpiry('never', now), null);
  assert.equal(parseExpiry('1 day', now)!.toISOString(), '2024-02-01T00:00:00.000Z');
  assert.equal(parseExpiry('2 weeks', now)!.toISOString(), '2024-02-14T00:00:00.000Z');
  assert.equal(parseExpiry('3 hours', now)!.toISOString(), '2024-01-31T03:00:00.000Z');
  assert.equal(parseExpiry('2025-05-01T10:00:00Z', now)!.toISOString(), '2025-05-01T10:00:00.000Z');
  assert.equal(parseExpiry('20250501100000', now)!.toISOString(), '2025-05-01T10:00:00.000Z');
  assert.throws(() => parseExpiry('whenever', now));
});

test('password policy: MediaWiki defaults and messages', async () => {
  assert.deepEqual(
    checkPasswordPolicy('Alicex', ['*'], 'x').map((p) => p.key),
    ['password-substring-username-match'],
  );
  assert.deepEqual(
    checkPasswordPolicy('Bob', ['*'], 'password').map((p) => p.key),
    ['passwordincommonlist'],
  );
  assert.deepEqual(
    checkPasswordPolicy('Bob', ['*'], 'ExamplePassword').map((p) => p.key),
    ['password-login-forbidden'],
  );
  assert.deepEqual(
    checkPasswordPolicy('Bob', ['*', 'sysop'], 'k9#mQ2z').map((p) => [p.key, p.params]),
    [['passwordtooshort', ['10']]],
  );
  assert.equal(
    checkPasswordPolicy('Bob', ['*'], '').some((p) => p.fatal),
    true,
  );
  assert.deepEqual(checkPasswordPolicy('Bob', ['*'], 'Correct horse battery staple 93'), []);
  const h = await hashPassword('s3cret pass');
  assert.match(h, /^\$argon2id\$/);
  assert.equal(await verifyPassword(h, 's3cret pass'), true);
  assert.equal(await verifyPassword(h, 'other'), false);
  assert.equal(await verifyPassword('', 'x'), false);
});

test('grants: basic always; editpage gives edit', () => {
  const basic = grantRights([]);
  assert.ok(basic.has('read') && basic.has('writeapi'));
  assert.ok(!basic.has('edit'));
  assert.ok(grantRights(['editpage']).has('edit'));
  assert.ok(grantRights(['highvolume']).has('bot'));
});

test('tokens: per session and type, anonymous exactly +\\, constant-time check', () => {
  const t = sessionTokens('secret-a', 'csrf', 1_700_000_000);
  assert.match(t, /^[0-9a-f]{32}[0-9a-f]{8}\+\\$/);
  assert.equal(checkToken('secret-a', 'csrf', t).valid, true);
  assert.equal(checkToken('secret-a', 'csrf', t).generated, 1_700_000_000);
  assert.equal(checkToken('secret-b', 'csrf', t).valid, false, 'another session');
  assert.equal(checkToken('secret-a', 'watch', t).valid, false, 'another type');
  assert.equal(checkToken(null, 'csrf', ANON_TOKEN).valid, true);
  assert.equal(checkToken(null, 'csrf', t).valid, false);
});

test('throttles: count per subject within the window; a count of 0 is off', async () => {
  const kv = new MemoryKv('t:');
  const conds = parseThrottle('2/60', 'X');
  const on = new Throttler(kv, 'pw', conds);
  assert.equal(await on.increase(['a']), null);
  assert.equal(await on.increase(['a']), null);
  assert.deepEqual(await on.increase(['a']), { count: 2, seconds: 60 });
  assert.equal(await on.increase(['b']), null, 'another subject');
  await on.clear(['a']);
  assert.equal(await on.increase(['a']), null);
  const off = new Throttler(kv, 'pw2', parseThrottle('0/86400', 'X'));
  for (let i = 0; i < 5; i++) assert.equal(await off.increase(['a']), null);
  assert.throws(() => parseThrottle('5 per minute', 'X'), /count\/seconds/);
  await kv.close();
});
