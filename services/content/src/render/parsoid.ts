/*
 * Parsoid-style structure for the REST /html routes: `<section data-mw-section-id>` wrappers
 * nested by heading level, element ids mwAQ, mwAg… in document order, and
 * `about`/`typeof="mw:Transclusion"`/`data-mw` on the output of each top-level template.
 * The document head is added on read (gateway), since it names the server and revision.
 */
import type { TransclusionInfo } from './expand.js';

const VOID = new Set(['br', 'wbr', 'hr', 'img', 'link', 'meta', 'input', 'source', 'track', 'area', 'col', 'embed', 'param']);

/** Parsoid's element id for a counter: "mw" + base64 of its bytes. */
export function parsoidId(n: number): string {
  const bytes: number[] = [];
  let x = n;
  do {
    bytes.unshift(x & 0xff);
    x = Math.floor(x / 256);
  } while (x > 0);
  return `mw${Buffer.from(bytes).toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}`;
}

/** JSON in a single-quoted attribute (Parsoid's data-mw and data-parsoid). */
export const jsonAttr = (v: unknown) => JSON.stringify(v).replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function dataMwAttr(info: TransclusionInfo, n: number): string {
  const dp = info.paramInfo ? ` data-parsoid='${jsonAttr({ pi: [info.paramInfo] })}'` : '';
  return ` about="#mwt${n + 1}" typeof="mw:Transclusion" data-mw='${jsonAttr(info.dataMw)}'${dp}`;
}

/** Adds the transclusion attributes to a tag's attributes in Parsoid's order (about, typeof, class, data-mw). */
function withTransclusion(attrs: string, added: string): string {
  const cls = / class="[^"]*"/.exec(attrs);
  if (!cls) return attrs + added;
  const dataMw = added.slice(added.indexOf(" data-mw='"));
  return attrs.replace(cls[0], `${added.slice(0, added.indexOf(" data-mw='"))}${cls[0]}${dataMw}`);
}

/** Whether a fragment of HTML closes every element it opens, in order. */
function balancedSingleRoot(html: string): boolean {
  const first = /^<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>/.exec(html);
  if (!first) return false;
  if (first[2] === '/' || VOID.has(first[1]!.toLowerCase())) return first[0].length === html.length;
  let depth = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>/g)) {
    const name = m[2]!.toLowerCase();
    if (m[3] === '/' || VOID.has(name)) continue;
    depth += m[1] ? -1 : 1;
    if (depth === 0) return m.index! + m[0].length === html.length;
  }
  return false;
}

