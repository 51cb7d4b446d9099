/*
 * Wikitext lint in Parsoid's categories (Wt2Html/PP/Processors/Linter.php, MediaWiki 1.39) for the
 * REST lint routes: {type, dsr: [start, end, openWidth, closeWidth], params}. Parsoid finds these
 * on its DOM after the HTML5 tree builder's fix-ups; here a line/block model of the page's
 * literal HTML tags reproduces the same fix-ups for the common cases (see lint.test.ts, checked
 * against Parsoid's own linter run on the reference wiki's configuration). Offsets are computed in
 * UTF-16 code units (what Parsoid's LintLogger reports) and converted to UTF-8 bytes on output,
 * the REST API's default offsetType.
 *
 * Not covered: lints inside template output (Parsoid's `templateInfo`), tidy-whitespace-bug,
 * pwrap-bug-workaround, misc-tidy-replacement-issues, multiline-html-table-in-list,
 * wikilink-in-extlink and deletable-table-tag.
 */

export type Dsr = [number, number, number | null, number | null];

export interface Lint {
  type: string;
  dsr: Dsr;
  params: Record<string, unknown> | unknown[];
}

const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);
/** Parsoid's OlderHTMLTags without `big` (editors still offer it). */
const OBSOLETE = new Set(['strike', 'center', 'font', 'tt']);
const VOID = new Set(['br', 'wbr', 'hr', 'img', 'meta', 'link', 'source', 'track', 'area', 'col', 'embed', 'param', 'input']);
/** Block elements that outlive the paragraph or line they are opened in. */
const BLOCK = new Set([
  'div',
  'center',
  'blockquote',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'caption',
  'tr',
  'td',
  'th',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'pre',
  'section',
  'article',
  'aside',
  'nav',
  'footer',
  'header',
  'figure',
  'figcaption',
  'fieldset',
  'details',
  'hgroup',
]);
/** Tags whose misnesting HTML5 and Tidy treat differently (Linter::getTagsWithChangedMisnestingBehavior). */
const CHANGED_MISNESTING = new Set(['abbr', 'bdi', 'bdo', 'cite', 'data', 'del', 'dfn', 'ins', 'kbd', 'mark', 'q', 'rb', 'rp', 'rt', 'rtc', 'ruby', 'samp', 'span', 'sub', 'sup', 'time', 'var']);
/** Literal HTML tags the sanitizer lets through (others are text, not elements). */
const HTML_TAGS = new Set([...FORMATTING, ...BLOCK, ...CHANGED_MISNESTING, ...VOID, 'rtc', 'wbr']);
/** Extension and parser tags whose content is not wikitext HTML for this pass. */
const OPAQUE_TAGS = [
  'nowiki',
  'pre',
  'ref',
  'references',
  'gallery',
  'math',
  'syntaxhighlight',
  'source',
  'score',
  'templatedata',
  'poem',
  'includeonly',
  'noinclude',
  'onlyinclude',
  'timeline',
  'graph',
  'categorytree',
  'indicator',
];

/** Image options Parsoid recognizes (the magic words of the reference wiki, English). */
const IMAGE_OPTION =
  /^(?:thumb|thumbnail|frame|framed|frameless|border|left|right|center|centre|none|baseline|sub|super|sup|top|text-top|middle|bottom|text-bottom|upright(?:\s*=?\s*[\d.]+)?|\d*(?:x\d+)?\s*px|(?:link|alt|page|class|lang|thumb(?:nail)?)=[\s\S]*)$/;

/** Replaces comments, opaque tags and template calls with spaces, keeping every offset. */
function mask(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  let t = text.replace(/<!--[\s\S]*?(?:-->|$)/g, blank);
  const opaque = new RegExp(`<(${OPAQUE_TAGS.join('|')})(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?(?:</\\1\\s*>|$))`, 'gi');
  t = t.replace(opaque, blank);
  // Template calls and parameters, innermost first.
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t.replace(/\{\{(?!\{)[^{}]*\}\}|\{\{\{[^{}]*\}\}\}/g, blank);
  }
  return t;
}

