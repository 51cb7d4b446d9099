/*
 * Tidying's paragraph wrapping (RemexCompatMunger), on parserTests.txt's "paragraph wrapping
 * tests" and the unit function.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest } from './testing.js';
import { pWrap } from './tidy.js';

const body = async (text: string) => (await renderTest(text, { req: { limitReport: false } })).html.replace(/^<div class="mw-parser-output">|<\/div>$/g, '');

describe('p-wrapping as tidying', () => {
  test('inline content beside a block tag on one line gets a paragraph', async () => {
    assert.equal(await body('a <div>foo</div>\n\nb'), '<p>a </p><div>foo</div>\n<p>b\n</p>');
    assert.equal(await body('a <blockquote>foo</blockquote>\n\nb'), '<p>a </p><blockquote><p>foo</p></blockquote>\n<p>b\n</p>');
    assert.equal(await body('<div>foo</div> a\nb\nc\nd<!--foo--> e\nx <div>foo</div> z'), '<div>foo</div><p> a\n</p><p>b\nc\nd e\n</p><p>\nx </p><div>foo</div><p> z</p>');
  });

  test('blank text, block content and existing paragraphs are left alone', () => {
    assert.equal(pWrap('<p>a</p>\n<div>b</div>\n'), '<p>a</p>\n<div>b</div>\n');
    assert.equal(pWrap('<table><tbody><tr><td>x</td></tr></tbody></table>'), '<table><tbody><tr><td>x</td></tr></tbody></table>');
  });

  test('inline elements start a paragraph, metadata does not, a block inside inline content drops it', () => {
    assert.equal(pWrap('<b>x</b><div>y</div>'), '<p><b>x</b></p><div>y</div>');
    assert.equal(pWrap('<link rel="x"/><div>y</div>'), '<link rel="x"/><div>y</div>');
    assert.equal(pWrap('<span>a<div>b</div></span>'), '<span>a<div>b</div></span>');
  });
});

describe('block level and tables as MediaWiki 1.39 (parserTests.txt)', () => {
  const pages = new MemoryLookup({ 'Template:1x': '{{{1}}}' });
  const html = async (text: string) => (await renderTest(text, { pages, req: { limitReport: false } })).html.replace(/^<div class="mw-parser-output">|<\/div>$/g, '');

  test('list items from templates close each other', async () => {
    assert.equal(await html('{{1x|<li>}}a\n{{1x|<li>}}b\n{{1x|<li>}}c'), '<li>a\n</li><li>b\n</li><li>c</li>');
  });

  test('an unclosed empty table alone renders nothing; an empty table has its tbody', async () => {
    assert.equal(await html('{||}'), '');
    assert.equal(await html('{|\n|}'), '<table>\n<tbody><tr><td></td></tr></tbody></table>');
  });

  test('a table row outside a table is dropped', async () => {
    assert.equal(await html('{{1x|<tr></tr>}}'), '');
  });

  test('a line of no-break spaces is a paragraph', async () => {
    assert.equal(await html('\u00a0'), '<p>&#160;\n</p>');
  });

  test('definition lists ignore colons inside tags and links', async () => {
    assert.equal(await html(';one <b>two : tag <i>fun:</i>:</b>:def'), '<dl><dt>one <b>two&#160;: tag <i>fun:</i>:</b></dt>\n<dd>def</dd></dl>\n');
    assert.ok((await html(';[[Help:FAQ]]:The least-read page')).endsWith('>Help:FAQ</a></dt>\n<dd>The least-read page</dd></dl>\n'));
  });
});

describe('HTML tree rules of tidying (parserTests.txt Sanitizer cases)', () => {
  test('a raw table gets its tbody; an open cell closes at the next one', () => {
    assert.equal(pWrap('<table><tr><td>a</td><td>b<td>c</td></tr></table>'), '<table><tbody><tr><td>a</td><td>b</td><td>c</td></tr></tbody></table>');
  });

  test('an end tag closes what is open inside it, and only within its scope', async () => {
    assert.equal(
      (await renderTest('<ul>\n<li>One\n<li>Two:\n<ul>\n<li>Sub-one\n<li>Sub-two\n</ul>\n</ul>', { req: { limitReport: false } })).html.replace(/\n/g, ''),
      '<div class="mw-parser-output"><ul><li>One</li><li>Two:<ul><li>Sub-one</li><li>Sub-two</li></ul></li></ul></div>',
    );
    assert.equal(pWrap('<div><span>a</div>'), '<div><span>a</span></div>');
    assert.equal(pWrap('<table><tbody><tr><td><b>x</td></tr></tbody></table></b>'), '<table><tbody><tr><td><b>x</b></td></tr></tbody></table>');
  });
});
