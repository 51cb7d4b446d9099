import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineDiff } from './inline.js';

// Expected bodies are MediaWiki 1.39.17 with wikidiff2 1.13.0 (action=compare&difftype=inline).
test('changed words in the line, context, headers, added and empty lines', () => {
  const from = 'one\ntwo <b>\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten';
  const to = 'one\ntwo <i>\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven';
  assert.equal(
    inlineDiff(from, to),
    '<tr><td colspan="4"><div class="mw-diff-inline-header"><!-- LINES 1,1 --></div>\n<div class="mw-diff-inline-context">one</div>\n' +
      '<div class="mw-diff-inline-changed">two &lt;<del>b</del><ins>i</ins>&gt;</div>\n<div class="mw-diff-inline-context">three</div>\n' +
      '<div class="mw-diff-inline-context">four</div>\n<div class="mw-diff-inline-header"><!-- LINES 9,9 --></div>\n' +
      '<div class="mw-diff-inline-context">nine</div>\n<div class="mw-diff-inline-context">ten</div>\n<div class="mw-diff-inline-added"><ins>eleven</ins></div>\n</td></tr>',
  );
  assert.equal(inlineDiff('a', 'a'), '<tr><td colspan="4"></td></tr>');
  assert.match(inlineDiff('a\nb', 'a\n\nb'), /<div class="mw-diff-inline-added mw-diff-empty-line"><ins>&#160;<\/ins><\/div>/);
});

test('a moved paragraph: plain at its source, marked at its destination, linked both ways with localised tooltips', () => {
  const from = 'para one is long enough to move around\nx\ny\nz\nw\nq';
  const to = 'x\ny\nz\nw\nq\npara one is long enough to move around!';
  assert.equal(
    inlineDiff(from, to),
    '<tr><td colspan="4"><div class="mw-diff-inline-header"><!-- LINES 1,1 --></div>\n' +
      '<div class="mw-diff-inline-moved mw-diff-inline-moved-source mw-diff-inline-moved-downwards"><a name="movedpara_0_0_lhs"></a>para one is long enough to move around' +
      '<a class="mw-diff-movedpara-left" title="Paragraph was moved. Click to jump to new location." data-title-tag="old" href="#movedpara_2_0_rhs">&#9660;</a></div>\n' +
      '<div class="mw-diff-inline-context">x</div>\n<div class="mw-diff-inline-context">y</div>\n<div class="mw-diff-inline-header"><!-- LINES 5,4 --></div>\n' +
      '<div class="mw-diff-inline-context">w</div>\n<div class="mw-diff-inline-context">q</div>\n' +
      '<div class="mw-diff-inline-moved mw-diff-inline-moved-destination mw-diff-inline-moved-upwards"><a name="movedpara_2_0_rhs"></a>' +
      '<a class="mw-diff-movedpara-right" title="Paragraph was moved. Click to jump to old location." data-title-tag="new" href="#movedpara_0_0_lhs">&#9650;</a>' +
      'para one is long enough to move around<ins>!</ins></div>\n</td></tr>',
  );
});
