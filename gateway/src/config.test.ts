import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGatewayConfig } from './config.js';

test('REST_DEV_ROUTES: off by default, 1/0, and a bad value stops the start naming the variable', () => {
  assert.equal(loadGatewayConfig({}).restDevRoutes, false);
  assert.equal(loadGatewayConfig({ REST_DEV_ROUTES: '1' }).restDevRoutes, true);
  assert.equal(loadGatewayConfig({ REST_DEV_ROUTES: '0' }).restDevRoutes, false);
  assert.throws(() => loadGatewayConfig({ REST_DEV_ROUTES: 'maybe' }), /REST_DEV_ROUTES/);
});

test('TRUSTED_PROXIES: none trusted by default; CIDRs and addresses, IPv4 and IPv6; a bad entry stops the start naming the variable', () => {
  assert.equal(loadGatewayConfig({}).isTrustedProxy?.('127.0.0.1', 0), false);
  const trust = loadGatewayConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8 , 192.0.2.7,fd00::/8' }).isTrustedProxy!;
  assert.equal(trust('10.1.2.3', 0), true);
  assert.equal(trust('::ffff:10.1.2.3', 0), true);
  assert.equal(trust('11.0.0.1', 0), false);
  assert.equal(trust('192.0.2.7', 0), true);
  assert.equal(trust('192.0.2.8', 0), false);
  assert.equal(trust('fd00::1', 0), true);
  assert.equal(trust('junk', 0), false);
  assert.throws(() => loadGatewayConfig({ TRUSTED_PROXIES: '10.0.0.0/33' }), /TRUSTED_PROXIES/);
  assert.throws(() => loadGatewayConfig({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.example' }), /TRUSTED_PROXIES/);
});

test("WIKI_LOGO: a path on the wiki's own origin, or nothing", () => {
  assert.equal(loadGatewayConfig({}).logo, '');
  assert.equal(loadGatewayConfig({ WIKI_LOGO: '/w/images/a/ab/Logo.png' }).logo, '/w/images/a/ab/Logo.png');
  for (const bad of ['https://cdn.example/logo.png', '//cdn.example/logo.png', 'javascript:alert(1)', '/a" onerror="x', 'logo.png']) {
    assert.throws(() => loadGatewayConfig({ WIKI_LOGO: bad }), /WIKI_LOGO/, bad);
  }
});
