/*
 * Parser functions as MediaWiki 1.39 with ParserFunctions renders them (outputs taken from the
 * reference wiki): strip markers skipped or removed, #language, #formatdate, #expr's errors.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTest } from './testing.js';
import { formatDate } from './dateformat.js';

const line = async (text: string) => (await renderTest(text, { req: { limitReport: false } })).html.replace(/^<div class="mw-parser-output"><p>|\n<\/p><\/div>$/g, '');

describe('parser functions', () => {
  test('strip markers do not leak into lc, padleft and string functions', async () => {
    assert.equal(await line('{{padleft:|2|x<nowiki/>y}}'), 'xy');
    assert.equal(await line('{{lc:X<nowiki/>Y}}'), 'xy');
    assert.equal(await line('{{uc:a<nowiki>b</nowiki>c}}'), 'AbC');
    assert.equal(await line('{{#len:a<nowiki/>b}}'), '2');
  });

  test('#language gives the autonym, whatever the second argument', async () => {
    assert.equal(await line('{{#language:de}}|{{#language:DE|en}}|{{#language:xx}}'), 'Deutsch|Deutsch|xx');
  });

  test('#formatdate', async () => {
    const span = (iso: string, text: string) => `<span class="mw-formatted-date" title="${iso}">${text}</span>`;
    assert.equal(await line('{{#formatdate:2009-12-25}}'), span('2009-12-25', '2009-12-25'));
    assert.equal(formatDate('2009-12-25', 'mdy'), span('2009-12-25', 'December 25, 2009'));
    assert.equal(formatDate('25 December 2009', 'ISO 8601'), span('2009-12-25', '2009-12-25'));
    assert.equal(formatDate('Dec 25', 'dmy'), span('12-25', '25 December'));
    assert.equal(formatDate('2009 Dec 25', 'mdy'), span('2009-12-25', 'December 25, 2009'));
    assert.equal(formatDate('junk', 'mdy'), 'junk');
  });

  test("#expr errors are ParserFunctions' messages, escaped", async () => {
    const err = (m: string) => `<strong class="error">${m}</strong>`;
    assert.equal(await line('{{#expr:1/0}}'), err('Division by zero.'));
    assert.equal(await line('{{#expr:foo}}'), err('Expression error: Unrecognized word &quot;foo&quot;.'));
    assert.equal(await line('{{#expr:*1}}'), err('Expression error: Unexpected * operator.'));
    assert.equal(await line('{{#expr:1 round}}'), err('Expression error: Missing operand for round.'));
    assert.equal(await line('{{#expr:1+}}'), err('Expression error: Missing operand for +.'));
    assert.equal(await line('{{#expr:sqrt -1}}'), err('In sqrt: Result is not a number.'));
    assert.equal(await line('{{#expr:ln 0}}'), err('Invalid argument for ln: &lt;= 0.'));
  });
});

describe('comparisons and title magic words (funcsParserTests.txt)', () => {
  test('#ifeq and #switch compare decoded values', async () => {
    assert.equal(await line("{{#ifeq: a'b | a&#39;b | yes | no}} {{#ifeq: a'b | a&amp;#39;b | yes | no}}"), 'yes no');
    assert.equal(await line('{{#switch:foo&bar|foo&amp;bar=yes|no}}'), 'yes');
  });

  test('{{PAGENAME:title}} speaks of that title', async () => {
    assert.equal(await line('{{PAGENAME:*foo&bar}}|{{PAGENAME:Help:A/b}}|{{NAMESPACE:Help:A/b}}|{{PAGENAME}}'), '&#42;foo&#38;bar|A/b|Help|Test');
    assert.equal(await line('{{#ifeq: {{PAGENAME:*foo&bar}} | *foo&bar | yes | no}}'), 'yes');
  });
});
