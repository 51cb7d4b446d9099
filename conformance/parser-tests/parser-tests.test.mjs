/*
 * The parser-test runner's own pieces: the file reader, the expected-output mapping, the
 * normalization and the ratchet file. `node --test conformance/parser-tests/` (the normalization
 * needs conformance/node_modules, which `npm run conformance` installs; skipped without it).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseOptions, readTestFile } from './reader.mjs';
import { adaptExpected, jpegSized, readParserRatchet, settingsKey, settingsOf, writeParserRatchet } from './runner.mjs';

const FILE = `!! Version 2
# MediaWiki Parser test cases

!! article
Template:Foo
!! text
FOO
!! endarticle

###
### Basic tests
### (second heading line)
###

!! test
Blank input
!! wikitext
!! html
!! end

## a comment, not a heading
!! test
Two sections
!! options
title=[[Main Page]] pst section=2 replace=1,"new text" parsoid={"modes":["wt2html"]}
cat
!! config
wgRawHtml=true
wgFragmentMode=["legacy"]
!! wikitext
a
b
!! html/php
<p>a b</p>
!! html/parsoid
<p>x</p>
!! html
<p>not this</p>
!! end

#### A four-hash line is not a heading
!! test
Parsoid only
!! wikitext
x
!! html/parsoid
<p>x</p>
!! end
`;

test('reader: articles, tests, sections, options, config and legacy html precedence', () => {
  const f = readTestFile(FILE);
  assert.equal(f.fileOptions.version, '2');
  assert.deepEqual(f.articles, [{ title: 'Template:Foo', text: 'FOO' }]);
  assert.deepEqual(
    f.tests.map((t) => [t.name, t.section]),
    [
      ['Blank input', 'Basic tests'],
      ['Two sections', 'Basic tests'],
      ['Parsoid only', 'Basic tests'],
    ],
  );
  const [blank, two, parsoid] = f.tests;
  assert.equal(blank.wikitext, '');
  assert.equal(blank.legacyHtml, '');
  assert.equal(two.wikitext, 'a\nb');
  assert.equal(two.legacyHtml, '<p>a b</p>');
  assert.deepEqual(two.options, { title: 'Main Page', pst: '', section: '2', replace: ['1', 'new text'], parsoid: { modes: ['wt2html'] }, cat: '' });
  assert.deepEqual(two.config, { wgRawHtml: true, wgFragmentMode: ['legacy'] });
  assert.equal(parsoid.legacyHtml, null);
  assert.equal(parsoid.parsoidOnly, true);
});

test('reader: file options and hooks; no heading means an empty section', () => {
  const f = readTestFile('!! options\nversion=2\nparsoid-compatible=wt2html,wt2wt\n!! end\n\n!! hooks\nref\nreferences\n!! endhooks\n!! test\nT\n!! wikitext\n<ref>x</ref>\n!! html\nY\n!! end\n');
  assert.deepEqual(f.fileOptions, { version: '2', 'parsoid-compatible': ['wt2html', 'wt2wt'] });
  assert.deepEqual(
    f.requirements.map((r) => r.name),
    ['ref', 'references'],
  );
  assert.equal(f.tests[0].section, '');
  assert.deepEqual(parseOptions('language=sr variant=sr-ec  thumbsize=50'), { language: 'sr', variant: 'sr-ec', thumbsize: '50' });
});

test('adaptExpected maps the runner script path and file URL onto Quire', () => {
  assert.equal(
    adaptExpected('<a href="/index.php?title=X&amp;action=edit" x="http://example.org/index.php?a"><img src="http://example.com/images/3/3a/Foobar.jpg">/index.phpx'),
    '<a href="/w/index.php?title=X&amp;action=edit" x="http://example.org/w/index.php?a"><img src="/w/images/3/3a/Foobar.jpg">/index.phpx',
  );
});

test('the ratchet file round-trips, keeping listed tests that did not run', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parser-ratchet-')), 'r.txt');
  fs.writeFileSync(file, '# header\nold.txt :: Old test :: why\nparserTests.txt :: A :: was failing\n');
  writeParserRatchet(
    [
      { file: 'parserTests.txt', name: 'A', status: 'passed', reason: '' },
      { file: 'parserTests.txt', name: 'B :: odd', status: 'failed', reason: 'at 3: expected «x» got «y»' },
    ],
    file,
  );
  const listed = readParserRatchet(file);
  assert.deepEqual(
    [...listed],
    [
      ['old.txt :: Old test', 'why'],
      ['parserTests.txt :: B :: odd', 'at 3: expected «x» got «y»'],
    ],
  );
});

let domino = true;
try {
  createRequire(import.meta.url)('domino');
} catch {
  domino = false;
}

test('normalization: tbody removed, text trimmed as PHP trims, pre loses one newline at each end', { skip: !domino && 'conformance/node_modules not installed' }, async () => {
  const { normalizeHtml, firstDifference } = await import('./normalize.mjs');
  assert.equal(normalizeHtml('<table>\n<tbody><tr><td> a </td></tr></tbody></table>\n'), '<table><tr><td>a</td></tr></table>');
  assert.equal(normalizeHtml('<p>&#95;x\u00a0</p>'), normalizeHtml('<p>_x&nbsp;</p>'));
  assert.equal(normalizeHtml('<p>x\u00a0 </p>'), '<p>x&nbsp;</p>');
  // The HTML parser drops the newline right after <pre>; then one more goes off each end.
  assert.equal(normalizeHtml('<pre>\n\na\n\n</pre>'), '<pre>a\n</pre>');
  assert.notEqual(normalizeHtml('<a href="x" class="y">t</a>'), normalizeHtml('<a class="y" href="x">t</a>'));
  assert.equal(firstDifference('<p>abc</p>', '<p>abd</p>'), 'at 5: expected «<p>abc</p>» got «<p>abd</p>»');
});

test("the runner's interwiki table is read from ParserTestRunner.php; language prefixes are interlanguage", async () => {
  const { parserTestInterwikis } = await import('./runner.mjs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-'));
  fs.mkdirSync(path.join(dir, 'tests', 'parser'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'tests', 'parser', 'ParserTestRunner.php'),
    "<?php\nfunction other() { $x = [ 'iw_prefix' => 'no', 'iw_url' => 'x' ]; }\nprivate function appendInterwikiSetup( &$setup ) {\n static $t = [\n [ 'iw_prefix' => 'meatball', 'iw_url' => 'http://www.usemod.com/cgi-bin/mb.pl?$1', 'iw_local' => 0 ],\n [ 'iw_prefix' => 'fr',\n // comment\n 'iw_url' => 'http://fr.wikipedia.org/wiki/$1' ],\n ];\n}\n",
  );
  assert.deepEqual(parserTestInterwikis(dir), {
    meatball: { url: 'http://www.usemod.com/cgi-bin/mb.pl?$1' },
    fr: { url: 'http://fr.wikipedia.org/wiki/$1', language: 'français' },
  });
});

test("a test's config and options become Quire settings; values the site has and unknown ones do not", () => {
  const of = (config, options = {}) => {
    const { env, applied } = settingsOf({ config, options });
    return { env, applied: [...applied].sort() };
  };
  assert.deepEqual(of({ wgParserEnableLegacyMediaDOM: false }, { thumbsize: '220' }), {
    env: { WIKI_LEGACY_MEDIA_DOM: '0', WIKI_THUMB_WIDTH: '220' },
    applied: ['thumbsize', 'wgParserEnableLegacyMediaDOM'],
  });
  // The parser-test site already runs in legacy fragment mode with 180px thumbs: no Quire of their own.
  assert.deepEqual(of({ wgFragmentMode: ['legacy'] }, { thumbsize: '180' }), { env: {}, applied: ['thumbsize', 'wgFragmentMode'] });
  assert.deepEqual(of({ wgFragmentMode: ['html5', 'legacy'] }).env, { WIKI_FRAGMENT_MODE: 'html5,legacy' });
  assert.deepEqual(of({ wgFragmentMode: ['xml'], wgRawHtml: true }), { env: {}, applied: [] });
  assert.equal(settingsKey({ WIKI_THUMB_WIDTH: '220', WIKI_LEGACY_MEDIA_DOM: '0' }), 'WIKI_LEGACY_MEDIA_DOM=0 WIKI_THUMB_WIDTH=220');
  assert.equal(settingsKey({}), '');
});

test("jpegSized rewrites the frame header's size and nothing else", () => {
  // SOI, an APP0 segment of 4 bytes, SOF0 (length 11: precision, height 220, width 1941, 1 component), EOI.
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 1, 2, 0xff, 0xc0, 0, 11, 8, 0, 220, 0x07, 0x95, 1, 1, 0x11, 0, 0xff, 0xd9]);
  const sized = jpegSized(jpeg, 320, 240);
  assert.equal(sized.readUInt16BE(13), 240);
  assert.equal(sized.readUInt16BE(15), 320);
  assert.equal(sized.length, jpeg.length);
  assert.equal(jpeg.readUInt16BE(15), 0x795);
});
