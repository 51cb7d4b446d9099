/*
 * Tidying's paragraph wrapping (RemexCompatMunger), on parserTests.txt's "paragraph wrapping
 * tests" and the unit function.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTest } from './testing.js';
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
    assert.equal(pWrap('<table><tr><td>x</td></tr></table>'), '<table><tr><td>x</td></tr></table>');
  });

  test('inline elements start a paragraph, metadata does not, a block inside inline content drops it', () => {
    assert.equal(pWrap('<b>x</b><div>y</div>'), '<p><b>x</b></p><div>y</div>');
    assert.equal(pWrap('<link rel="x"/><div>y</div>'), '<link rel="x"/><div>y</div>');
    assert.equal(pWrap('<span>a<div>b</div></span>'), '<span>a<div>b</div></span>');
  });
});
