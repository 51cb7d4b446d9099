/*
 * The sequence diff of wikidiff2 1.13 (DiffEngine.h): Dairiki's diff engine as MediaWiki and
 * wikidiff2 run it — an LCS split into chunks (diag/compareseq), GNU diffutils' boundary
 * shifting, then edit operations. It is ported step by step (same tie-breaking, same chunking)
 * because a different but equally minimal diff would pair other lines and words than wikidiff2
 * does, and clients compare our output with MediaWiki's.
 *
 * wikidiff2 is GPL-2.0-or-later (Tim Starling, Geoffrey T. Dairiki and others); this port is
 * under the same licence.
 */

export const Op = { Copy: 0, Del: 1, Add: 2, Change: 3 } as const;
export type Op = (typeof Op)[keyof typeof Op];

/** One edit operation: indices into the "from" and "to" sequences. */
export interface DiffOp {
  op: Op;
  from: number[];
  to: number[];
}

/**
 * Line mode (Diff<String>) gives a `looksLikeChange` test: changed lines that are too
 * dissimilar become an add and a delete, and uneven changes are split so that moved-paragraph
 * detection sees the surplus lines. Word mode (Diff<Word>) leaves it out.
 */
export interface DiffOptions {
  looksLikeChange?: (fromIndex: number, toIndex: number) => boolean;
  /** Above this (remaining from × remaining to), the whole sequence is one change; 0 = never. */
  bailoutComplexity?: number;
}

const MAX_CHUNKS = 8;

/** Diffs two sequences compared by key (a line's text, a word's body). */
export function diffSequences(fromKeys: readonly string[], toKeys: readonly string[], opts: DiffOptions = {}): DiffOp[] {
  return new DiffEngine(fromKeys, toKeys, opts).run();
}

class DiffEngine {
  private readonly xchanged: boolean[];
  private readonly ychanged: boolean[];
  /** Keys of the lines that occur in both files, and their original indices. */
  private readonly xv: string[] = [];
  private readonly yv: string[] = [];
  private readonly xind: number[] = [];
  private readonly yind: number[] = [];
  private readonly seq: number[];
  private readonly inSeq = new Set<number>();
  private lcs = 0;
  private readonly edits: DiffOp[] = [];

  constructor(
    private readonly from: readonly string[],
    private readonly to: readonly string[],
    private readonly opts: DiffOptions,
  ) {
    this.xchanged = new Array<boolean>(from.length).fill(false);
    this.ychanged = new Array<boolean>(to.length).fill(false);
    this.seq = new Array<number>(Math.max(from.length, to.length) + 1).fill(0);
  }

  run(): DiffOp[] {
    const { from, to, xchanged, ychanged } = this;
    const nFrom = from.length;
    const nTo = to.length;

    let skip = 0;
    while (skip < nFrom && skip < nTo && from[skip] === to[skip]) skip++;
    let endskip = 0;
    let xi = nFrom;
    let yi = nTo;
    // The C++ loop condition `--xi > skip && --yi > skip` decrements yi only when xi passed.
    for (;;) {
      if (!(--xi > skip)) break;
      if (!(--yi > skip)) break;
      if (from[xi] !== to[yi]) break;
      endskip++;
    }

    const bailout = this.opts.bailoutComplexity ?? 0;
    if (bailout > 0 && (nFrom - skip - endskip) * (nTo - skip - endskip) > bailout) {
      return [{ op: Op.Change, from: range(0, nFrom), to: range(0, nTo) }];
    }

    const xhash = new Set<string>();
    for (let i = skip; i < nFrom - endskip; i++) xhash.add(from[i]!);
    const yhash = new Set<string>();
    for (let i = skip; i < nTo - endskip; i++) {
      const line = to[i]!;
      if ((ychanged[i] = !xhash.has(line))) continue;
      yhash.add(line);
      this.yv.push(line);
      this.yind.push(i);
    }
    for (let i = skip; i < nFrom - endskip; i++) {
      const line = from[i]!;
      if ((xchanged[i] = !yhash.has(line))) continue;
      this.xv.push(line);
      this.xind.push(i);
    }

    this.compareseq(0, this.xv.length, 0, this.yv.length);
    shiftBoundaries(from, xchanged, ychanged);
    shiftBoundaries(to, ychanged, xchanged);

    xi = 0;
    yi = 0;
    while (xi < nFrom || yi < nTo) {
      let del: number[] = [];
      let add: number[] = [];
      while (xi < nFrom && yi < nTo && !xchanged[xi] && !ychanged[yi]) {
        del.push(xi++);
        add.push(yi++);
      }
      if (del.length > 0) {
        this.edits.push({ op: Op.Copy, from: del, to: add });
        del = [];
        add = [];
      }
      while (xi < nFrom && xchanged[xi]) del.push(xi++);
      while (yi < nTo && ychanged[yi]) add.push(yi++);

      if (this.opts.looksLikeChange) this.detectDissimilarChanges(del, add, this.opts.looksLikeChange);

      if (del.length > 0 && add.length > 0) this.writeChange(del, add);
      else if (del.length > 0) this.edits.push({ op: Op.Del, from: del, to: [] });
      else if (add.length > 0) this.edits.push({ op: Op.Add, from: [], to: add });
    }
    return this.edits;
  }

