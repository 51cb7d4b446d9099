import test from 'node:test';
import assert from 'node:assert/strict';
import { merge3 } from './merge.js';
import { getSection, replaceSection } from './sections.js';
import { prepareContent } from './models.js';

test('merge3 combines non-overlapping line changes and refuses overlapping ones (wfMerge)', () => {
  const base = 'a\nb\nc\nd\ne';
  assert.equal(merge3(base, 'A\nb\nc\nd\ne', 'a\nb\nc\nd\nE'), 'A\nb\nc\nd\nE\n');
  assert.equal(merge3(base, 'a\nB\nc\nd\ne', 'a\nB\nc\nd\ne'), 'a\nB\nc\nd\ne\n', 'the same change on both sides is no conflict');
  assert.equal(merge3(base, 'a\nX\nc\nd\ne', 'a\nY\nc\nd\ne'), undefined);
  assert.equal(merge3(base, 'a\nb\nc\nd\ne\nmine', 'a\nb\nc\nd\ne\nyours'), undefined, 'two appends at the same place conflict');
  assert.equal(merge3('a\n\n', 'a\nb   ', 'a'), 'a\nb\n', 'trailing whitespace is trimmed before merging');
});

test('sections as Parser::extractSections numbers them', () => {
  const text = 'lead\n== One ==\n1\n=== One.1 ===\n11\n== Two ==\n2\n<!--\n== Not ==\n-->';
  assert.equal(getSection(text, '0'), 'lead');
  assert.equal(getSection(text, '1'), '== One ==\n1\n=== One.1 ===\n11');
  assert.equal(getSection(text, '2'), '=== One.1 ===\n11');
  assert.equal(getSection(text, 'T-3'), '== Two ==\n2\n<!--\n== Not ==\n-->');
  assert.equal(getSection(text, '4'), undefined, 'a heading inside a comment is no section');
  assert.equal(replaceSection(text, '2', '=== New ===\nx'), 'lead\n== One ==\n1\n=== New ===\nx\n\n== Two ==\n2\n<!--\n== Not ==\n-->');
  assert.equal(replaceSection('body', 'new', 'hello', 'Topic'), 'body\n\n== Topic ==\n\nhello');
  assert.equal(replaceSection('', 'new', 'hello', ''), 'hello');
  assert.equal(replaceSection(text, '9', 'x'), undefined);
});

test('pre-save transform: line endings and trailing whitespace; JSON validated and tab-indented in order', () => {
  assert.equal(prepareContent('wikitext', 'a\r\nb\rc  \n\n'), 'a\nb\nc');
  assert.equal(prepareContent('json', '{"b":1,"a":[1,2,{}],"2":"x\\/y","u":"\\u00e9"}'), '{\n\t"b": 1,\n\t"a": [\n\t\t1,\n\t\t2,\n\t\t{}\n\t],\n\t"2": "x/y",\n\t"u": "é"\n}');
  assert.throws(() => prepareContent('json', '{bad'), { mwCode: 'invalid-json-data', message: 'Invalid JSON: Syntax error' });
});
