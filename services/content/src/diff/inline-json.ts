/*
 * wikidiff2's inline JSON (InlineDiffJSON.cpp), the diff of REST /v1/revision/{from}/compare/{to}:
 * one entry per shown line, highlight ranges as UTF-8 byte ranges of the entry's text.
 */
import { Op } from './engine.js';
import { runDiff, type DiffPrinter, type MoveInfo } from './wikidiff2.js';
import type { WordDiff } from './words.js';

export const DiffType = { Context: 0, AddLine: 1, DeleteLine: 2, Change: 3, MoveSource: 4, MoveDestination: 5 } as const;
export type DiffType = (typeof DiffType)[keyof typeof DiffType];
export const HighlightType = { Add: 0, Delete: 1 } as const;
export const LinkDirection = { Down: 0, Up: 1 } as const;

export interface HighlightRange {
  start: number;
  length: number;
  type: number;
}

export interface InlineMoveInfo {
  id: string;
  linkId: string;
  linkDirection: number;
}

export interface InlineDiffEntry {
  type: DiffType;
  /** Line in the new text; absent for deleted lines and move sources. */
  lineNumber?: number;
  text: string;
  /** Byte offsets of the line in the old and new text; null where it has no line. */
  offset: { from: number | null; to: number | null };
  highlightRanges?: HighlightRange[];
  moveInfo?: InlineMoveInfo;
}

const offsetOf = (from: number, to: number) => ({ from: from > -1 ? from : null, to: to > -1 ? to : null });

class InlineJsonPrinter implements DiffPrinter {
  readonly entries: InlineDiffEntry[] = [];

  add(line: string, _left: number, rightLine: number, offsetFrom: number, offsetTo: number): void {
    this.entries.push({ type: DiffType.AddLine, lineNumber: rightLine, text: line, offset: offsetOf(offsetFrom, offsetTo) });
  }

  del(line: string, _left: number, _right: number, offsetFrom: number, offsetTo: number): void {
    this.entries.push({ type: DiffType.DeleteLine, text: line, offset: offsetOf(offsetFrom, offsetTo) });
  }

  context(line: string, _left: number, rightLine: number, offsetFrom: number, offsetTo: number): void {
    this.entries.push({ type: DiffType.Context, lineNumber: rightLine, text: line, offset: offsetOf(offsetFrom, offsetTo) });
  }

  blockHeader(): void {
    // The inline JSON has no block headers.
  }

  wordDiff(diff: WordDiff, _left: number, rightLine: number, offsetFrom: number, offsetTo: number, move?: MoveInfo): void {
    const moved = move !== undefined && move.printLeft !== move.printRight;
    const isMoveSrc = moved && move.printLeft;
    let text = '';
    let bytes = 0;
    const ranges: HighlightRange[] = [];
    /** Appends words to the text; returns their byte range. */
    const append = (words: WordDiff['words1'], idx: number[]) => {
      const start = bytes;
      for (const i of idx) {
        const w = words[i]!;
        text += w.whole;
        bytes += w.bytes;
      }
      return { start, length: bytes - start };
    };
    for (const op of diff.ops) {
      if (op.op === Op.Copy) append(diff.words1, op.from);
      else if (op.op === Op.Del) {
        const r = append(diff.words1, op.from);
        if (!isMoveSrc) ranges.push({ ...r, type: HighlightType.Delete });
      } else if (op.op === Op.Add) {
        if (isMoveSrc) continue;
        ranges.push({ ...append(diff.words2, op.to), type: HighlightType.Add });
      } else {
        const r = append(diff.words1, op.from);
        if (isMoveSrc) continue;
        ranges.push({ ...r, type: HighlightType.Delete });
        ranges.push({ ...append(diff.words2, op.to), type: HighlightType.Add });
      }
    }
    const offset = offsetOf(offsetFrom, offsetTo);
    if (!moved) {
      this.entries.push({ type: DiffType.Change, lineNumber: rightLine, text, offset, highlightRanges: ranges });
      return;
    }
    const moveInfo = { id: move.srcAnchor, linkId: move.dstAnchor, linkDirection: move.downwards ? LinkDirection.Down : LinkDirection.Up };
    if (isMoveSrc) this.entries.push({ type: DiffType.MoveSource, moveInfo, text, offset });
    else this.entries.push({ type: DiffType.MoveDestination, lineNumber: rightLine, moveInfo, text, offset, highlightRanges: ranges });
  }
}

/** wikidiff2_inline_json_diff($old, $new, 2) as entries. */
export function inlineJsonDiff(oldText: string, newText: string): InlineDiffEntry[] {
  const printer = new InlineJsonPrinter();
  runDiff(oldText, newText, printer);
  return printer.entries;
}

/**
 * The entries as wikidiff2 prints them (`{"diff": [...]}` in its own spacing), which MediaWiki
 * splices into the REST body verbatim. JSON.stringify escapes strings exactly as wikidiff2's
 * printEscapedJSON does for valid UTF-8.
 */
export function formatInlineJsonDiff(entries: readonly InlineDiffEntry[]): string {
  const s = JSON.stringify;
  const offset = (o: InlineDiffEntry['offset']) => `"offset": {"from": ${o.from ?? 'null'},"to": ${o.to ?? 'null'}}`;
  const parts = entries.map((e) => {
    let out = `{"type": ${e.type}`;
    if (e.lineNumber !== undefined) out += `, "lineNumber": ${e.lineNumber}`;
    if (e.moveInfo) out += `, "moveInfo": {"id": ${s(e.moveInfo.id)}, "linkId": ${s(e.moveInfo.linkId)}, "linkDirection": ${e.moveInfo.linkDirection}}`;
    out += `, "text": ${s(e.text)}, ${offset(e.offset)}`;
    if (e.highlightRanges) {
      out += `, "highlightRanges": [${e.highlightRanges.map((r) => `{"start": ${r.start}, "length": ${r.length}, "type": ${r.type} }`).join(',')}]`;
    }
    return `${out}}`;
  });
  return `{"diff": [${parts.join(',')}]}`;
}
