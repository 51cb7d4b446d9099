/* Debian's Chromium for the browser suites, driven by playwright-core (.ci/run installs it). */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Where the browser suites' screenshots go (outside the repository; never committed). */
export const SCREENSHOT_DIR = '/tmp/quire-screenshots';

/** Headless Chromium; a failure, not a skip, when it is missing: the browser is part of what the suites check. */
export async function launchChromium(): Promise<Browser> {
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), as .ci/run does`);
  return chromium.launch({
    executablePath: CHROMIUM,
    // Root in a container: no sandbox. The rest keeps Chromium off the (closed) network.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page in a fresh context, with the Content-Security-Policy violations it reports collected. */
export async function watchedPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; cspViolations: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  return { context, page, cspViolations };
}
