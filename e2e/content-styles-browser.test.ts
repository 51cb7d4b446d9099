/*
 * The web UI styles what the renderer writes (MediaWiki 1.39's content classes), checked in
 * headless Chromium on one page holding each of them: a thumb has its frame and floats, a gallery
 * is a row of boxes and no bulleted list, a wikitable has borders, a red link is red, an external
 * link has its mark, .mw-empty-elt is hidden, the TOC is a box and references are smaller; the
 * thumbnail URLs load, and the page's Content-Security-Policy reports no violation.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { launchChromium, watchedPage } from './chromium.js';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, type TestWiki } from './harness.js';
import { loggedIn, png, upload } from './files-helpers.js';
/** Where the screenshot goes (outside the repository), as the other browser suites. */
const SCREENSHOT_DIR = '/tmp/quire-screenshots';

const PAGE = `__FORCETOC__
== Media ==
[[File:Probe.png|thumb|A thumb caption]]
[[File:Probe.png|frame|left|A framed image]]
[[File:Probe.png|100px|right|border]]
[[File:Missing probe.png|right]]
<gallery caption="A gallery">
File:Probe.png|First
File:Probe.png|Second
</gallery>
== Links and tables ==
An [http://example.org/ external link], a [[No such page|red link]] and a note.<ref>The note.</ref>
{| class="wikitable"
! Head !! Head
|-
| cell || cell
|}
<div class="mw-empty-elt">never shown</div>
== Notes ==
<references/>
`;

describe('content styles in Chromium', () => {
  let wiki: TestWiki;
  let browser: Browser | undefined;

  before(async () => {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    wiki = await startWiki('embedded');
    await runAdmin(['createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
    const admin = await loggedIn(wiki, 'Admin', 'adminpass123456');
    const up = await upload(admin, { filename: 'Probe.png', ignorewarnings: '1', text: 'probe' }, png(400, 300, 5), 'image/png');
    assert.equal(up.upload?.result, 'Success', JSON.stringify(up));
    const edit = (await admin.post('/w/api.php', { action: 'edit', title: 'Content styles', text: PAGE, token: admin.csrf, format: 'json' })).json();
    assert.equal(edit.edit?.result, 'Success', JSON.stringify(edit));
  });
  after(async () => {
    await browser?.close();
    await wiki?.close();
  });

  test('thumbs, frames, floats, galleries, tables, links, TOC, references and hidden empty elements', async () => {
    browser = await launchChromium();
    const { context, page, cspViolations } = await watchedPage(browser);
    const res = await page.goto(`${wiki.baseUrl}/wiki/Content_styles`);
    assert.equal(res?.status(), 200);
    const csp = res?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /(?:^|; )script-src 'self';/, "scripts only from the wiki itself (the skin's file)");
    await page.waitForLoadState('load');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/content-styles.png`, fullPage: true });

    interface Computed {
      float: string;
      display: string;
      color: string;
      content: string;
      borderTop: string;
      borderLeft: string;
      fontSize: string;
    }
    // Evaluated as text in the page (the tests are typed without the DOM library).
    const style = (selector: string, pseudo?: string): Promise<Computed | undefined> =>
      page.evaluate(`(() => {
        const el = document.querySelector(${JSON.stringify(selector)});
        if (!el) return undefined;
        const s = getComputedStyle(el, ${pseudo ? JSON.stringify(pseudo) : 'null'});
        return { float: s.float, display: s.display, color: s.color, content: s.content,
          borderTop: s.borderTopWidth + ' ' + s.borderTopStyle, borderLeft: s.borderLeftWidth + ' ' + s.borderLeftStyle, fontSize: s.fontSize };
      })()`);

    // A thumb: framed box floating right, its image bordered, loaded from its thumbnail URL.
    assert.equal((await style('div.thumb.tright'))?.float, 'right');
    assert.equal((await style('div.thumb.tright div.thumbinner'))?.borderTop, '1px solid');
    assert.equal((await style('div.thumb.tright img.thumbimage'))?.borderTop, '1px solid');
    assert.equal((await style('div.thumb.tleft'))?.float, 'left');
    const img = page.locator('div.thumb.tright img.thumbimage');
    const thumb = {
      src: await img.getAttribute('src'),
      loaded: (await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)) > 0,
      width: (await img.boundingBox())?.width,
    };
    assert.match(thumb?.src ?? '', /^\/w\/images\/thumb\/.+\/300px-Probe\.png$/);
    const served = await fetch(`${wiki.baseUrl}${thumb.src}`);
    assert.equal(served.status, 200, `${thumb.src} is served`);
    assert.ok(thumb.loaded, 'the thumbnail URL serves the image');
    assert.equal(thumb?.width, 300);
    // Inline images with an alignment float; border adds the thin border.
    assert.equal((await style('div.floatright'))?.float, 'right');
    assert.equal((await style('img.thumbborder'))?.borderTop, '1px solid');
    // A gallery: inline boxes with framed thumbs, no list bullets.
    const box = await style('ul.gallery li.gallerybox');
    assert.equal(box?.display, 'inline-block');
    assert.equal((await style('ul.gallery li.gallerybox div.thumb'))?.borderTop, '1px solid');
    assert.equal((await style('ul.gallery li.gallerycaption'))?.display, 'block');
    assert.equal(await page.locator('ul.gallery li.gallerybox').count(), 2);
    // Tables, links, hidden empty elements.
    assert.equal((await style('table.wikitable td'))?.borderLeft, '1px solid');
    assert.equal((await style('table.wikitable th'))?.borderTop, '1px solid');
    assert.equal((await style('a.new'))?.color, 'rgb(215, 51, 51)');
    assert.equal((await style('a.external.text', '::after'))?.content, '"↗"');
    assert.equal((await style('.mw-parser-output .mw-empty-elt'))?.display, 'none');
    assert.equal(await page.locator('.mw-empty-elt').isVisible(), false);
    // The TOC is a bordered box; references are smaller than the text.
    assert.equal((await style('#toc'))?.display, 'table');
    assert.equal((await style('#toc'))?.borderTop, '1px solid');
    const refSize = Number.parseFloat((await style('ol.references'))?.fontSize ?? '0');
    const bodySize = Number.parseFloat((await style('.mw-parser-output'))?.fontSize ?? '0');
    assert.ok(refSize > 0 && refSize < bodySize, `references ${refSize}px, text ${bodySize}px`);

    assert.deepEqual(cspViolations, []);
    await context.close();
  });
});
