/*
 * The line-level driver of wikidiff2 1.13 (Wikidiff2.cpp): a line diff whose changed lines get
 * word diffs, context lines around changes, and moved-paragraph detection, reported to a
 * formatter (the HTML table of action=compare or the inline JSON of the REST compare route).
 * Ported step by step so that line pairing, moves and offsets agree with MediaWiki's.
 *
 * wikidiff2 is GPL-2.0-or-later; this port is under the same licence.
 */
import { diffSequences, Op, type DiffOp } from './engine.js';
import { charSimilarity, diffWords, type WordDiff } from './words.js';

/** wikidiff2's INI defaults (change_threshold, moved_line_threshold, moved_paragraph_detection_cutoff). */
export const CHANGE_THRESHOLD = 0.2;
export const MOVED_LINE_THRESHOLD = 0.4;
export const MOVED_PARAGRAPH_DETECTION_CUTOFF = 100;
/** MediaWiki always asks for two lines of context. */
export const CONTEXT_LINES = 2;

/** A moved paragraph: which side is shown, its anchor, its counterpart's anchor, the direction. */
export interface MoveInfo {
  printLeft: boolean;
  printRight: boolean;
  /** Anchor of this paragraph, e.g. "movedpara_3_0_lhs". */
  srcAnchor: string;
  /** Anchor of the paragraph it was moved to or from. */
  dstAnchor: string;
  /** The counterpart lies further down the diff. */
  downwards: boolean;
}

/**
 * What a formatter receives. Line numbers are 1-based; offsets are UTF-8 byte offsets of the
 * line in the old / new text, or -1 where the line does not exist on that side.
 */
export interface DiffPrinter {
  add(line: string, leftLine: number, rightLine: number, offsetFrom: number, offsetTo: number): void;
  del(line: string, leftLine: number, rightLine: number, offsetFrom: number, offsetTo: number): void;
  wordDiff(diff: WordDiff, leftLine: number, rightLine: number, offsetFrom: number, offsetTo: number, move?: MoveInfo): void;
  blockHeader(leftLine: number, rightLine: number): void;
  context(line: string, leftLine: number, rightLine: number, offsetFrom: number, offsetTo: number): void;
}

/** Wikidiff2::explodeLines: split on "\n", without an empty last line after a final newline. */
export function explodeLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

function looksLikeChange(from: string, to: string): boolean {
  return charSimilarity(diffWords(from, to, 0)) > CHANGE_THRESHOLD;
}

interface MoveCandidate {
  similarity: number;
  opIndexFrom: number;
  opLineFrom: number;
  opIndexTo: number;
  opLineTo: number;
  lhsDisplayed: boolean;
  rhsDisplayed: boolean;
}

const key = (index: number, line: number) => index * 0x100000000 + line;
const anchor = (index: number, line: number, lhs: boolean) => `movedpara_${index}_${line}_${lhs ? 'lhs' : 'rhs'}`;
/** The other paragraph immediately follows this one: shown side by side as a change, not a move. */
const isNext = (opIndex: number, opLine: number, otherIndex: number, otherLine: number) => (otherIndex === opIndex && otherLine === opLine + 1) || (otherIndex === opIndex + 1 && otherLine === 0);
const movedDown = (opIndex: number, opLine: number, otherIndex: number, otherLine: number) => otherIndex > opIndex || (otherIndex === opIndex && otherLine > opLine);

class LineDiffRun {
  private readonly ops: DiffOp[];
  private readonly diffMap = new Map<number, MoveCandidate>();
  private detectMoves: boolean | undefined;

  constructor(
    private readonly lines1: string[],
    private readonly lines2: string[],
    private readonly out: DiffPrinter,
    private readonly maxMovedLines: number,
  ) {
    this.ops = diffSequences(lines1, lines2, { looksLikeChange: (f, t) => looksLikeChange(lines1[f]!, lines2[t]!) });
  }

  private fromLine(opIndex: number, line: number): string {
    return this.lines1[this.ops[opIndex]!.from[line]!]!;
  }

  private toLine(opIndex: number, line: number): string {
    return this.lines2[this.ops[opIndex]!.to[line]!]!;
  }

