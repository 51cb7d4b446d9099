/*
 * The preprocessor (MediaWiki's Preprocessor_Hash::preprocessToObj): wikitext → a tree of
 * templates `{{…}}`, template arguments `{{{…}}}`, extension tags, comments and headings, with
 * MediaWiki's brace-matching rules (the longest run that closes, leftovers stay text, unclosed
 * constructs are text). Expansion (expand.ts) walks this tree.
 */

export type PNode = string | TemplateNode | ArgNode | ExtNode | HeadingMark;

export interface Part {
  /** The text before the first top-level `=` of a part, when there is one. */
  name?: PNode[];
  value: PNode[];
}

export interface TemplateNode {
  kind: 'tpl';
  title: PNode[];
  parts: Part[];
  /** Wikitext of the whole construct (data-mw and the parse tree show it). */
  src: string;
  /** The construct starts a line (MediaWiki prepends a newline to block output otherwise). */
  lineStart: boolean;
}

export interface ArgNode {
  kind: 'arg';
  name: PNode[];
  /** `{{{name|default}}}`; further parts are ignored, as in MediaWiki. */
  default?: PNode[];
  src: string;
}

export interface ExtNode {
  kind: 'ext';
  name: string;
  attrs: string;
  /** undefined for a self-closed tag. */
  inner: string | undefined;
  src: string;
}

/** A heading line of the preprocessed text: its section index and byte offset in the source. */
export interface HeadingMark {
  kind: 'heading';
  index: number;
  byteOffset: number;
}

/** Extension tags whose content the preprocessor does not look into. */
export const EXTENSION_TAGS = ['nowiki', 'pre', 'ref', 'references', 'gallery', 'indicator'] as const;

interface StackEl {
  open: '{' | '[';
  count: number;
  /** Parts split at '|'; `name` is set once a top-level '=' was seen in the part. */
  parts: { name?: PNode[]; nodes: PNode[] }[];
  start: number;
  lineStart: boolean;
}

const EXT_RE = new RegExp(`^<(${EXTENSION_TAGS.join('|')})(\\s[^>]*?)?(/?)>`, 'i');

function push(acc: PNode[], s: string | PNode): void {
  if (typeof s === 'string') {
    if (s === '') return;
    const last = acc[acc.length - 1];
    if (typeof last === 'string') acc[acc.length - 1] = last + s;
    else acc.push(s);
  } else acc.push(s);
}

/**
 * Applies <noinclude>/<includeonly>/<onlyinclude> for the page's own view (include = false) or
 * for transclusion (include = true).
 */
export function applyIncludeTags(text: string, include: boolean): string {
  if (include) {
    if (/<onlyinclude>/i.test(text)) {
      const parts = [...text.matchAll(/<onlyinclude>([\s\S]*?)(?:<\/onlyinclude>|$)/gi)].map((m) => m[1]!);
      text = parts.join('');
    }
    text = text.replace(/<noinclude>[\s\S]*?(?:<\/noinclude>|$)/gi, '');
    return text.replace(/<\/?includeonly\s*>/gi, '');
  }
  text = text.replace(/<includeonly>[\s\S]*?(?:<\/includeonly>|$)/gi, '');
  return text.replace(/<\/?(?:noinclude|onlyinclude)\s*>/gi, '');
}

export interface PreprocessOptions {
  include: boolean;
  /** Record headings (only for text that is a page's own, or a template's text). */
  headings?: boolean;
}

export interface Preprocessed {
  nodes: PNode[];
  /** Nodes visited, for the limit report. */
  nodeCount: number;
}

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * The page's own view (not included): <includeonly> blocks and the noinclude/onlyinclude tags
 * removed, with where each removal was (in the result) and how many source bytes it took, so
 * heading offsets can be given in the source as MediaWiki does.
 */
function ownView(source: string): { text: string; removed: { at: number; bytes: number }[] } {
  const removed: { at: number; bytes: number }[] = [];
  let text = '';
  let last = 0;
  for (const m of source.matchAll(/<includeonly>[\s\S]*?(?:<\/includeonly>|$)|<\/?(?:noinclude|onlyinclude)\s*>/gi)) {
    text += source.slice(last, m.index);
    removed.push({ at: text.length, bytes: utf8Length(m[0]) });
    last = m.index + m[0].length;
  }
  return { text: text + source.slice(last), removed };
}

