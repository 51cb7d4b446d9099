/*
 * The OAuth pages in a real browser (Debian's Chromium, driven by playwright-core, as
 * browser.test.ts): a user logs in, proposes an OAuth 2.0 consumer on
 * Special:OAuthConsumerRegistration/propose, an administrator approves it on
 * Special:OAuthManageConsumers, the app sends the user to /w/rest.php/oauth2/authorize with PKCE,
 * the consent page lists the grants and "Allow" lands the browser on the app's callback (the
 * page's CSP must admit that redirect) with the code and state; the app redeems the code and
 * edits as the user; the user revokes it on Special:OAuthManageMyGrants and the token stops working.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium, watchedPage } from './chromium.js';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, type TestWiki } from './harness.js';

describe('OAuth pages in Chromium', () => {
  let wiki: TestWiki;
  let browser: Browser | undefined;
  let app: http.Server;
  let callback = '';
  const arrivals: URL[] = [];

  before(async () => {
    wiki = await startWiki('embedded');
    await runAdmin(['createAndPromote', 'Olga', 'olgapass1234567', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
    // The app's callback: records where the browser arrives.
    app = http.createServer((req, res) => {
      arrivals.push(new URL(req.url ?? '/', callback));
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('back at the app');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
  });
  after(async () => {
    await browser?.close();
    app?.close();
    await wiki?.close();
  });

  test('propose, approve, consent with PKCE, use the token, revoke', async () => {
    browser = await launchChromium();
    const { context, page, cspViolations } = await watchedPage(browser);

    // Registration needs a login: the form sends the browser back.
    await page.goto(`${wiki.baseUrl}/wiki/Special:OAuthConsumerRegistration/propose`);
    assert.match(page.url(), /title=Special%3AUserLogin&returnto=Special%3AOAuthConsumerRegistration%2Fpropose/);
    await page.fill('#wpName1', 'Olga');
    await page.fill('#wpPassword1', 'olgapass1234567');
    await Promise.all([page.waitForURL(/Special:OAuthConsumerRegistration\/propose/), page.click('#wpLoginAttempt')]);
    await page.fill('#wpname', 'Browser app');
    await page.fill('#wpdescription', 'Edits pages for Olga.');
    await page.check('input[name="wpoauthVersion"][value="2"]');
    await page.fill('#wpcallbackUrl', callback);
    await page.check('input[value="grant-editpage"]');
    await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Propose consumer")')]);
    assert.equal(await page.locator('h1').innerText(), 'Consumer proposed');
    const [clientId, secret] = await page.locator('.msg-success code').allInnerTexts();
    assert.match(clientId!, /^[0-9a-f]{32}$/);
    assert.match(secret!, /^[0-9a-f]{40}$/);

    // The administrator (Olga is a sysop) approves it.
    await page.goto(`${wiki.baseUrl}/wiki/Special:OAuthManageConsumers`);
    const row = page.locator('tr', { hasText: clientId! });
    await row.locator('select[name="wpaction"]').selectOption('approve');
    await Promise.all([page.waitForLoadState('load'), row.locator('button').click()]);
    assert.match(await page.locator('.msg-success').innerText(), /is now approved/);

    // The app sends the user to authorize with PKCE; the consent page lists the grants.
    const verifier = crypto.randomBytes(32).toString('base64url');
    const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
    const q = new URLSearchParams({ client_id: clientId!, response_type: 'code', redirect_uri: callback, state: 'xyz', code_challenge: challenge, code_challenge_method: 'S256' });
    await page.goto(`${wiki.baseUrl}/w/rest.php/oauth2/authorize?${q}`);
    assert.equal(await page.locator('h1').innerText(), 'Connect an application to your account');
    assert.match(await page.locator('main ul').innerText(), /Edit existing pages/);
    await page.screenshot({ path: '/tmp/quire-oauth-consent.png', fullPage: true });
    await Promise.all([page.waitForURL(/\/callback\?/), page.click('button[name="wpAllow"]')]);
    // The browser may also ask the app for /favicon.ico: the arrival is the last /callback request.
    const arrival = arrivals.filter((u) => u.pathname === '/callback').at(-1)!;
    assert.equal(arrival.searchParams.get('state'), 'xyz');
    const code = arrival.searchParams.get('code');
    assert.ok(code, 'no code at the callback');
    assert.deepEqual(cspViolations, []);

    // The app redeems the code and edits as Olga.
    const tokenRes = await fetch(`${wiki.baseUrl}/w/rest.php/oauth2/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: callback, code_verifier: verifier }),
    });
    assert.equal(tokenRes.status, 200);
    const { access_token: accessToken } = (await tokenRes.json()) as { access_token: string };
    const bearer = { Authorization: `Bearer ${accessToken}` };
    const csrf = ((await (await fetch(`${wiki.baseUrl}/w/api.php?action=query&meta=tokens&format=json`, { headers: bearer })).json()) as { query: { tokens: { csrftoken: string } } }).query.tokens
      .csrftoken;
    const edit = (await (
      await fetch(`${wiki.baseUrl}/w/api.php`, {
        method: 'POST',
        headers: { ...bearer, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ action: 'edit', title: 'Main Page', appendtext: '\nvia OAuth', token: csrf, format: 'json' }),
      })
    ).json()) as { edit?: { result: string } };
    assert.equal(edit.edit?.result, 'Success');

    // Olga revokes it: the token is refused from then on.
    await page.goto(`${wiki.baseUrl}/wiki/Special:OAuthManageMyGrants`);
    assert.match(await page.locator('table').innerText(), /Browser app/);
    await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Revoke")')]);
    assert.match(await page.locator('.msg-success').innerText(), /revoked/);
    const after = (await (await fetch(`${wiki.baseUrl}/w/api.php?action=query&meta=userinfo&format=json`, { headers: bearer })).json()) as { error?: { code: string } };
    assert.equal(after.error?.code, 'mwoauth-invalid-authorization');
    await context.close();
  });
});
