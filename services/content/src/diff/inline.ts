/*
 * wikidiff2's inline HTML diff (InlineDiff.cpp, wikidiff2_inline_diff), the body of
 * action=compare&difftype=inline: one <div> per shown line, changed words marked with <del>/<ins>
 * in the same line, moved paragraphs linked to their other side. TextSlotDiffRenderer puts the
 * whole of it in one table row.
 */
import { Op } from './engine.js';
import { localiseDiff } from './table.js';
import { runDiff, type DiffPrinter, type MoveInfo } from './wikidiff2.js';
import type { Word, WordDiff } from './words.js';
import { removeUnsafeAttributes } from '@quire/kit/html-safety';

/** wikidiff2 escapes only these three characters. */
const escapeHtml = (s: string) => s.replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));

/** A line between its markup; an empty line is a no-break space so the row keeps its height. */
const wrapped = (pre: string, line: string, post: string) => `${pre}${line.length > 0 ? escapeHtml(line) : '&#160;'}${post}`;

class InlinePrinter implements DiffPrinter {
  html = '';

  add(line: string): void {
    this.html += wrapped(`<div class="mw-diff-inline-added${line ? '' : ' mw-diff-empty-line'}"><ins>`, line, '</ins></div>\n');
  }

  del(line: string): void {
    this.html += wrapped(`<div class="mw-diff-inline-deleted${line ? '' : ' mw-diff-empty-line'}"><del>`, line, '</del></div>\n');
  }

  context(line: string): void {
    this.html += wrapped('<div class="mw-diff-inline-context">', line, '</div>\n');
  }

  blockHeader(leftLine: number, rightLine: number): void {
    this.html += `<div class="mw-diff-inline-header"><!-- LINES ${leftLine},${rightLine} --></div>\n`;
  }

  wordDiff(diff: WordDiff, _l: number, _r: number, _of: number, _ot: number, move?: MoveInfo): void {
    const printLeft = move?.printLeft ?? true;
    const printRight = move?.printRight ?? true;
    const moved = printLeft !== printRight;
    // The source of a move shows the old words only, unmarked.
    const isMoveSource = moved && printLeft;
    const down = move?.downwards ?? false;
    const arrow = (glyph: string) => `<a class="mw-diff-movedpara-${printLeft ? 'left' : 'right'}" data-title-tag="${printRight ? 'new' : 'old'}" href="#${move?.dstAnchor ?? ''}">${glyph}</a>`;
    let out = moved
      ? `<div class="mw-diff-inline-moved mw-diff-inline-moved-${printLeft ? 'source' : 'destination'} mw-diff-inline-moved-${down ? 'downwards' : 'upwards'}"><a name="${move?.srcAnchor ?? ''}"></a>${down ? '' : arrow('&#9650;')}`
      : '<div class="mw-diff-inline-changed">';
    const words = (ws: Word[], idx: number[]) => idx.map((i) => escapeHtml(ws[i]!.whole)).join('');
    for (const op of diff.ops) {
      const from = words(diff.words1, op.from);
      const to = words(diff.words2, op.to);
      if (op.op === Op.Copy) out += from;
      else if (op.op === Op.Del) out += isMoveSource ? from : `<del>${from}</del>`;
      else if (op.op === Op.Add) out += isMoveSource ? '' : `<ins>${to}</ins>`;
      else out += isMoveSource ? from : `<del>${from}</del><ins>${to}</ins>`;
    }
    if (moved && down) out += arrow('&#9660;');
    this.html += `${out}</div>\n`;
  }
}

/** wikidiff2_inline_diff($old, $new, 2): the raw lines, before localisation. */
export function inlineDiffLines(oldText: string, newText: string): string {
  const printer = new InlinePrinter();
  runDiff(oldText, newText, printer);
  return printer.html;
}

/** The body of action=compare&difftype=inline for two texts (TextSlotDiffRenderer's one row, localised). */
export function inlineDiff(oldText: string, newText: string): string {
  const normalise = (t: string) => t.replaceAll('\r\n', '\n');
  return removeUnsafeAttributes(localiseDiff(`<tr><td colspan="4">${inlineDiffLines(normalise(oldText), normalise(newText))}</td></tr>`));
}