interface Open {
  name: string;
  start: number;
  openWidth: number;
  block: boolean;
  inTable: boolean;
  /** Offset of the unit (paragraph, line, cell) it was opened in. */
  unit: number;
  /** Inner element auto-closed just before this one, for multiple-unclosed-formatting-tags. */
  lastChild?: { name: string; autoClosed: boolean; textBefore: string };
}

interface Unit {
  start: number;
  /** Where the unit's content ends (trailing newline and heading `=`s excluded). */
  end: number;
  kind: 'para' | 'line' | 'heading' | 'cell';
  inTable: boolean;
  /** Whether more content follows the unit in a later paragraph (HTML5 re-parents it). */
  followedByContent: boolean;
}

class Linter {
  readonly lints: Lint[] = [];
  private readonly stack: Open[] = [];
  /** End tags already accounted for by a misnesting lint. */
  private readonly consumed = new Set<number>();

  constructor(
    private readonly src: string,
    private readonly masked: string,
  ) {}

  private add(type: string, dsr: Dsr, params: Record<string, unknown> | unknown[]): void {
    this.lints.push({ type, dsr, params });
  }

  /** An element the tree builder ended without its end tag; `misnestable`: content follows that HTML5 leaves outside it (Linter::hasMisnestableContent). */
  private autoClose(o: Open, end: number, misnestable: boolean): void {
    const dsr: Dsr = [o.start, end, o.openWidth, 0];
    this.classifyUnclosed(o, dsr, misnestable);
    if (OBSOLETE.has(o.name)) this.add('obsolete-tag', dsr, { name: o.name });
  }

  private classifyUnclosed(o: Open, dsr: Dsr, misnestable: boolean): void {
    if (o.name === 'li' || o.name === 'td' || o.name === 'th' || o.name === 'tr') return;
    if (CHANGED_MISNESTING.has(o.name) && misnestable) {
      this.add('html5-misnesting', dsr, { name: o.name });
      return;
    }
    this.add('missing-end-tag', dsr, { name: o.name, inTable: o.inTable });
    const lc = o.lastChild;
    if (FORMATTING.has(o.name) && lc && lc.name === o.name && lc.autoClosed && lc.textBefore !== '' && !/\s$/.test(lc.textBefore)) {
      this.add('multiple-unclosed-formatting-tags', dsr, { name: o.name, inTable: o.inTable });
    }
  }

  /** Closes the inline elements opened in `unit` at its end (the tree builder's p/li/td end). */
  endUnit(unit: Unit, next: Unit | undefined): void {
    this.closeInline(unit, unit.end, unit.followedByContent && (unit.kind === 'para' || unit.kind === 'line'), next);
  }

  private closeInline(unit: Unit, end: number, misnestable: boolean, next?: Unit): void {
    let child: Open['lastChild'];
    while (this.stack.length > 0) {
      const top = this.stack[this.stack.length - 1]!;
      if (top.block || top.unit !== unit.start) break;
      this.stack.pop();
      top.lastChild ??= child;
      if (next && FORMATTING.has(top.name) && this.reopenedAndClosed(top.name, next)) this.add('misnested-tag', [top.start, end, top.openWidth, 0], { name: top.name });
      else this.autoClose(top, end, misnestable);
      child = { name: top.name, autoClosed: true, textBefore: this.src.slice(Math.max(0, top.start - 1), top.start) };
    }
  }