  /** Changed lines that look too different are written as an add and a delete (in that order). */
  private detectDissimilarChanges(del: number[], add: number[], looksLikeChange: (f: number, t: number) => boolean): void {
    for (let i = 0; i < del.length && i < add.length; ++i) {
      if (looksLikeChange(del[i]!, add[i]!)) continue;
      if (i > 0) {
        this.edits.push({ op: Op.Change, from: del.slice(0, i), to: add.slice(0, i) });
        add.splice(0, i);
        del.splice(0, i);
        i = 0;
      }
      this.edits.push({ op: Op.Add, from: [], to: [add[i]!] });
      this.edits.push({ op: Op.Del, from: [del[i]!], to: [] });
      add.splice(i, 1);
      del.splice(i, 1);
      --i;
    }
  }

  private writeChange(del: number[], add: number[]): void {
    if (!this.opts.looksLikeChange || del.length === add.length) {
      this.edits.push({ op: Op.Change, from: del, to: add });
      return;
    }
    const common = Math.min(del.length, add.length);
    this.edits.push({ op: Op.Change, from: del.slice(0, common), to: add.slice(0, common) });
    if (del.length > common) this.edits.push({ op: Op.Del, from: del.slice(common), to: [] });
    if (add.length > common) this.edits.push({ op: Op.Add, from: [], to: add.slice(common) });
  }

  /**
   * Divides the LCS of [xoff, xlim) and [yoff, ylim) into nchunks segments; returns the LCS
   * length and the nchunks+1 dividing points.
   */
  private diag(xoff: number, xlim: number, yoff: number, ylim: number, nchunks: number, seps: [number, number][]): number {
    const { seq, inSeq } = this;
    let flip = false;
    if (xlim - xoff > ylim - yoff) {
      // The shorter sequence goes in x.
      flip = true;
      [xoff, yoff] = [yoff, xoff];
      [xlim, ylim] = [ylim, xlim];
    }
    const xs = flip ? this.yv : this.xv;
    const ys = flip ? this.xv : this.yv;
    // Match positions in descending order, as the C++ pushes them.
    const ymatches = new Map<string, number[]>();
    for (let i = ylim - 1; i >= yoff; i--) {
      const key = ys[i]!;
      const list = ymatches.get(key);
      if (list) list.push(i);
      else ymatches.set(key, [i]);
    }

    const nlines = ylim - yoff;
    this.lcs = 0;
    seq[0] = yoff - 1;
    inSeq.clear();
    const ymids = new Int32Array(nlines * nchunks);
    const copyRow = (k: number) => ymids.copyWithin(k * nchunks, (k - 1) * nchunks, k * nchunks);

    const numer = xlim - xoff + nchunks - 1;
    let x = xoff;
    for (let chunk = 0; chunk < nchunks; chunk++) {
      if (chunk > 0) for (let i = 0; i <= this.lcs; i++) ymids[i * nchunks + chunk - 1] = seq[i]!;
      const x1 = xoff + Math.floor((numer + (xlim - xoff) * chunk) / nchunks);
      for (; x < x1; x++) {
        const matches = ymatches.get(xs[x]!);
        if (!matches) continue;
        let m = 0;
        let k = 0;
        for (; m < matches.length; m++) {
          const y = matches[m]!;
          if (!inSeq.has(y)) {
            k = this.lcsPos(y);
            copyRow(k);
            m++;
            break;
          }
        }
        for (; m < matches.length; m++) {
          const y = matches[m]!;
          if (y > seq[k - 1]!) {
            // The next match just replaces the previous one.
            inSeq.delete(seq[k]!);
            seq[k] = y;
            inSeq.add(y);
          } else if (!inSeq.has(y)) {
            k = this.lcsPos(y);
            copyRow(k);
          }
        }
      }
    }

    seps.length = 0;
    seps.push(flip ? [yoff, xoff] : [xoff, yoff]);
    const ymid = this.lcs * nchunks;
    for (let n = 0; n < nchunks - 1; n++) {
      const x1 = xoff + Math.floor((numer + (xlim - xoff) * n) / nchunks);
      const y1 = ymids[ymid + n]! + 1;
      seps.push(flip ? [y1, x1] : [x1, y1]);
    }
    seps.push(flip ? [ylim, xlim] : [xlim, ylim]);
    return this.lcs;
  }

