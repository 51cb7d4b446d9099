/*
 * The wiki in a real browser (headless Chromium driven by playwright-core, as browser.test.ts):
 * a user logs in, creates a page with the edit form, previews, saves, edits again (show changes),
 * opens the history, a diff and an old revision, edits a section, searches, finds the page in
 * recent changes, uploads a file and shows it on a page, and logs out; then the page tools (what
 * links here, related changes), hidden categories, a template's section, search snippets, export
 * and import. Each step's page is screenshotted to SCREENSHOT_DIR for a person to look at.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, SCREENSHOT_DIR, watchedPage } from './chromium.js';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, type TestWiki } from './harness.js';
import { png } from './files-helpers.js';

describe('the wiki in Chromium', () => {
  let wiki: TestWiki;
  let browser: Browser | undefined;

  before(async () => {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    wiki = await startWiki('embedded', { CONTENT_JOB_POLL_MS: '50' });
    await runAdmin(['createAndPromote', 'Dana', 'danapass123456', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
    await runAdmin(['createAndPromote', 'Eve', 'evepass12345678'], wiki.testEnv.env, () => undefined);
  });
  after(async () => {
    await browser?.close();
    await wiki?.close();
  });

  const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
  const text = (page: Page, selector: string) => page.locator(selector).first().innerText();

  test('read, log in, create, preview, save, edit, history, diff, old revision, search, recent changes, upload, log out', async () => {
    browser = await launchChromium();
    const { context, page, cspViolations } = await watchedPage(browser);
    const base = wiki.baseUrl;

    // The root goes to the Main Page, which anonymous readers see with the skin's links.
    const root = await page.goto(`${base}/`);
    assert.equal(new URL(page.url()).pathname, '/wiki/Main_Page');
    assert.equal(root?.status(), 200);
    assert.equal(await text(page, '#firstHeading'), 'Main Page');
    assert.equal(await text(page, '#pt-login'), 'Log in');
    assert.equal(await page.locator('#n-recentchanges a').getAttribute('href'), '/wiki/Special:RecentChanges');
    assert.match(root?.headers()['content-security-policy'] ?? '', /script-src|default-src 'none'/);
    assert.equal(root?.headers()['x-frame-options'], 'DENY');
    await shot(page, '01-main-page-anonymous');

    // Log in from the personal links; the login form brings the reader back.
    await page.goto(`${base}/w/index.php?title=Special:UserLogin&returnto=Main_Page`);
    await page.fill('#wpName1', 'Dana');
    await page.fill('#wpPassword1', 'danapass123456');
    await Promise.all([page.waitForURL(/\/wiki\/Main_Page$/), page.click('#wpLoginAttempt')]);
    assert.equal(await text(page, '#pt-userpage'), 'Dana');
    assert.ok(await page.locator('#ca-delete').count(), 'a sysop sees the delete tab');

    // A missing page: 404 with a link to create it.
    const missing = await page.goto(`${base}/wiki/Browser_test_page`);
    assert.equal(missing?.status(), 404);
    await shot(page, '02-missing-page');
    await Promise.all([page.waitForURL(/action=edit/), page.click('#create-this-page')]);
    assert.equal(await text(page, '#firstHeading'), 'Creating Browser test page');
    await page.fill('#wpTextbox1', "'''Hello''' from the browser.\n\n== First section ==\nSection text.\n\n[[Category:Browser tests]]");
    await page.fill('#wpSummary', 'created in a browser');
    await Promise.all([page.waitForLoadState('load'), page.click('#wpPreview')]);
    assert.equal(await text(page, '#wikiPreview b'), 'Hello');
    assert.match(await page.inputValue('#wpTextbox1'), /from the browser/);
    await shot(page, '03-edit-preview');
    await Promise.all([page.waitForURL(/\/wiki\/Browser_test_page$/), page.click('#wpSave')]);
    assert.equal(await text(page, '#mw-content-text b'), 'Hello');
    assert.match(await text(page, '#catlinks'), /Browser tests/);
    await shot(page, '04-saved-page');

    // Edit again, look at the changes, save.
    await Promise.all([page.waitForURL(/action=edit/), page.click('#ca-edit a')]);
    assert.match(await page.inputValue('#wpTextbox1'), /^'''Hello''' from the browser\./);
    await page.fill('#wpTextbox1', "'''Hello''' again from the browser.\n\n== First section ==\nSection text, edited.\n\n[[Category:Browser tests]]");
    await page.fill('#wpSummary', 'second edit');
    await Promise.all([page.waitForLoadState('load'), page.click('#wpDiff')]);
    assert.ok(await page.locator('#wikiDiff td.diff-addedline').count(), 'the changes are shown');
    await shot(page, '05-edit-show-changes');
    await Promise.all([page.waitForURL(/\/wiki\/Browser_test_page$/), page.click('#wpSave')]);
    assert.match(await text(page, '#mw-content-text'), /again from the browser/);

    // History: two revisions; compare them.
    await Promise.all([page.waitForURL(/action=history/), page.click('#ca-history a')]);
    assert.equal(await page.locator('#pagehistory li').count(), 2);
    await shot(page, '06-history');
    await Promise.all([page.waitForURL(/diff=/), page.click('#mw-history-compare button >> nth=0')]);
    assert.ok(await page.locator('table.diff td.diff-addedline').count());
    assert.match(await text(page, 'table.diff'), /second edit/);
    await shot(page, '07-diff');

    // The old revision, with its navigation.
    await page.click('#differences-prevlink').catch(() => undefined);
    await page.goto(`${base}/wiki/Browser_test_page`);
    await page.click('#ca-history a');
    await Promise.all([page.waitForURL(/oldid=/), page.locator('#pagehistory li').last().locator('a.mw-changeslist-date').click()]);
    assert.match(await text(page, '#mw-revision-info'), /Revision as of/);
    assert.match(await text(page, '#mw-content-text'), /Hello from the browser/);
    await shot(page, '08-old-revision');

    // A section edit: the form holds that section only, and the save keeps the rest.
    await page.goto(`${base}/w/index.php?title=Browser_test_page&action=edit&section=1`);
    assert.equal(await page.inputValue('#wpTextbox1'), '== First section ==\nSection text, edited.\n\n[[Category:Browser tests]]');
    await page.fill('#wpTextbox1', '== First section ==\nSection text, edited in its section.\n\n[[Category:Browser tests]]');
    await Promise.all([page.waitForURL(/\/wiki\/Browser_test_page/), page.click('#wpSave')]);
    assert.match(await text(page, '#mw-content-text'), /again from the browser[\s\S]*edited in its section/);

    // Search (the index follows content's change feed: poll briefly), then "Go" to the exact title.
    let found = false;
    for (let i = 0; i < 40 && !found; i++) {
      await page.goto(`${base}/w/index.php?title=Special:Search&search=browser+section&fulltext=1`);
      found = (await page.locator('.mw-search-result-heading a', { hasText: 'Browser test page' }).count()) > 0;
      if (!found) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(found, 'the page is found by its words');
    assert.ok(await page.locator('.searchmatch').count(), 'snippets mark the matches');
    await shot(page, '09-search');
    await page.fill('#searchInput', 'browser test page');
    await Promise.all([page.waitForURL(/\/wiki\/Browser_test_page$/), page.press('#searchInput', 'Enter')]);

    // Recent changes list the page's edits.
    await page.click('#n-recentchanges a');
    assert.ok(await page.locator('#mw-recentchanges a.mw-changeslist-title', { hasText: 'Browser test page' }).count());
    await shot(page, '10-recent-changes');

    // Upload a file, see its description page, and show it on a page.
    await page.click('#t-upload a');
    await page.setInputFiles('#wpUploadFile', { name: 'Browser-test.png', mimeType: 'image/png', buffer: png(64, 48, 7) });
    await page.fill('#wpUploadDescription', 'A picture uploaded in a browser');
    await shot(page, '11-upload-form');
    await Promise.all([page.waitForURL(/\/wiki\/File:Browser-test\.png$/), page.click('#wpUpload')]);
    const img = page.locator('#file img');
    assert.equal(await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth), 64, 'the image loads (same origin, allowed by the CSP)');
    await shot(page, '12-file-page');
    await page.goto(`${base}/w/index.php?title=Browser_test_page&action=edit`);
    await page.fill('#wpTextbox1', `${await page.inputValue('#wpTextbox1')}\n\n[[File:Browser-test.png]]`);
    await Promise.all([page.waitForURL(/\/wiki\/Browser_test_page$/), page.click('#wpSave')]);
    assert.equal(
      await page
        .locator('#mw-content-text img')
        .first()
        .evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
      64,
    );
    await shot(page, '13-page-with-image');

    // Log out: the skin's script posts the API's logout with the token and reloads the page; the
    // personal links are the anonymous ones again. Without script the link opens the form.
    await Promise.all([page.waitForEvent('load'), page.click('#pt-logout a')]);
    await page.locator('#pt-login').waitFor();
    assert.equal(await text(page, '#pt-login'), 'Log in');
    await page.goto(`${base}/wiki/Special:UserLogout`);
    assert.match(await text(page, '.msg-notice'), /You are not logged in/);
    await shot(page, '14-logged-out');

    // Small screens: the sidebar moves below the content.
    await page.setViewportSize({ width: 400, height: 800 });
    await page.goto(`${base}/wiki/Browser_test_page`);
    await shot(page, '15-narrow-screen');
    assert.deepEqual(cspViolations, []);
    await context.close();
  });

  test('every other page, as a sysop and anonymously: an edit conflict, the sysop forms, the lists', async () => {
    browser ??= await launchChromium();
    const { context, page, cspViolations } = await watchedPage(browser);
    const base = wiki.baseUrl;
    await page.goto(`${base}/w/index.php?title=Special:UserLogin&returnto=Special:SpecialPages`);
    await page.fill('#wpName1', 'Dana');
    await page.fill('#wpPassword1', 'danapass123456');
    await Promise.all([page.waitForURL(/Special:SpecialPages$/), page.click('#wpLoginAttempt')]);

    // An edit conflict: a form opened on a revision that another user changed the same line of.
    await page.goto(`${base}/w/index.php?title=Conflict_demo&action=edit`);
    await page.fill('#wpTextbox1', 'The first line.\nThe second line.');
    await Promise.all([page.waitForURL(/Conflict_demo$/), page.click('#wpSave')]);
    await page.goto(`${base}/w/index.php?title=Conflict_demo&action=edit`);
    const eve = await watchedPage(browser);
    await eve.page.goto(`${base}/w/index.php?title=Special:UserLogin&returnto=Conflict_demo`);
    await eve.page.fill('#wpName1', 'Eve');
    await eve.page.fill('#wpPassword1', 'evepass12345678');
    await Promise.all([eve.page.waitForURL(/Conflict_demo$/), eve.page.click('#wpLoginAttempt')]);
    await eve.page.goto(`${base}/w/index.php?title=Conflict_demo&action=edit`);
    await eve.page.fill('#wpTextbox1', 'The first line, changed by Eve.\nThe second line.');
    await Promise.all([eve.page.waitForURL(/Conflict_demo$/), eve.page.click('#wpSave')]);
    await eve.context.close();
    await page.fill('#wpTextbox1', 'The first line, changed here.\nThe second line.');
    await Promise.all([page.waitForLoadState('load'), page.click('#wpSave')]);
    assert.match(await text(page, '#firstHeading'), /^Edit conflict: Conflict demo$/);
    assert.equal(await page.inputValue('#wpTextbox2'), 'The first line, changed here.\nThe second line.', 'the edit is kept');
    await shot(page, '16-edit-conflict');

    const tour: [string, string, number][] = [
      ['/wiki/Category:Browser_tests', '17-category-page', 404],
      ['/wiki/Special:SpecialPages', '18-special-pages', 200],
      ['/wiki/Special:AllPages', '19-all-pages', 200],
      ['/wiki/Special:Categories', '20-categories', 200],
      ['/wiki/Special:Contributions/Dana', '21-contributions', 200],
      ['/wiki/Special:Log', '22-log', 200],
      ['/wiki/Special:Watchlist', '23-watchlist', 200],
      ['/w/index.php?title=Browser_test_page&action=info', '24-page-info', 200],
      ['/w/index.php?title=Browser_test_page&action=protect', '25-protect', 200],
      ['/w/index.php?title=Browser_test_page&action=delete', '26-delete', 200],
      ['/wiki/Special:MovePage/Browser_test_page', '27-move', 200],
      ['/wiki/Special:Block', '28-block', 200],
      ['/wiki/Special:Undelete', '29-undelete', 200],
      ['/wiki/Special:Preferences', '30-preferences', 200],
      ['/wiki/Special:ChangePassword', '31-change-password', 200],
      ['/wiki/Special:Version', '32-version', 200],
      ['/w/index.php?title=Browser_test_page&action=purge', '33-purge', 200],
      ['/w/index.php?title=Browser_test_page&action=unwatch', '34-unwatch', 200],
      ['/w/index.php?title=Special:RecentChanges&hidebots=0&days=30&limit=100', '35-recent-changes-options', 200],
    ];
    for (const [path, name, status] of tour) {
      const r = await page.goto(`${base}${path}`);
      assert.equal(r?.status(), status, path);
      assert.ok((await text(page, '#firstHeading')).length > 0, path);
      await shot(page, name);
      if (name === '17-category-page') assert.ok(await page.locator('#mw-pages a', { hasText: 'Browser test page' }).count(), 'the category lists its page');
    }

    // Protected: anonymous readers get the source, not the form.
    await page.goto(`${base}/w/index.php?title=Conflict_demo&action=protect`);
    await page.selectOption('#mwProtect-level-edit', 'sysop');
    await Promise.all([page.waitForLoadState('load'), page.click('#mw-Protect-submit')]);
    assert.match(await text(page, '.msg-success'), /protection level/);
    await context.clearCookies();
    const source = await page.goto(`${base}/w/index.php?title=Conflict_demo&action=edit`);
    assert.equal(source?.status(), 403);
    assert.match(await text(page, '#firstHeading'), /^View source for Conflict demo$/);
    await shot(page, '36-view-source');
    await page.goto(`${base}/wiki/Special:CreateAccount`);
    await shot(page, '37-create-account');
    await page.goto(`${base}/wiki/Special:UserLogin`);
    await shot(page, '38-login');
    assert.deepEqual(cspViolations, []);
    await context.close();
  });

  test('page tools, what links here, related changes, export, import, snippets, template sections and hidden categories', async () => {
    browser ??= await launchChromium();
    const { context, page, cspViolations } = await watchedPage(browser);
    const base = wiki.baseUrl;
    await page.goto(`${base}/w/index.php?title=Special:UserLogin&returnto=Main_Page`);
    await page.fill('#wpName1', 'Dana');
    await page.fill('#wpPassword1', 'danapass123456');
    await Promise.all([page.waitForURL(/\/wiki\/Main_Page$/), page.click('#wpLoginAttempt')]);
    const save = async (title: string, text: string) => {
      await page.goto(`${base}/w/index.php?title=${encodeURIComponent(title)}&action=edit`);
      await page.fill('#wpTextbox1', text);
      await Promise.all([page.waitForLoadState('load'), page.click('#wpSave')]);
    };
    await save('Category:Browser hidden', 'Tracking.\n__HIDDENCAT__');
    await save('Template:Browser box', '== Box heading ==\nInside the box.');
    await save('Tools target', "'''Tools target''' is about okapis, a [[Tools linker|linked]] animal.\n\n{{Browser box}}\n[[Category:Browser tests]]\n[[Category:Browser hidden]]");
    await save('Tools linker', 'See [[Tools target]] for okapis.');
    await save('Tools redirect', '#REDIRECT [[Tools target]]');

    // The sidebar's page tools lead to what links here (links arrive with the job queue).
    await page.goto(`${base}/wiki/Tools_target`);
    assert.ok(await page.locator('#t-permalink a').count(), 'a permanent link');
    assert.ok(await page.locator('#t-info a').count(), 'page information');
    for (let i = 0; i < 60; i++) {
      await Promise.all([page.waitForURL(/WhatLinksHere/), page.click('#t-whatlinkshere a')]);
      if ((await page.locator('#mw-whatlinkshere-list li').count()) >= 2) break;
      await page.waitForTimeout(250);
      await page.goto(`${base}/wiki/Tools_target`);
    }
    assert.match(await text(page, '#mw-whatlinkshere-list'), /Tools linker[\s\S]*Tools redirect \(redirect page\)/);
    await shot(page, '39-what-links-here');
    await page.goto(`${base}/wiki/Tools_target`);
    await Promise.all([page.waitForURL(/RecentChangesLinked/), page.click('#t-recentchangeslinked a')]);
    assert.match(await text(page, '#mw-recentchangeslinked'), /Tools linker/);
    await shot(page, '40-related-changes');

    // Hidden categories: only after opting in.
    await page.goto(`${base}/wiki/Tools_target`);
    assert.equal(await page.locator('#mw-hidden-catlinks').count(), 0);
    await page.goto(`${base}/wiki/Special:Preferences`);
    await page.check('#mw-input-wpshowhiddencats');
    await Promise.all([page.waitForLoadState('load'), page.click('#mw-prefs-save')]);
    for (let i = 0; i < 60 && !(await page.locator('#mw-hidden-catlinks').count()); i++) {
      await page.waitForTimeout(250);
      await page.goto(`${base}/wiki/Tools_target`);
    }
    assert.match(await text(page, '#mw-hidden-catlinks'), /Hidden category: Browser hidden/);
    await shot(page, '41-hidden-categories');

    // The template's section, edited from its heading on the page that includes it.
    await page.locator('.mw-editsection a[href*="section=T-1"]').first().click();
    await page.waitForLoadState('load');
    assert.match(await text(page, '#firstHeading'), /Editing Template:Browser box \(section\)/);
    assert.equal(await page.inputValue('#wpTextbox1'), '== Box heading ==\nInside the box.');
    await shot(page, '42-template-section-edit');

    // Search results: plain text with the match in bold.
    for (let i = 0; i < 60; i++) {
      await page.goto(`${base}/w/index.php?title=Special:Search&search=okapis&fulltext=1`);
      if (await page.locator('.searchresult .searchmatch').count()) break;
      await page.waitForTimeout(250);
    }
    assert.doesNotMatch(await text(page, '.mw-search-results'), /'''|\[\[/);
    await shot(page, '43-search-snippets');

    // Export the page with its history; import it again under a root page.
    await page.goto(`${base}/wiki/Special:Export`);
    await page.fill('#mw-input-pages', 'Tools target');
    await page.uncheck('#curonly');
    await page.uncheck('#wpDownload');
    await shot(page, '44-export-form');
    const exported = await context.request.post(`${base}/wiki/Special:Export`, { form: { pages: 'Tools target' } });
    const xml = await exported.text();
    assert.match(xml, /<title>Tools target<\/title>/);
    await page.goto(`${base}/wiki/Special:Import`);
    await page.setInputFiles('#xmlimport', { name: 'tools.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) });
    await page.fill('#mw-import-usernamePrefix', 'browser');
    await page.check('#mw-import-mapping-subpage');
    await page.fill('input[name=rootpage]', 'User:Dana/Imported');
    await page.fill('#mw-import-comment', 'round trip');
    await shot(page, '45-import-form');
    await Promise.all([page.waitForLoadState('load'), page.click('#mw-import-submit')]);
    assert.match(await text(page, '#mw-import-result'), /User:Dana\/Imported\/Tools target 1 revision/);
    assert.match(await text(page, '.mw-import-success'), /Import finished!/);
    await shot(page, '46-import-result');
    assert.deepEqual(cspViolations, []);
    await context.close();
  });
});