  /** Scans one unit's literal HTML tags. */
  scan(unit: Unit): void {
    const re = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
    re.lastIndex = unit.start;
    const region = this.masked.slice(0, unit.end);
    for (let m = re.exec(region); m; m = re.exec(region)) {
      const [whole, closing, rawName, , selfClose] = m;
      const name = rawName!.toLowerCase();
      if (!HTML_TAGS.has(name)) continue;
      const start = m.index;
      const end = start + whole.length;
      if (closing) {
        if (this.consumed.has(start)) continue;
        this.closeTag(name, start, end, unit);
        continue;
      }
      if (selfClose && !VOID.has(name)) {
        this.add('self-closed-tag', [start, end, whole.length, 0], { name });
        continue;
      }
      if (VOID.has(name)) continue;
      // A block element ends the paragraph, and the inline elements open in it.
      if (BLOCK.has(name) && unit.kind === 'para') this.closeInline(unit, start, true);
      const parent = this.stack[this.stack.length - 1];
      const open: Open = { name, start, openWidth: whole.length, block: BLOCK.has(name), inTable: unit.inTable || this.stack.some((o) => o.name === 'table'), unit: unit.start };
      if (parent?.lastChild) parent.lastChild = undefined;
      this.stack.push(open);
    }
  }

  /** The tree builder reopens a formatting element in the next block; its end tag there closes the copy (Linter::getMatchingMisnestedNode). */
  private reopenedAndClosed(name: string, next: Unit): boolean {
    const m = new RegExp(`<(/?)${name}\\b[^>]*>`, 'i').exec(this.masked.slice(next.start, next.end));
    if (!m?.[1]) return false;
    this.consumed.add(next.start + m.index);
    return true;
  }

  private closeTag(name: string, start: number, end: number, unit: Unit): void {
    let i = this.stack.length - 1;
    while (i >= 0 && this.stack[i]!.name !== name) i--;
    if (i < 0) {
      if (name !== 'p' && name !== 'br') this.add('stripped-tag', [start, end, null, null], { name });
      return;
    }
    const el = this.stack[i]!;
    // Elements opened inside it end here, unclosed; a formatting one whose own end tag follows in
    // the same unit is misnested (the tree builder reopens it, and that end tag closes the copy).
    const inner = this.stack.splice(i);
    inner.shift();
    for (const o of inner.reverse()) {
      const later = new RegExp(`</${o.name}\\s*>`, 'gi');
      later.lastIndex = end;
      const next = later.exec(this.masked.slice(0, unit.end));
      if (FORMATTING.has(o.name) && next) {
        this.consumed.add(next.index);
        this.add('misnested-tag', [o.start, start, o.openWidth, 0], { name: o.name });
      } else {
        this.autoClose(o, start, !/^(?:a|td|th|h\d)$/.test(el.name) && this.masked.slice(end).trim() !== '');
      }
    }
    if (OBSOLETE.has(name)) this.add('obsolete-tag', [el.start, end, el.openWidth, end - start], { name });
  }

  /** At the end of the text: whatever is still open ends at the last non-blank character. */
  finish(): void {
    const end = this.src.replace(/\s+$/, '').length;
    while (this.stack.length > 0) this.autoClose(this.stack.pop()!, end, false);
  }
}

