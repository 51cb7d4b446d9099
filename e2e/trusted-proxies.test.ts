/*
 * TRUSTED_PROXIES: X-Forwarded-For and X-Forwarded-Proto are believed only from a peer
 * in the list. The wiki listens on both loopbacks and trusts only ::1, so the same request sent
 * over 127.0.0.1 comes from an untrusted peer and over [::1] from the trusted proxy.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

const CLIENT = '203.0.113.9';

for (const backend of testBackends()) {
  describe(`TRUSTED_PROXIES (${backend})`, () => {
    let wiki: TestWiki;
    let direct: WikiClient;
    let viaProxy: WikiClient;

    before(async () => {
      wiki = await startWiki(backend, { HOST: '::', TRUSTED_PROXIES: '::1/128' });
      const port = new URL(wiki.baseUrl).port;
      direct = new WikiClient(`http://127.0.0.1:${port}`);
      viaProxy = new WikiClient(`http://[::1]:${port}`);
      await runAdmin(['createAndPromote', 'Blocker', 'blockerpass123456', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
    });
    after(() => wiki.close());

    async function anonName(client: WikiClient, headers: Record<string, string>): Promise<string> {
      const r = await client.api({ action: 'query', meta: 'userinfo', formatversion: '2' }, { headers, cookies: false });
      assert.equal(r.status, 200);
      const info = r.json().query.userinfo;
      assert.equal(info.anon, true);
      return info.name as string;
    }

    test('a spoofed X-Forwarded-For from an untrusted peer is ignored', async () => {
      assert.equal(await anonName(direct, { 'x-forwarded-for': CLIENT }), '127.0.0.1');
    });

    test('from the trusted proxy, the walk goes right to left past trusted hops to the client', async () => {
      assert.equal(await anonName(viaProxy, { 'x-forwarded-for': CLIENT }), CLIENT);
      // The leftmost entry was written by the client itself: only the hop the proxy added counts.
      assert.equal(await anonName(viaProxy, { 'x-forwarded-for': `198.51.100.1, ${CLIENT}` }), CLIENT);
      // A trusted hop inside the chain is skipped.
      assert.equal(await anonName(viaProxy, { 'x-forwarded-for': `${CLIENT}, ::1` }), CLIENT);
    });

    test('a hop that is not an address ends the walk at the last trusted proxy, never becoming the client', async () => {
      const own = await anonName(viaProxy, {});
      assert.notEqual(own, '127.0.0.1');
      assert.equal(await anonName(viaProxy, { 'x-forwarded-for': 'unknown' }), own);
      assert.equal(await anonName(viaProxy, { 'x-forwarded-for': `${CLIENT}, <script>` }), own);
    });

    test('edits are attributed to the real client and its block applies only through the trusted proxy', async () => {
      const admin = new WikiClient(wiki.baseUrl);
      const lt = (await admin.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
      const login = (await admin.post('/w/api.php', { format: 'json', action: 'login', lgname: 'Blocker', lgpassword: 'blockerpass123456', lgtoken: lt })).json();
      assert.equal(login.login.result, 'Success');
      const csrf = (await admin.api({ action: 'query', meta: 'tokens' })).json().query.tokens.csrftoken;

      const edit = (client: WikiClient, text: string) =>
        client.post('/w/api.php', { action: 'edit', format: 'json', formatversion: '2', title: 'Proxy test', text, token: '+\\' }, { headers: { 'x-forwarded-for': CLIENT }, cookies: false });

      const first = (await edit(viaProxy, 'first')).json();
      assert.equal(first.edit?.result, 'Success', JSON.stringify(first));
      const rev = (await wiki.api({ action: 'query', prop: 'revisions', titles: 'Proxy test', rvprop: 'user', formatversion: '2' })).json();
      assert.equal(rev.query.pages[0].revisions[0].user, CLIENT);

      const block = (await admin.post('/w/api.php', { action: 'block', format: 'json', user: CLIENT, reason: 'proxy test', token: csrf })).json();
      assert.ok(block.block, JSON.stringify(block));

      const blocked = (await edit(viaProxy, 'second')).json();
      assert.equal(blocked.error?.code, 'blocked', JSON.stringify(blocked));
      // The same header from an untrusted peer names no one: the edit is 127.0.0.1's, which is not blocked.
      const spoofed = (await edit(direct, 'third')).json();
      assert.equal(spoofed.edit?.result, 'Success', JSON.stringify(spoofed));
      const last = (await wiki.api({ action: 'query', prop: 'revisions', titles: 'Proxy test', rvprop: 'user', formatversion: '2' })).json();
      assert.equal(last.query.pages[0].revisions[0].user, '127.0.0.1');
    });

    test('X-Forwarded-Proto: https from the trusted proxy makes the session cookie Secure, from others not', async () => {
      const cookieAfterLogin = async (client: WikiClient, headers: Record<string, string>) => {
        const c = new WikiClient(client.baseUrl);
        const lt = (await c.api({ action: 'query', meta: 'tokens', type: 'login' }, { headers })).json().query.tokens.logintoken;
        const r = await c.post('/w/api.php', { format: 'json', action: 'login', lgname: 'Blocker', lgpassword: 'blockerpass123456', lgtoken: lt }, { headers });
        assert.equal(r.json().login.result, 'Success');
        const session = r.headers.getSetCookie().find((line) => line.startsWith('quire_session='));
        assert.ok(session, 'the login sets the session cookie');
        return session;
      };
      assert.match(await cookieAfterLogin(viaProxy, { 'x-forwarded-proto': 'https' }), /;\s*Secure/i);
      assert.doesNotMatch(await cookieAfterLogin(direct, { 'x-forwarded-proto': 'https' }), /;\s*Secure/i);
      assert.doesNotMatch(await cookieAfterLogin(viaProxy, {}), /;\s*Secure/i);
    });
  });
}