export function preprocess(source: string, opts: PreprocessOptions): Preprocessed {
  const own = opts.include ? undefined : ownView(source);
  const text = own ? own.text : applyIncludeTags(source, true);
  // Byte offsets of headings are in the source (MediaWiki reports offsets of the raw text); a
  // transcluded text's headings have none.
  const offsetShift = own ? 0 : undefined;
  const root: PNode[] = [];
  const stack: StackEl[] = [];
  let headingIndex = 0;
  let nodeCount = 0;
  const acc = (): PNode[] => {
    const top = stack[stack.length - 1];
    return top ? top.parts[top.parts.length - 1]!.nodes : root;
  };
  let i = 0;
  const n = text.length;
  let atLineStart = true;
  const special = /[{}[\]|=<\n]/g;
  /** Where the run of `}` or `]` that `i` is in ends, once counted. */
  let closeRunEnd = 0;
  // Offsets are asked in increasing order: each answer carries on from the last one, where
  // counting from the start of the text (or back to it) for every heading or comment was quadratic.
  let bytesAt = { pos: 0, bytes: 0 };
  let removedAt = 0;
  let removedBytes = 0;
  const byteOffset = (pos: number): number => {
    bytesAt = { pos, bytes: bytesAt.bytes + utf8Length(text.slice(bytesAt.pos, pos)) };
    while (own && removedAt < own.removed.length && own.removed[removedAt]!.at <= pos) removedBytes += own.removed[removedAt++]!.bytes;
    return bytesAt.bytes + removedBytes;
  };
  let newlineScan = { upTo: 0, last: -1 };
  const lastNewlineBefore = (pos: number): number => {
    let at = newlineScan.last;
    for (let k = text.indexOf('\n', newlineScan.upTo); k !== -1 && k < pos; k = text.indexOf('\n', k + 1)) at = k;
    newlineScan = { upTo: pos, last: at };
    return at;
  };
  // Where each extension tag's closing tag is at or after a position, remembered: an opening tag
  // that never closes searched the rest of the text, once for every such tag.
  // (at -1: none from `from` on).
  const closings = new Map<string, { from: number; at: number; end: number }>();
  const closingTag = (name: string, from: number): { at: number; end: number } | undefined => {
    let found = closings.get(name);
    if (!found || from < found.from || (found.at !== -1 && from > found.at)) {
      const re = new RegExp(`</${name}\\s*>`, 'ig');
      re.lastIndex = from;
      const m = re.exec(text);
      found = m ? { from, at: m.index, end: m.index + m[0].length } : { from, at: -1, end: -1 };
      closings.set(name, found);
    }
    return found.at === -1 ? undefined : found;
  };
  while (i < n) {
    if (atLineStart && stack.length === 0 && opts.headings && text[i] === '=') {
      const end = text.indexOf('\n', i);
      const line = withoutTrailingComments(text.slice(i, end === -1 ? n : end));
      if (line.length >= 3 && line.endsWith('=') && /^=+[^=]/.test(line)) {
        headingIndex++;
        const offset = offsetShift === undefined ? -1 : byteOffset(i);
        push(acc(), { kind: 'heading', index: headingIndex, byteOffset: offset });
      }
    }
    atLineStart = false;
    special.lastIndex = i;
    const m = special.exec(text);
    if (!m) {
      push(acc(), text.slice(i));
      break;
    }
    const j = m.index;
    if (j > i) push(acc(), text.slice(i, j));
    i = j;
    const c = text[i]!;
    if (c === '\n') {
      push(acc(), '\n');
      i++;
      atLineStart = true;
      continue;
    }
    if (c === '<') {
      if (text.startsWith('<!--', i)) {
        const close = text.indexOf('-->', i + 4);
        const endC = close === -1 ? n : close + 3;
        // A comment alone on its line takes the line's newline with it.
        const before = lastNewlineBefore(i);
        const lineBefore = text.slice(before + 1, i);
        if (/^[ \t]*$/.test(lineBefore) && text[endC] === '\n' && (before !== -1 || i === 0) && /^[ \t]*$/.test(lineBefore)) {
          const a = acc();
          const last = a[a.length - 1];
          if (typeof last === 'string' && lineBefore !== '' && last.endsWith(lineBefore)) a[a.length - 1] = last.slice(0, -lineBefore.length);
          i = endC + 1;
          atLineStart = true;
        } else i = endC;
        nodeCount++;
        continue;
      }
      const em = EXT_RE.exec(text.slice(i, i + 300));
      if (em) {
        const name = em[1]!.toLowerCase();
        const attrs = em[2] ?? '';
        const openEnd = i + em[0].length;
        if (em[3] === '/') {
          push(acc(), { kind: 'ext', name, attrs, inner: undefined, src: em[0] });
          i = openEnd;
          nodeCount++;
          continue;
        }
        const cm = closingTag(name, openEnd);
        if (cm) {
          push(acc(), { kind: 'ext', name, attrs, inner: text.slice(openEnd, cm.at), src: text.slice(i, cm.end) });
          i = cm.end;
          nodeCount++;
          continue;
        }
      }
      push(acc(), '<');
      i++;
      continue;
    }
    if (c === '{' || c === '[') {
      let run = 1;
      while (text[i + run] === c) run++;
      if (run >= 2) {
        const prev = i === 0 ? '\n' : text[i - 1];
        stack.push({ open: c, count: run, parts: [{ nodes: [] }], start: i, lineStart: prev === '\n' });
        i += run;
        continue;
      }
      push(acc(), c);
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      // A run of closers is consumed a few at a time; its end is counted once (recounting it at
      // each step was quadratic in the run's length).
      if (closeRunEnd <= i) {
        closeRunEnd = i + 1;
        while (text[closeRunEnd] === c) closeRunEnd++;
      }
      const run = closeRunEnd - i;
      const top = stack[stack.length - 1];
      const matches = top && ((c === '}' && top.open === '{') || (c === ']' && top.open === '['));
      if (!top || !matches) {
        push(acc(), c.repeat(run));
        i += run;
        continue;
      }
      let count = Math.min(top.count, run);
      if (top.open === '{') {
        if (count > 3) count = 3;
        if (count < 2) {
          push(acc(), c.repeat(run));
          i += run;
          continue;
        }
      } else {
        if (count < 2) {
          push(acc(), c.repeat(run));
          i += run;
          continue;
        }
        count = 2;
      }
      stack.pop();
      const srcStart = top.start + top.count - count;
      const src = text.slice(srcStart, i + count);
      let node: PNode[];
      if (top.open === '[') {
        node = ['[[', ...flattenParts(top.parts), ']]'];
      } else if (count === 3) {
        const [first, second] = top.parts;
        node = [{ kind: 'arg', name: flattenParts([first!]), ...(second ? { default: flattenParts([second]) } : {}), src }];
        nodeCount++;
      } else {
        const [first, ...rest] = top.parts;
        node = [
          {
            kind: 'tpl',
            title: flattenParts([first!]),
            parts: rest.map((p) => (p.name ? { name: p.name, value: p.nodes } : { value: p.nodes })),
            src,
            lineStart: top.lineStart && top.count === count,
          },
        ];
        nodeCount++;
      }
      i += count;
      const leftover = top.count - count;
      if (leftover >= 2) {
        // Unmatched opening braces remain: the node becomes the first content of a shorter construct.
        stack.push({ open: top.open, count: leftover, parts: [{ nodes: [] }], start: top.start, lineStart: top.lineStart });
        for (const x of node) push(acc(), x);
      } else {
        push(acc(), top.open.repeat(leftover));
        for (const x of node) push(acc(), x);
      }
      continue;
    }
    if (c === '|') {
      const top = stack[stack.length - 1];
      if (top) top.parts.push({ nodes: [] });
      else push(acc(), '|');
      i++;
      continue;
    }
    // '='
    const top = stack[stack.length - 1];
    if (top && top.open === '{' && top.parts.length > 1) {
      const part = top.parts[top.parts.length - 1]!;
      if (!part.name) {
        part.name = part.nodes;
        part.nodes = [];
        i++;
        continue;
      }
    }
    push(acc(), '=');
    i++;
  }
  // Unclosed constructs are text. Each one's text ends the last part of the one below it, so they
  // are written out in order, bottom first (copying each into the one below, from the top down,
  // was quadratic in how deep they nest).
  for (const el of stack) {
    push(root, el.open.repeat(el.count));
    for (const x of flattenParts(el.parts)) push(root, x);
  }
  return { nodes: root, nodeCount: nodeCount + root.length };
}

