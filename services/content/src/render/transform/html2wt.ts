/*
 * HTML → wikitext for the Parsoid-style HTML our renderer produces (REST
 * /v1/transform/html/to/wikitext), after Parsoid's Html2Wt: what the HTML carries about its source
 * is serialized from that (`data-mw` of transclusions and extension tags, `typeof="mw:Nowiki"`,
 * the option list of images in `data-parsoid`); everything else is written in MediaWiki's normal
 * forms (`== h ==`, blank lines between paragraphs, `'''`/`''`, `*#;:` lists, `{| |}` tables,
 * `[[Target|text]]`, `[url text]`), with `<nowiki>` where text would otherwise parse as markup.
 * Whitespace between block elements is kept as the separator between their wikitext (Parsoid
 * keeps it in the DOM for the same reason), raised to the minimum the syntax needs.
 */
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { INTERWIKI } from '../render.js';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

const isElement = (n: Node): n is Element => 'tagName' in n;
const isText = (n: Node): n is DefaultTreeAdapterMap['textNode'] => n.nodeName === '#text';
const attr = (e: Element, name: string): string | undefined => e.attrs.find((a) => a.name === name)?.value;
const typeOf = (e: Element) => (attr(e, 'typeof') ?? '').split(/\s+/);
const hasType = (e: Element, re: RegExp) => typeOf(e).some((t) => re.test(t));
const rels = (e: Element) => (attr(e, 'rel') ?? '').split(/\s+/);
const classes = (e: Element) => (attr(e, 'class') ?? '').split(/\s+/).filter(Boolean);
const children = (n: Node): Node[] => ('childNodes' in n ? (n as ParentNode).childNodes : []);

const BLOCK = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'table', 'pre', 'hr', 'div', 'figure', 'blockquote', 'section', 'center']);

/** Attributes the renderer adds for Parsoid's model, not written by authors. */
const GENERATED_ATTRS = new Set(['about', 'typeof', 'data-mw', 'data-parsoid', 'data-mw-section-id', 'rel', 'resource']);
const PARSOID_ID = /^mw[A-Za-z0-9_-]{2,}$/;

function textContent(n: Node): string {
  if (isText(n)) return n.value;
  return children(n).map(textContent).join('');
}

function jsonAttr<T>(e: Element, name: string): T | undefined {
  const v = attr(e, name);
  if (v === undefined) return undefined;
  try {
    return JSON.parse(v) as T;
  } catch {
    return undefined;
  }
}

