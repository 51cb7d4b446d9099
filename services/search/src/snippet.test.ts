import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { candidateWords, highlightWords, mediaWikiSnippet, stemCandidates } from './snippet.js';

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

describe('highlightWords (snippets made from the text, issue 15)', () => {
  // What PostgreSQL's english configuration makes of these words.
  const STEMS: Record<string, string> = { category: 'categori', categories: 'categori', categorical: 'categor', cat: 'cat', cats: 'cat', catalog: 'catalog' };
  const isMatch = (lexemes: string[]) => (w: string) => lexemes.includes(STEMS[w.toLowerCase()] ?? w.toLowerCase());

  test('candidates: words beginning with a lexeme less its last three letters, whole words only', () => {
    const c = stemCandidates(['categori', 'cat'])!;
    assert.deepEqual([...candidateWords(['Category: categories, categorical; concat cat_cats', 'scatter'], c)], ['Category', 'categories', 'categorical', 'concat', 'cat', 'cats']);
    assert.equal(stemCandidates(['example.com']), undefined, 'a host name is no plain word');
    assert.equal(stemCandidates([]), undefined);
  });

  test('only the matching lines, at most two, escaped, each match in a span; a title whole', () => {
    const c = stemCandidates(['categori'])!;
    const text = 'no match here\n<b>Category</b> & "categorical" categories\nmiddle\ncategories again\ncategories three';
    assert.equal(highlightWords(text, c, isMatch(['categori'])), `&lt;b&gt;${hl('Category')}&lt;/b&gt; &amp; &quot;categorical&quot; ${hl('categories')}\n${hl('categories')} again`);
    assert.equal(
      mediaWikiSnippet(highlightWords(text, c, isMatch(['categori']))),
      `&lt;b&gt;${hl('Category')}&lt;/b&gt; &amp; &quot;categorical&quot; ${hl('categories')}\n${hl('categories')} again\n`,
    );
    assert.equal(highlightWords('Talk:Cats & dogs', stemCandidates(['cat'])!, isMatch(['cat']), { keepAll: true }), `Talk:${hl('Cats')} &amp; dogs`);
    assert.equal(highlightWords('Dogs', stemCandidates(['cat'])!, isMatch(['cat']), { keepAll: true }), 'Dogs');
    assert.equal(highlightWords('dogs only', stemCandidates(['cat'])!, isMatch(['cat'])), '');
  });
});
