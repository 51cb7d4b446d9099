import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mediaWikiSnippet } from './snippet.js';

const hl = (s: string) => `<span class='searchmatch'>${s}</span>`;

describe('mediaWikiSnippet (SearchHighlighter::highlightSimple)', () => {
  test('only matching lines, at most two, each ending in a newline (the reference wiki answers this for the same text)', () => {
    const text = `first line here\nsecond ${hl('lorem')} line\n\nthird line ${hl('lorem')}\nfourth ${hl('lorem')}`;
    assert.equal(mediaWikiSnippet(text), `second ${hl('lorem')} line\nthird line ${hl('lorem')}\n`);
    assert.equal(mediaWikiSnippet(`${hl('lorem')} ipsum dolor`), `${hl('lorem')} ipsum dolor\n`);
  });

  test('no match in the text (a hit by its title): empty', () => {
    assert.equal(mediaWikiSnippet('lorem ipsum dolor'), '');
    assert.equal(mediaWikiSnippet(''), '');
  });

  test('at most 75 characters around the last match of a line, cut with "...", counted on the unescaped text', () => {
    const before = 'a'.repeat(80);
    const after = 'b'.repeat(80);
    assert.equal(mediaWikiSnippet(`${before}${hl('x')}${after}`), `...${'a'.repeat(75)}${hl('x')}${'b'.repeat(75)}...\n`);
    // Entities count as one character each and stay escaped.
    const quotes = '&#039;'.repeat(76);
    assert.equal(mediaWikiSnippet(`${quotes}${hl('x')} &lt;b&gt;`), `...${'&#039;'.repeat(75)}${hl('x')} &lt;b&gt;\n`);
  });

  test('earlier matches inside the kept context stay marked', () => {
    assert.equal(mediaWikiSnippet(`${hl('one')} and ${hl('one')} again`), `${hl('one')} and ${hl('one')} again\n`);
  });
});