/** The title a `./Title#frag` href names, with spaces. */
function hrefTitle(href: string): { title: string; fragment: string } {
  const path = href.replace(/^\.\//, '');
  const hash = path.indexOf('#');
  const raw = hash === -1 ? path : path.slice(0, hash);
  const frag = hash === -1 ? '' : path.slice(hash + 1);
  const dec = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { title: dec(raw).replaceAll('_', ' '), fragment: dec(frag).replaceAll('_', ' ') };
}

/** Titles compare as MediaWiki normalizes them: first letter case-insensitive, `_` = space. */
const sameTitle = (a: string, b: string) => {
  const n = (s: string) => {
    const t = s.replaceAll('_', ' ').trim().replace(/\s+/g, ' ');
    return t.charAt(0).toUpperCase() + t.slice(1);
  };
  return n(a) === n(b);
};

function attrsWikitext(e: Element): string {
  return e.attrs
    .filter((a) => !GENERATED_ATTRS.has(a.name) && !(a.name === 'id' && PARSOID_ID.test(a.value)))
    .map((a) => ` ${a.name}="${a.value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
}

/** Text that would parse as markup gets `<nowiki>` (Parsoid's WikitextEscapeHandlers, simplified). */
function escapeText(text: string, atLineStart: boolean): string {
  let t = text.replace(/(\[\[|\]\]|\{\{|\}\}|''+|~~~+|__[A-Z]+__|\[(?:https?:|ftp:|mailto:|\/\/)|<\/?[a-zA-Z][^>]*>|&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);|-{4,})/gi, (m) => `<nowiki>${m}</nowiki>`);
  if (atLineStart) t = t.replace(/(^|\n)([*#:;= ]|\{\||----)/g, (_m, nl: string, c: string) => `${nl}<nowiki>${c}</nowiki>`);
  return t;
}

/** Parsoid's data-parsoid `pi`: a parameter's key, whether it was named, the spaces around key and value. */
interface ParamInfo {
  k: string;
  named?: boolean;
  spc?: string[];
}

interface State {
  /** Element ids of the document (references bodies are found through them). */
  byId: Map<string, Element>;
}

export function htmlToWikitext(html: string): string {
  const doc = parse(html);
  const byId = new Map<string, Element>();
  const visit = (n: Node) => {
    if (isElement(n)) {
      const id = attr(n, 'id');
      if (id !== undefined) byId.set(id, n);
    }
    children(n).forEach(visit);
  };
  visit(doc);
  const body = findBody(doc);
  const st: State = { byId };
  const serializer = new Serializer(st);
  const nodes = body ? children(body) : [];
  const wikitext = serializer.blocks(nodes).replace(/\n+$/, '');
  // A heading or an indented preformatted block keeps the newline that ends its line at the end
  // of the document too (Parsoid's separator after them), e.g. "== h ==\n"; a <pre> tag does not.
  const last = serializer.lastBlock(nodes);
  const endsLine = last && (HEADING.test(last.tagName) || (last.tagName === 'pre' && !hasType(last, /^mw:Extension\//)));
  return endsLine ? `${wikitext}\n` : wikitext;
}

const HEADING = /^h[1-6]$/;

/**
 * Parsoid's DOMNormalizer drops headings with nothing in them but spaces and tabs (and its
 * HeadingHandler would otherwise write `<nowiki/>` in them).
 */
function isEmptyHeading(n: Node): boolean {
  return isElement(n) && HEADING.test(n.tagName) && children(n).every((c) => isText(c) && /^[ \t]*$/.test(c.value));
}

function findBody(n: Node): Element | undefined {
  if (isElement(n) && n.tagName === 'body') return n;
  for (const c of children(n)) {
    const b = findBody(c);
    if (b) return b;
  }
  return undefined;
}

class Serializer {
  constructor(private readonly st: State) {}

  /** Block context: the children of body, sections, cells, list items with blocks… */
  blocks(nodes: Node[]): string {
    const flat = this.flatten(nodes);
    let out = '';
    let pendingNl = 0;
    let prev: 'block' | 'p' | 'inline' | 'none' = 'none';
    let inline: Node[] = [];
    const flushInline = () => {
      if (inline.length === 0) return;
      const s = this.inline(inline, true);
      inline = [];
      if (s === '') return;
      if (prev !== 'none') out += '\n'.repeat(Math.max(pendingNl, 1));
      out += s;
      pendingNl = 0;
      prev = 'inline';
    };
    for (let i = 0; i < flat.length; i++) {
      const n = flat[i]!;
      if (isEmptyHeading(n)) continue;
      if (isText(n) && /^\s*$/.test(n.value) && (inline.length === 0 || n.value.includes('\n'))) {
        flushInline();
        pendingNl += (n.value.match(/\n/g) ?? []).length;
        continue;
      }
      if (isElement(n) && (BLOCK.has(n.tagName) || this.isBlockLink(n)) && !this.isInlineTemplate(n)) {
        flushInline();
        const skip = this.aboutSiblings(flat, i);
        const s = this.block(n);
        const min = prev === 'none' ? 0 : prev === 'p' && n.tagName === 'p' ? 2 : 1;
        if (prev !== 'none') out += '\n'.repeat(Math.max(pendingNl, min));
        out += s;
        pendingNl = 0;
        prev = n.tagName === 'p' ? 'p' : 'block';
        i += skip;
        continue;
      }
      inline.push(n);
    }
    flushInline();
    return out;
  }

  /** The last element of a block context that is written, when nothing but whitespace follows it. */
  lastBlock(nodes: Node[]): Element | undefined {
    const written = this.flatten(nodes).filter((n) => !isEmptyHeading(n) && !(isText(n) && /^\s*$/.test(n.value)) && n.nodeName !== '#comment');
    const last = written[written.length - 1];
    return last && isElement(last) ? last : undefined;
  }

  /** `<link>`s of categories and redirects on their own lines are blocks of their own. */
  private isBlockLink(e: Element): boolean {
    return e.tagName === 'link';
  }

  private isInlineTemplate(e: Element): boolean {
    return e.tagName === 'span';
  }

  private flatten(nodes: Node[]): Node[] {
    return nodes.flatMap((n) => (isElement(n) && n.tagName === 'section' ? this.flatten(children(n)) : [n]));
  }

  /** How many following siblings belong to the same transclusion (Parsoid's about-siblings). */
  private aboutSiblings(nodes: Node[], i: number): number {
    const first = nodes[i]!;
    if (!isElement(first) || !hasType(first, /^mw:Transclusion$/)) return 0;
    const about = attr(first, 'about');
    if (!about) return 0;
    let last = 0;
    for (let j = i + 1; j < nodes.length; j++) {
      const n = nodes[j]!;
      if (isElement(n)) {
        if (attr(n, 'about') === about) last = j - i;
        else break;
      } else if (!isText(n) || !/^\s*$/.test(n.value)) break;
    }
    return last;
  }

  private block(e: Element): string {
    const special = this.special(e);
    if (special !== undefined) return special;
    const tag = e.tagName;
    const h = /^h([1-6])$/.exec(tag);
    if (h) {
      const eq = '='.repeat(Number(h[1]));
      return `${eq} ${this.inline(children(e), false).trim()} ${eq}`;
    }
    switch (tag) {
      case 'p':
        return this.inline(children(e), true);
      case 'hr':
        return '----';
      case 'ul':
      case 'ol':
      case 'dl':
        return this.list(e, '');
      case 'table':
        return this.table(e);
      case 'pre':
        return ` ${textContent(e).replace(/\n(?!$)/g, '\n ')}`.replace(/\n $/, '\n');
      default:
        return `<${tag}${attrsWikitext(e)}>${this.blocks(children(e))}</${tag}>`;
    }
  }

  /** Elements serialized from what they carry about their source. */
  private special(e: Element): string | undefined {
    if (hasType(e, /^mw:Transclusion$/)) {
      const dm = jsonAttr<{ parts?: unknown[] }>(e, 'data-mw');
      if (dm?.parts) return this.transclusion(dm.parts, jsonAttr<{ pi?: ParamInfo[][] }>(e, 'data-parsoid')?.pi ?? []);
    }
    if (hasType(e, /^mw:Extension\/ref$/)) return this.ref(e);
    if (hasType(e, /^mw:Extension\/references$/)) {
      const dm = jsonAttr<{ attrs?: Record<string, string>; autoGenerated?: boolean }>(e, 'data-mw');
      if (dm?.autoGenerated) return '';
      return `<references${extAttrs(dm?.attrs ?? {})} />`;
    }
    if (hasType(e, /^mw:Extension\//)) {
      const dm = jsonAttr<{ name?: string; attrs?: Record<string, string>; body?: { extsrc?: string } }>(e, 'data-mw');
      if (dm?.name) return dm.body?.extsrc !== undefined ? `<${dm.name}${extAttrs(dm.attrs ?? {})}>${dm.body.extsrc}</${dm.name}>` : `<${dm.name}${extAttrs(dm.attrs ?? {})} />`;
    }
    const property = attr(e, 'property');
    if (e.tagName === 'meta' && property?.startsWith('mw:PageProp/')) return `__${property.slice('mw:PageProp/'.length).toUpperCase()}__`;
    if (hasType(e, /^mw:Nowiki$/)) return `<nowiki>${textContent(e)}</nowiki>`;
    if (hasType(e, /^mw:(?:File|Error)/) && hasType(e, /^mw:File/)) return this.file(e);
    if (e.tagName === 'link') {
      const r = rels(e);
      const href = attr(e, 'href') ?? '';
      if (r.includes('mw:PageProp/Category')) {
        const { title, fragment } = hrefTitle(href);
        return `[[${title}${fragment ? `|${fragment}` : ''}]]`;
      }
      if (r.includes('mw:PageProp/Language')) {
        const lang = languageLink(href);
        if (lang) return `[[${lang}]]`;
      }
      if (r.includes('mw:PageProp/redirect')) {
        const { title, fragment } = hrefTitle(href);
        return `#REDIRECT [[${title}${fragment ? `#${fragment}` : ''}]]`;
      }
      return '';
    }
    return undefined;
  }

  private transclusion(parts: unknown[], pi: ParamInfo[][]): string {
    let templateIndex = 0;
    return parts
      .map((p) => {
        if (typeof p === 'string') return p;
        const tpl = (p as { template?: { target: { wt: string }; params: Record<string, { wt: string }> } }).template;
        if (!tpl) return '';
        const info = pi[templateIndex++];
        // Parameters in the order written (pi), then any the HTML's editor added.
        const order: ParamInfo[] = (info ?? []).filter((x) => x.k in tpl.params);
        for (const k of Object.keys(tpl.params)) if (!order.some((x) => x.k === k)) order.push({ k });
        let positional = 0;
        const params = order.map(({ k, named, spc }) => {
          const v = tpl.params[k]!.wt;
          // A positional parameter is written bare when it is the next one and has no '='.
          if (!named && k === String(positional + 1) && !v.includes('=')) {
            positional++;
            return `|${v}`;
          }
          const [s0 = '', s1 = '', s2 = '', s3 = ''] = spc ?? [];
          return `|${s0}${k}${s1}=${s2}${v}${s3}`;
        });
        return `{{${tpl.target.wt}${params.join('')}}}`;
      })
      .join('');
  }

  private ref(e: Element): string {
    const dm = jsonAttr<{ attrs?: Record<string, string>; body?: { id?: string; html?: string; extsrc?: string } }>(e, 'data-mw');
    const attrs = extAttrs(dm?.attrs ?? {});
    if (!dm?.body) return `<ref${attrs} />`;
    let inner = dm.body.extsrc ?? '';
    if (dm.body.id !== undefined) {
      const bodyEl = this.st.byId.get(dm.body.id);
      inner = bodyEl ? this.blocks(children(bodyEl)) : '';
    } else if (dm.body.html !== undefined) {
      const frag = findBody(parse(dm.body.html));
      inner = frag ? this.blocks(children(frag)) : '';
    }
    return `<ref${attrs}>${inner}</ref>`;
  }

  /** `[[File:…|options|caption]]`: options as written (data-parsoid optList) or from the structure. */
  private file(e: Element): string {
    const img = findFirst(e, (n) => n.tagName === 'img' || (n.tagName === 'span' && classes(n).includes('mw-file-element')));
    const resource = img ? attr(img, 'resource') : undefined;
    const name = resource ? hrefTitle(resource).title : '';
    const caption = findFirst(e, (n) => n.tagName === 'figcaption');
    const captionWt = caption ? this.inline(children(caption), false) : undefined;
    const dp = jsonAttr<{ optList?: { ck: string; ak: string }[] }>(e, 'data-parsoid');
    if (dp?.optList) {
      const opts = dp.optList.map((o) => {
        if (o.ck === 'caption') return captionWt ?? o.ak;
        if (o.ck === 'alt' && img) return `alt=${attr(img, 'alt') ?? ''}`;
        return o.ak;
      });
      return `[[${name}${opts.map((o) => `|${o}`).join('')}]]`;
    }
    const opts: string[] = [];
    if (hasType(e, /^mw:File\/Thumb$/)) opts.push('thumb');
    else if (hasType(e, /^mw:File\/Frame$/)) opts.push('frame');
    else if (hasType(e, /^mw:File\/Frameless$/)) opts.push('frameless');
    const align = classes(e).find((c) => c.startsWith('mw-halign-'));
    if (align) opts.push(align.slice('mw-halign-'.length));
    if (img && !classes(e).includes('mw-default-size') && attr(img, 'width')) opts.push(`${attr(img, 'width')}px`);
    if (img && attr(img, 'alt') !== undefined) opts.push(`alt=${attr(img, 'alt')}`);
    if (captionWt) opts.push(captionWt);
    return `[[${name}${opts.map((o) => `|${o}`).join('')}]]`;
  }

  private list(e: Element, prefix: string): string {
    const lines: string[] = [];
    const own = e.tagName === 'ul' ? '*' : e.tagName === 'ol' ? '#' : '';
    for (const item of children(e)) {
      if (!isElement(item)) continue;
      const bullet = prefix + (own || (item.tagName === 'dt' ? ';' : ':'));
      const nested: Element[] = [];
      const content: Node[] = [];
      for (const c of children(item)) {
        if (isElement(c) && (c.tagName === 'ul' || c.tagName === 'ol' || c.tagName === 'dl')) nested.push(c);
        else if (nested.length === 0) content.push(c);
      }
      const text = this.inline(content, false).replace(/\s+$/, '');
      if (text !== '' || nested.length === 0) lines.push(`${bullet}${text === '' ? '' : ` ${text}`}`);
      else if (nested.length > 0 && lines.length === 0 && prefix === '') {
        /* an item holding only a sublist: the sublist's bullets carry it */
      }
      for (const sub of nested) lines.push(this.list(sub, bullet));
    }
    return lines.join('\n');
  }

  private table(e: Element): string {
    const lines = [`{|${attrsWikitext(e)}`];
    let firstRow = true;
    const rows: Element[] = [];
    for (const c of children(e)) {
      if (!isElement(c)) continue;
      if (c.tagName === 'caption') lines.push(`|+ ${this.blocks(children(c)).trim()}`);
      else if (c.tagName === 'tbody' || c.tagName === 'thead' || c.tagName === 'tfoot') rows.push(...children(c).filter(isElement));
      else if (c.tagName === 'tr') rows.push(c);
    }
    for (const tr of rows) {
      const a = attrsWikitext(tr);
      if (!firstRow || a) lines.push(`|-${a}`);
      firstRow = false;
      for (const cell of children(tr)) {
        if (!isElement(cell) || (cell.tagName !== 'td' && cell.tagName !== 'th')) continue;
        const mark = cell.tagName === 'th' ? '!' : '|';
        const ca = attrsWikitext(cell);
        const content = this.blocks(children(cell)).replace(/\n+$/, '');
        lines.push(`${mark}${ca ? `${ca} |` : ''}${content === '' ? '' : ` ${content}`}`);
      }
    }
    lines.push('|}');
    return lines.join('\n');
  }

  /** Inline content; `lineStart` says the first text begins a line (where `*`, `=`… would be syntax). */
  inline(nodes: Node[], lineStart: boolean): string {
    let out = '';
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      if (isText(n)) {
        out += escapeText(n.value, lineStart && (out === '' || out.endsWith('\n')));
        continue;
      }
      if (!isElement(n)) continue;
      const special = this.special(n);
      if (special !== undefined) {
        out += special;
        i += this.aboutSiblings(nodes, i);
        continue;
      }
      out += this.inlineElement(n, nodes[i + 1]);
    }
    return out;
  }

  private inlineElement(e: Element, next: Node | undefined): string {
    switch (e.tagName) {
      case 'b':
        return `'''${this.inline(children(e), false)}'''`;
      case 'i':
        return `''${this.inline(children(e), false)}''`;
      case 'br':
        return '<br />';
      case 'a':
        return this.link(e, next);
      default:
        if (BLOCK.has(e.tagName)) return this.block(e);
        return `<${e.tagName}${attrsWikitext(e)}>${this.inline(children(e), false)}</${e.tagName}>`;
    }
  }

  private link(e: Element, _next: Node | undefined): string {
    const r = rels(e);
    const href = attr(e, 'href') ?? '';
    const content = this.inline(children(e), false);
    const plain = textContent(e);
    if (r.includes('mw:WikiLink')) {
      const { title, fragment } = hrefTitle(href);
      const titleAttr = attr(e, 'title');
      // [[#anchor]]: a link to a section of this page.
      if (titleAttr === undefined && fragment && plain === `#${fragment}`) return `[[${plain}]]`;
      let target = (titleAttr ?? title) + (fragment ? `#${fragment}` : '');
      if (/^(?:Category|File|Image):/i.test(target)) target = `:${target}`;
      if (content === plain) {
        if (sameTitle(plain, target.replace(/^:/, ''))) return `[[${target.startsWith(':') ? ':' : ''}${plain}]]`;
        // A link trail: [[Target]]s shows "Targets".
        const trail = /^[a-z]+$/.exec(plain.slice(target.length));
        if (trail && plain.length > target.length && sameTitle(plain.slice(0, target.length), target)) return `[[${plain.slice(0, target.length)}]]${trail[0]}`;
      }
      return `[[${target}|${content}]]`;
    }
    if (r.includes('mw:WikiLink/Interwiki')) {
      const target = attr(e, 'title') ?? href;
      return content === target ? `[[${target}]]` : `[[${target}|${content}]]`;
    }
    if (r.includes('mw:ExtLink')) {
      const cls = classes(e);
      if (cls.includes('free')) return plain;
      if (cls.includes('autonumber')) return `[${href}]`;
      return `[${href} ${content}]`;
    }
    return content;
  }
}

/** `fr:Chat` for a language link's URL, through the interwiki table's URL patterns. */
function languageLink(href: string): string | undefined {
  for (const [prefix, iw] of Object.entries(INTERWIKI)) {
    if (!iw.language) continue;
    const [head = '', tail = ''] = iw.url.split('$1');
    if (href.startsWith(head) && href.endsWith(tail) && href.length > head.length + tail.length) {
      return `${prefix}:${hrefTitle(href.slice(head.length, href.length - tail.length)).title}`;
    }
  }
  return undefined;
}

function extAttrs(attrs: Record<string, string>): string {
  return Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${v.replace(/"/g, '&quot;')}"`)
    .join('');
}

function findFirst(n: Node, pred: (e: Element) => boolean): Element | undefined {
  for (const c of children(n)) {
    if (isElement(c) && pred(c)) return c;
    const f = findFirst(c, pred);
    if (f) return f;
  }
  return undefined;
}