function balanced(html: string): boolean {
  let depth = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>/g)) {
    const name = m[2]!.toLowerCase();
    if (m[3] === '/' || VOID.has(name)) continue;
    depth += m[1] ? -1 : 1;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Block tags the paragraph pass opens around a template's output that starts or ends inside them. */
const WRAP_OPEN = /<(p|li|dd|dt)>$/;

function annotateTransclusions(html: string, infos: TransclusionInfo[]): string {
  let out = '';
  let pos = 0;
  for (const m of html.matchAll(/\x7fT(\d+)\x7f([\s\S]*?)\x7f\/T\1\x7f/g)) {
    let before = html.slice(pos, m.index);
    let end = m.index + m[0].length;
    let clean = m[2]!.replace(/\x7f\/?T\d+\x7f/g, '');
    // Output of several paragraphs: the markers sit inside the first and last <p>; take those in.
    if (!balanced(clean)) {
      const lead = WRAP_OPEN.exec(before);
      const trail = lead ? new RegExp(`^\\s*</${lead[1]}>`).exec(html.slice(end)) : null;
      if (lead && trail && balanced(lead[0] + clean + trail[0])) {
        before = before.slice(0, -lead[0].length);
        clean = lead[0] + clean + trail[0];
        end += trail[0].length;
      }
    }
    out += before + annotateOne(clean, infos[Number(m[1])], Number(m[1]));
    pos = end;
  }
  return out + html.slice(pos);
}

function annotateOne(clean: string, info: TransclusionInfo | undefined, n: number): string {
  if (!info) return clean;
  const attrs = dataMwAttr(info, n);
  if (balancedSingleRoot(clean)) return clean.replace(/^<([a-zA-Z][a-zA-Z0-9]*)\b([^>]*?)(\/?)>/, (_m, tag: string, a: string, close: string) => `<${tag}${withTransclusion(a, attrs)}${close}>`);
  if (balanced(clean) && !/<(?:p|div|table|ul|ol|dl|h[1-6]|pre|section|figure|blockquote)\b/i.test(clean)) return `<span${attrs}>${clean}</span>`;
  const siblings = aboutSiblings(clean, attrs, n);
  if (siblings !== undefined) return siblings;
  // Output that spans blocks: the first element carries the annotation.
  const first = /<([a-zA-Z][a-zA-Z0-9]*)\b([^>]*?)(\/?)>/.exec(clean);
  if (first) return clean.replace(first[0], `<${first[1]}${withTransclusion(first[2]!, attrs)}${first[3]}>`);
  return `<span${attrs}>${clean}</span>`;
}

/**
 * Balanced output of several top-level elements (and whitespace between them): the first carries
 * the annotation and the others its `about`, as Parsoid marks a transclusion's siblings.
 */
function aboutSiblings(clean: string, attrs: string, n: number): string | undefined {
  if (!balanced(clean)) return undefined;
  let depth = 0;
  let out = '';
  let pos = 0;
  let first = true;
  for (const m of clean.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b([^>]*?)(\/?)>/g)) {
    const between = clean.slice(pos, m.index);
    if (depth === 0 && between.trim() !== '') return undefined;
    out += between;
    pos = m.index + m[0].length;
    const name = m[2]!.toLowerCase();
    const opening = !m[1];
    if (opening && depth === 0) {
      out += `<${m[2]}${first ? withTransclusion(m[3]!, attrs) : `${m[3]} about="#mwt${n + 1}"`}${m[4]}>`;
      first = false;
    } else out += m[0];
    if (m[4] === '/' || VOID.has(name)) continue;
    depth += opening ? 1 : -1;
  }
  if (clean.slice(pos).trim() !== '') return undefined;
  return out + clean.slice(pos);
}

/** Body content: sections and ids; the `<body id="mwAA">` itself is counter 0. */
export function toParsoidBody(html: string, transclusions: TransclusionInfo[]): string {
  let text = annotateTransclusions(html, transclusions).replace(/\x7f\/?T\d+\x7f/g, '');
  text = text.replace(/\n+$/, '');
  let counter = 1;
  let out = '';
  let depth = 0;
  const open: number[] = [];
  const openSection = (id: string, level: number) => {
    out += `<section data-mw-section-id="${id}" id="${parsoidId(counter++)}">`;
    open.push(level);
  };
  // The lead section ends at the first heading of any level.
  openSection('0', 99);
  let pos = 0;
  for (const m of text.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b([^>]*?)(\/?)>/g)) {
    out += text.slice(pos, m.index);
    pos = m.index! + m[0].length;
    const [, closing, name, attrsRaw, selfClose] = m;
    const lname = name!.toLowerCase();
    let attrs = attrsRaw!;
    if (closing) {
      depth--;
      out += m[0];
      continue;
    }
    const heading = /^h([1-6])$/.exec(lname);
    const sec = / data-mw-section="(-?\d+)"/.exec(attrs);
    if (heading && sec) {
      attrs = attrs.replace(sec[0], '');
      if (depth === 0 && sec[1] !== '-1') {
        const level = Number(heading[1]);
        while (open.length > 0 && open[open.length - 1]! >= level) {
          out += '</section>';
          open.pop();
        }
        openSection(sec[1]!, level);
      }
    }
    if (!/\sid="/.test(attrs)) attrs += ` id="${parsoidId(counter++)}"`;
    out += `<${name}${attrs}${selfClose}>`;
    if (!selfClose && !VOID.has(lname)) depth++;
  }
  out += text.slice(pos);
  while (open.length) {
    out += '</section>';
    open.pop();
  }
  return out;
}
