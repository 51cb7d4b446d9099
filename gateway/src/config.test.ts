import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGatewayConfig } from './config.js';

test('REST_DEV_ROUTES: off by default, 1/0, and a bad value stops the start naming the variable', () => {
  assert.equal(loadGatewayConfig({}).restDevRoutes, false);
  assert.equal(loadGatewayConfig({ REST_DEV_ROUTES: '1' }).restDevRoutes, true);
  assert.equal(loadGatewayConfig({ REST_DEV_ROUTES: '0' }).restDevRoutes, false);
  assert.throws(() => loadGatewayConfig({ REST_DEV_ROUTES: 'maybe' }), /REST_DEV_ROUTES/);
});
