/*
 * A first visit, in Chromium, on a fresh wiki, as a newcomer makes it: no cookies, straight to
 * Special:CreateAccount; then a page with a heading, a link, a template, a table, a category and a
 * thumbnail, its image uploaded with Special:Upload, a section edit that lands on its section, the
 * history, an undo, a diff, search (its suggestions and its results), a signature and a time zone
 * that the wiki then uses, an email address, watching through the skin's script, and logging out.
 * Every step is screenshotted to SCREENSHOT_DIR/journey-*.png for a person to look at.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, watchedPage } from './chromium.js';
import { startWiki, type TestWiki } from './harness.js';
import { png } from './files-helpers.js';
import { SCREENSHOT_DIR } from './chromium.js';

describe('a first visit in Chromium', () => {
  let wiki: TestWiki;
  let browser: Browser | undefined;

  before(async () => {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    wiki = await startWiki('embedded', { CONTENT_JOB_POLL_MS: '50' });
  });
  after(async () => {
    await browser?.close();
    await wiki?.close();
  });

  let step = 0;
  const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/journey-${String(++step).padStart(2, '0')}-${name}.png`, fullPage: true });
  const text = (page: Page, selector: string) => page.locator(selector).first().innerText();

  test('create an account, write and illustrate a page, edit, undo, search, set preferences, watch, log out', async () => {
    browser = await launchChromium();
    const { context, page, cspViolations } = await watchedPage(browser);
    const base = wiki.baseUrl;
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    // Straight to the account form, with no session: the form must work the first time.
    assert.deepEqual(await context.cookies(), []);
    await page.goto(`${base}/wiki/Special:CreateAccount`);
    await shot(page, 'create-account');
    await page.fill('#wpName2', 'Newcomer');
    await page.fill('#wpPassword2', 'newcomer-pass-2026');
    await page.fill('#wpRetype', 'newcomer-pass-2026');
    await Promise.all([page.waitForLoadState('load'), page.click('#wpCreateaccount')]);
    assert.equal(await text(page, '#firstHeading'), 'Welcome, Newcomer!');
    assert.equal(await text(page, '#pt-userpage'), 'Newcomer', 'logged in as the new account');
    await shot(page, 'welcome');

    // A template, then the page that uses it, with everything a first page has; the post-edit notice shows.
    const save = async (title: string, wikitext: string, summary: string) => {
      await page.goto(`${base}/w/index.php?title=${encodeURIComponent(title)}&action=edit`);
      await page.fill('#wpTextbox1', wikitext);
      await page.fill('#wpSummary', summary);
      await Promise.all([page.waitForURL((u) => !u.search.includes('action=')), page.click('#wpSave')]);
    };
    await save('Template:Greeting', "''Welcome to the okapi page.''", 'a template');
    const article = [
      '{{Greeting}}',
      '[[File:Okapi-photo.png|thumb|An okapi, framed]]',
      'The okapi lives in the [[Ituri Rainforest]].',
      '',
      '== Habitat ==',
      'Dense forest.',
      '',
      '== Diet ==',
      '{| class="wikitable"',
      '! Food !! Share',
      '|-',
      '| Leaves || Most',
      '|-',
      '| Fruit || Some',
      '|}',
      '',
      '[[Category:Animals]]',
    ].join('\n');
    // Preview first: the preview, its categories box and the templates it used.
    await page.goto(`${base}/w/index.php?title=Okapi&action=edit`);
    await page.fill('#wpTextbox1', article);
    await Promise.all([page.waitForLoadState('load'), page.click('#wpPreview')]);
    assert.equal(await text(page, '#wikiPreview i'), 'Welcome to the okapi page.');
    assert.match(await text(page, '#catlinks'), /Animals/);
    assert.match(await text(page, '.templatesUsed'), /Templates used in this preview:\s*Template:Greeting \(edit\)/);
    await shot(page, 'preview');
    await save('Okapi', article, 'first version');
    assert.equal(new URL(page.url()).pathname, '/wiki/Okapi');
    await page.locator('#mw-notification').waitFor({ state: 'visible' });
    assert.equal(await text(page, '#mw-notification'), 'The page has been created.');
    assert.equal(await text(page, '#mw-content-text i'), 'Welcome to the okapi page.', 'the template is transcluded');
    assert.equal(await page.locator('#mw-content-text a.new', { hasText: 'Ituri Rainforest' }).count(), 1, 'a red link to a missing page');
    assert.equal(await page.locator('#mw-content-text table.wikitable tr').count(), 3);
    assert.match(await text(page, '#catlinks'), /Animals/);
    await shot(page, 'page-before-upload');

    // The image's red link leads to the upload form with the name filled in.
    await page.goto(`${base}/wiki/Special:Upload?wpDestFile=Okapi-photo.png`);
    await page.setInputFiles('#wpUploadFile', { name: 'Okapi-photo.png', mimeType: 'image/png', buffer: png(400, 300, 11) });
    await page.fill('#wpUploadDescription', 'An okapi, drawn by a test');
    await shot(page, 'upload-form');
    await Promise.all([page.waitForURL(/\/wiki\/File:Okapi-photo\.png$/), page.click('#wpUpload')]);
    await shot(page, 'file-page');

    // The page shows the image framed and floated right, with its caption.
    await page.goto(`${base}/w/index.php?title=Okapi&action=purge`);
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    await page.goto(`${base}/wiki/Okapi`);
    const thumb = page.locator('#mw-content-text .thumb').first();
    assert.equal(await thumb.evaluate('getComputedStyle(document.querySelector("#mw-content-text .thumb")).float'), 'right');
    assert.equal(await page.evaluate('getComputedStyle(document.querySelector("#mw-content-text .thumbinner")).borderTopStyle'), 'solid', 'framed');
    assert.ok((await thumb.locator('img').evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)) > 0, 'the image loads');
    assert.equal(await text(page, '.thumbcaption'), 'An okapi, framed');
    await shot(page, 'page-with-thumbnail');

    // A section edit from the section's own link, landing back on that section.
    await Promise.all([page.waitForURL(/section=2/), page.locator('h2:has(#Diet) .mw-editsection a').click()]);
    assert.match(await page.inputValue('#wpTextbox1'), /^== Diet ==/);
    await page.fill('#wpTextbox1', (await page.inputValue('#wpTextbox1')).replace('| Fruit || Some', '| Fruit || Some\n|-\n| Bark || A little'));
    await page.fill('#wpSummary', 'bark too');
    await Promise.all([page.waitForURL(/\/wiki\/Okapi#Diet$/), page.click('#wpSave')]);
    assert.equal(await page.locator('#mw-content-text table.wikitable tr').count(), 4);
    await page.locator('#mw-notification').waitFor({ state: 'visible' });
    assert.equal(await text(page, '#mw-notification'), 'Your edit was saved.');
    await shot(page, 'section-saved');

    await page.goto(`${base}/w/index.php?title=Okapi&action=edit`);
    assert.match(await text(page, '.templatesUsed'), /Templates used on this page:\s*Template:Greeting \(edit\)/);

    // History, then undo the section edit from its undo link, then the diff of the two.
    await Promise.all([page.waitForURL(/action=history/), page.click('#ca-history a')]);
    assert.equal(await page.locator('#pagehistory li').count(), 2);
    await shot(page, 'history');
    await Promise.all([page.waitForURL(/undo=/), page.locator('#pagehistory li').first().locator('a', { hasText: 'undo' }).click()]);
    await shot(page, 'undo-form');
    await Promise.all([page.waitForURL(/\/wiki\/Okapi/), page.click('#wpSave')]);
    assert.equal(await page.locator('#mw-content-text table.wikitable tr').count(), 3, 'the undo restored the table');
    await page.click('#ca-history a');
    assert.equal(await page.locator('#pagehistory li').count(), 3);
    await Promise.all([page.waitForURL(/diff=/), page.locator('#pagehistory li').first().locator('a', { hasText: 'prev' }).click()]);
    assert.match(await text(page, 'table.diff'), /Bark/);
    assert.ok((await page.locator('table.diff td.diff-marker[data-marker="−"]').count()) > 0, 'removed lines are marked');
    await shot(page, 'diff');

    // Search: suggestions under the box while typing (the skin's script), then the results page.
    await page.goto(`${base}/wiki/Main_Page`);
    let suggested = false;
    for (let i = 0; i < 40 && !suggested; i++) {
      await page.fill('#searchInput', '');
      await page.locator('#searchInput').pressSequentially('Oka');
      suggested = await page
        .locator('#searchSuggestions li', { hasText: 'Okapi' })
        .waitFor({ timeout: 1000 })
        .then(() => true)
        .catch(() => false);
    }
    assert.ok(suggested, 'the page is suggested');
    await shot(page, 'search-suggestions');
    await Promise.all([page.waitForURL(/\/wiki\/Okapi$/), page.locator('#searchSuggestions li a', { hasText: 'Okapi' }).click()]);
    let found = false;
    for (let i = 0; i < 40 && !found; i++) {
      await page.goto(`${base}/w/index.php?title=Special:Search&search=dense+forest&fulltext=1`);
      found = (await page.locator('.mw-search-result-heading a', { hasText: 'Okapi' }).count()) > 0;
      if (!found) await page.waitForTimeout(250);
    }
    assert.ok(found, 'the page is found by its words');
    await shot(page, 'search-results');

    // A signature and a time zone: the next signed comment uses the signature, times show in the zone.
    await page.goto(`${base}/wiki/Special:Preferences`);
    await page.fill('#mw-input-wpnickname', 'Newcomer the okapi fan');
    await page.selectOption('#mw-input-wptimecorrection', 'Offset|600');
    await shot(page, 'preferences');
    await Promise.all([page.waitForLoadState('load'), page.click('#mw-prefs-save')]);
    assert.match(await text(page, '.msg-success'), /Your preferences have been saved/);
    // The email address: set from Preferences' link with the password, then shown there.
    await Promise.all([page.waitForURL(/Special:ChangeEmail/), page.click('#mw-pref-change-email')]);
    await page.fill('#wpNewEmail', 'newcomer@example.org');
    await page.fill('#wpPassword', 'newcomer-pass-2026');
    await Promise.all([page.waitForLoadState('load'), page.click('#mw-changeemail-submit')]);
    assert.match(await text(page, '.msg-success'), /Your email address has been changed/);
    await shot(page, 'email-changed');
    await page.goto(`${base}/wiki/Special:Preferences`);
    assert.match(await text(page, '#mw-pref-email'), /^newcomer@example\.org Change or remove email address$/);
    await save('Talk:Okapi', 'Nice page. ~~~~', 'a signed comment');
    assert.match(await text(page, '#mw-content-text'), /Nice page\. Newcomer the okapi fan \(talk\) \d\d:\d\d, \d+ \w+ \d{4} \(UTC\)/);
    assert.match((await page.locator('#mw-content-text a', { hasText: 'Newcomer the okapi fan' }).getAttribute('href')) ?? '', /[=/]User:Newcomer(&|$)/, 'the signature links the user page');
    await page.click('#ca-history a');
    const saved = await page.locator('#pagehistory li a.mw-changeslist-date').first().innerText();
    const utc = new Date();
    const inZone = new Date(utc.getTime() + 600 * 60_000);
    const hours = [inZone.getUTCHours(), new Date(inZone.getTime() - 60_000).getUTCHours()].map((h) => String(h).padStart(2, '0'));
    assert.ok(hours.includes(saved.slice(0, 2)), `history shows UTC+10 (${saved}, now ${utc.toISOString()})`);
    await shot(page, 'signed-talk-history');

    // Watch from the tab, without leaving the page (the skin's script and the API).
    await page.goto(`${base}/wiki/Main_Page`);
    const before = page.url();
    await page.click('#ca-watch a');
    await page.locator('#ca-unwatch a').waitFor();
    assert.equal(page.url(), before, 'no confirmation page');
    assert.match(await text(page, '#mw-notification'), /"Main Page" and its talk page have been added to your watchlist\./);
    await shot(page, 'watched');
    const raw = (await (await context.request.get(`${base}/w/api.php?action=query&list=watchlistraw&format=json&formatversion=2`)).json()) as { watchlistraw: { title: string }[] };
    assert.ok(
      raw.watchlistraw.some((w) => w.title === 'Main Page'),
      'Main Page is on the watchlist',
    );

    // Log out from the personal tools: the API logs out, the page comes back for a reader.
    await page.goto(`${base}/wiki/Okapi`);
    await Promise.all([page.waitForEvent('load'), page.click('#pt-logout a')]);
    await page.locator('#pt-login').waitFor();
    assert.equal(await text(page, '#pt-login'), 'Log in');
    await shot(page, 'logged-out');

    assert.deepEqual(cspViolations, []);
    assert.deepEqual(pageErrors, []);
    await context.close();
  });
});
