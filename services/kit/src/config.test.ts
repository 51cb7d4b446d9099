import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, v } from './config.js';

const spec = {
  port: v.port(['PORT'], { default: 8080 }),
  url: v.url(['SVC_DATABASE_URL', 'DATABASE_URL'], { protocols: ['postgres', 'postgresql'] }),
  flag: v.bool(['FLAG'], { default: false }),
  name: v.string(['NAME'], { required: true }),
  size: v.int(['SIZE'], { default: 10, min: 1, max: 100 }),
};

test('defaults apply and per-service variables win over shared ones', () => {
  const c = loadConfig(spec, { NAME: 'x', DATABASE_URL: 'postgres://a/b', SVC_DATABASE_URL: 'postgres://c/d' });
  assert.deepEqual(c, { port: 8080, url: 'postgres://c/d', flag: false, name: 'x', size: 10 });
});

test('every bad value is reported at once, by variable name', () => {
  const err = (() => {
    try {
      loadConfig(spec, { PORT: '99999', DATABASE_URL: 'mysql://x/y', FLAG: 'maybe', SIZE: 'ten' });
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  assert.ok(err instanceof ConfigError);
  assert.equal(err.problems.length, 5);
  assert.match(err.message, /PORT=99999 is out of range/);
  assert.match(err.message, /DATABASE_URL must use postgres or postgresql/);
  assert.match(err.message, /FLAG="maybe" is not a boolean/);
  assert.match(err.message, /NAME is required/);
  assert.match(err.message, /SIZE="ten" is not an integer/);
});
