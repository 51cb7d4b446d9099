/*
 * MediaWiki's Sanitizer for HTML written in wikitext: only the tags and attributes MediaWiki
 * allows survive (includes/parser/Sanitizer.php, 1.39), everything else is shown as text.
 * No element that can run script is allowed, no `on*` attribute, no attribute that takes a URL,
 * and inline CSS that could load or run anything becomes `/* insecure input *\/`.
 */
import { decodeHTMLStrict } from 'entities';
import { isUnsafeCss, normalizeCss, URL_PROTOCOLS_PATTERN } from '@quire/kit/html-safety';

const PAIRED = [
  'b',
  'bdi',
  'del',
  'i',
  'ins',
  'u',
  'font',
  'big',
  'small',
  'sub',
  'sup',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'cite',
  'code',
  'em',
  's',
  'strike',
  'strong',
  'tt',
  'var',
  'div',
  'center',
  'blockquote',
  'ol',
  'ul',
  'dl',
  'table',
  'caption',
  'pre',
  'ruby',
  'rb',
  'rp',
  'rt',
  'rtc',
  'p',
  'span',
  'abbr',
  'dfn',
  'kbd',
  'samp',
  'data',
  'time',
  'mark',
  'q',
  'bdo',
  'tr',
  'td',
  'th',
  'li',
  'dt',
  'dd',
];
const SINGLE = ['br', 'wbr', 'hr', 'meta', 'link'];
/** Elements that may appear without a closing tag in wikitext. */
const SINGLE_ONLY = new Set(['br', 'wbr', 'hr', 'meta', 'link']);
export const ALLOWED_TAGS = new Set([...PAIRED, ...SINGLE]);
/** Sanitizer's $htmlsingle that are not $htmlsingleonly: `<li/>` is `<li></li>`. */
const SELF_CLOSING = new Set(['li', 'dt', 'dd']);

const COMMON = ['id', 'class', 'style', 'lang', 'dir', 'title', 'tabindex', 'role', 'about', 'property', 'resource', 'datatype', 'typeof', 'itemid', 'itemprop', 'itemref', 'itemscope', 'itemtype'];
const BLOCK = [...COMMON, 'align'];
const TABLE_CELL = [...COMMON, 'abbr', 'axis', 'headers', 'scope', 'rowspan', 'colspan', 'nowrap', 'width', 'height', 'bgcolor', 'align', 'valign'];

const ATTRS: Record<string, string[]> = {
  div: BLOCK,
  center: COMMON,
  span: COMMON,
  h1: BLOCK,
  h2: BLOCK,
  h3: BLOCK,
  h4: BLOCK,
  h5: BLOCK,
  h6: BLOCK,
  bdo: COMMON,
  em: COMMON,
  strong: COMMON,
  cite: COMMON,
  dfn: COMMON,
  code: COMMON,
  samp: COMMON,
  kbd: COMMON,
  var: COMMON,
  abbr: COMMON,
  blockquote: [...COMMON, 'cite'],
  q: [...COMMON, 'cite'],
  sub: COMMON,
  sup: COMMON,
  p: BLOCK,
  br: [...COMMON, 'clear'],
  wbr: COMMON,
  pre: [...COMMON, 'width'],
  ins: [...COMMON, 'cite', 'datetime'],
  del: [...COMMON, 'cite', 'datetime'],
  ul: [...COMMON, 'type'],
  ol: [...COMMON, 'type', 'start', 'reversed'],
  li: [...COMMON, 'type', 'value'],
  dl: COMMON,
  dd: COMMON,
  dt: COMMON,
  table: [...COMMON, 'summary', 'width', 'border', 'frame', 'rules', 'cellspacing', 'cellpadding', 'align', 'bgcolor'],
  caption: BLOCK,
  thead: COMMON,
  tfoot: COMMON,
  tbody: COMMON,
  colgroup: [...COMMON, 'span'],
  col: [...COMMON, 'span'],
  tr: [...COMMON, 'bgcolor', 'align', 'valign'],
  td: TABLE_CELL,
  th: TABLE_CELL,
  tt: COMMON,
  b: COMMON,
  i: COMMON,
  big: COMMON,
  small: COMMON,
  strike: COMMON,
  s: COMMON,
  u: COMMON,
  font: [...COMMON, 'size', 'color', 'face'],
  hr: [...COMMON, 'width'],
  ruby: COMMON,
  rb: COMMON,
  rp: COMMON,
  rt: COMMON,
  rtc: COMMON,
  data: [...COMMON, 'value'],
  time: [...COMMON, 'datetime'],
  mark: COMMON,
  bdi: COMMON,
  meta: ['itemprop', 'content'],
  link: ['itemprop', 'href', 'title'],
};

