/*
 * Real MediaWiki clients against the real stack: mwn (npm) logging in with a bot password, and
 * the request sequence mwclient sends when it connects and logs in.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Mwn } from 'mwn';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

for (const backend of testBackends()) {
  describe(`MediaWiki clients (${backend})`, () => {
    let wiki: TestWiki;
    let botPassword: string;

    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,bureaucrat,bot'], wiki.testEnv.env, () => undefined);
      const lines: string[] = [];
      await runAdmin(['createBotPassword', 'Admin', 'ci', '--grants', 'basic,editpage,highvolume'], wiki.testEnv.env, (l) => lines.push(l));
      botPassword = lines[1]!;
    });
    after(() => wiki.close());

    test('mwn: bot-password login, getSiteInfo, userinfo, getCsrfToken', async () => {
      const bot = new Mwn({ apiUrl: `${wiki.baseUrl}/w/api.php`, username: 'Admin@ci', password: botPassword, silent: true, maxRetries: 0 });
      const login = await bot.login();
      assert.equal(login.result, 'Success');
      assert.equal(login.lgusername, 'Admin');
      // getSiteInfo feeds mwn's Title class with the namespaces.
      await bot.getSiteInfo();
      assert.equal(new bot.Title('user talk:alice').toText(), 'User talk:Alice');
      const info = await bot.userinfo({ uiprop: ['groups', 'rights'] });
      assert.equal(info.name, 'Admin');
      assert.ok(info.rights.includes('bot'));
      assert.ok(!info.rights.includes('delete'), 'grants limit the session');
      const token = await bot.getCsrfToken();
      assert.match(token, /^[0-9a-f]{32}[0-9a-f]+\+\\$/);
      assert.equal((await bot.request({ action: 'checktoken', type: 'csrf', token })).checktoken.result, 'valid');
      await bot.logout();
      assert.equal((await bot.request({ action: 'checktoken', type: 'csrf', token })).checktoken.result, 'invalid');
    });

    test('mwclient-style: siteinfo|userinfo, login with a bot password, the same again', async () => {
      const c = new WikiClient(wiki.baseUrl);
      const meta = { action: 'query', meta: 'siteinfo|userinfo', siprop: 'general|namespaces', uiprop: 'groups|rights|blockinfo|hasmsg', continue: '' };
      const first = (await c.api(meta)).json().query;
      assert.equal(first.general.sitename, 'Quire');
      assert.ok(first.namespaces['0']);
      assert.equal(first.userinfo.anon, '');
      assert.deepEqual(first.userinfo.groups, ['*']);
      assert.equal(first.userinfo.messages, undefined, 'fv1: false is omitted');
      const token = (await c.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
      const login = (await c.post('/w/api.php', { format: 'json', action: 'login', lgname: 'Admin@ci', lgpassword: botPassword, lgtoken: token })).json();
      assert.equal(login.login.result, 'Success');
      const second = (await c.api(meta)).json().query;
      assert.equal(second.userinfo.name, 'Admin');
      assert.ok(second.userinfo.groups.includes('bot'));
      assert.ok(second.userinfo.rights.includes('edit'));
      assert.equal(second.userinfo.blockid, undefined);
    });
  });
}
