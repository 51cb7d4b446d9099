/*
 * Parser functions (core's CoreParserFunctions, ParserFunctions and its string functions) and
 * magic-word variables (CoreMagicVariables). Arguments arrive unexpanded, so #if and #switch
 * expand only the branch they take, as MediaWiki does.
 */
import type { ExpansionHost as Expander, Frame } from './frame.js';
import { evaluate, ExprError, phpNumber } from './expr.js';
import { EXTENSION_TAGS, type PNode, type Part } from './preprocess.js';
import { formatTime } from './time.js';
import { decodeHTMLStrict } from 'entities';
import { formatDate } from './dateformat.js';
import type { TitleRef } from './types.js';
import { URL_PROTOCOLS } from '@quire/kit/html-safety';
import { escapeIdAs } from './sanitizer.js';

type Fn = (x: Expander, first: string, parts: Part[], frame: Frame) => Promise<string>;

const error = (msg: string) => `<strong class="error">${msg}</strong>`;
/** ParserFunctions shows an expression error through htmlspecialchars (ENT_QUOTES). */
const exprError = (msg: string) => error(msg.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;'));

/** Strip markers (extension tags, nowiki…) and the renderer's other \x7f markers. */
const MARKER_RE = /\x7f[^\x7f]*\x7f/g;
/** Parser::killMarkers: the markers removed. */
const killMarkers = (s: string) => s.replace(MARKER_RE, '');
/** Parser::markerSkipCallback: `fn` applied to the text between markers, the markers kept. */
function markerSkip(s: string, fn: (t: string) => string): string {
  let out = '';
  let at = 0;
  for (const m of s.matchAll(MARKER_RE)) {
    out += fn(s.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + fn(s.slice(at));
}

/** An argument's text: positional parts keep whitespace trimmed as #if etc. do. */
const arg = (x: Expander, parts: Part[], i: number, frame: Frame) => x.expandPart(parts[i], frame, true);

function truthy(s: string): boolean {
  return s.trim() !== '';
}

function ucfirstText(s: string): string {
  const cp = s.codePointAt(0);
  if (cp === undefined) return s;
  const ch = String.fromCodePoint(cp);
  return ch.toUpperCase() + s.slice(ch.length);
}

function lcfirstText(s: string): string {
  const cp = s.codePointAt(0);
  if (cp === undefined) return s;
  const ch = String.fromCodePoint(cp);
  return ch.toLowerCase() + s.slice(ch.length);
}

/** PHP urlencode (spaces as '+') and rawurlencode (spaces as %20). */
function phpUrlencode(s: string, raw: boolean): string {
  const e = encodeURIComponent(s).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return raw ? e.replace(/%7E/g, '~') : e.replace(/%20/g, '+');
}

/** wfUrlencode: MediaWiki's title encoding for paths (keeps ; @ $ ! * ( ) , / ~ :; `'` is %27, as PHP's urlencode has it). */
export function wikiUrlencode(s: string): string {
  // rawurlencode encodes the apostrophe, which encodeURIComponent leaves (wfUrlencode keeps it encoded).
  return encodeURIComponent(s)
    .replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replaceAll("'", '%27');
}

export function formatNum(s: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(s.trim());
  if (!m) return s;
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3] ?? ''}`;
}

function pad(s: string, len: number, padding: string, left: boolean): string {
  const chars = [...s];
  if (padding === '' || chars.length >= len) return s;
  const need = Math.min(len, 500) - chars.length;
  const padChars = [...padding];
  let p = '';
  for (let i = 0; i < need; i++) p += padChars[i % padChars.length];
  return left ? p + s : s + p;
}

async function ifExpr(x: Expander, expr: string, parts: Part[], frame: Frame): Promise<string> {
  let v: string;
  try {
    v = evaluate(expr);
  } catch (e) {
    if (e instanceof ExprError) return exprError(e.message);
    throw e;
  }
  const yes = v !== '' && Number(v) !== 0;
  return arg(x, parts, yes ? 0 : 1, frame);
}

async function switchFn(x: Expander, value: string, parts: Part[], frame: Frame): Promise<string> {
  let found = false;
  let dflt: string | undefined;
  let lastBare: Part | undefined;
  const numeric = (s: string) => s.trim() !== '' && !Number.isNaN(Number(s));
  // ParserFunctions compares decoded values (decodeTrimExpand): &amp; equals &.
  const same = (a: string, b: string) => {
    const [da, db] = [decodeHTMLStrict(a), decodeHTMLStrict(b)];
    return numeric(da) && numeric(db) ? Number(da) === Number(db) : da === db;
  };
  for (const part of parts) {
    if (part.name) {
      const name = (await x.expand(part.name, frame)).trim();
      if (found || same(name, value)) return (await x.expand(part.value, frame)).trim();
      if (name === '#default') dflt = (await x.expand(part.value, frame)).trim();
      lastBare = undefined;
    } else {
      const name = (await x.expand(part.value, frame)).trim();
      lastBare = part;
      if (same(name, value)) found = true;
      else if (name === '#default') found = true;
    }
  }
  // The last bare value is the default when nothing matched.
  if (lastBare && !found) return (await x.expand(lastBare.value, frame)).trim();
  return dflt ?? '';
}

function urlFor(x: Expander, text: string, query: string, full: boolean): string {
  const t = x.parseTitle(text);
  if (!t) return '';
  const key = wikiUrlencode(x.codec.prefixedDbKey(t.ns, t.dbkey));
  const base = full ? x.site.server : '';
  return query ? `${base}/w/index.php?title=${key}&${query}` : `${base}/wiki/${key}`;
}

const FUNCTIONS: Record<string, Fn> = {
  '#if': async (x, first, parts, frame) => arg(x, parts, truthy(first) ? 0 : 1, frame),
  '#ifeq': async (x, first, parts, frame) => {
    // Both sides decoded, as ParserFunctions' decodeTrimExpand.
    const a = decodeHTMLStrict(first);
    const b = decodeHTMLStrict(await arg(x, parts, 0, frame));
    const numeric = (s: string) => s !== '' && !Number.isNaN(Number(s));
    const eq = numeric(a) && numeric(b) ? Number(a) === Number(b) : a === b;
    return arg(x, parts, eq ? 1 : 2, frame);
  },
  '#iferror': async (x, first, parts, frame) => {
    const isError = /<(?:strong|span|p|div)\s[^>]*\bclass="(?:[^"\s]*\s+)*?error(?:\s[^"]*)?"/.test(first);
    if (isError) return arg(x, parts, 0, frame);
    return parts.length > 1 ? arg(x, parts, 1, frame) : first;
  },
  '#ifexpr': (x, first, parts, frame) => ifExpr(x, first, parts, frame),
  '#expr': async (_x, first) => {
    try {
      return evaluate(first);
    } catch (e) {
      if (e instanceof ExprError) return exprError(e.message);
      throw e;
    }
  },
  '#ifexist': async (x, first, parts, frame) => {
    const t = x.parseTitle(first);
    x.expensive++;
    const yes = t ? await x.exists(t) : false;
    return arg(x, parts, yes ? 0 : 1, frame);
  },
  '#switch': (x, first, parts, frame) => switchFn(x, first, parts, frame),
  '#time': async (x, first, parts, frame) => {
    const date = await arg(x, parts, 0, frame);
    x.volatile ||= date === '';
    const r = formatTime(first, date, x.site.now);
    return r.ok ? r.text : error(r.text);
  },
  '#timel': async (x, first, parts, frame) => FUNCTIONS['#time']!(x, first, parts, frame),
  '#tag': async (x, first, parts, frame) => {
    const name = first.toLowerCase();
    const content = parts[0] && !parts[0].name ? await x.expand(parts[0].value, frame) : undefined;
    const attrs: string[] = [];
    for (const p of parts.slice(content === undefined ? 0 : 1)) {
      if (!p.name) continue;
      const k = (await x.expand(p.name, frame)).trim();
      const v = (await x.expand(p.value, frame)).trim().replace(/^(["'])(.*)\1$/s, '$2');
      attrs.push(` ${k}="${v.replace(/"/g, '&quot;')}"`);
    }
    if (!(EXTENSION_TAGS as readonly string[]).includes(name)) return error(`Unknown extension tag "${name}"`);
    return x.expandExt(name, attrs.join(''), content, `<${name}${attrs.join('')}>${content ?? ''}</${name}>`, frame);
  },
  '#titleparts': async (x, first, parts, frame) => {
    const count = parseInt(await arg(x, parts, 0, frame), 10) || 0;
    const start = parseInt(await arg(x, parts, 1, frame), 10) || 1;
    const t = x.parseTitle(first);
    if (!t) return first;
    const segs = x.prefixed(t).split('/');
    const from = start > 0 ? start - 1 : Math.max(0, segs.length + start);
    const sliced = count > 0 ? segs.slice(from, from + count) : count < 0 ? segs.slice(from, count) : segs.slice(from);
    return sliced.join('/');
  },
  lc: async (_x, first) => markerSkip(first, (t) => t.toLowerCase()),
  uc: async (_x, first) => markerSkip(first, (t) => t.toUpperCase()),
  lcfirst: async (_x, first) => lcfirstText(first),
  ucfirst: async (_x, first) => ucfirstText(first),
  urlencode: async (x, rawFirst, parts, frame) => {
    const first = killMarkers(rawFirst);
    const kind = (await arg(x, parts, 0, frame)).toUpperCase();
    if (kind === 'PATH') return phpUrlencode(first, true);
    if (kind === 'WIKI') return wikiUrlencode(first.replaceAll(' ', '_'));
    return phpUrlencode(first, false);
  },
  anchorencode: async (x, first) => {
    const id = anchorEncode(killMarkers(first));
    // Sanitizer::escapeIdForLink in the wiki's fragment mode: a legacy id dot-encoded.
    return x.site.fragmentMode === 'legacy' ? escapeIdAs(id, 'legacy') : id;
  },
  fullurl: async (x, first, parts, frame) => urlFor(x, first, await arg(x, parts, 0, frame), true),
  fullurle: async (x, first, parts, frame) => urlFor(x, first, await arg(x, parts, 0, frame), true).replace(/&/g, '&amp;'),
  localurl: async (x, first, parts, frame) => urlFor(x, first, await arg(x, parts, 0, frame), false),
  canonicalurl: async (x, first, parts, frame) => urlFor(x, first, await arg(x, parts, 0, frame), true),
  ns: async (x, first) => {
    const id = /^-?\d+$/.test(first) ? Number(first) : x.codec.namespaces.indexOf(first.replaceAll(' ', '_'));
    return id === undefined ? '' : (x.codec.namespaces.get(id)?.name ?? '');
  },
  padleft: async (x, first, parts, frame) => pad(first, parseInt(await arg(x, parts, 0, frame), 10) || 0, parts[1] ? killMarkers(await arg(x, parts, 1, frame)) : '0', true),
  padright: async (x, first, parts, frame) => pad(first, parseInt(await arg(x, parts, 0, frame), 10) || 0, parts[1] ? killMarkers(await arg(x, parts, 1, frame)) : '0', false),
  plural: async (x, first, parts, frame) => {
    const n = Number(first.replace(/,/g, ''));
    const forms = await Promise.all(parts.map((_, i) => arg(x, parts, i, frame)));
    // Explicit forms "n=text" first, then English: one for 1, other otherwise.
    for (const f of forms) {
      const m = /^(\d+)=(.*)$/s.exec(f);
      if (m && Number(m[1]) === n) return m[2]!;
    }
    const plain = forms.filter((f) => !/^\d+=/.test(f));
    if (plain.length === 0) return '';
    return n === 1 ? plain[0]! : (plain[1] ?? plain[0]!);
  },
  formatnum: async (x, first, parts, frame) => {
    const flag = (await arg(x, parts, 0, frame)).toUpperCase();
    if (flag === 'R') return first.replace(/,/g, '');
    if (flag === 'NOSEP') return first;
    return markerSkip(first, formatNum);
  },
  displaytitle: async (x, first) => {
    x.properties.displaytitle = first;
    return '';
  },
  defaultsort: async (x, first) => {
    x.properties.defaultsort = first;
    return '';
  },
  int: async (_x, first) => `⧼${first}⧽`,
  '#formatdate': async (x, first, parts, frame) => formatDate(first, parts[0] ? await arg(x, parts, 0, frame) : ''),
  '#language': async (_x, first) => languageName(first.trim().toLowerCase()),
  '#len': async (_x, first) => String([...first].length),
  '#pos': async (x, first, parts, frame) => {
    const needle = (await arg(x, parts, 0, frame)) || ' ';
    const off = parseInt(await arg(x, parts, 1, frame), 10) || 0;
    const i = [...first].join('').indexOf(needle, off);
    return i < 0 ? '' : String([...first.slice(0, i)].length);
  },
  '#rpos': async (x, first, parts, frame) => {
    const needle = (await arg(x, parts, 0, frame)) || ' ';
    const i = first.lastIndexOf(needle);
    return i < 0 ? '-1' : String([...first.slice(0, i)].length);
  },
  '#sub': async (x, first, parts, frame) => {
    const chars = [...first];
    let start = parseInt(await arg(x, parts, 0, frame), 10) || 0;
    const lenText = await arg(x, parts, 1, frame);
    if (start < 0) start = Math.max(0, chars.length + start);
    const len = lenText === '' ? undefined : parseInt(lenText, 10) || 0;
    return (len === undefined ? chars.slice(start) : len < 0 ? chars.slice(start, len) : chars.slice(start, start + len)).join('');
  },
  '#replace': async (x, first, parts, frame) => {
    const from = (await arg(x, parts, 0, frame)) || ' ';
    const to = await arg(x, parts, 1, frame);
    const limitText = await arg(x, parts, 2, frame);
    const limit = limitText === '' ? -1 : parseInt(limitText, 10) || 0;
    if (limit < 0) return first.split(from).join(to);
    const pieces = first.split(from);
    return pieces.slice(0, limit + 1).join(to) + (pieces.length > limit + 1 ? from + pieces.slice(limit + 1).join(from) : '');
  },
  '#explode': async (x, first, parts, frame) => {
    const sep = (await arg(x, parts, 0, frame)) || ' ';
    const pos = parseInt(await arg(x, parts, 1, frame), 10) || 0;
    const pieces = first.split(sep);
    return pieces[pos < 0 ? pieces.length + pos : pos] ?? '';
  },
  '#urldecode': async (_x, first) => {
    try {
      return decodeURIComponent(first.replace(/\+/g, ' '));
    } catch {
      return first;
    }
  },
};