/** Sanitizer::checkCss: CSS that can load resources or run script is refused as a whole. */
export function checkCss(value: string): string {
  const css = normalizeCss(value);
  // Also refused: characters that would let the value escape its attribute or comment out the rest.
  if (isUnsafeCss(value) || /[\\<>]|\/\*/.test(css)) return '/* insecure input */';
  return css.trim();
}

export function escapeAttr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Sanitizer::encodeAttribute: HTML-escaped, line breaks and tabs as references (Html::element's
 * attribute values), so that no line-based pass (paragraphs) splits a value.
 */
export function encodeAttr(v: string): string {
  return escapeAttr(v).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/** Sanitizer::safeEncodeAttribute's armour: what later passes (links, templates, magic links) would act on. */
const WIKI_SIGNIFICANT: Record<string, string> = { '{': '&#123;', '}': '&#125;', '[': '&#91;', ']': '&#93;', '|': '&#124;', _: '&#95;', ISBN: '&#73;SBN', RFC: '&#82;FC', PMID: '&#80;MID' };
const PROTOCOL_RE = new RegExp(`(?:${URL_PROTOCOLS_PATTERN})`, 'gi');

/**
 * Sanitizer::safeEncodeAttribute (as MediaWiki 1.39's output shows it): the value HTML-escaped
 * (quotes included), line breaks and tabs as references, then the characters and words that
 * later passes (links, quotes, templates, magic links, free URLs) would act on, and the colon of
 * every URL protocol, so that no later pass can act inside an attribute value.
 */
export function safeEncodeAttr(v: string): string {
  return encodeAttr(v)
    .replace(/'/g, '&#39;')
    .replace(/[{}[\]|_]|ISBN|RFC|PMID/g, (c) => WIKI_SIGNIFICANT[c]!)
    .replace(PROTOCOL_RE, (p) => p.replace(':', '&#58;'));
}

export function escapeHtml(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Sanitizer::escapeIdForAttribute (html5): whitespace runs become one underscore. */
export function escapeId(v: string): string {
  return v.replace(/[\t\n\f\r ]+/g, '_');
}

/**
 * $wgFragmentMode's escapings of ids and fragments (Sanitizer::escapeIdInternal): 'html5' keeps
 * the text, 'legacy' percent-encodes it with dots. The setting's first mode makes ids and links,
 * a second one an extra id for old links (a heading's fallback anchor).
 */
export type FragmentMode = 'html5' | 'legacy';
/** MediaWiki 1.39's $wgFragmentMode. */
export const DEFAULT_FRAGMENT_MODE: readonly FragmentMode[] = ['html5', 'legacy'];

/** Reads WIKI_FRAGMENT_MODE's comma-separated list; undefined when it is not one or two known modes. */
export function parseFragmentMode(v: string): FragmentMode[] | undefined {
  const modes = v.split(',').map((m) => m.trim());
  return modes.length <= 2 && modes.every((m): m is FragmentMode => m === 'html5' || m === 'legacy') ? modes : undefined;
}

const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** PHP's urlencode: UTF-8 bytes percent-encoded except [A-Za-z0-9_.-], a space as `+`. */
function phpUrlencode(s: string): string {
  return encodeURIComponent(s.replace(LONE_SURROGATE_RE, '\ufffd'))
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');
}

/** Sanitizer::escapeIdInternal: an id in one mode (cut at 1024 characters, griefer protection). */
export function escapeIdAs(id: string, mode: FragmentMode): string {
  const cut = id.length > 1024 ? Array.from(id).slice(0, 1024).join('') : id;
  if (mode === 'html5') return cut.replace(/[\t\n\f\r ]/g, '_');
  return phpUrlencode(cut.replaceAll(' ', '_')).replaceAll('%3A', ':').replaceAll('%', '.');
}

/** Sanitizer::escapeIdForLink's escaping in one mode: an html5 id keeps a literal %XX from decoding. */
export function escapeIdForLinkAs(id: string, mode: FragmentMode): string {
  const e = escapeIdAs(id, mode);
  return mode === 'html5' ? e.replace(/%([0-9A-Fa-f]{2})/g, '%25$1') : e;
}

/** Sanitizer::validateAttributes' $hrefExp. */
const MICRODATA_HREF_RE = new RegExp(`^(?:${URL_PROTOCOLS_PATTERN})[^\\s]+$`, 'i');

const ATTR_RE = /((?:[^\t\n\f\r />=]|=)[^\t\n\f\r />=]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)(?:"|$)|'([^']*)(?:'|$)|((?:(?![\t\n\f\r ]|>)[\s\S])*)))?/g;
/** Sanitizer::getAttribNameRegex: the names an attribute may have at all. */
const ATTR_NAME_RE = /^[:_\p{L}\p{N}][:_.\-\p{L}\p{N}]*$/u;

function decodeAttrEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);?/gi, (all, e: string) => {
    const l = e.toLowerCase();
    if (l[0] === '#') {
      const cp = l[1] === 'x' ? parseInt(l.slice(2), 16) : parseInt(l.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
    }
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' } as Record<string, string>)[l] ?? all;
  });
}

/**
 * Sanitizer::fixTagAttributes: the allowed attributes of `tag` from raw attribute text, each
 * value checked and escaped; returns the string to put after the tag name (with a leading space).
 */
export function sanitizeAttributes(tag: string, raw: string, extra: readonly string[] = [], idMode: FragmentMode = 'html5'): string {
  const allowed = ATTRS[tag] ?? (extra.length ? [] : COMMON);
  const out = new Map<string, string>();
  for (const m of raw.matchAll(ATTR_RE)) {
    const name = m[1]!.toLowerCase();
    if (!ATTR_NAME_RE.test(name)) continue;
    // Sanitizer::decodeTagAttributes: whitespace runs become one space and the ends are trimmed, before references are decoded.
    const value = decodeAttrEntities((m[2] ?? m[3] ?? m[4] ?? '').replace(/[\t\r\n ]+/g, ' ').trim());
    // Sanitizer::validateAttributes: no namespace, no underscore (T407131), none of MediaWiki's own.
    const isData = /^data-[^:= \t\r\n/>\0_＿]*$/i.test(name) && !/^data-(?:ooui|mw|parsoid)/i.test(name);
    const isAria = /^aria-[a-z]+$/.test(name);
    if (!allowed.includes(name) && !extra.includes(name) && !isData && !isAria) continue;
    let v = value;
    // Only tabindex 0 is kept: it makes an element focusable without changing the order.
    if (name === 'tabindex' && v !== '0') continue;
    if (name === 'style') {
      // An empty style stays (style="").
      v = checkCss(v);
    } else if (name === 'id') {
      v = idMode === 'html5' ? escapeId(v) : escapeIdAs(v, idMode);
    } else if (name === 'href') {
      // Only microdata <link> may carry href: a URL with one of $wgUrlProtocols and no space, or nothing.
      if (!MICRODATA_HREF_RE.test(v)) continue;
    } else if (/^(?:about|resource|itemid|itemtype)$/.test(name) && /^\s*(?:javascript|vbscript|data):/i.test(v.replace(/[\s\0]/g, ''))) {
      continue;
    }
    out.set(name, v);
  }
  let s = '';
  for (const [k, v] of out) s += ` ${k}="${safeEncodeAttr(v)}"`;
  return s;
}

// Sanitizer::MW_ENTITY_ALIASES: MediaWiki's own names for the right-to-left mark.
const ENTITY_ALIASES: Record<string, string> = { רלמ: 'rlm', رلم: 'rlm' };
const KEEP_NAMED = new Set(['lt', 'gt', 'amp', 'quot']);

/** Sanitizer::validateCodepoint: what a numeric reference may name in HTML5 output. */
function validCodepoint(cp: number): boolean {
  return cp === 0x09 || cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

const CHAR_REF_RE = /&([A-Za-z0-9\u0080-\uffff]+);|&#([0-9]+);|&#[xX]([0-9A-Fa-f]+);|&/g;

/**
 * Sanitizer::normalizeCharReferences (which tidying applies to all text): named references
 * become decimal ones (lt, gt, amp, quot stay), decimal ones stay, hexadecimal ones are written
 * with a lower-case x and digits (&#Xee; is &#xee;); an unknown name, a code point HTML does not
 * allow or a bare `&` is escaped.
 */
export function normalizeCharReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(CHAR_REF_RE, (all, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name !== undefined) {
      const alias = Object.hasOwn(ENTITY_ALIASES, name) ? ENTITY_ALIASES[name] : undefined;
      if (alias) return `&${alias};`;
      if (KEEP_NAMED.has(name)) return all;
      const decoded = decodeHTMLStrict(all);
      if (decoded === all) return `&amp;${name};`;
      let out = '';
      for (const ch of decoded) out += `&#${ch.codePointAt(0)};`;
      return out;
    }
    if (dec !== undefined) {
      const cp = Number(dec);
      return validCodepoint(cp) ? `&#${cp};` : `&amp;${all.slice(1)}`;
    }
    if (hex !== undefined) {
      const cp = parseInt(hex, 16);
      return validCodepoint(cp) ? `&#x${cp.toString(16)};` : `&amp;${all.slice(1)}`;
    }
    return '&amp;';
  });
}

/**
 * Sanitizer::decodeCharReferences: every character reference to its character (a code point
 * HTML does not allow to U+FFFD); an unknown name stays as written.
 */
export function decodeCharReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(CHAR_REF_RE, (all, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name !== undefined) {
      const alias = Object.hasOwn(ENTITY_ALIASES, name) ? ENTITY_ALIASES[name] : undefined;
      return alias ? decodeHTMLStrict(`&${alias};`) : decodeHTMLStrict(all);
    }
    if (dec === undefined && hex === undefined) return all;
    const cp = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return validCodepoint(cp) ? String.fromCodePoint(cp) : '\uFFFD';
  });
}

