/*
 * The TypeDefs both APIs validate with: each failure's MediaWiki code, message key, parameters
 * and data, and the range rule in its two settings (action API: clamp with a warning; REST:
 * enforced).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { booleanValue, checkIntegerRange, enumValue, expiryValue, integerValue, ParamFailure, timestampValue, userValue } from './typedefs.js';

function failureOf(fn: () => unknown): Pick<ParamFailure, 'code' | 'key' | 'params' | 'data'> | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof ParamFailure) return { code: e.code, key: e.key, params: e.params, data: e.data };
    throw e;
  }
  return undefined;
}

test('IntegerDef: decimal integers that fit exactly', () => {
  assert.equal(integerValue('n', '+42'), 42);
  assert.equal(integerValue('n', '-7'), -7);
  for (const bad of ['', '1.5', '0x10', '1e3', '99999999999999999999']) {
    assert.deepEqual(
      failureOf(() => integerValue('n', bad)),
      { code: 'badinteger', key: 'paramvalidator-badinteger', params: ['n', bad], data: null },
    );
  }
});

test('NumericDef range: clamped with a warning, or enforced; max2 for high-limit callers', () => {
  const warnings: ParamFailure[] = [];
  const opts = { highLimits: false, enforce: false, warn: (f: ParamFailure) => warnings.push(f) };
  const range = { min: 1, max: 500, highMax: 5000 };
  assert.equal(checkIntegerRange('limit', '700', 700, range, opts), 500);
  assert.equal(checkIntegerRange('limit', '700', 700, range, { ...opts, highLimits: true }), 700);
  assert.equal(checkIntegerRange('limit', '0', 0, range, opts), 1);
  assert.deepEqual(
    warnings.map((w) => [w.code, w.key, w.params, w.data]),
    [
      ['outofrange', 'paramvalidator-outofrange-minmax', ['limit', '700', 1, 500], { min: 1, curmax: 500, max: 500, highmax: 5000 }],
      ['outofrange', 'paramvalidator-outofrange-minmax', ['limit', '0', 1, 500], { min: 1, curmax: 500, max: 500, highmax: 5000 }],
    ],
  );
  assert.deepEqual(
    failureOf(() => checkIntegerRange('n', '-1', -1, { min: 0 }, { ...opts, enforce: true })),
    {
      code: 'outofrange',
      key: 'paramvalidator-outofrange-min',
      params: ['n', '-1', 0, ''],
      data: { min: 0, curmax: null, max: null, highmax: null },
    },
  );
});

test('BooleanDef, EnumDef and UserDef', () => {
  assert.equal(booleanValue('b', 'Yes'), true);
  assert.equal(booleanValue('b', ''), false);
  assert.equal(failureOf(() => booleanValue('b', 'maybe'))?.code, 'badbool');
  assert.equal(enumValue('dir', 'older', ['newer', 'older'] as const), 'older');
  assert.deepEqual(
    failureOf(() => enumValue('dir', 'up', ['newer', 'older'])),
    { code: 'badvalue', key: 'paramvalidator-badvalue-enumnotmulti', params: ['dir', 'up'], data: null },
  );
  assert.equal(userValue('user', 'user:alice_smith', ['name']), 'Alice smith');
  assert.equal(userValue('user', '2001:db8::1', ['ip']), '2001:DB8::1');
  assert.equal(failureOf(() => userValue('user', '192.0.2.1', ['name']))?.code, 'baduser');
});

test('TimestampDef and ExpiryDef', () => {
  const warnings: ParamFailure[] = [];
  const warn = (f: ParamFailure) => warnings.push(f);
  assert.equal(timestampValue('start', '2024-01-31T23:59:59Z', warn), '20240131235959');
  assert.match(timestampValue('start', '0', warn), /^\d{14}$/);
  assert.deepEqual(
    warnings.map((w) => w.code),
    ['unclearnowtimestamp'],
  );
  assert.equal(failureOf(() => timestampValue('start', 'yesterday-ish', warn))?.code, 'badtimestamp');
  // As the reference answers: fields out of range roll over; past year 9999 there is no TS_MW.
  assert.equal(timestampValue('start', '20261301000000', warn), '20270101000000');
  assert.equal(timestampValue('start', '20260231000000', warn), '20260303000000');
  assert.equal(timestampValue('start', '00000101000000', warn), '00000101000000');
  assert.equal(timestampValue('start', '99991231235959', warn), '99991231235959');
  assert.equal(failureOf(() => timestampValue('wlend', '99999999999999', warn))?.code, 'badtimestamp');
  assert.equal(expiryValue('expiry', 'never', undefined, warn), 'infinity');
  assert.equal(expiryValue('expiry', '2100-01-01', undefined, warn), '2100-01-01T00:00:00Z');
  assert.equal(failureOf(() => expiryValue('expiry', 'soonish', undefined, warn))?.code, 'badexpiry');
  assert.equal(failureOf(() => expiryValue('expiry', '2000-01-01', undefined, warn))?.code, 'badexpiry-past');
});
