import { footerLinks, refreshFooterMessages } from './footer.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Response } from 'express';
import type { Caller, GatewayDeps } from '../context.js';
import { loadGatewayConfig } from '../config.js';
import { html, sendPage } from './html.js';
import { FAVICON_ICO } from './favicon.js';

/** The document sendPage writes for an anonymous reader with the given environment. */
function render(env: NodeJS.ProcessEnv): string {
  let body = '';
  const res = {
    status: () => res,
    set: () => res,
    send: (b: string) => {
      body = b;
      return res;
    },
  };
  const deps = { config: loadGatewayConfig(env) } as unknown as GatewayDeps;
  const caller = { user: { anonymous: true, name: '127.0.0.1', rights: [] } } as unknown as Caller;
  sendPage(res as unknown as Response, deps, caller, { title: 'Page', body: html`<p>x</p>` });
  return body;
}

test("the skin: MediaWiki's footer places, the icon link, and WIKI_LOGO in the header", () => {
  const doc = render({ WIKI_NAME: 'Test Wiki', WIKI_LOGO: '/w/images/logo.png' });
  assert.match(doc, /<link rel="icon" href="\/favicon.ico">/);
  assert.match(doc, /<a id="p-logo" href="\/wiki\/Main_Page" title="Visit the main page"><img class="mw-wiki-logo" src="\/w\/images\/logo.png" alt="" height="50">Test Wiki<\/a>/);
  const places = [...doc.matchAll(/<li id="(footer-places-\w+)"><a href="([^"]+)">([^<]+)<\/a><\/li>/g)].map((m) => [m[1], m[2], m[3]]);
  assert.deepEqual(places, [
    ['footer-places-privacy', '/wiki/Project:Privacy_policy', 'Privacy policy'],
    ['footer-places-about', '/wiki/Project:About', 'About Test Wiki'],
    ['footer-places-disclaimer', '/wiki/Project:General_disclaimer', 'Disclaimers'],
  ]);
  assert.doesNotMatch(render({}), /<img/, 'no logo image without WIKI_LOGO');
});

test('/favicon.ico is a 16×16 32-bit icon', () => {
  assert.deepEqual([...FAVICON_ICO.subarray(0, 6)], [0, 0, 1, 0, 1, 0]);
  assert.equal(FAVICON_ICO[6], 16);
  assert.equal(FAVICON_ICO.readUInt16LE(12), 32);
  assert.equal(FAVICON_ICO.readUInt32LE(14) + 22, FAVICON_ICO.length);
});

test("diff tables show wikidiff2's −/+ markers from data-marker, and the text monospace", () => {
  const doc = render({});
  assert.match(doc, /td\.diff-marker::before\{content:attr\(data-marker\)\}/);
  assert.match(doc, /table\.diff-editfont-monospace td\.diff-addedline,[^{]*\{font-family:monospace,monospace\}/);
  assert.match(doc, /table\.diff td\{[^}]*white-space:pre-wrap/);
});

test("the brackets around a row's tools (undo) come from the stylesheet, as MediaWiki's", () => {
  assert.match(render({}), /\.mw-changeslist-links::before\{content:"\("\}\.mw-changeslist-links::after\{content:"\)"\}/);
});

test("the footer's links follow the wiki's MediaWiki: pages (Skin::footerLink): edited text and target, '-' hides one", async () => {
  const pages: Record<string, string> = { 'MediaWiki:Privacy': 'Our privacy', 'MediaWiki:Privacypage': 'Help:Privacy', 'MediaWiki:Disclaimerpage': '-' };
  const asked: string[] = [];
  const deps = {
    config: loadGatewayConfig({ WIKI_NAME: 'Test Wiki' }),
    clients: {
      content: {
        getPage: async (title: string) => {
          asked.push(title);
          return title in pages ? { page: { missing: false }, latest: { content: pages[title] } } : { page: { missing: true } };
        },
      },
    },
  } as unknown as GatewayDeps;
  assert.deepEqual(
    footerLinks(deps).map((l) => l.text),
    ['Privacy policy', 'About Test Wiki', 'Disclaimers'],
    'the defaults before the pages were read',
  );
  await refreshFooterMessages(deps, 1_000_000_000_000);
  assert.deepEqual(footerLinks(deps), [
    { id: 'footer-places-privacy', text: 'Our privacy', page: 'Help:Privacy' },
    { id: 'footer-places-about', text: 'About Test Wiki', page: 'Project:About' },
  ]);
  assert.equal(asked.length, 6);
  await refreshFooterMessages(deps);
  assert.equal(asked.length, 6, 'read again only after a while');
});