  run(numContextLines: number): void {
    const { ops, out } = this;
    let fromIndex = 1;
    let toIndex = 1;
    let showLineNumber = true;
    let offsetFrom = 0;
    let offsetTo = 0;
    for (let i = 0; i < ops.length; ++i) {
      const op = ops[i]!;
      if (op.op !== Op.Copy && i === 0) out.blockHeader(1, 1);
      switch (op.op) {
        case Op.Add:
          for (let j = 0; j < op.to.length; j++) {
            const line = this.lines2[op.to[j]!]!;
            if (!this.printMovedLineDiff(i, j, fromIndex, toIndex + j, -1, offsetTo)) out.add(line, fromIndex, toIndex + j, -1, offsetTo);
            offsetTo += Buffer.byteLength(line) + 1;
          }
          toIndex += op.to.length;
          break;
        case Op.Del:
          for (let j = 0; j < op.from.length; j++) {
            const line = this.lines1[op.from[j]!]!;
            if (!this.printMovedLineDiff(i, j, fromIndex + j, toIndex, offsetFrom, -1)) out.del(line, fromIndex + j, toIndex, offsetFrom, -1);
            offsetFrom += Buffer.byteLength(line) + 1;
          }
          fromIndex += op.from.length;
          break;
        case Op.Copy: {
          const n = op.from.length;
          for (let j = 0; j < n; j++) {
            const line = this.lines1[op.from[j]!]!;
            const trailing = i !== 0 && j < numContextLines;
            const leading = i !== ops.length - 1 && j >= n - numContextLines;
            if (trailing || leading) {
              if (showLineNumber) {
                out.blockHeader(fromIndex, toIndex);
                showLineNumber = false;
              }
              out.context(line, fromIndex, toIndex, offsetFrom, offsetTo);
            } else showLineNumber = true;
            const bytes = Buffer.byteLength(line) + 1;
            offsetFrom += bytes;
            offsetTo += bytes;
            fromIndex++;
            toIndex++;
          }
          break;
        }
        case Op.Change: {
          const n = Math.min(op.from.length, op.to.length);
          for (let j = 0; j < n; j++) {
            const from = this.lines1[op.from[j]!]!;
            const to = this.lines2[op.to[j]!]!;
            out.wordDiff(diffWords(from, to), fromIndex + j, toIndex + j, offsetFrom, offsetTo);
            offsetTo += Buffer.byteLength(to) + 1;
            offsetFrom += Buffer.byteLength(from) + 1;
          }
          fromIndex += n;
          toIndex += n;
          break;
        }
      }
      showLineNumber = false;
    }
  }

  /** Too many added + deleted lines: comparing each pair would be too slow, so no moves. */
  private movesAllowed(): boolean {
    if (this.detectMoves === undefined) {
      this.detectMoves = true;
      let adds = 0;
      let deletes = 0;
      for (const op of this.ops) {
        if (op.op === Op.Add) adds += op.to.length;
        if (op.op === Op.Del) deletes += op.from.length;
        if (adds + deletes > this.maxMovedLines) {
          this.detectMoves = false;
          break;
        }
      }
    }
    return this.detectMoves;
  }

  private printCandidate(c: MoveCandidate, leftLine: number, rightLine: number, offsetFrom: number, offsetTo: number, move?: MoveInfo): void {
    const diff = diffWords(this.fromLine(c.opIndexFrom, c.opLineFrom), this.toLine(c.opIndexTo, c.opLineTo));
    this.out.wordDiff(diff, leftLine, rightLine, offsetFrom, offsetTo, move);
  }

