/*
 * Words and word-level diffs as wikidiff2 1.13 makes them (TextUtil::explodeWords, Word,
 * WordDiffStats). Lengths are UTF-8 bytes, because wikidiff2's highlight ranges, offsets and
 * similarity ratios are computed on bytes.
 */
import { diffSequences, Op, type DiffOp } from './engine.js';

export interface Word {
  /** Compared text: a run of letters, or one other character. */
  body: string;
  /** The body with its whitespace suffix (only ever non-empty for a line's leading space). */
  whole: string;
  /** UTF-8 length of `whole`. */
  bytes: number;
}

/** wikidiff2's MAX_WORD_LEVEL_DIFF_COMPLEXITY: larger word diffs become one change. */
export const MAX_WORD_LEVEL_DIFF_COMPLEXITY = 40_000_000;

function utf8Length(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** Letters stay together in one word; everything else (and CJK ideographs) is a word of its own. */
function isLetter(cp: number): boolean {
  if ((cp >= 0x30 && cp <= 0x39) || cp === 0x5f || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return true;
  if (cp < 0xc0) return false;
  if (cp >= 0x3000 && cp <= 0x9fff) return false;
  if (cp >= 0x20000 && cp <= 0x2a000) return false;
  return true;
}

const isSpace = (cp: number) => cp === 0x20 || cp === 0x09;

/**
 * Splits a line into words. wikidiff2 also asks libthai for word breaks inside Thai text; that
 * dictionary is not ported, so Thai runs split only where other scripts would.
 */
export function explodeWords(text: string): Word[] {
  // Code points up to the first NUL (wikidiff2's decoder stops there), with JS string offsets.
  const starts: number[] = [];
  const cps: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    if (cp === 0) break;
    starts.push(i);
    cps.push(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  const n = cps.length;
  const end = n === 0 ? 0 : starts[n - 1]! + (cps[n - 1]! > 0xffff ? 2 : 1);
  starts.push(end);

  const breaks: number[] = [];
  let last = 0;
  for (let ci = 0; ci < n; ci++) {
    const cp = cps[ci]!;
    if (isLetter(cp)) {
      if (last !== 0 && !isLetter(last)) breaks.push(ci);
    } else breaks.push(ci);
    last = cp;
  }
  breaks.push(n);

  const words: Word[] = [];
  let b = breaks[0] === 0 ? 1 : 0;
  let wordStart = 0;
  let wordBytes = 0;
  let suffixStart = -1;
  for (let ci = 0; ci <= n; ci++) {
    const pos = starts[ci]!;
    if (ci < n && isSpace(cps[ci]!)) {
      suffixStart = pos;
    }
    if (ci === breaks[b]) {
      const whole = text.slice(wordStart, pos);
      words.push({ body: suffixStart < 0 ? whole : text.slice(wordStart, suffixStart), whole, bytes: wordBytes });
      b++;
      suffixStart = -1;
      wordStart = pos;
      wordBytes = 0;
    }
    if (ci < n) wordBytes += utf8Length(cps[ci]!);
  }
  return words;
}

export interface WordDiff {
  words1: Word[];
  words2: Word[];
  ops: DiffOp[];
}

export function diffWords(text1: string, text2: string, bailoutComplexity = MAX_WORD_LEVEL_DIFF_COMPLEXITY): WordDiff {
  const words1 = explodeWords(text1);
  const words2 = explodeWords(text2);
  const ops = diffSequences(
    words1.map((w) => w.body),
    words2.map((w) => w.body),
    { bailoutComplexity },
  );
  return { words1, words2, ops };
}

/**
 * WordDiffStats::charSimilarity: bytes of copied words over bytes of all operations (a change
 * counts its longer side); 0 when nothing was copied.
 */
export function charSimilarity(d: WordDiff): number {
  const bytes = (ws: Word[], idx: number[]) => idx.reduce((sum, i) => sum + ws[i]!.bytes, 0);
  let copied = 0;
  let total = 0;
  for (const op of d.ops) {
    const count = op.op === Op.Copy || op.op === Op.Del ? bytes(d.words1, op.from) : op.op === Op.Add ? bytes(d.words2, op.to) : Math.max(bytes(d.words1, op.from), bytes(d.words2, op.to));
    if (op.op === Op.Copy) copied += count;
    total += count;
  }
  return copied === 0 || total === 0 ? 0 : copied / total;
}
