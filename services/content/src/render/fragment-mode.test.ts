/*
 * $wgFragmentMode (WIKI_FRAGMENT_MODE): ids and link fragments in html5 and legacy escaping.
 * Expectations from the reference MediaWiki 1.39 (its default ['html5', 'legacy']) and from its
 * parser tests' "(legacy)" cases.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTest } from './testing.js';
import { escapeIdAs, escapeIdForLinkAs, parseFragmentMode } from './sanitizer.js';

const body = async (text: string, fragmentMode?: ('html5' | 'legacy')[]) =>
  (await renderTest(text, { site: fragmentMode ? { fragmentMode } : {}, req: { editSections: false } })).html
    .replace(/^<div class="mw-parser-output">/, '')
    .replace(/\n?<!-- \nNewPP limit report[\s\S]*$/, '')
    // The attribute armour (&#95; for an underscore) reads the same.
    .replaceAll('&#95;', '_');

describe('fragment modes', () => {
  test('escaping: html5 keeps the text, legacy dot-encodes UTF-8 bytes and keeps colons', () => {
    assert.equal(escapeIdAs('é x', 'html5'), 'é_x');
    assert.equal(escapeIdAs('é x', 'legacy'), '.C3.A9_x');
    assert.equal(escapeIdAs('æ: v', 'legacy'), '.C3.A6:_v');
    assert.equal(escapeIdAs("foo bar©#%n!'()*~", 'legacy'), 'foo_bar.C2.A9.23.25n.21.27.28.29.2A.7E');
    assert.equal(escapeIdForLinkAs('a%20b c', 'html5'), 'a%2520b_c');
    assert.deepEqual(parseFragmentMode('html5, legacy'), ['html5', 'legacy']);
    assert.equal(parseFragmentMode('html5,xml'), undefined);
    assert.equal(parseFragmentMode('html5,legacy,html5'), undefined);
  });
  test("MediaWiki's default: an html5 heading id with a legacy fallback span; links use the html5 form", async () => {
    assert.equal(await body('== é x ==\n[[#é x]] {{anchorencode:é x}}'), '<h2><span id=".C3.A9_x"></span><span class="mw-headline" id="é_x">é x</span></h2>\n<p><a href="#é_x">#é x</a> é_x\n</p>');
    assert.equal(await body('== plain ==', ['html5', 'legacy']), '<h2><span class="mw-headline" id="plain">plain</span></h2>');
  });
  test('legacy alone: ids, links, id attributes and anchorencode dot-encoded, no fallback', async () => {
    assert.equal(
      await body('== é x ==\n[[#é x]] {{anchorencode:é x}} <span id="æ: v">b</span>', ['legacy']),
      '<h2><span class="mw-headline" id=".C3.A9_x">é x</span></h2>\n<p><a href="#.C3.A9_x">#é x</a> .C3.A9_x <span id=".C3.A6:_v">b</span>\n</p>',
    );
  });
  test('repeated headings: the first free _2, _3… counted in ASCII case only', async () => {
    const html = await body('__NOTOC__\n== Тест ==\n== тест ==\n== a ==\n== A_2 ==\n== A ==', ['html5']);
    assert.deepEqual(
      [...html.matchAll(/id="([^"]*)"/g)].map((m) => m[1]),
      ['Тест', 'тест', 'a', 'A_2', 'A_3'],
    );
  });
});
