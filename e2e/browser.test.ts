/*
 * The special pages in a real browser: headless Chromium (Debian's, at /usr/bin/chromium; .ci/run
 * installs it) driven by playwright-core. A user logs in on Special:UserLogin, creates a bot
 * password with grants on Special:BotPasswords, and a bot logs in with it through the API.
 * Without Chromium this suite fails: it is part of what the pages promise.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium, watchedPage } from './chromium.js';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, WikiClient, type TestWiki } from './harness.js';
import { apiLogin, apiUserinfo } from './special-pages.js';

/** Where the screenshots go (for a person to look at; never committed). */
const SCREENSHOT_DIR = '/tmp';

describe('special pages in Chromium', () => {
  let wiki: TestWiki;
  let browser: Browser | undefined;

  before(async () => {
    wiki = await startWiki('embedded');
    await runAdmin(['createAndPromote', 'Carol', 'carolpass123456', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
  });
  after(async () => {
    await browser?.close();
    await wiki?.close();
  });

  test('log in, create a bot password with basic+editpage, log in with it through the API', async () => {
    browser = await launchChromium();
    const { context, page, cspViolations } = await watchedPage(browser);

    // Anonymous: Special:BotPasswords sends the browser to the login form, which brings it back.
    await page.goto(`${wiki.baseUrl}/wiki/Special:BotPasswords`);
    assert.match(page.url(), /\/w\/index\.php\?title=Special%3AUserLogin&returnto=Special%3ABotPasswords/);
    assert.equal(await page.locator('.msg-warning').innerText(), 'Please log in to be able to access this page or action.');
    await page.fill('#wpName1', 'Carol');
    await page.fill('#wpPassword1', 'carolpass123456');
    await Promise.all([page.waitForURL(/\/wiki\/Special:BotPasswords$/), page.click('#wpLoginAttempt')]);
    assert.equal(await page.locator('h1').innerText(), 'Bot passwords');
    assert.equal(await page.locator('#pt-userpage').innerText(), 'Carol');

    // The bot name, then its own page with the grants.
    await page.fill('#wpappId', 'browserbot');
    await Promise.all([page.waitForURL(/\/wiki\/Special:BotPasswords\/browserbot$/), page.click('button:has-text("Create")')]);
    assert.equal(await page.locator('#bp-login-name').innerText(), 'Carol@browserbot');
    const basic = page.locator('input[value="grant-basic"]');
    assert.ok((await basic.isChecked()) && (await basic.isDisabled()), 'basic: always on');
    await page.check('input[value="grant-editpage"]');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/quire-botpasswords-form.png`, fullPage: true });
    await Promise.all([page.waitForLoadState('load'), page.click('button[name="op"][value="create"]')]);
    assert.equal(await page.locator('h1').innerText(), 'Bot password created');
    assert.equal(await page.locator('#bp-login').innerText(), 'Carol@browserbot');
    const password = await page.locator('#bp-password').innerText();
    assert.match(password, /^[a-z2-7]{32}$/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/quire-botpasswords-created.png`, fullPage: true });

    // The inline stylesheet applies (allowed by its CSP hash) and nothing was blocked.
    // (A string: the e2e workspace compiles without the DOM library.)
    const successBackground = await page.evaluate(`getComputedStyle(document.querySelector('.msg-success')).backgroundColor`);
    assert.equal(successBackground, 'rgb(213, 253, 244)');
    await page.goto(`${wiki.baseUrl}/wiki/Special:BotPasswords/browserbot`);
    assert.equal(await page.locator('button[name="op"][value="create"]').count(), 0, 'the bot now exists: update, reset, delete');
    assert.ok(await page.locator('input[value="grant-editpage"]').isChecked());
    await page.goto(`${wiki.baseUrl}/wiki/Special:BotPasswords`);
    assert.equal(await page.locator('#mw-botpasswords-existing td a').innerText(), 'browserbot');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/quire-botpasswords.png`, fullPage: true });
    assert.deepEqual(cspViolations, []);
    await context.close();

    // The bot: action=login with <user>@<bot>; its rights are Carol's (a sysop) limited to the grants.
    const bot = new WikiClient(wiki.baseUrl);
    const login = await apiLogin(bot, 'Carol@browserbot', password);
    assert.equal(login.result, 'Success');
    assert.equal(login.lgusername, 'Carol');
    const info = await apiUserinfo(bot);
    assert.equal(info.name, 'Carol');
    assert.ok(info.rights.includes('edit'), 'editpage grants edit');
    assert.ok(!info.rights.includes('delete'), 'no delete grant: the sysop right is withheld');
    assert.ok(!info.rights.includes('block'));
  });
  test('a first visitor creates an account: the session failure never shows, mistakes do, and the welcome page is logged in', async () => {
    browser ??= await launchChromium();
    const { context, page, cspViolations } = await watchedPage(browser);
    assert.deepEqual(await context.cookies(), [], 'a fresh browser');
    await page.goto(`${wiki.baseUrl}/wiki/Special:CreateAccount`);
    assert.equal((await context.cookies()).length, 1, 'the form page starts a session');
    const fill = async (name: string, password: string, retype: string) => {
      await page.fill('#wpName2', name);
      await page.fill('#wpPassword2', password);
      await page.fill('#wpRetype', retype);
      await Promise.all([page.waitForLoadState('load'), page.click('#wpCreateaccount')]);
    };
    await fill('Browsernew', 'okapi-meadow-4711', 'okapi-meadow-4712');
    assert.equal(await page.locator('.msg-error').innerText(), 'The passwords you entered do not match.');
    await fill('Carol', 'okapi-meadow-4711', 'okapi-meadow-4711');
    assert.match(await page.locator('.msg-error').innerText(), /^Username entered already in use\./);
    await fill('Browsernew', 'okapi-meadow-4711', 'okapi-meadow-4711');
    assert.equal(await page.locator('h1').innerText(), 'Welcome, Browsernew!');
    assert.equal(await page.locator('#pt-userpage').innerText(), 'Browsernew');
    assert.equal(await page.locator('#pt-createaccount').count(), 0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/quire-createaccount-welcome.png`, fullPage: true });
    await Promise.all([page.waitForURL(/\/wiki\/Main_Page$/), page.click('#mw-returnto a')]);
    assert.equal(await page.locator('#pt-userpage').innerText(), 'Browsernew');
    assert.deepEqual(cspViolations, []);
    await context.close();
  });
});
