import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { candidatesIn, highlightWords, learnSnippetWords, mediaWikiSnippet, stemCandidates } from './snippet.js';

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
    // Characters outside the BMP count as one each, and are never cut in half.
    assert.equal(mediaWikiSnippet(`a${'\u{1F600}'.repeat(80)}${hl('x')}${'\u{1D11E}'.repeat(76)}b`), `...${'\u{1F600}'.repeat(75)}${hl('x')}${'\u{1D11E}'.repeat(75)}...\n`);
    assert.equal(mediaWikiSnippet(`${'\u{1F600}'.repeat(75)}${hl('x')}`), `${'\u{1F600}'.repeat(75)}${hl('x')}\n`);
  });

  test('earlier matches inside the kept context stay marked', () => {
    assert.equal(mediaWikiSnippet(`${hl('one')} and ${hl('one')} again`), `${hl('one')} and ${hl('one')} again\n`);
  });
});

describe('highlightWords (snippets made from the text)', () => {
  // What PostgreSQL's english configuration makes of these words.
  const STEMS: Record<string, string> = { category: 'categori', categories: 'categori', categorical: 'categor', cat: 'cat', cats: 'cat', catalog: 'catalog' };
  const isMatch = (lexemes: string[]) => (w: string) => lexemes.includes(STEMS[w.toLowerCase()] ?? w.toLowerCase());

  test('candidates: words beginning with a lexeme less its last two letters, whole words only', () => {
    const c = stemCandidates(['categori', 'cat'])!;
    const found = (text: string) => candidatesIn(text, c).map((m) => m.word);
    assert.deepEqual(found('Category: categories, categorical; concat cat_cats scatter'), ['Category', 'categories', 'categorical', 'concat', 'cat', 'cats']);
    const c2 = stemCandidates(['categori', 'die'])!;
    assert.deepEqual(
      candidatesIn('Dying, died; categ, catego', c2).map((m) => m.word),
      ['Dying', 'died', 'catego'],
      '"dying" stems to "die"; "categ" is short of "catego"',
    );
    assert.equal(stemCandidates(['example.com']), undefined, 'a host name is no plain word');
    assert.equal(stemCandidates([]), undefined);
  });

  test('candidates found in place are the words of the line (as PostgreSQL separates them) that begin with a prefix', () => {
    // The reference: every word of the line, kept when it begins with a prefix.
    const reference = (line: string, prefixes: readonly string[]) =>
      [...line.matchAll(/[\p{L}\p{N}]+/gu)].filter((m) => prefixes.some((p) => m[0].toLowerCase().startsWith(p))).map((m) => ({ word: m[0], index: m.index }));
    const pieces = ['ca', 'cat', 'Cat', 'CATS', 'x', '1', ' ', '-', '_', "'", '\u00e9', 'caf\u00e9', 'e\u0301', '\u{1F600}', '\u{1D400}', '\u{10400}', 'dy', 'die', '\u0130', '\u00df'];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      const line = Array.from({ length: 1 + rand(12) }, () => pieces[rand(pieces.length)]).join('');
      for (const lexemes of [['cat'], ['dies', 'cat'], ['\u00e9t\u00e9'], ['ca1x']]) {
        const c = stemCandidates(lexemes)!;
        assert.deepEqual(candidatesIn(line, c), reference(line, c.prefixes), JSON.stringify({ line, lexemes }));
      }
    }
  });

  test('the words learnt: line by line, until a text has two lines with a match or ends', async () => {
    const c = stemCandidates(['cat'])!;
    const isCat = (w: string) => learnt.has(w) && /^cats?$/i.test(w);
    const learnt = new Set<string>();
    const rounds: string[][] = [];
    const learn = async (words: string[]) => {
      rounds.push(words);
      for (const w of words) learnt.add(w);
    };
    const long = ['cat one', 'cow', 'cats two', ...Array.from({ length: 100 }, (_, i) => `cow${i} cattle${i}`)].join('\n');
    const late = [...Array.from({ length: 10 }, (_, i) => `copper${i}`), 'cat at last'].join('\n');
    await learnSnippetWords([long, late, 'no candidate'], c, isCat, learn);
    assert.ok(!learnt.has('cattle50'), 'the long text is not read past its second match');
    assert.ok(learnt.has('cat') && learnt.has('cats'));
    assert.ok(learnt.has('copper9'), 'a text without a match yet is read on');
    assert.equal(highlightWords(late, c, isCat), `${hl('cat')} at last`);
    assert.ok(rounds.length <= 3, JSON.stringify(rounds.map((r) => r.length)));
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