  /**
   * Shows an added or deleted line as one end of a moved paragraph when a similar line was
   * deleted or added elsewhere; false when it is a plain add/delete.
   */
  private printMovedLineDiff(opIndex: number, opLine: number, leftLine: number, rightLine: number, offsetFrom: number, offsetTo: number): boolean {
    if (!this.movesAllowed()) return false;
    const { ops, diffMap } = this;
    const isAdd = ops[opIndex]!.op === Op.Add;
    const printLeft = ops[opIndex]!.op === Op.Del;
    const printRight = !printLeft;

    // Whether the map entry of the other paragraph refers to this one (or does not exist).
    const refersHere = (otherIndex: number, otherLine: number): boolean => {
      const other = diffMap.get(key(otherIndex, otherLine));
      if (!other) return true;
      const same = printLeft ? other.opIndexFrom === opIndex && other.opLineFrom === opLine : other.opIndexTo === opIndex && other.opLineTo === opLine;
      // A paragraph moved elsewhere already: a move has one source and one destination.
      return same || !(printLeft ? other.lhsDisplayed : other.rhsDisplayed);
    };
    const moveInfo = (otherIndex: number, otherLine: number): MoveInfo => ({
      printLeft,
      printRight,
      srcAnchor: anchor(opIndex, opLine, printLeft),
      dstAnchor: anchor(otherIndex, otherLine, !printLeft),
      downwards: movedDown(opIndex, opLine, otherIndex, otherLine),
    });

    const existing = diffMap.get(key(opIndex, opLine));
    if (existing) {
      const otherIndex = isAdd ? existing.opIndexFrom : existing.opIndexTo;
      const otherLine = isAdd ? existing.opLineFrom : existing.opLineTo;
      if (!refersHere(otherIndex, otherLine)) return false;
      // Already shown as a change next to its counterpart.
      if (isNext(otherIndex, otherLine, opIndex, opLine)) return true;
      this.printCandidate(existing, leftLine, rightLine, offsetFrom, offsetTo, moveInfo(otherIndex, otherLine));
      if (printLeft) existing.lhsDisplayed = true;
      else existing.rhsDisplayed = true;
      return true;
    }

    const otherOp = isAdd ? Op.Del : Op.Add;
    const thisText = isAdd ? this.toLine(opIndex, opLine) : this.fromLine(opIndex, opLine);
    let found: MoveCandidate | undefined;
    for (let i = 0; i < ops.length; ++i) {
      if (ops[i]!.op !== otherOp) continue;
      const count = isAdd ? ops[i]!.from.length : ops[i]!.to.length;
      for (let k = 0; k < count; ++k) {
        const mapped = diffMap.get(key(i, k));
        if (mapped && ((printLeft && mapped.lhsDisplayed) || (printRight && mapped.rhsDisplayed))) continue;
        const otherText = isAdd ? this.fromLine(i, k) : this.toLine(i, k);
        let candidate: MoveCandidate;
        let potentialMatch: boolean;
        // wikidiff2 measures the similarity from the added line to the deleted one either way.
        if (otherOp === Op.Del) {
          candidate = {
            similarity: charSimilarity(diffWords(thisText, otherText)),
            opIndexFrom: i,
            opLineFrom: k,
            opIndexTo: opIndex,
            opLineTo: opLine,
            lhsDisplayed: false,
            rhsDisplayed: false,
          };
          potentialMatch = refersHere(candidate.opIndexFrom, candidate.opLineFrom);
        } else {
          candidate = {
            similarity: charSimilarity(diffWords(otherText, thisText)),
            opIndexFrom: opIndex,
            opLineFrom: opLine,
            opIndexTo: i,
            opLineTo: k,
            lhsDisplayed: false,
            rhsDisplayed: false,
          };
          potentialMatch = refersHere(candidate.opIndexTo, candidate.opLineTo);
        }
        // As in wikidiff2, the first candidate is taken even when it is no potential match.
        if (!found || (candidate.similarity > found.similarity && potentialMatch)) found = candidate;
      }
    }

    if (!found || !(found.similarity > MOVED_LINE_THRESHOLD)) return false;
    const otherIndex = isAdd ? found.opIndexFrom : found.opIndexTo;
    const otherLine = isAdd ? found.opLineFrom : found.opLineTo;
    if (!refersHere(otherIndex, otherLine)) return false;
    if (diffMap.has(key(otherIndex, otherLine))) return false;
    if (printLeft) found.lhsDisplayed = true;
    else found.rhsDisplayed = true;
    diffMap.set(key(opIndex, opLine), found);
    diffMap.set(key(otherIndex, otherLine), found);
    if (isNext(opIndex, opLine, otherIndex, otherLine)) {
      this.printCandidate(found, leftLine, rightLine, offsetFrom, offsetTo);
      found.lhsDisplayed = true;
      found.rhsDisplayed = true;
    } else {
      this.printCandidate(found, leftLine, rightLine, offsetFrom, offsetTo, moveInfo(otherIndex, otherLine));
    }
    return true;
  }
}

/** Runs wikidiff2's diff of two texts ("\r\n" already normalised by the caller) into a formatter. */
export function runDiff(text1: string, text2: string, out: DiffPrinter, numContextLines = CONTEXT_LINES, maxMovedLines = MOVED_PARAGRAPH_DETECTION_CUTOFF): void {
  new LineDiffRun(explodeLines(text1), explodeLines(text2), out, maxMovedLines).run(numContextLines);
}
