import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ipHex, ipsInRange } from './ip-range.js';

test('IPUtils::toHex: IPv4 as 8 hex digits, IPv6 expanded behind "v6-"; anything else ""', () => {
  assert.equal(ipHex('10.20.0.9'), '0A140009');
  assert.equal(ipHex('2001:db8::1'), 'v6-20010DB8000000000000000000000001');
  assert.equal(ipHex('::1'), 'v6-00000000000000000000000000000001');
  assert.equal(ipHex('imported>Alice'), '');
});

test("only addresses of the range's family inside it", () => {
  assert.deepEqual(ipsInRange(['10.20.0.9', '10.21.0.1', '2001:DB8:0:0:0:0:0:1', 'Alice', '1.2.3'], '10.20.0.0/16'), ['10.20.0.9']);
  assert.deepEqual(ipsInRange(['2001:DB8:0:0:0:0:0:1', '2001:db9::1', '10.20.0.9'], '2001:db8::/32'), ['2001:DB8:0:0:0:0:0:1']);
});