/**
 * LanguageNameUtils::getLanguageName without the CLDR extension (as the reference wiki): a
 * language's name in itself, whatever the second argument. ICU's autonyms stand in for
 * MediaWiki's Names.php for plain codes; other codes come back as BCP 47, as for unknown ones.
 */
function languageName(code: string): string {
  if (/^[a-z]{2,3}$/.test(code)) {
    try {
      const name = new Intl.DisplayNames([code], { type: 'language', fallback: 'none' }).of(code);
      if (name && name !== code) return name;
    } catch {
      // not a locale ICU knows
    }
  }
  return code
    .split('-')
    .map((p, i) => (i === 0 ? p : p.length === 2 ? p.toUpperCase() : p.length === 4 ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join('-');
}

/** Names are case-insensitive; DISPLAYTITLE and DEFAULTSORT come in their usual capitals too. */
const ALIASES: Record<string, string> = { defaultsortkey: 'defaultsort', defaultcategorysort: 'defaultsort' };

function canonical(name: string): string {
  const n = name.trim().toLowerCase();
  return ALIASES[n] ?? n;
}

/** Every parser function the renderer knows, by canonical name. */
export const FUNCTION_NAMES: readonly string[] = Object.keys(FUNCTIONS);

export function isFunctionName(name: string): boolean {
  return canonical(name) in FUNCTIONS;
}

/** ParserFunctions' string functions read their text without strip markers (killMarkers). */
const KILL_MARKERS = new Set(['#len', '#pos', '#rpos', '#sub', '#replace', '#explode', '#urldecode']);

export async function callFunction(x: Expander, name: string, first: string, parts: Part[], frame: Frame): Promise<string> {
  const fn = canonical(name);
  return FUNCTIONS[fn]!(x, KILL_MARKERS.has(fn) ? killMarkers(first) : first, parts, frame);
}

/** Sanitizer::escapeIdForAttribute (html5 mode): spaces to underscores, nothing else changed. */
export function anchorEncode(text: string): string {
  return text.replace(/[\t\n\f\r ]+/g, '_').replace(/^_+|_+$/g, '');
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const two = (n: number) => String(n).padStart(2, '0');

function isoWeek(d: Date): number {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = new Date(Date.UTC(t.getUTCFullYear(), 0, 1));
  return Math.ceil(((t.getTime() - yearStart.getTime()) / 86400000 + 1) / 7);
}

function timeVariables(prefix: string, d: Date): Record<string, string> {
  return {
    [`${prefix}YEAR`]: String(d.getUTCFullYear()),
    [`${prefix}MONTH`]: two(d.getUTCMonth() + 1),
    [`${prefix}MONTH2`]: two(d.getUTCMonth() + 1),
    [`${prefix}MONTH1`]: String(d.getUTCMonth() + 1),
    [`${prefix}MONTHNAME`]: MONTHS[d.getUTCMonth()]!,
    [`${prefix}MONTHNAMEGEN`]: MONTHS[d.getUTCMonth()]!,
    [`${prefix}MONTHABBREV`]: MONTHS[d.getUTCMonth()]!.slice(0, 3),
    [`${prefix}DAY`]: String(d.getUTCDate()),
    [`${prefix}DAY2`]: two(d.getUTCDate()),
    [`${prefix}DOW`]: String(d.getUTCDay()),
    [`${prefix}DAYNAME`]: DAYS[d.getUTCDay()]!,
    [`${prefix}TIME`]: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`,
    [`${prefix}HOUR`]: two(d.getUTCHours()),
    [`${prefix}WEEK`]: String(isoWeek(d)),
    [`${prefix}TIMESTAMP`]: d.toISOString().replace(/[-:T]/g, '').slice(0, 14),
  };
}

/** Magic-word variables ({{PAGENAME}} …); undefined when the name is none. Case-sensitive. */
/** The page-name magic words that also take a title ({{PAGENAME:Other page}}). */
export const TITLE_MAGIC = new Set([
  'PAGENAME',
  'PAGENAMEE',
  'FULLPAGENAME',
  'FULLPAGENAMEE',
  'NAMESPACE',
  'NAMESPACEE',
  'NAMESPACENUMBER',
  'BASEPAGENAME',
  'BASEPAGENAMEE',
  'ROOTPAGENAME',
  'ROOTPAGENAMEE',
  'SUBPAGENAME',
  'SUBPAGENAMEE',
  'TALKPAGENAME',
  'TALKPAGENAMEE',
  'SUBJECTPAGENAME',
  'SUBJECTPAGENAMEE',
  'ARTICLEPAGENAME',
  'ARTICLEPAGENAMEE',
  'TALKSPACE',
  'TALKSPACEE',
  'SUBJECTSPACE',
  'SUBJECTSPACEE',
  'ARTICLESPACE',
  'ARTICLESPACEE',
]);

/** The variables MessagesEn.php marks case-insensitive ({{sErVeRNaMe}} works); the rest are case-sensitive. */
const CASELESS_VARIABLES = new Set(['ARTICLEPATH', 'PAGEID', 'SCRIPTPATH', 'SERVER', 'SERVERNAME', 'STYLEPATH']);

/** `title`: the page a title-taking magic word was given ({{PAGENAME:X}}); the rendered page otherwise. */
export function magicVariable(x: Expander, rawName: string, frame: Frame, title?: TitleRef): string | undefined {
  void frame;
  const upper = rawName.toUpperCase();
  const name = CASELESS_VARIABLES.has(upper) ? upper : rawName;
  const t = title ?? x.req.title;
  const ns = x.codec.namespaces.get(t.ns)?.name ?? '';
  const text = t.dbkey.replaceAll('_', ' ');
  const full = x.prefixed(t);
  // The page-name E words are escaped too (wfEscapeWikiText of the URL form); the namespace ones are not.
  const enc = (s: string) => wikiUrlencode(s.replaceAll(' ', '_'));
  const subpages = text.split('/');
  // Special and Media pages have no talk page (Title::canHaveTalkPage).
  const talkNs = t.ns < 0 ? undefined : t.ns % 2 === 0 ? t.ns + 1 : t.ns;
  const subjectNs = t.ns < 0 || t.ns % 2 === 0 ? t.ns : t.ns - 1;
  const nsName = (id: number | undefined) => (id === undefined ? '' : (x.codec.namespaces.get(id)?.name ?? '').replaceAll('_', ' '));
  switch (name) {
    case 'PAGENAME':
      return escapeWikiText(text);
    case 'PAGENAMEE':
      return escapeWikiText(enc(text));
    case 'FULLPAGENAME':
      return escapeWikiText(full);
    case 'FULLPAGENAMEE':
      return escapeWikiText(enc(full));
    case 'NAMESPACE':
      return ns;
    case 'NAMESPACEE':
      return enc(ns);
    case 'NAMESPACENUMBER':
      return String(t.ns);
    case 'BASEPAGENAME':
      return escapeWikiText(subpages.length > 1 ? subpages.slice(0, -1).join('/') : text);
    case 'BASEPAGENAMEE':
      return escapeWikiText(enc(subpages.length > 1 ? subpages.slice(0, -1).join('/') : text));
    case 'ROOTPAGENAME':
      return escapeWikiText(subpages[0]!);
    case 'ROOTPAGENAMEE':
      return escapeWikiText(enc(subpages[0]!));
    case 'SUBPAGENAME':
      return escapeWikiText(subpages[subpages.length - 1]!);
    case 'SUBPAGENAMEE':
      return escapeWikiText(enc(subpages[subpages.length - 1]!));
    case 'TALKPAGENAME':
      return talkNs === undefined ? '' : x.codec.prefixedText(talkNs, t.dbkey);
    case 'TALKPAGENAMEE':
      return talkNs === undefined ? '' : escapeWikiText(enc(x.codec.prefixedText(talkNs, t.dbkey)));
    case 'SUBJECTPAGENAME':
    case 'ARTICLEPAGENAME':
      return escapeWikiText(x.codec.prefixedText(subjectNs, t.dbkey));
    case 'SUBJECTPAGENAMEE':
    case 'ARTICLEPAGENAMEE':
      return escapeWikiText(enc(x.codec.prefixedText(subjectNs, t.dbkey)));
    case 'TALKSPACE':
      return nsName(talkNs);
    case 'TALKSPACEE':
      return enc(nsName(talkNs));
    case 'SUBJECTSPACE':
    case 'ARTICLESPACE':
      return nsName(subjectNs);
    case 'SUBJECTSPACEE':
    case 'ARTICLESPACEE':
      return enc(nsName(subjectNs));
    case 'PAGELANGUAGE':
      return 'en';
    case 'ARTICLEPATH':
      return '/wiki/$1';
    case 'SITENAME':
      return x.site.name;
    case 'SERVER':
      return x.site.server;
    case 'SERVERNAME':
      return x.site.server.replace(/^[a-z]+:\/\//, '').replace(/:\d+$/, '');
    case 'SCRIPTPATH':
      return '/w';
    case 'STYLEPATH':
      return '/w/skins';
    case 'CONTENTLANGUAGE':
    case 'CONTENTLANG':
      return 'en';
    case 'DIRMARK':
    case 'DIRECTIONMARK':
      return '\u200e';
    case 'REVISIONID':
      return x.req.revId > 0 ? String(x.req.revId) : '';
    case 'REVISIONUSER':
      return x.req.revUser ?? '';
    case 'PAGEID':
      return x.req.pageId > 0 ? String(x.req.pageId) : '';
    case 'REVISIONTIMESTAMP':
      return (x.req.revTimestamp ? new Date(x.req.revTimestamp) : x.site.now).toISOString().replace(/[-:T]/g, '').slice(0, 14);
    case '!':
      return '|';
    case '=':
      return '=';
    default: {
      const cur = /^(CURRENT|LOCAL)/.exec(name);
      if (cur) {
        const v = timeVariables(cur[1]!, x.site.now)[name];
        if (v !== undefined) x.volatile = true;
        return v;
      }
      const rev = /^REVISION(YEAR|MONTH|MONTH1|DAY|DAY2)$/.exec(name);
      if (rev) {
        const d = x.req.revTimestamp ? new Date(x.req.revTimestamp) : x.site.now;
        const v = timeVariables('REVISION', d)[name === 'REVISIONMONTH' ? 'REVISIONMONTH' : name];
        return v;
      }
      return undefined;
    }
  }
}

/** wfEscapeWikiText's replacements (strtr: the longest at each position), of "\n" + the text. */
const WIKI_ESCAPES: Record<string, string> = {
  '"': '&#34;',
  '&': '&#38;',
  "'": '&#39;',
  '<': '&#60;',
  '=': '&#61;',
  '>': '&#62;',
  '[': '&#91;',
  ']': '&#93;',
  '{': '&#123;',
  '|': '&#124;',
  '}': '&#125;',
  ';': '&#59;',
  '\n#': '\n&#35;',
  '\r#': '\r&#35;',
  '\n*': '\n&#42;',
  '\r*': '\r&#42;',
  '\n:': '\n&#58;',
  '\r:': '\r&#58;',
  '\n ': '\n&#32;',
  '\r ': '\r&#32;',
  '\n\n': '\n&#10;',
  '\r\n': '&#13;\n',
  '\n\r': '\n&#13;',
  '\r\r': '\r&#13;',
  '\n\t': '\n&#9;',
  '\r\t': '\r&#9;',
  '\n----': '\n&#45;---',
  '\r----': '\r&#45;---',
  __: '_&#95;',
  '://': '&#58;//',
};
const WIKI_ESCAPE_RE = /[\n\r]----|:\/\/|[\n\r][#*: \n\r\t]|__|["&'<=>[\]{|};]/g;
/** Protocols without "//" (mailto:, news:…): their colon is escaped too. */
const COLON_PROTOCOL_RE = new RegExp(
  `\\b(${URL_PROTOCOLS.filter((p) => p.endsWith(':'))
    .map((p) => p.slice(0, -1).replace(/[.+]/g, '\\$&'))
    .join('|')}):`,
  'gi',
);

/** wfEscapeWikiText (1.39, without magic links, which are off by default): markup characters as references. */
export function escapeWikiText(s: string): string {
  return `\n${s}`
    .replace(WIKI_ESCAPE_RE, (m) => WIKI_ESCAPES[m] ?? m)
    .slice(1)
    .replace(COLON_PROTOCOL_RE, '$1&#58;');
}

export { phpNumber };
export type { PNode };
