/*
 * list=usercontribs&uciprange (ApiQueryUserContribs over a CIDR range): anonymous edits from
 * several addresses (X-Forwarded-For through a trusted local proxy), listed address by address in
 * hex order (descending by default) and newest first within each, continued with MediaWiki's
 * "name|<address>|<timestamp>|<rev id>"; the range checks (invalidiprange, cidrtoobroad) and the
 * one-of parameter rule.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

for (const backend of testBackends()) {
  describe(`usercontribs uciprange (${backend})`, () => {
    let wiki: TestWiki;
    const api = async (params: Record<string, string>) => (await wiki.api({ action: 'query', list: 'usercontribs', formatversion: '2', ...params })).json();

    before(async () => {
      wiki = await startWiki(backend, { TRUSTED_PROXIES: '127.0.0.1/32' });
      // 10.20.0.9 sorts before 10.20.0.10 by hex (0A140009 < 0A14000A), unlike by name.
      for (const [ip, title] of [
        ['10.20.0.10', 'Range A'],
        ['10.20.0.9', 'Range B'],
        ['10.20.0.10', 'Range C'],
        ['10.21.0.1', 'Outside'],
      ]) {
        const r = await wiki.post('/w/api.php', { action: 'edit', format: 'json', title: title!, text: `by ${ip}`, token: '+\\' }, { headers: { 'x-forwarded-for': ip! }, cookies: false });
        assert.equal(r.json().edit?.result, 'Success', r.text);
        await new Promise((done) => setTimeout(done, 1100));
      }
    });
    after(() => wiki?.close());

    test('addresses in hex order (descending, or ascending with ucdir=newer), each newest first', async () => {
      const all = await api({ uciprange: '10.20.0.0/16', ucprop: 'title' });
      assert.deepEqual(
        all.query.usercontribs.map((c: { user: string; title: string }) => `${c.user} ${c.title}`),
        ['10.20.0.10 Range C', '10.20.0.10 Range A', '10.20.0.9 Range B'],
      );
      const newer = await api({ uciprange: '10.20.0.0/16', ucprop: 'title', ucdir: 'newer' });
      assert.deepEqual(
        newer.query.usercontribs.map((c: { title: string }) => c.title),
        ['Range B', 'Range A', 'Range C'],
      );
    });

    test('continuation walks on across addresses', async () => {
      const first = await api({ uciprange: '10.20.0.0/24', ucprop: 'title', uclimit: '2' });
      assert.match(first.continue.uccontinue, /^name\|10\.20\.0\.9\|\d{14}\|\d+$/);
      const rest = await api({ uciprange: '10.20.0.0/24', ucprop: 'title', uclimit: '2', uccontinue: first.continue.uccontinue });
      assert.deepEqual(
        rest.query.usercontribs.map((c: { title: string }) => c.title),
        ['Range B'],
      );
      assert.equal(rest.continue, undefined);
      assert.equal((await api({ uciprange: '10.20.0.0/24', uccontinue: '20261127000000|5' })).error.code, 'badcontinue');
    });

    test('bad and too broad ranges, and the parameters that exclude each other', async () => {
      const bad = await api({ uciprange: '10.20.0.1' });
      assert.deepEqual([bad.error.code, bad.error.info], ['invalidiprange', 'Invalid CIDR range "10.20.0.1".']);
      const broad = await api({ uciprange: '10.0.0.0/8' });
      assert.deepEqual([broad.error.code, broad.error.info], ['cidrtoobroad', 'IPv4 CIDR ranges broader than /16 are not accepted.']);
      assert.equal((await api({ uciprange: '2001:db8::/31' })).error.info, 'IPv6 CIDR ranges broader than /32 are not accepted.');
      assert.deepEqual((await api({ uciprange: '2001:db8::/64' })).query.usercontribs, []);
      const mixed = await api({ uciprange: '10.20.0.0/16', ucuser: 'X', ucuserprefix: 'Y' });
      assert.deepEqual([mixed.error.code, mixed.error.info], ['invalidparammix', 'The parameters "ucuser", "ucuserprefix" and "uciprange" can not be used together.']);
      assert.equal((await api({})).error.info, 'One of the parameters "ucuserprefix", "ucuserids", "uciprange" and "ucuser" is required.');
    });
  });
}
