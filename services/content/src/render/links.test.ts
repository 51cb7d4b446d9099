/*
 * Links and switches as MediaWiki 1.39 renders them (parserTests.txt cases and the reference
 * wiki): protocol-relative text is no free link, [[This page#s]] is no self-link, the
 * case-insensitive double-underscore switches and their page properties.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest } from './testing.js';

const pages = new MemoryLookup({ 'Main Page': 'x' });
const render = (text: string, title = 'Test') => renderTest(text, { title, pages, req: { limitReport: false } });
const body = async (text: string, title?: string) => (await render(text, title)).html.replace(/^<div class="mw-parser-output">|<\/div>$/g, '');

describe('links and switches', () => {
  test('//example.com in running text is no link', async () => {
    assert.equal(await body('x //example.com/Foo y'), '<p>x //example.com/Foo y\n</p>');
  });

  test('a link to a section of the page itself is an ordinary link; [[#s]] stays in the page', async () => {
    assert.equal(await body('[[Main Page#section]]', 'Main Page'), '<p><a href="/wiki/Main_Page#section" title="Main Page">Main Page#section</a>\n</p>');
    assert.equal(await body('[[#s]] [[Main Page]]', 'Main Page'), '<p><a href="#s">#s</a> <a class="mw-selflink selflink">Main Page</a>\n</p>');
  });

  test('case-insensitive switches are switches; the others only in capitals; each is a page property', async () => {
    const r = await render('__notoc__ __NoEditSection__ __newsectionlink__ __NOTC__\n== a ==\n== b ==\n== c ==\n== d ==');
    assert.equal(r.showToc, false);
    assert.ok(!r.html.includes('mw-editsection'), r.html);
    assert.ok(r.html.includes('__newsectionlink__'), r.html);
    assert.deepEqual(r.properties, { notoc: '', noeditsection: '', notitleconvert: '' });
  });

  test('__TOC__ is the toc page property; without headings it leaves no mark and no <pre>', async () => {
    const r = await render('a\n__TOC__ x __toc__');
    assert.deepEqual(r.properties, { toc: '' });
    assert.ok(!r.html.includes('\x7f') && !r.html.includes('<pre>'), r.html);
  });
});

describe('link syntax edge cases (parserTests.txt Internal links)', () => {
  test('nothing after the pipe is no link', async () => {
    assert.equal(await body('[[Main Page|]] [[Category:Foo|]] [[Main Page| ]]'), '<p>[[Main Page|]] [[Category:Foo|]] <a href="/wiki/Main_Page" title="Main Page"> </a>\n</p>');
  });

  test('a fragment keeps # and non-ASCII characters as written', async () => {
    assert.equal(await body('[[Main Page#And#Link]] [[#æ v]]'), '<p><a href="/wiki/Main_Page#And#Link" title="Main Page">Main Page#And#Link</a> <a href="#æ_v">#æ v</a>\n</p>');
  });
});
