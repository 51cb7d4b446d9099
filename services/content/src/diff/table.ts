/*
 * MediaWiki's HTML table diff (the body of action=compare): wikidiff2's TableDiff rows
 * (TableDiff.cpp) localised as DifferenceEngine::localiseDiff does — "<!--LINE n-->" becomes
 * "Line n:" and moved-paragraph markers get their tooltips.
 */
import { Op } from './engine.js';
import { runDiff, type DiffPrinter, type MoveInfo } from './wikidiff2.js';
import type { Word, WordDiff } from './words.js';
import { removeUnsafeAttributes } from '@quire/kit/html-safety';

/** wikidiff2 escapes only these three characters. */
const escapeHtml = (s: string) => s.replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));

/** A line in a <div>, or <br /> for an empty line so that copying keeps the line break. */
const withDiv = (line: string) => (line.length > 0 ? `<div>${escapeHtml(line)}</div>` : '<br />');

const DELETED_MARKER = '  <td class="diff-marker" data-marker="−"></td>\n';
const ADDED_MARKER = '  <td class="diff-marker" data-marker="+"></td>\n';
const EMPTY_LEFT = '  <td colspan="2" class="diff-empty diff-side-deleted"></td>\n';
const EMPTY_RIGHT = '  <td colspan="2" class="diff-empty diff-side-added"></td>\n';

class TablePrinter implements DiffPrinter {
  html = '';

  add(line: string): void {
    this.html += `<tr>\n${EMPTY_LEFT}${ADDED_MARKER}  <td class="diff-addedline diff-side-added">${withDiv(line)}</td>\n</tr>\n`;
  }

  del(line: string): void {
    this.html += `<tr>\n${DELETED_MARKER}  <td class="diff-deletedline diff-side-deleted">${withDiv(line)}</td>\n${EMPTY_RIGHT}</tr>\n`;
  }

  context(line: string): void {
    const cell = withDiv(line);
    this.html +=
      '<tr>\n  <td class="diff-marker"></td>\n' +
      `  <td class="diff-context diff-side-deleted">${cell}</td>\n` +
      '  <td class="diff-marker"></td>\n' +
      `  <td class="diff-context diff-side-added">${cell}</td>\n</tr>\n`;
  }

  blockHeader(leftLine: number, rightLine: number): void {
    this.html += `<tr>\n  <td colspan="2" class="diff-lineno"><!--LINE ${leftLine}--></td>\n  <td colspan="2" class="diff-lineno"><!--LINE ${rightLine}--></td>\n</tr>\n`;
  }

  wordDiff(diff: WordDiff, _l: number, _r: number, _of: number, _ot: number, move?: MoveInfo): void {
    const printLeft = move?.printLeft ?? true;
    const printRight = move?.printRight ?? true;
    const dst = move?.dstAnchor ?? '';
    const src = move?.srcAnchor ?? '';
    let row = '<tr>\n';
    if (printLeft) {
      row += dst !== '' ? `  <td class="diff-marker"><a class="mw-diff-movedpara-left" href="#${dst}">&#x26AB;</a></td>\n` : DELETED_MARKER;
      row += '  <td class="diff-deletedline diff-side-deleted"><div>';
      if (src !== '') row += `<a name="${src}"></a>`;
      row += `${wordDiffSide(diff, false)}</div></td>\n`;
    } else row += EMPTY_LEFT;
    if (printRight) {
      row += dst !== '' ? `  <td class="diff-marker"><a class="mw-diff-movedpara-right" href="#${dst}">&#x26AB;</a></td>\n` : ADDED_MARKER;
      row += '  <td class="diff-addedline diff-side-added"><div>';
      if (src !== '') row += `<a name="${src}"></a>`;
      row += `${wordDiffSide(diff, true)}</div></td>\n</tr>\n`;
    } else row += `${EMPTY_RIGHT}</tr>\n`;
    this.html += row;
  }
}

function wordDiffSide(diff: WordDiff, added: boolean): string {
  const words = (ws: Word[], idx: number[]) => idx.map((i) => escapeHtml(ws[i]!.whole)).join('');
  let out = '';
  for (const op of diff.ops) {
    if (op.op === Op.Copy) out += added ? words(diff.words2, op.to) : words(diff.words1, op.from);
    else if (!added && (op.op === Op.Del || op.op === Op.Change)) out += `<del class="diffchange diffchange-inline">${words(diff.words1, op.from)}</del>`;
    else if (added && (op.op === Op.Add || op.op === Op.Change)) out += `<ins class="diffchange diffchange-inline">${words(diff.words2, op.to)}</ins>`;
  }
  return out;
}

/** Language::formatNum for English: digit groups of three. */
const formatNum = (n: string) => n.replace(/\B(?=(\d{3})+$)/g, ',');

const MOVED_TOOLTIP = {
  left: 'Paragraph was moved. Click to jump to new location.',
  right: 'Paragraph was moved. Click to jump to old location.',
} as const;

/** DifferenceEngine::localiseDiff (English), applied to the whole body as MediaWiki does. */
export function localiseDiff(html: string): string {
  return html
    .replace(/<!--LINE (\d+)-->/g, (_, n: string) => `Line ${formatNum(n)}:`)
    .replace(/class="mw-diff-movedpara-(left|right)"/g, (m, side: 'left' | 'right') => `${m} title="${MOVED_TOOLTIP[side]}"`);
}

/** wikidiff2_do_diff($old, $new, 2): the raw table rows, before localisation. */
export function tableDiffRows(oldText: string, newText: string): string {
  const printer = new TablePrinter();
  runDiff(oldText, newText, printer);
  return printer.html;
}

/** The body of action=compare for two texts (TextSlotDiffRenderer with wikidiff2, localised). */
export function tableDiff(oldText: string, newText: string): string {
  const normalise = (t: string) => t.replaceAll('\r\n', '\n');
  // Diffs are HTML the wiki emits too: they end with the same safety pass as every rendering.
  return removeUnsafeAttributes(localiseDiff(tableDiffRows(normalise(oldText), normalise(newText))));
}