/** Characters IDNA ignores in a host name (RFC 8264 9.13), as Sanitizer::cleanUrl strips them. */
// Built from ranges: a literal class would hold combining marks next to other characters.
const IDN_IGNORED_RE = new RegExp(
  `\\s|[${[
    [0xad],
    [0x34f],
    [0x61c],
    [0x115f, 0x1160],
    [0x17b4, 0x17b5],
    [0x180b, 0x180e],
    [0x200b, 0x200f],
    [0x202a, 0x202e],
    [0x2060, 0x206f],
    [0x3164],
    [0xfe00, 0xfe0f],
    [0xfeff],
    [0xffa0],
    [0xfff0, 0xfff8],
    [0x1bca0, 0x1bca3],
    [0x1d173, 0x1d17a],
    [0xe0000, 0xe0fff],
  ]
    .map(([from, to]) => (to ? `\\u{${from!.toString(16)}}-\\u{${to.toString(16)}}` : `\\u{${from!.toString(16)}}`))
    .join('')}]`,
  'gu',
);

/** PHP's urlencode of one character: its UTF-8 bytes as %XX, a space as `+`. */
function phpUrlencodeChar(c: string): string {
  if (c === ' ') return '+';
  return [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * Sanitizer::cleanUrl: an external link's URL with its character references decoded, the
 * characters a URL cannot hold (brackets, `<>"|`, controls, space) percent-encoded and the
 * characters IDNA ignores dropped from the host; a bracketed IPv6 host keeps its brackets.
 */
export function cleanUrl(url: string): string {
  // Most URLs have nothing to decode, encode or strip.
  if (!/[^!#$%'()*+,\-./0-9:;=?@A-Z_a-z~]|%5B/.test(url)) return url;
  const u = decodeCharReferences(url).replace(/[\][<>"\x00-\x20\x7F|]/g, phpUrlencodeChar);
  const m = /^([^:]+:)(\/\/[^/]+)?(.*)$/is.exec(u);
  if (!m) return u;
  let host = (m[2] ?? '').replace(IDN_IGNORED_RE, '');
  const v6 = /^\/\/%5B([0-9A-Fa-f:.]+)%5D((:\d+)?)$/.exec(host);
  if (v6) host = `//[${v6[1]}]${v6[2]}`;
  return m[1]! + host + m[3]!;
}

/** Escapes stray ampersands: valid entity references stay, the rest become &amp;. */
export function normalizeEntities(text: string): string {
  return text.replace(/&(?!(?:#x[0-9a-fA-F]+|#\d+|[A-Za-z][A-Za-z0-9]*);)/g, '&amp;');
}

/** Where a stray closing tag alone on its line was; removed after the paragraph pass. */
export const STRAY_CLOSE_MARK = '\x7fSC\x7f';

/**
 * Sanitizer::internalRemoveHtmlTags: allowed tags keep their sanitized attributes; any other
 * `<…>` is escaped. Unbalanced paired tags are closed at the end, stray closing tags escaped.
 */
export function removeHtmlTags(text: string, idMode: FragmentMode = 'html5'): string {
  const pieces = text.split('<');
  let out = escapeGt(pieces[0]!);
  const stack: string[] = [];
  // How many of each tag the stack holds: a closing tag of none open is known without searching
  // the stack (thousands of open tags and as many stray closings were quadratic).
  const opened = new Map<string, number>();
  const pop = (): string => {
    const tag = stack.pop()!;
    opened.set(tag, opened.get(tag)! - 1);
    return tag;
  };
  for (let k = 1; k < pieces.length; k++) {
    const x = pieces[k]!;
    // Sanitizer::ELEMENT_BITS_REGEX: a tag name runs to a space, slash or `>` (`<b→>` is no <b>).
    const m = /^(\/?)([a-zA-Z][^\t\n\v />\0]*)([^>]*?)(\/?>)([\s\S]*)$/.exec(x);
    const tag = m?.[2]?.toLowerCase();
    if (!m || !tag || !ALLOWED_TAGS.has(tag) || /</.test(m[3]!)) {
      out += `&lt;${escapeGt(x)}`;
      continue;
    }
    const closing = m[1] === '/';
    const rest = escapeGt(m[5]!);
    if (closing) {
      const at = opened.get(tag) ? stack.lastIndexOf(tag) : -1;
      if (at === -1 || SINGLE_ONLY.has(tag)) {
        // A stray closing tag is dropped, as tidying does; </br> is a line break. Alone on its
        // line it still makes that line a paragraph (an empty one after tidying): a mark holds it.
        const alone = (out === '' || out.endsWith('\n')) && (rest === '' || rest.startsWith('\n'));
        out += tag === 'br' ? `<br />${rest}` : alone ? `${STRAY_CLOSE_MARK}${rest}` : rest;
        continue;
      }
      // Close intervening open tags first (MediaWiki's tag stack does the same).
      while (stack.length > at) out += `</${pop()}>`;
      out += rest;
      continue;
    }
    if ((tag === 'meta' || tag === 'link') && !/\bitemprop\s*=/.test(m[3]!)) {
      out += `&lt;${escapeGt(x)}`;
      continue;
    }
    const attrs = sanitizeAttributes(tag, m[3]!, [], idMode);
    if (SINGLE_ONLY.has(tag)) out += `<${tag}${attrs} />${rest}`;
    // `<li/>`, `<dt/>`, `<dd/>` are empty elements; any other `<tag/>` opens its element, as in HTML5.
    else if (m[4] === '/>' && SELF_CLOSING.has(tag)) out += `<${tag}${attrs}></${tag}>${rest}`;
    else {
      stack.push(tag);
      opened.set(tag, (opened.get(tag) ?? 0) + 1);
      out += `<${tag}${attrs}>${rest}`;
    }
  }
  while (stack.length) out += `</${stack.pop()}>`;
  return out;
}

function escapeGt(s: string): string {
  return s.replace(/>/g, '&gt;');
}
