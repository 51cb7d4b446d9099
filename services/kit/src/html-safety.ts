/*
 * The one URL allow-list of every HTML the wiki emits, and the final pass that enforces it.
 *
 * MediaWiki's Sanitizer lets a URL into a link or source only when it is relative (the wiki's own
 * paths, fragments, protocol-relative `//host`) or starts with one of `$wgUrlProtocols`; anything
 * else (`javascript:`, `vbscript:`, `data:`, `file:`…) never reaches an attribute. The renderer
 * builds its links that way, but a rule kept at each call site is one forgotten call site away
 * from stored XSS, so the renderer's output stage and the gateway's HTML responses both end with
 * `removeUnsafeAttributes`, which reads the HTML as a browser tokenizes it and drops what the
 * rule refuses. Everything else is left byte for byte as it was.
 */
import { decodeHTMLAttribute } from 'entities/decode';

/** `$wgUrlProtocols` of MediaWiki 1.39 (default settings), in its order. */
export const URL_PROTOCOLS: readonly string[] = [
  'bitcoin:',
  'ftp://',
  'ftps://',
  'geo:',
  'git://',
  'gopher://',
  'http://',
  'https://',
  'irc://',
  'ircs://',
  'magnet:',
  'mailto:',
  'matrix:',
  'mms://',
  'news:',
  'nntp://',
  'redis://',
  'sftp://',
  'sip:',
  'sips:',
  'sms:',
  'ssh://',
  'svn://',
  'tel:',
  'telnet://',
  'urn:',
  'worldwind://',
  'xmpp:',
  '//',
];

/** The protocols as one regex alternation (Parser's `$this->mUrlProtocols`), for link syntax. */
export const URL_PROTOCOLS_PATTERN = URL_PROTOCOLS.map((p) => p.replace(/[/.]/g, '\\$&')).join('|');

const ALLOWED_SCHEMES = new Set(URL_PROTOCOLS.filter((p) => p !== '//').map((p) => p.replace(/:(?:\/\/)?$/, '').toLowerCase()));

const SCHEME_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Whether a URL, as the browser reads it (character references already decoded), may be the
 * target of a link or the source of a resource: relative, protocol-relative, or with an allowed
 * scheme. Browsers drop tabs and newlines anywhere in a URL and controls and spaces around it, so
 * `java\tscript:` is `javascript:`; a scheme hidden behind any other control character or space
 * is refused too rather than guessed about.
 */
export function isAllowedUrl(url: string): boolean {
  const squeezed = url.replace(/[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]/g, '');
  const scheme = SCHEME_RE.exec(squeezed)?.[1];
  return scheme === undefined || ALLOWED_SCHEMES.has(scheme.toLowerCase());
}

/** Attributes a browser follows or fetches as a URL. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'xlink:href',
  'data',
  'background',
  'lowsrc',
  'dynsrc',
  'longdesc',
  'ping',
  'codebase',
  'cite',
  'usemap',
  'manifest',
  'icon',
  'profile',
  'archive',
  'classid',
]);
/** Attributes holding a comma-separated list of "URL descriptor" candidates. */
const SRCSET_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);

function decodeCssEscapes(s: string): string {
  return s.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|(.))/gs, (_all, hex: string | undefined, ch: string | undefined) => {
    if (hex) {
      const cp = parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
    }
    return ch === '\n' ? '' : (ch ?? '');
  });
}

