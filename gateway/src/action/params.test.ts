/* The `expiry` parameter type (MediaWiki's ExpiryDef) as the action API validates it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiUsageError, type ApiMessage, type ParamDecl } from './types.js';
import { MessageUsageError } from './errors.js';
import { validateParam, type ValidationEnv } from './params.js';

function env(warnings: ApiMessage[] = []): ValidationEnv {
  return { highLimits: false, namespaces: [0], warn: (m) => warnings.push(m), parsedLimit: () => {} };
}

const EXPIRY: ParamDecl = { type: 'expiry', help: 'Expiry.' };
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiUsageError) return { code: e.code, info: e.info };
    throw e;
  }
  return undefined;
};

test('expiry: infinity words, relative and absolute times as ISO 8601', () => {
  for (const word of ['infinite', 'indefinite', 'infinity', 'never']) assert.equal(validateParam('expiry', EXPIRY, word, env()), 'infinity');
  const week = Date.parse(String(validateParam('expiry', EXPIRY, '1 week', env()))) - Date.now();
  assert.ok(Math.abs(week - 7 * 86_400_000) < 5000, String(week));
  assert.equal(validateParam('expiry', EXPIRY, '2100-01-01T00:00:00Z', env()), '2100-01-01T00:00:00Z');
  assert.equal(validateParam('expiry', EXPIRY, '21000101000000', env()), '2100-01-01T00:00:00Z');
});

test('expiry: unreadable → badexpiry, past → badexpiry-past (ExpiryDef failures)', () => {
  assert.deepEqual(
    errorOf(() => validateParam('expiry', EXPIRY, 'whenever', env())),
    { code: 'badexpiry', info: 'Invalid value "whenever" for expiry parameter "expiry".' },
  );
  assert.deepEqual(
    errorOf(() => validateParam('wlexpiry', EXPIRY, 'Infinite', env())),
    { code: 'badexpiry', info: 'Invalid value "Infinite" for expiry parameter "wlexpiry".' },
  );
  assert.deepEqual(
    errorOf(() => validateParam('expiry', EXPIRY, '2001-01-01T00:00:00Z', env())),
    {
      code: 'badexpiry-past',
      info: 'Value "2001-01-01T00:00:00Z" for expiry parameter "expiry" is in the past.',
    },
  );
});

test('expiry: past maxExpiry the maximum is used, with a warning (PARAM_USE_MAX)', () => {
  const warnings: ApiMessage[] = [];
  const decl: ParamDecl = { ...EXPIRY, maxExpiry: '1 year' };
  const cut = Date.parse(String(validateParam('expiry', decl, '2 years', env(warnings)))) - Date.now();
  assert.ok(cut > 364 * 86_400_000 && cut <= 366 * 86_400_000, String(cut));
  assert.deepEqual(
    warnings.map((w) => [w.code, w.key, w.params]),
    [['paramvalidator-badexpiry-duration-max', 'paramvalidator-badexpiry-duration-max', ['expiry', '2 years', '1 year']]],
  );
  assert.equal(validateParam('expiry', decl, 'infinite', env(warnings)), 'infinity');
  assert.equal(warnings.length, 1);
});

test('multi values: duplicates dropped unless allowDuplicates (PARAM_ALLOW_DUPLICATES)', () => {
  const decl: ParamDecl = { type: 'string', multi: true, help: 'Values.' };
  assert.deepEqual(validateParam('v', decl, '1 day|2 days|1 day', env()), ['1 day', '2 days']);
  assert.deepEqual(validateParam('v', { ...decl, allowDuplicates: true }, '1 day|2 days|1 day', env()), ['1 day', '2 days', '1 day']);
});

test('errorformat=raw parameters are typed as MediaWiki prints ParamValidator messages', () => {
  const rawOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      if (e instanceof MessageUsageError) return { key: e.apiMessage.key, rawParams: e.apiMessage.rawParams };
      throw e;
    }
    return undefined;
  };
  assert.deepEqual(
    rawOf(() => validateParam('aplimit', { type: 'limit', max: 500, help: 'L.' }, 'abc', env())),
    {
      key: 'paramvalidator-badinteger',
      rawParams: [{ plaintext: 'aplimit' }, { plaintext: 'abc' }],
    },
  );
  assert.deepEqual(
    rawOf(() => validateParam('apdir', { type: ['ascending', 'descending'], help: 'D.' }, 'up', env())),
    {
      key: 'paramvalidator-badvalue-enumnotmulti',
      rawParams: [{ plaintext: 'apdir' }, { plaintext: 'up' }, { list: [{ plaintext: 'ascending' }, { plaintext: 'descending' }], type: 'text' }, { num: 2 }],
    },
  );
  assert.deepEqual(
    rawOf(() => validateParam('undo', { type: 'integer', min: 0, enforceRange: true, help: 'U.' }, '-1', env())),
    {
      key: 'paramvalidator-outofrange-min',
      rawParams: [{ plaintext: 'undo' }, { plaintext: '-1' }, { num: 0 }, { num: '' }],
    },
  );
  assert.deepEqual(
    rawOf(() => validateParam('titles', { type: 'string', multi: true, help: 'T.' }, Array.from({ length: 60 }, (_, i) => i).join('|'), env())),
    {
      key: 'paramvalidator-toomanyvalues',
      rawParams: [{ plaintext: 'titles' }, { num: 50 }],
    },
  );
  const warnings: ApiMessage[] = [];
  validateParam('rvprop', { type: ['ids', 'user'], multi: true, help: 'P.' }, 'ids|bogus', env(warnings));
  assert.deepEqual(warnings[0]?.rawParams, [{ plaintext: 'rvprop' }, { plaintext: 'ids|bogus' }, { list: [{ plaintext: 'bogus' }], type: 'comma' }, { num: 1 }]);
});

test('namespaces: the non-negative ones, declared extras (-2, -1) too; `*` for every multi-value namespace parameter', () => {
  const wiki: ValidationEnv = { ...env(), namespaces: [-2, -1, 0, 1, 2] };
  const multi: ParamDecl = { type: 'namespace', multi: true, help: 'N.' };
  assert.deepEqual(validateParam('srnamespace', multi, '*', wiki), [0, 1, 2]);
  assert.deepEqual(validateParam('lenamespace', { type: 'namespace', extraNamespaces: [-2, -1], help: 'N.' }, '-1', wiki), -1);
  assert.deepEqual(validateParam('plnamespace', { ...multi, extraNamespaces: [-2, -1] }, '*', wiki), [-2, -1, 0, 1, 2]);
  const warnings: ApiMessage[] = [];
  assert.deepEqual(validateParam('srnamespace', multi, '-1|0', { ...wiki, warn: (m) => warnings.push(m) }), [0]);
  assert.deepEqual(
    warnings.map((w) => w.code),
    ['unrecognizedvalues'],
  );
  assert.equal(errorOf(() => validateParam('apnamespace', { type: 'namespace', help: 'N.' }, '-1', wiki))?.code, 'badvalue');
});

test('deprecations: the parameter or value with its feature (module selectors, then the parameter) and typed raw parameters', () => {
  const warnings: ApiMessage[] = [];
  const wiki: ValidationEnv = { ...env(warnings), featurePrefix: 'action=query&list=categorymembers' };
  validateParam('cmstartsortkey', { type: 'string', deprecated: true, help: 'D.' }, 'a', wiki);
  validateParam('rvprop', { type: ['ids', 'parsetree'], multi: true, deprecatedValues: ['parsetree'], help: 'P.' }, 'parsetree', { ...wiki, featurePrefix: 'action=query&prop=revisions' });
  assert.deepEqual(
    warnings.map((w) => [w.code, w.key, w.data, w.rawParams]),
    [
      ['deprecation', 'paramvalidator-param-deprecated', { feature: 'action=query&list=categorymembers&cmstartsortkey' }, [{ plaintext: 'cmstartsortkey' }, { plaintext: 'a' }]],
      ['deprecation', 'paramvalidator-deprecated-value', { feature: 'action=query&prop=revisions&rvprop=parsetree' }, [{ plaintext: 'rvprop' }, { plaintext: 'parsetree' }]],
    ],
  );
});