  private lcsPos(ypos: number): number {
    const { seq, inSeq } = this;
    let end = this.lcs;
    if (end === 0 || ypos > seq[end]!) {
      seq[++this.lcs] = ypos;
      inSeq.add(ypos);
      return this.lcs;
    }
    let beg = 1;
    while (beg < end) {
      const mid = (beg + end) >> 1;
      if (ypos > seq[mid]!) beg = mid + 1;
      else end = mid;
    }
    inSeq.delete(seq[end]!);
    seq[end] = ypos;
    inSeq.add(ypos);
    return end;
  }

  /** Finds the LCS of [xoff, xlim) and [yoff, ylim), marking the lines outside it as changed. */
  private compareseq(xoff: number, xlim: number, yoff: number, ylim: number): void {
    const { xv, yv } = this;
    while (xoff < xlim && yoff < ylim && xv[xoff] === yv[yoff]) {
      ++xoff;
      ++yoff;
    }
    while (xlim > xoff && ylim > yoff && xv[xlim - 1] === yv[ylim - 1]) {
      --xlim;
      --ylim;
    }
    const seps: [number, number][] = [];
    let lcs: number;
    if (xoff === xlim || yoff === ylim) lcs = 0;
    else {
      const nchunks = Math.min(MAX_CHUNKS - 1, Math.min(xlim - xoff, ylim - yoff)) + 1;
      lcs = this.diag(xoff, xlim, yoff, ylim, nchunks, seps);
    }
    if (lcs === 0) {
      while (yoff < ylim) this.ychanged[this.yind[yoff++]!] = true;
      while (xoff < xlim) this.xchanged[this.xind[xoff++]!] = true;
    } else {
      for (let i = 0; i + 1 < seps.length; i++) {
        const [x0, y0] = seps[i]!;
        const [x1, y1] = seps[i + 1]!;
        this.compareseq(x0, x1, y0, y1);
      }
    }
  }
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, i) => start + i);
}

/**
 * Slides runs of changed lines so that they merge with neighbouring runs and line up with
 * changes in the other file (GNU diffutils 2.7 analyze.c, via wikidiff2).
 */
function shiftBoundaries(lines: readonly string[], changed: boolean[], otherChanged: readonly boolean[]): void {
  let i = 0;
  let j = 0;
  const len = lines.length;
  const otherLen = otherChanged.length;
  for (;;) {
    while (j < otherLen && otherChanged[j]) j++;
    while (i < len && !changed[i]) {
      i++;
      j++;
      while (j < otherLen && otherChanged[j]) j++;
    }
    if (i === len) break;

    let start = i;
    while (++i < len && changed[i]);

    let runlength: number;
    let corresponding: number;
    do {
      runlength = i - start;
      while (start > 0 && lines[start - 1] === lines[i - 1]) {
        changed[--start] = true;
        changed[--i] = false;
        while (start > 0 && changed[start - 1]) start--;
        while (otherChanged[--j]);
      }
      corresponding = j < otherLen ? i : len;
      while (i < len && lines[start] === lines[i]) {
        changed[start++] = false;
        changed[i++] = true;
        while (i < len && changed[i]) i++;
        j++;
        if (j < otherLen && otherChanged[j]) {
          corresponding = i;
          while (j < otherLen && otherChanged[j]) j++;
        }
      }
    } while (runlength !== i - start);

    while (corresponding < i) {
      changed[--start] = true;
      changed[--i] = false;
      while (otherChanged[--j]);
    }
  }
}