/** The blocks of the page: paragraphs, list items, headings, table cells, in order. */
function units(masked: string): Unit[] {
  const out: Unit[] = [];
  const lines: { start: number; text: string }[] = [];
  let pos = 0;
  for (const text of masked.split('\n')) {
    lines.push({ start: pos, text });
    pos += text.length + 1;
  }
  let tableDepth = 0;
  let para: Unit | undefined;
  const flush = () => {
    if (para) out.push(para);
    para = undefined;
  };
  for (const { start, text } of lines) {
    const end = start + text.replace(/\s+$/, '').length;
    if (/^\s*\{\|/.test(text)) {
      flush();
      tableDepth++;
      continue;
    }
    if (tableDepth > 0 && /^\s*\|\}/.test(text)) {
      flush();
      tableDepth--;
      continue;
    }
    if (tableDepth > 0 && /^\s*(?:\|-|\|\+)/.test(text)) {
      flush();
      continue;
    }
    if (tableDepth > 0 && /^\s*[|!]/.test(text)) {
      flush();
      const lead = /^\s*[|!]/.exec(text)![0].length;
      // Cells on one line: `||` / `!!`; attributes before a single `|` are not content.
      let cellStart = start + lead;
      for (const sep of text.slice(lead).matchAll(/\|\||!!/g)) {
        out.push({ start: cellStart, end: start + lead + sep.index, kind: 'cell', inTable: true, followedByContent: false });
        cellStart = start + lead + sep.index + 2;
      }
      out.push({ start: cellStart, end, kind: 'cell', inTable: true, followedByContent: false });
      continue;
    }
    const heading = /^(=+)(.*?)(=+)\s*$/.exec(text);
    if (heading && heading[2]!.length > 0) {
      flush();
      const level = Math.min(heading[1]!.length, heading[3]!.length, 6);
      out.push({ start: start + level, end: start + text.replace(/\s+$/, '').length - level, kind: 'heading', inTable: tableDepth > 0, followedByContent: false });
      continue;
    }
    const list = /^[*#:;]+/.exec(text);
    if (list) {
      flush();
      out.push({ start: start + list[0].length, end, kind: 'line', inTable: tableDepth > 0, followedByContent: false });
      continue;
    }
    if (text.trim() === '') {
      flush();
      continue;
    }
    if (para) para.end = end;
    else para = { start, end, kind: tableDepth > 0 ? 'cell' : 'para', inTable: tableDepth > 0, followedByContent: false };
  }
  flush();
  for (let i = 0; i + 1 < out.length; i++) out[i]!.followedByContent = true;
  return out;
}

/** unclosed-quotes-in-heading: an odd `''` or `'''` run in a heading. */
function headingQuotes(masked: string, unit: Unit, linter: Linter): void {
  const text = masked.slice(unit.start, unit.end);
  const runs = [...text.matchAll(/'{2,}/g)];
  let italic: number | undefined;
  let bold: number | undefined;
  for (const r of runs) {
    const len = r[0].length;
    const at = unit.start + r.index + (len === 4 ? 1 : len > 5 ? len - 5 : 0);
    const kind = len === 2 ? 'i' : len === 3 || len === 4 ? 'b' : 'both';
    if (kind === 'i' || kind === 'both') italic = italic === undefined ? at : undefined;
    if (kind === 'b' || kind === 'both') bold = bold === undefined ? at : undefined;
  }
  const level = masked.slice(0, unit.start).length - masked.slice(0, unit.start).replace(/=+$/, '').length;
  if (italic !== undefined) linter.lints.push({ type: 'unclosed-quotes-in-heading', dsr: [italic, unit.end, 2, 0], params: { name: 'i', ancestorName: `h${level}` } });
  if (bold !== undefined) linter.lints.push({ type: 'unclosed-quotes-in-heading', dsr: [bold, unit.end, 3, 0], params: { name: 'b', ancestorName: `h${level}` } });
}

/** Wikilink-level lints: bogus-image-options and multi-colon-escape. */
function linkLints(masked: string, isFileNamespace: (prefix: string) => boolean, linter: Linter): void {
  for (const m of masked.matchAll(/\[\[([^[\]|\n]*)((?:\|(?:[^[\]]|\[\[[^[\]]*\]\]|\[[^[\]]*\])*)?)\]\]/g)) {
    const target = m[1]!;
    const start = m.index;
    const end = start + m[0].length;
    if (/^\s*::/.test(target)) {
      linter.lints.push({ type: 'lint/multi-colon-escape', dsr: [start, end, null, null], params: { href: target.trim() } });
      continue;
    }
    const colon = target.indexOf(':');
    if (colon <= 0 || !isFileNamespace(target.slice(0, colon).trim())) continue;
    const options = m[2] ? m[2].slice(1).split('|') : [];
    const framed = options.some((o) => /^\s*(?:thumb|thumbnail|frame|framed)\s*$/.test(o));
    // The last option that is no image option is the caption; earlier ones are bogus.
    const unknown = options.map((o, i) => ({ o: o.trim(), i })).filter(({ o }) => o !== '' && !IMAGE_OPTION.test(o));
    const bogus = unknown.slice(0, -1).map((u) => u.o);
    if (bogus.length > 0) linter.lints.push({ type: 'bogus-image-options', dsr: framed ? [start, end, 2, 2] : [start, end, null, null], params: { items: bogus } });
  }
}

/** fostered: text directly in a wikitext table, outside every cell (the tree builder moves it before the table). */
function fosteredLints(masked: string, linter: Linter): void {
  const lines = masked.split('\n');
  const stack: { start: number; fostered: boolean; inCell: boolean }[] = [];
  let pos = 0;
  for (const line of lines) {
    const top = stack[stack.length - 1];
    if (/^\s*\{\|/.test(line)) stack.push({ start: pos + line.indexOf('{|'), fostered: false, inCell: false });
    else if (top && /^\s*\|\}/.test(line)) {
      stack.pop();
      const end = pos + line.indexOf('|}') + 2;
      if (top.fostered) linter.lints.push({ type: 'fostered', dsr: [top.start, end, 2, 2], params: [] });
    } else if (top && /^\s*\|-/.test(line)) top.inCell = false;
    else if (top && /^\s*(?:[|!]|\|\+)/.test(line)) top.inCell = true;
    else if (top && !top.inCell && line.trim() !== '') top.fostered = true;
    pos += line.length + 1;
  }
}

/** UTF-16 offset → UTF-8 byte offset. */
function byteOffsets(text: string): (i: number | null) => number | null {
  const table = new Uint32Array(text.length + 1);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    table[i] = bytes;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      table[++i] = bytes; // the low surrogate belongs to the same character
    } else bytes += 3;
  }
  table[text.length] = bytes;
  return (i) => (i === null ? null : table[i]!);
}

export interface LintOptions {
  /** Whether a link prefix names the File namespace (or one of its aliases). */
  isFileNamespace?: (prefix: string) => boolean;
  /** 'byte' (the REST API's default) or 'ucs2' (UTF-16 code units, as Parsoid's LintLogger). */
  offsetType?: 'byte' | 'ucs2';
}

const defaultFileNamespace = (p: string) => /^(?:file|image)$/i.test(p);

/** Parsoid-style lints of a wikitext document, in document order. */
export function lintWikitext(text: string, opts: LintOptions = {}): Lint[] {
  const masked = mask(text);
  const linter = new Linter(text, masked);
  const blocks = units(masked);
  for (const [i, unit] of blocks.entries()) {
    linter.scan(unit);
    linter.endUnit(unit, blocks[i + 1]);
    if (unit.kind === 'heading') headingQuotes(masked, unit, linter);
  }
  linter.finish();
  linkLints(masked, opts.isFileNamespace ?? defaultFileNamespace, linter);
  fosteredLints(masked, linter);
  const lints = linter.lints
    .map((l, i) => ({ l, i }))
    .sort((a, b) => a.l.dsr[0] - b.l.dsr[0] || a.i - b.i)
    .map(({ l }) => l);
  // Linter::detectMultipleUnclosedFormattingTags: two unclosed <small> (or <big>) outside tables.
  const seen = new Map<string, Lint>();
  for (const l of lints) {
    const p = l.params as { name?: string; inTable?: boolean };
    if (l.type !== 'missing-end-tag' || p.inTable || (p.name !== 'small' && p.name !== 'big')) continue;
    const first = seen.get(p.name);
    if (first) {
      lints.push({ type: 'multiple-unclosed-formatting-tags', params: first.params, dsr: first.dsr });
      break;
    }
    seen.set(p.name, l);
  }
  if ((opts.offsetType ?? 'byte') === 'ucs2') return lints;
  const toByte = byteOffsets(text);
  return lints.map((l) => ({ ...l, dsr: [toByte(l.dsr[0])!, toByte(l.dsr[1])!, l.dsr[2], l.dsr[3]] }));
}
