/*
 * The linter against Parsoid itself: every expected list below is what Parsoid 0.16 (MediaWiki
 * 1.39) reported for the same wikitext, run with linting enabled on the reference wiki's
 * configuration (vendor/wikimedia/parsoid bin/parse.php --linting; offsets in UTF-16 code units,
 * as its LintLogger prints them). The REST routes give UTF-8 bytes: checked at the end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintWikitext } from './index.js';

/** [wikitext, Parsoid's lints] */
const PARSOID: [string, unknown[]][] = [
  [
    '<center>x</center>\n<b>y',
    [
      { type: 'obsolete-tag', dsr: [0, 18, 8, 9], params: { name: 'center' } },
      { type: 'missing-end-tag', dsr: [19, 23, 3, 0], params: { name: 'b', inTable: false } },
    ],
  ],
  ['a<b>x\nb', [{ type: 'missing-end-tag', dsr: [1, 7, 3, 0], params: { name: 'b', inTable: false } }]],
  ['<b>x\n\ny', [{ type: 'missing-end-tag', dsr: [0, 4, 3, 0], params: { name: 'b', inTable: false } }]],
  [
    '<span>x</div>',
    [
      { type: 'missing-end-tag', dsr: [0, 13, 6, 0], params: { name: 'span', inTable: false } },
      { type: 'stripped-tag', dsr: [7, 13, null, null], params: { name: 'div' } },
    ],
  ],
  ['</span>x', [{ type: 'stripped-tag', dsr: [0, 7, null, null], params: { name: 'span' } }]],
  [
    '<br/><span/><div/>',
    [
      { type: 'self-closed-tag', dsr: [5, 12, 7, 0], params: { name: 'span' } },
      { type: 'self-closed-tag', dsr: [12, 18, 6, 0], params: { name: 'div' } },
    ],
  ],
  ['[[File:Example.png|thumb|foo|bar|baz]]', [{ type: 'bogus-image-options', dsr: [0, 38, 2, 2], params: { items: ['foo', 'bar'] } }]],
  ['[[:::x]]', [{ type: 'lint/multi-colon-escape', dsr: [0, 8, null, null], params: { href: ':::x' } }]],
  ['== a <b>x ==\ny', [{ type: 'missing-end-tag', dsr: [5, 10, 3, 0], params: { name: 'b', inTable: false } }]],
  ["== ''a ==", [{ type: 'unclosed-quotes-in-heading', dsr: [3, 7, 2, 0], params: { name: 'i', ancestorName: 'h2' } }]],
  [
    '<small>a<small>b',
    [
      { type: 'missing-end-tag', dsr: [0, 16, 7, 0], params: { name: 'small', inTable: false } },
      { type: 'multiple-unclosed-formatting-tags', dsr: [0, 16, 7, 0], params: { name: 'small', inTable: false } },
      { type: 'missing-end-tag', dsr: [8, 16, 7, 0], params: { name: 'small', inTable: false } },
      { type: 'multiple-unclosed-formatting-tags', params: { name: 'small', inTable: false }, dsr: [0, 16, 7, 0] },
    ],
  ],
  ['<small>a</small> <big>c', [{ type: 'missing-end-tag', dsr: [17, 23, 5, 0], params: { name: 'big', inTable: false } }]],
  ['* <b>x\n* y', [{ type: 'missing-end-tag', dsr: [2, 6, 3, 0], params: { name: 'b', inTable: false } }]],
  ['{|\n|<b>x\n|}', [{ type: 'missing-end-tag', dsr: [4, 8, 3, 0], params: { name: 'b', inTable: true } }]],
  ['{|\nx\n|}', [{ type: 'fostered', dsr: [0, 7, 2, 2], params: [] }]],
  ['é<b>ü', [{ type: 'missing-end-tag', dsr: [1, 5, 3, 0], params: { name: 'b', inTable: false } }]],
  ['😀é<b>ü', [{ type: 'missing-end-tag', dsr: [3, 7, 3, 0], params: { name: 'b', inTable: false } }]],
  ['<i><b>x</i></b>', [{ type: 'misnested-tag', dsr: [3, 7, 3, 0], params: { name: 'b' } }]],
  [
    '<tt>x</tt><strike>y</strike><font color=red>z</font>',
    [
      { type: 'obsolete-tag', dsr: [0, 10, 4, 5], params: { name: 'tt' } },
      { type: 'obsolete-tag', dsr: [10, 28, 8, 9], params: { name: 'strike' } },
      { type: 'obsolete-tag', dsr: [28, 52, 16, 7], params: { name: 'font' } },
    ],
  ],
  ['<div>x\n\ny\n', [{ type: 'missing-end-tag', dsr: [0, 9, 5, 0], params: { name: 'div', inTable: false } }]],
  [
    '<center>x',
    [
      { type: 'missing-end-tag', dsr: [0, 9, 8, 0], params: { name: 'center', inTable: false } },
      { type: 'obsolete-tag', dsr: [0, 9, 8, 0], params: { name: 'center' } },
    ],
  ],
  ['<b>x</b></b>', [{ type: 'stripped-tag', dsr: [8, 12, null, null], params: { name: 'b' } }]],
  ['[[File:Example.png|foo|bar]]', [{ type: 'bogus-image-options', dsr: [0, 28, null, null], params: { items: ['foo'] } }]],
  ['[[::x]]', [{ type: 'lint/multi-colon-escape', dsr: [0, 7, null, null], params: { href: '::x' } }]],
  ['a<span>x\n\ny', [{ type: 'html5-misnesting', dsr: [1, 8, 6, 0], params: { name: 'span' } }]],
  ['{|\n|-\nx\n|a\n|}', [{ type: 'fostered', dsr: [0, 13, 2, 2], params: [] }]],
  ['x</p>', []],
  ['<b>x<div>y</div>z', [{ type: 'missing-end-tag', dsr: [0, 4, 3, 0], params: { name: 'b', inTable: false } }]],
  ['Text with <!-- <b> --> comment and <nowiki><i></nowiki> ok', []],
  ['{{Foo|<b>}} x', []],
  [
    '<small>a\n\n<small>b',
    [
      { type: 'missing-end-tag', dsr: [0, 8, 7, 0], params: { name: 'small', inTable: false } },
      { type: 'missing-end-tag', dsr: [10, 18, 7, 0], params: { name: 'small', inTable: false } },
      { type: 'multiple-unclosed-formatting-tags', params: { name: 'small', inTable: false }, dsr: [0, 8, 7, 0] },
    ],
  ],
  ["== '''a ==", [{ type: 'unclosed-quotes-in-heading', dsr: [3, 8, 3, 0], params: { name: 'b', ancestorName: 'h2' } }]],
  ['{|\n| a || <i>b || c\n|}', [{ type: 'missing-end-tag', dsr: [10, 15, 3, 0], params: { name: 'i', inTable: true } }]],
  ['# <u>x\n# y</u>', [{ type: 'misnested-tag', dsr: [2, 6, 3, 0], params: { name: 'u' } }]],
  ['<span>ok</span> <s>x</s>', []],
  ['<font>x</font>', [{ type: 'obsolete-tag', dsr: [0, 14, 6, 7], params: { name: 'font' } }]],
  ['<div><span>x</div>y', [{ type: 'html5-misnesting', dsr: [5, 12, 6, 0], params: { name: 'span' } }]],
  ['a\n<div>b\n\nc</div>', []],
  ['<em>x\n== h ==\n', [{ type: 'missing-end-tag', dsr: [0, 5, 4, 0], params: { name: 'em', inTable: false } }]],
  ['[[File:A.png|100px|left|alt=x|caption]]', []],
  ['[[Image:A.png|thumb|upright|bad|cap]]', [{ type: 'bogus-image-options', dsr: [0, 37, 2, 2], params: { items: ['bad'] } }]],
];

for (const [wikitext, expected] of PARSOID) {
  test(`lints as Parsoid: ${JSON.stringify(wikitext)}`, () => {
    assert.deepEqual(lintWikitext(wikitext, { offsetType: 'ucs2' }), expected);
  });
}

test('REST offsets are UTF-8 bytes (a 4-byte emoji and a 2-byte letter before the tag)', () => {
  assert.deepEqual(lintWikitext('😀é<b>ü'), [{ type: 'missing-end-tag', dsr: [6, 11, 3, 0], params: { name: 'b', inTable: false } }]);
  assert.deepEqual(lintWikitext('😀é<b>ü', { offsetType: 'ucs2' })[0]?.dsr, [3, 7, 3, 0]);
});

test('aliases of the File namespace are asked of the wiki', () => {
  const opts = { isFileNamespace: (p: string) => p === 'Datei' };
  assert.equal(lintWikitext('[[Datei:A.png|x|y]]', opts)[0]?.type, 'bogus-image-options');
  assert.deepEqual(lintWikitext('[[File:A.png|x|y]]', opts), []);
});