/** Sanitizer::normalizeCss: CSS escapes decoded, comments removed, look-alike letters folded. */
export function normalizeCss(css: string): string {
  return decodeCssEscapes(css)
    .replace(/\/\*.*?\*\//gs, '')
    .replace(/\/\*.*$/s, '')
    .normalize('NFKC');
}

/**
 * Sanitizer::checkCss's refusal: inline CSS that can load a resource or run script (url(),
 * image(), expression(), behaviors, bindings, @import, script schemes), after CSS escapes and
 * comments are resolved and look-alike letters folded, as MediaWiki reads it.
 */
export function isUnsafeCss(css: string): boolean {
  // Plain ASCII without escapes or comments reads as written (the common case: no normalizing).
  const plain = /[^\x20-\x7e]|[\\/]/.test(css) ? normalizeCss(css) : css;
  return /expression|filter\s*:|accelerator\s*:|-o-link\s*:|-o-link-source\s*:|-o-replace\s*:|url\s*\(|image\s*\(|image-set\s*\(|attr\s*\([^)]+[\s,]+url|behavior\s*:|-moz-binding|javascript\s*:|vbscript\s*:|@import/i.test(
    plain,
  );
}

const INSECURE_CSS = '/* insecure input */';

interface Attribute {
  name: string;
  /** Offsets of the attribute in the document, from its name to the end of its value. */
  start: number;
  end: number;
  /** The raw value (undefined when the attribute has none). */
  value: string | undefined;
}

const KEEP = null;
const DROP = '';

/** What the policy does with one attribute: KEEP it, DROP it, or replace its text with another. */
function judge(tag: string, attr: Attribute, all: Attribute[]): string | null {
  const name = attr.name.toLowerCase();
  if (name.startsWith('on')) return DROP;
  if (attr.value === undefined) return KEEP;
  const value = attr.value.includes('&') ? decodeHTMLAttribute(attr.value) : attr.value;
  if (URL_ATTRIBUTES.has(name)) return isAllowedUrl(value) ? KEEP : DROP;
  if (SRCSET_ATTRIBUTES.has(name)) return value.split(',').every((c) => isAllowedUrl(c.trim().split(/\s+/)[0] ?? '')) ? KEEP : DROP;
  if (name === 'style') return isUnsafeCss(value) ? `style="${INSECURE_CSS}"` : KEEP;
  if (name === 'data-mw') return judgeDataMw(attr.name, value);
  // <meta http-equiv="refresh" content="0;url=…"> navigates like a link.
  if (tag === 'meta' && name === 'content' && all.some((a) => a.name.toLowerCase() === 'http-equiv')) {
    const target = /^[^;,]*[;,]\s*(?:url\s*=\s*)?(.*)$/is.exec(value)?.[1];
    return target === undefined || isAllowedUrl(target.replace(/^['"]|['"]$/g, '')) ? KEEP : DROP;
  }
  return KEEP;
}

/**
 * Parsoid's `data-mw` carries HTML of its own (an extension's body, a template argument's or an
 * attribute's rendering, under `html` keys) that editors such as VisualEditor put into the page:
 * that HTML gets the same pass. JSON that does not parse is left alone (it is inert text).
 */
function judgeDataMw(rawName: string, value: string): string | null {
  let data: unknown;
  try {
    data = JSON.parse(value);
  } catch {
    return KEEP;
  }
  let changed = false;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'html' && typeof v === 'string') {
        const safe = removeUnsafeAttributes(v);
        if (safe !== v) changed = true;
        out[k] = safe;
      } else out[k] = visit(v);
    }
    return out;
  };
  const safe = visit(data);
  if (!changed) return KEEP;
  const encoded = JSON.stringify(safe).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `${rawName}="${encoded}"`;
}

/** HTML's ASCII whitespace (tab, LF, FF, CR, space) by char code. */
const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
/** Where an attribute name or unquoted value ends: whitespace, `/` (names only), `>` or `=` (names only). */
const isNameEnd = (c: number) => isSpace(c) || c === 47 || c === 62 || c === 61;
const isValueEnd = (c: number) => isSpace(c) || c === 62;

/**
 * Reads the attributes of the tag whose name ends at `from` as the HTML tokenizer does (names end
 * at space, `/`, `>` or `=`; values are double-, single- or unquoted). Returns them and the offset
 * after the tag's `>` (the input's length when the tag never closes).
 */
function readAttributes(html: string, from: number): { attrs: Attribute[]; end: number } {
  const attrs: Attribute[] = [];
  let j = from;
  const n = html.length;
  for (;;) {
    while (j < n && (isSpace(html.charCodeAt(j)) || html.charCodeAt(j) === 47)) j++;
    if (j >= n) return { attrs, end: n };
    if (html[j] === '>') return { attrs, end: j + 1 };
    const start = j;
    j++; // a first '=' belongs to the name
    while (j < n && !isNameEnd(html.charCodeAt(j))) j++;
    const name = html.slice(start, j);
    let k = j;
    while (k < n && isSpace(html.charCodeAt(k))) k++;
    if (html[k] !== '=') {
      attrs.push({ name, start, end: j, value: undefined });
      continue;
    }
    k++;
    while (k < n && isSpace(html.charCodeAt(k))) k++;
    const quote = html[k];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, k + 1);
      if (close === -1) return { attrs, end: n };
      value = html.slice(k + 1, close);
      j = close + 1;
    } else {
      let e = k;
      while (e < n && !isValueEnd(html.charCodeAt(e))) e++;
      value = html.slice(k, e);
      j = e;
    }
    attrs.push({ name, start, end: j, value });
  }
}

/**
 * The final pass over a piece of HTML: drops every event-handler attribute and every URL-bearing
 * attribute whose URL `isAllowedUrl` refuses, and replaces unsafe inline CSS with
 * `/* insecure input *\/` (as Sanitizer::checkCss). Comments and declarations are skipped the way
 * a browser ends them (never later than it does); nothing else changes.
 */
export function removeUnsafeAttributes(html: string): string {
  let out = '';
  let copied = 0;
  let i = html.indexOf('<');
  const n = html.length;
  while (i !== -1 && i < n - 1) {
    const next = html[i + 1]!;
    if (html.startsWith('<!--', i)) {
      // `<!-->` and `<!--->` end at once and `--!>` ends a comment too: search from `<!` on.
      const close = /--!?>/g;
      close.lastIndex = i + 2;
      const m = close.exec(html);
      i = m ? html.indexOf('<', m.index + m[0].length) : -1;
      continue;
    }
    if (next === '!' || next === '?') {
      const close = html.indexOf('>', i);
      i = close === -1 ? -1 : html.indexOf('<', close + 1);
      continue;
    }
    const closing = next === '/';
    const nameStart = closing ? i + 2 : i + 1;
    if (!/[a-zA-Z]/.test(html[nameStart] ?? '')) {
      i = html.indexOf('<', i + 1);
      continue;
    }
    let j = nameStart;
    while (j < n && !isSpace(html.charCodeAt(j)) && html.charCodeAt(j) !== 47 && html.charCodeAt(j) !== 62) j++;
    const tag = html.slice(nameStart, j).toLowerCase();
    const { attrs, end } = readAttributes(html, j);
    if (!closing) {
      for (const attr of attrs) {
        const verdict = judge(tag, attr, attrs);
        if (verdict === KEEP) continue;
        // A dropped attribute takes the space before it along.
        let start = attr.start;
        if (verdict === DROP) while (start > copied && isSpace(html.charCodeAt(start - 1))) start--;
        out += html.slice(copied, start) + verdict;
        copied = attr.end;
      }
    }
    i = html.indexOf('<', end);
  }
  return copied === 0 ? html : out + html.slice(copied);
}