/**
 * The line without the whitespace and comments at its end, as `line.replace(/(?:<!--[\s\S]*?-->|\s)*$/, '')`
 * (a comment may hold `-->`: it ends at any `-->` that only whitespace and comments follow), in
 * one pass from the end: that pattern tried every position of the line against the rest of it.
 */
export function withoutTrailingComments(line: string): string {
  // From the end: whether line[q..] is whitespace and comments only, and the furthest `-->` end
  // with that property (a comment opening at q may end at it).
  let cut = line.length;
  let furthestEnd = line.endsWith('-->') ? line.length : -1;
  for (let q = line.length - 1; q >= 0; q--) {
    let ok = false;
    if (/\s/.test(line[q]!)) ok = cut === q + 1;
    if (!ok && line.startsWith('<!--', q)) ok = furthestEnd >= q + 7;
    if (!ok) continue;
    cut = q;
    if (q >= 3 && line.startsWith('-->', q - 3) && furthestEnd < q) furthestEnd = q;
  }
  return line.slice(0, cut);
}

/** Parts back to one node list joined with '|' (and '=' where a part was split). */
function flattenParts(parts: { name?: PNode[]; nodes: PNode[] }[]): PNode[] {
  const out: PNode[] = [];
  parts.forEach((p, k) => {
    if (k > 0) push(out, '|');
    if (p.name) {
      for (const x of p.name) push(out, x);
      push(out, '=');
    }
    for (const x of p.nodes) push(out, x);
  });
  return out;
}
