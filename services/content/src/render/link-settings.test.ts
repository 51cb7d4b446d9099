/*
 * $wgNoFollowLinks, $wgNoFollowDomainExceptions and $wgExternalLinkTarget (WIKI_NOFOLLOW_LINKS,
 * WIKI_NOFOLLOW_DOMAIN_EXCEPTIONS, WIKI_EXTERNAL_LINK_TARGET) on external links and image links,
 * as Parser::getExternalLinkAttribs sets them (expectations from MediaWiki 1.39's parser tests).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest, type testSite } from './testing.js';
import { fileUrlPath } from '../files/paths.js';

const pages = new MemoryLookup();
pages.addFile('Foobar.jpg', { width: 1941, height: 220, mime: 'image/jpeg', url: fileUrlPath('Foobar.jpg') });
const IMG = '<img alt="Foobar.jpg" src="/w/images/3/3a/Foobar.jpg" decoding="async" width="1941" height="220" />';
const body = async (text: string, site: Partial<typeof testSite>) =>
  (await renderTest(text, { pages, site })).html.replace(/^<div class="mw-parser-output">/, '').replace(/\n?<!-- \nNewPP limit report[\s\S]*$/, '');

test("MediaWiki's defaults: nofollow except under mediawiki.org", async () => {
  assert.equal(
    await body('[http://example.com/ a] [https://www.mediawiki.org/ b]', {}),
    '<p><a rel="nofollow" class="external text" href="http://example.com/">a</a> <a class="external text" href="https://www.mediawiki.org/">b</a>\n</p>',
  );
});

test('a link target adds noreferrer noopener; image links order href, title, target, rel', async () => {
  assert.equal(
    await body('[[File:Foobar.jpg|link=http://example.com/]] http://x.org/', { externalLinkTarget: 'foobar' }),
    `<p><a href="http://example.com/" target="foobar" rel="nofollow noreferrer noopener">${IMG}</a> <a target="foobar" rel="nofollow noreferrer noopener" class="external free" href="http://x.org/">http://x.org/</a>\n</p>`,
  );
  assert.match(await body('[http://x.org/ a]', { externalLinkTarget: '_self' }), /<a target="_self" rel="nofollow" class="external text"/);
});

test('nofollow off, or a domain exception', async () => {
  assert.equal(await body('[[File:Foobar.jpg|link=http://example.com/]]', { noFollowLinks: false }), `<p><a href="http://example.com/">${IMG}</a>\n</p>`);
  assert.equal(await body('[[File:Foobar.jpg|link=http://sub.example.com/]]', { noFollowDomainExceptions: ['example.com'] }), `<p><a href="http://sub.example.com/">${IMG}</a>\n</p>`);
  assert.match(await body('[http://notexample.com/ a]', { noFollowDomainExceptions: ['example.com'] }), /rel="nofollow"/);
});
