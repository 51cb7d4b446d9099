/*
 * The renderer: wikitext → HTML as MediaWiki 1.39's legacy parser shapes it (action=parse), or
 * Parsoid-style (REST /html), with everything the link tables and action=parse report.
 *
 * Order of passes, as Parser::internalParse: expand templates (expand.ts) → sanitize HTML tags →
 * tables → double-underscore switches → headings → internal links (after one batched existence
 * lookup) → quotes → external links and free URLs → section numbering/TOC → paragraphs and lists
 * → unstrip extension tags and link holders. Generated markup is held in markers until the end,
 * so no later pass can act inside it.
 */
import fs from 'node:fs';
import type { TitleCodec } from '../title/codec.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIA, NS_MAIN, NS_MEDIAWIKI, NS_SPECIAL } from '../title/namespaces.js';
import { redirectTarget } from '../content/wikitext.js';
import { Expander, HEADING_RE, MARK, STRIP_RE, LIMITS, TRANSCLUSION_CLOSE_RE, TRANSCLUSION_OPEN_RE, type StripItem } from './expand.js';
import { doBlockLevels, doQuotes, doTables } from './inline.js';
import { removeUnsafeAttributes, URL_PROTOCOLS_PATTERN } from '@quire/kit/html-safety';
import {
  cleanUrl,
  decodeCharReferences,
  DEFAULT_FRAGMENT_MODE,
  escapeIdAs,
  escapeIdForLinkAs,
  type FragmentMode,
  encodeAttr,
  escapeAttr,
  escapeHtml,
  normalizeCharReferences,
  normalizeEntities,
  removeHtmlTags,
  sanitizeAttributes,
  STRAY_CLOSE_MARK,
} from './sanitizer.js';
import { wikiUrlencode } from './functions.js';
import { pWrap } from './tidy.js';
import { CITE_ERROR_CATEGORY, citeLeftovers, renderCite, type CiteState } from './cite.js';
import { jsonAttr, toParsoidBody } from './parsoid.js';
import { preprocess } from './preprocess.js';
import {
  canRender,
  DEFAULT_THUMB_LIMIT,
  galleryLayout,
  GALLERY_MODES,
  type HorizAlign,
  imgTag,
  isNumeric,
  isLanguageTag,
  isVector,
  matchImageOption,
  mustRender,
  parseWidthParam,
  phpFloat,
  srcset,
  SVG_MAX_SIZE,
  THUMB_UPRIGHT,
  transform,
  type Transformed,
} from './media.js';
import {
  titleKey,
  type CategoryRef,
  type FileFacts,
  type InterwikiLink,
  type LangLink,
  type LinkRef,
  type PageFacts,
  type PageLookup,
  type RenderRequest,
  type RenderResult,
  type SectionInfo,
  type TitleRef,
} from './types.js';

export interface InterwikiEntry {
  url: string;
  /** Set for interlanguage prefixes: the language's own name. */
  language?: string;
}

/**
 * The interwiki table: the reference wiki's (interwiki.json), or the site's own file INTERWIKI_TABLE
 * (same shape). Without a prototype: `[[constructor:foo]]` names no prefix.
 */
export const INTERWIKI: Record<string, InterwikiEntry> = Object.assign(
  Object.create(null) as Record<string, InterwikiEntry>,
  JSON.parse(fs.readFileSync(process.env.INTERWIKI_TABLE || new URL('./interwiki.json', import.meta.url), 'utf8')) as Record<string, InterwikiEntry>,
);

export interface SiteInfo {
  name: string;
  /** $wgMetaNamespace, the project namespace's name, when it is not the site name. */
  metaNamespace?: string;
  /** $wgServer, e.g. "http://127.0.0.1:8080". */
  server: string;
  /** The width of a thumb without a size ($wgThumbLimits[default thumbsize]); 300 when unset. */
  thumbLimit?: number;
  /** $wgParserEnableLegacyMediaDOM: false renders media as <figure>/<span typeof="mw:File">; true when unset. */
  legacyMediaDom?: boolean;
  /** $wgFragmentMode: the escaping of ids and link fragments, and of a heading's fallback id; MediaWiki's default when unset. */
  fragmentMode?: readonly FragmentMode[];
  /** $wgExternalLinkTarget: the target="" of external links; none when unset. */
  externalLinkTarget?: string;
  /** $wgNoFollowLinks: rel="nofollow" on external links; true when unset. */
  noFollowLinks?: boolean;
  /** $wgNoFollowDomainExceptions: hosts (and their subdomains) linked without nofollow; MediaWiki's ['mediawiki.org'] when unset. */
  noFollowDomainExceptions?: readonly string[];
}

const URL_PROTOCOLS = URL_PROTOCOLS_PATTERN;
/** Parser::EXT_LINK_URL_CLASS: a character of an external link's URL. */
const URL_CHAR = '[^\\][<>"\\x00-\\x20\\x7F\\p{Zs}\\uFFFD]';
/** Parser::EXT_LINK_ADDR: the URL's first character after the protocol, or a bracketed IPv6 address. */
const URL_ADDR = `(?:\\[[0-9a-fA-F:.]+\\]|${URL_CHAR})`;
/** An external link's URL: a protocol and the characters up to a space, bracket or quote. */
const EXT_LINK_URL = `(?:${URL_PROTOCOLS})${URL_ADDR}${URL_CHAR}*`;
/**
 * `[`, an external link's URL and the spaces after it: where its label starts. The label runs to
 * the first `]` (EXT_LINK_LABEL_END_RE); a control character or line break before it is no link.
 * One pattern for both (a lazy label up to `]`) tried every `[` against the rest of its line.
 */
const EXT_LINK_OPEN_RE = new RegExp(`\\[(${EXT_LINK_URL})\\p{Zs}*`, 'giu');
const EXT_LINK_LABEL_END_RE = /[\]\x00-\x08\x0a-\x1F\uFFFD]/g;
/** `[` and a transclusion's markers around a URL with no space (parsoid mode's transclusion markers, expand.ts). */
const MARKED_LINK_TARGET_RE = new RegExp(`\\[\\x7fT(\\d+)\\x7f(${EXT_LINK_URL})\\x7f/T\\1\\x7f`, 'giu');
// Free links need a scheme: a protocol-relative "//host" in running text is not a link (the
// pattern writes it escaped, as \/\/).
const FREE_PROTOCOLS = URL_PROTOCOLS.split('|')
  .filter((p) => p !== '//' && p !== '\\/\\/')
  .join('|');
/** An internal link's target that starts with a URL protocol is no internal link (Parser::handleInternalLinks2). */
const URL_TARGET_RE = new RegExp(`^ *(?:${URL_PROTOCOLS})`, 'i');
/** Parser::makeImage's `link=` URL: a protocol, EXT_LINK_ADDR, then EXT_LINK_URL_CLASS to the end. */
const IMAGE_LINK_PROTOCOL_RE = new RegExp(`^(?:${URL_PROTOCOLS})`, 'i');
const IMAGE_LINK_URL_RE = new RegExp(`^(?:${URL_PROTOCOLS})(?:[0-9.]+|\\[[0-9a-fA-F:.]+\\]|[^\\][<>"\\x00-\\x20\\x7F\\p{Zs}\\uFFFD])[^\\][<>"\\x00-\\x20\\x7F\\p{Zs}\\uFFFD]*$`, 'iu');
/**
 * Parser::handleMagicLinks' free URLs, and what it skips: an <a> element to its end (group 1:
 * the `<a`), another tag, a held link opener (group 2: its number; skipped with its label, as
 * MediaWiki skips the <a> it stands for) or another marker. A URL (group 3, its part after the
 * protocol group 4) starts at a word boundary (\b with Unicode word characters).
 */
const FREE_URL_RE = new RegExp(`(<a[\\s>])|<[^>]*>|\\x7fL(\\d+)\\x7f|\\x7f[^\\x7f]*\\x7f|(?<![\\p{L}\\p{N}_])((?:${FREE_PROTOCOLS})(${URL_ADDR}${URL_CHAR}*))`, 'giu');
/** Parser::makeFreeExternalLink: `<`, `>` or a no-break space (as a reference) ends the URL. */
const FREE_URL_END_RE = /&(?:lt|gt|nbsp|#x0*(?:3[CcEe]|[Aa]0)|#0*(?:60|62|160));/;
/** A character reference the URL ends with (its `;` is no trailing punctuation). */
const TRAILING_REF_RE = /^&(?:[a-z]+|#x[\da-f]+|#\d+)$/i;

const DOUBLE_UNDERSCORE = [
  'NOTOC',
  'FORCETOC',
  'TOC',
  'NOEDITSECTION',
  'NEWSECTIONLINK',
  'NONEWSECTIONLINK',
  'HIDDENCAT',
  'NOINDEX',
  'INDEX',
  'NOGALLERY',
  'STATICREDIRECT',
  'DISAMBIG',
  'EXPECTUNUSEDCATEGORY',
  'NOTITLECONVERT',
  'NOCONTENTCONVERT',
  'NOTC',
  'NOCC',
];
const DOUBLE_UNDERSCORE_RE = new RegExp(`__(${DOUBLE_UNDERSCORE.join('|')})__`, 'gi');
const CASE_INSENSITIVE_SWITCHES = new Set(['NOTOC', 'FORCETOC', 'TOC', 'NOEDITSECTION', 'NOGALLERY', 'NOTITLECONVERT', 'NOTC', 'NOCONTENTCONVERT', 'NOCC']);
const SWITCH_ALIASES: Record<string, string> = { NOTC: 'NOTITLECONVERT', NOCC: 'NOCONTENTCONVERT' };
/** Page properties whose name is not the switch's magic word in lower case (Disambiguator's). */
const SWITCH_PROPS: Record<string, string> = { DISAMBIG: 'disambiguation' };

interface ParsedLink {
  /** Offset of `[[` and of the character after `]]`. */
  start: number;
  end: number;
  target: string;
  /** Text after the first `|` (undefined: none), and where it starts in the text. */
  rest: string | undefined;
  restStart: number;
}

/** Each `[[` of a text (by offset) with the end of the `]]` that balances it. */
export type LinkPairs = Map<number, number>;

/**
 * Links inside links' labels and images' captions deeper than this stay text (MediaWiki nests
 * none but image captions; each level reads its label again).
 */
const MAX_LINK_NESTING = 16;

/** What ends an internal link's target: its `|`, or a character no target may hold. */
const TARGET_END_RE = /[|\n<>[\]{}]/g;

/**
 * Pairs every `[[` of the text with the `]]` that balances it, in one pass with a stack (scanning
 * the rest of the text from each opener was quadratic). The scan findLinks would start at any
 * opener it looks at is a suffix of this one (it resumes at a `[[` found from the end of a
 * token), and a link's label is balanced, so these are the pairs a scan of any of them finds.
 */
export function pairLinks(text: string): LinkPairs {
  const endOf: LinkPairs = new Map();
  const open: number[] = [];
  const first = text.indexOf('[[');
  if (first === -1) return endOf;
  for (let j = first; j < text.length; ) {
    const c = text.charCodeAt(j);
    if (c === 0x5b && text.charCodeAt(j + 1) === 0x5b) {
      open.push(j);
      j += 2;
    } else if (c === 0x5d && text.charCodeAt(j + 1) === 0x5d) {
      const o = open.pop();
      if (o !== undefined) endOf.set(o, j + 2);
      j += 2;
    } else j++;
  }
  return endOf;
}

/**
 * Finds `[[…]]` spans with nested brackets balanced (image captions hold links) in text[from, to)
 * (a link's label, with the pairs of the whole text: labels are not scanned again).
 */
export function findLinks(text: string, pairs: LinkPairs = pairLinks(text), from = 0, to = text.length): ParsedLink[] {
  const out: ParsedLink[] = [];
  let i = text.indexOf('[[', from);
  while (i !== -1 && i < to) {
    const end = pairs.get(i);
    if (end === undefined) {
      // Unbalanced: try the innermost link from the next '[[' on.
      i = text.indexOf('[[', i + 2);
      continue;
    }
    // The target runs to the first '|' (the closing `]]` stops the search at the latest); a
    // newline, tag or bracket before it is no link.
    TARGET_END_RE.lastIndex = i + 2;
    const stop = TARGET_END_RE.exec(text)!.index;
    const bar = stop < end - 2 && text[stop] === '|' ? stop : -1;
    if (bar === -1 && stop < end - 2) {
      i = text.indexOf('[[', i + 2);
      continue;
    }
    const target = text.slice(i + 2, bar === -1 ? end - 2 : bar);
    out.push({ start: i, end, target, rest: bar === -1 ? undefined : text.slice(bar + 1, end - 2), restStart: bar + 1 });
    i = text.indexOf('[[', end);
  }
  return out;
}

/** Where an image links (Parser::makeImage's link-url / link-title / no-link, or its description page). */
type ImageLink =
  | { kind: 'description' }
  | { kind: 'none' }
  | { kind: 'url'; url: string }
  | { kind: 'title'; title: TitleRef; fragment: string }
  | { kind: 'interwiki'; url: string; text: string; prefix: string; iwTitle: string };

interface Resolved {
  kind: 'page' | 'file' | 'media' | 'category' | 'lang' | 'interwiki' | 'invalid';
  title?: TitleRef;
  fragment?: string;
  escaped: boolean;
  prefix?: string;
  iwTitle?: string;
}

const stripTags = (s: string) => s.replace(/<[^>]*>/g, '');

/** The box a missing or failed image was asked for (Linker::makeBrokenImageLinkObj's $handlerParams). */
interface MediaSize {
  width?: number | undefined;
  height?: number | undefined;
}

/** Linker::makeBrokenImageLinkObj's label in the new media DOM: a span that styles can size. */
function brokenMedia(label: string, size: MediaSize): string {
  return `<span class="mw-broken-media"${size.width ? ` data-width="${size.width}"` : ''}${size.height ? ` data-height="${size.height}"` : ''}>${escapeHtml(label)}</span>`;
}

/** wfMatchesDomainList: the URL's host is one of the domains or under one. */
function matchesDomainList(url: string, domains: readonly string[]): boolean {
  let host: string;
  try {
    host = `.${new URL(url, 'http://invalid').hostname}`;
  } catch {
    return false;
  }
  return domains.some((d) => d !== '' && host.endsWith(`.${d.toLowerCase()}`));
}

/** Html::expandAttributes' class list: empty and repeated names left out, no attribute when none is left. */
function classAttr(classes: string[]): string {
  const names = [...new Set(classes.filter(Boolean))];
  return names.length ? ` class="${escapeAttr(names.join(' '))}"` : '';
}

function decodeHtml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (all, e: string) => {
    const l = e.toLowerCase();
    if (l[0] === '#') return String.fromCodePoint(l[1] === 'x' ? parseInt(l.slice(2), 16) : parseInt(l.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' } as Record<string, string>)[l] ?? all;
  });
}

export class Renderer {
  private readonly exp: Expander;
  private readonly exists = new Map<string, PageFacts>();
  private readonly files = new Map<string, FileFacts>();
  private readonly holders: string[] = [];
  private readonly links = new Map<string, LinkRef>();
  private readonly categories = new Map<string, CategoryRef>();
  private readonly images = new Set<string>();
  /** Sets, not arrays searched on every add: a page may have a hundred thousand of them. */
  private readonly externalLinks = new Set<string>();
  private readonly langLinks: LangLink[] = [];
  private readonly iwLinks: InterwikiLink[] = [];
  private readonly iwLinkKeys = new Set<string>();
  /** How deep replaceLinks is in labels and captions (MAX_LINK_NESTING). */
  private linkDepth = 0;
  private readonly switches = new Set<string>();
  private autonumber = 0;
  private readonly cite: CiteState;
  private readonly thumbLimit: number;
  private readonly legacyMedia: boolean;
  private readonly fragmentMode: readonly FragmentMode[];
  private readonly site: SiteInfo;
  /** MediaWiki:Bad image list: file names and the pages that may show each. */
  private readonly badFiles = new Map<string, Set<string>>();

  constructor(
    private readonly codec: TitleCodec,
    private readonly lookup: PageLookup,
    private readonly req: RenderRequest,
    site: SiteInfo,
  ) {
    this.fragmentMode = site.fragmentMode?.length ? site.fragmentMode : DEFAULT_FRAGMENT_MODE;
    this.exp = new Expander(codec, lookup, req, { name: site.name, server: site.server, now: req.now ?? new Date(), fragmentMode: this.fragmentMode[0]! });
    this.thumbLimit = site.thumbLimit ?? DEFAULT_THUMB_LIMIT;
    this.legacyMedia = site.legacyMediaDom ?? true;
    this.site = site;
    this.cite = { groups: new Map(), byName: new Map(), counter: 0, listed: new Set(), fragmentMode: this.fragmentMode[0]! };
  }

  get parsoid(): boolean {
    return this.req.mode === 'parsoid';
  }

  private prefixed(t: TitleRef): string {
    return this.codec.prefixedText(t.ns, t.dbkey);
  }

  private prefixedKey(t: TitleRef): string {
    return this.codec.prefixedDbKey(t.ns, t.dbkey);
  }

  private resolve(rawTarget: string): Resolved {
    let target = decodeCharReferences(rawTarget).trim();
    // A title may not hold a character reference (MediaWikiTitleCodec: `[[Foo &amp;amp; bar]]`).
    if (/&[A-Za-z0-9\u0080-\uffff]+;/.test(target)) return { kind: 'invalid', escaped: false };
    const escaped = target.startsWith(':');
    if (escaped) target = target.slice(1).trim();
    // The escaping colon is the title's one initial colon: a second is a title starting with ':'.
    if (escaped && target.startsWith(':')) return { kind: 'invalid', escaped };
    const m = /^([A-Za-z0-9_.\- ]+?)\s*:\s*(.*)$/s.exec(target);
    if (m && this.codec.namespaces.indexOf(m[1]!.replaceAll(' ', '_')) === undefined) {
      const prefix = m[1]!.toLowerCase();
      const iw = INTERWIKI[prefix];
      if (iw) {
        const rest = m[2]!;
        // The title part may not hold what no title holds (T182338).
        if (/[<>[\]{}|]/.test(rest)) return { kind: 'invalid', escaped };
        if (iw.language && !escaped) return { kind: 'lang', prefix, iwTitle: rest, escaped };
        return { kind: 'interwiki', prefix, iwTitle: rest, escaped };
      }
    }
    const t = this.exp.parseTitle(target);
    if (target.startsWith('#')) return { kind: 'page', title: this.req.title, fragment: target.slice(1), escaped };
    if (!t) return { kind: 'invalid', escaped };
    let fragment = '';
    try {
      fragment = this.codec.parse(target).fragment;
    } catch {
      fragment = '';
    }
    if (!escaped && t.ns === NS_FILE) return { kind: 'file', title: t, escaped };
    if (!escaped && t.ns === NS_CATEGORY) return { kind: 'category', title: t, escaped };
    if (t.ns === NS_MEDIA) return { kind: 'media', title: { ns: NS_FILE, dbkey: t.dbkey }, escaped };
    return { kind: 'page', title: t, fragment, escaped };
  }

  /** One batched lookup for every link target, category and file the text mentions. */
  private async prefetch(texts: string[]): Promise<void> {
    // A gallery's caption is wikitext (Parser::renderImageGallery's recursiveTagParse): its
    // templates expand here, before its links are looked up with the rest.
    for (const item of this.exp.strip) {
      // (Parsoid's data-mw keeps the attribute as written.)
      const caption = item.name === 'gallery' && !this.parsoid ? item.attrs.caption : undefined;
      if (caption === undefined || !caption.includes('{{')) continue;
      item.attrs.caption = await this.exp.expand(preprocess(caption, { include: false, headings: false }).nodes, this.exp.rootFrame());
      texts.push(item.attrs.caption);
    }
    const pages = new Map<string, TitleRef>();
    const files = new Set<string>();
    const visit = (text: string, pairs: LinkPairs, from: number, to: number, depth: number) => {
      if (depth >= MAX_LINK_NESTING) return;
      for (const l of findLinks(text, pairs, from, to)) {
        const r = this.resolve(linkTarget(l.target));
        if (r.title && (r.kind === 'page' || r.kind === 'category')) pages.set(titleKey(r.title), r.title);
        if (r.title && (r.kind === 'file' || r.kind === 'media')) {
          files.add(r.title.dbkey);
          pages.set(titleKey(r.title), r.title);
        }
        if (r.kind === 'file' && l.rest !== undefined) {
          for (const p of splitParams(l.rest)) {
            const link = /^link=(.*)$/s.exec(p.trim())?.[1];
            const target = link === undefined ? undefined : this.imageLink(link);
            if (target?.kind === 'title') pages.set(titleKey(target.title), target.title);
            // A manual thumbnail (`thumb=Other.png`) shows another file.
            const manual = /^(?:thumb|thumbnail)=(.*)$/s.exec(p.trim())?.[1];
            const manualTitle = manual === undefined ? undefined : this.exp.parseTitle(manual, NS_FILE);
            if (manualTitle?.ns === NS_FILE) files.add(manualTitle.dbkey);
          }
        }
        if (l.rest) visit(text, pairs, l.restStart, l.end - 2, depth + 1);
      }
    };
    for (const text of texts) visit(text, pairLinks(text), 0, text.length, 0);
    // A gallery's lines name files without brackets.
    for (const item of this.exp.strip) {
      if (item.name !== 'gallery') continue;
      for (const line of (item.content ?? '').split('\n')) {
        const t = this.galleryLineTitle(line);
        if (t?.ns === NS_FILE) {
          files.add(t.dbkey);
          pages.set(titleKey(t), t);
        }
      }
    }
    for (const t of this.exp.existenceChecks.values()) pages.set(titleKey(t), t);
    for (const c of this.exp.trackingCategories) {
      const t = { ns: NS_CATEGORY, dbkey: c.replaceAll(' ', '_') };
      pages.set(titleKey(t), t);
    }
    pages.set(titleKey({ ns: NS_CATEGORY, dbkey: 'Pages_with_broken_file_links' }), { ns: NS_CATEGORY, dbkey: 'Pages_with_broken_file_links' });
    const badList = { ns: NS_MEDIAWIKI, dbkey: 'Bad_image_list' };
    const [e, f, bad] = await Promise.all([
      this.lookup.exist([...pages.values()]),
      files.size ? this.lookup.files([...files]) : Promise.resolve(new Map<string, FileFacts>()),
      // Only a page showing files needs the list of files it may not show.
      files.size ? this.lookup.sources([badList]) : Promise.resolve(undefined),
    ]);
    for (const [k, v] of e) this.exists.set(k, v);
    for (const [k, v] of f) this.files.set(k, v);
    const badText = bad?.get(titleKey(badList))?.text;
    if (badText) this.readBadImageList(badText);
  }

  /**
   * BadFileLookup: `MediaWiki:Bad image list` lines starting with `*` name a file (the first link)
   * and the pages that may still show it (the others).
   */
  private readBadImageList(text: string): void {
    for (const line of text.split('\n')) {
      if (!line.startsWith('*')) continue;
      const titles = [...line.matchAll(/\[\[:?(.*?)\]\]/g)].map((m) => this.exp.parseTitle(m[1]!));
      const file = titles[0];
      if (!file) continue;
      this.badFiles.set(file.dbkey, new Set(titles.slice(1).flatMap((t) => (t ? [titleKey(t)] : []))));
    }
  }

  /** BadFileLookup::isBadFile for this page. */
  private isBadFile(name: string): boolean {
    return this.badFiles.get(name)?.has(titleKey(this.req.title)) === false;
  }

  private hold(html: string): string {
    this.holders.push(html);
    return `${MARK}L${this.holders.length - 1}${MARK}`;
  }

  private pageHref(t: TitleRef, fragment = ''): string {
    const frag = fragment ? `#${fragmentHref(fragment, this.fragmentMode[0]!)}` : '';
    if (this.parsoid) return `./${wikiUrlencode(this.prefixedKey(t))}${frag}`;
    return `/wiki/${wikiUrlencode(this.prefixedKey(t))}${frag}`;
  }

  private addCategory(dbkey: string, sortkey: string): void {
    if (this.categories.has(dbkey)) return;
    const exists = this.exists.has(titleKey({ ns: NS_CATEGORY, dbkey }));
    this.categories.set(dbkey, { dbkey, sortkey, exists });
  }

  /** An internal link's opening tag (held) for a page title. */
  private linkOpen(t: TitleRef, fragment: string): string {
    const key = titleKey(t);
    const facts = this.exists.get(key);
    const isSelf = t.ns === this.req.title.ns && t.dbkey === this.req.title.dbkey && !fragment;
    const known = facts !== undefined || t.ns === NS_SPECIAL || (t.ns === NS_MAIN && t.dbkey === '');
    if (t.ns !== NS_SPECIAL) this.links.set(key, { ...t, exists: facts !== undefined });
    const title = this.prefixed(t);
    if (this.parsoid) {
      const cls = known ? (facts?.isRedirect ? ' class="mw-redirect"' : '') : ' class="new"';
      return this.hold(`<a rel="mw:WikiLink" href="${escapeAttr(this.pageHref(t, fragment))}" title="${escapeAttr(title)}"${cls}>`);
    }
    if (isSelf) return this.hold('<a class="mw-selflink selflink">');
    if (!known) {
      const href = `/w/index.php?title=${wikiUrlencode(this.prefixedKey(t))}&action=edit&redlink=1`;
      return this.hold(`<a href="${escapeAttr(href)}" class="new" title="${escapeAttr(`${title} (page does not exist)`)}">`);
    }
    const cls = facts?.isRedirect ? ' class="mw-redirect"' : '';
    return this.hold(`<a href="${escapeAttr(this.pageHref(t, fragment))}"${cls} title="${escapeAttr(title)}">`);
  }

  /**
   * Parser::makeImage's `link=`: empty is no link; a value starting with a URL protocol is an
   * external link if the whole value is a valid URL; anything else names a page. Undefined when the
   * value is neither (MediaWiki then takes the whole option as the caption).
   */
  private imageLink(value: string): ImageLink | undefined {
    if (value === '') return { kind: 'none' };
    if (IMAGE_LINK_PROTOCOL_RE.test(value)) return IMAGE_LINK_URL_RE.test(value) ? { kind: 'url', url: value } : undefined;
    // Parser::parseLinkParameter percent-decodes titles, as wikilinks are (T216003).
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        /* kept as written */
      }
    }
    // A title on another wiki links there (Title::getLinkURL of an interwiki title).
    const iw = /^[^:]+:/.test(value) ? this.resolve(value) : undefined;
    if (iw && (iw.kind === 'interwiki' || iw.kind === 'lang')) {
      const url = INTERWIKI[iw.prefix!]!.url.replace('$1', wikiUrlencode(iw.iwTitle!.trim().replaceAll(' ', '_')));
      return { kind: 'interwiki', url, text: value.trim(), prefix: iw.prefix!, iwTitle: iw.iwTitle!.trim() };
    }
    const title = this.exp.parseTitle(value);
    if (!title) return undefined;
    let fragment = '';
    try {
      fragment = this.codec.parse(value).fragment;
    } catch {
      fragment = '';
    }
    return { kind: 'title', title, fragment };
  }

  /**
   * An option as its source text (Parsoid's optList `ak`): extension tags back to their source,
   * and no marker left that a later pass would turn into markup inside the attribute.
   */
  private sourceText(text: string): string {
    const unstripped = text.replace(STRIP_RE, (_all, n: string) => this.exp.strip[Number(n)]?.src ?? '');
    return stripTransclusionMarkers(unstripped).replace(/\x7fL\d+\x7f/g, '');
  }

  /** Text for alt and title attributes from rendered caption HTML (Parser::stripAltText). */
  private plainText(html: string): string {
    return decodeHtml(stripTags(stripTransclusionMarkers(this.unstripAll(html)))).trim();
  }

  private renderFile(t: TitleRef, rest: string | undefined): string {
    const name = t.dbkey;
    this.images.add(name);
    const file = this.files.get(name);
    const params = rest === undefined ? [] : splitParams(rest);
    if (this.parsoid) return this.renderFileParsoid(t, file, params);
    const o = this.imageOptions(params, file);
    const { link } = o;
    if (link.kind === 'url') this.noteExternal(link.url);
    if (link.kind === 'title' && link.title.ns !== NS_SPECIAL) this.links.set(titleKey(link.title), { ...link.title, exists: this.exists.has(titleKey(link.title)) });
    if (link.kind === 'interwiki' && !this.iwLinkKeys.has(`${link.prefix}:${link.iwTitle}`)) {
      this.iwLinkKeys.add(`${link.prefix}:${link.iwTitle}`);
      this.iwLinks.push({ prefix: link.prefix, title: link.iwTitle, url: link.url });
    }
    // Linker::makeImageLink: a file core cannot show (video, audio) is a link to its page.
    if (file && !canRender(file)) return `${this.linkOpen(t, '')}${escapeHtml(this.prefixed(t))}</a>`;
    const captionHtml = o.caption ? this.renderInline(o.caption) : '';
    const captionText = o.caption ? this.plainText(captionHtml) : '';
    const fileText = name.replaceAll('_', ' ');
    const framed = o.format === 'thumb' || o.format === 'frame' || o.format === 'manualthumb';
    // Parser::makeImage: framed images get no tooltip (the caption shows) and the file name as alt
    // only without a caption; inline images take alt and tooltip from the caption, else the name.
    const alt = o.alt ?? (framed ? (o.caption ? '' : fileText) : captionText || fileText);
    const tooltip = framed ? '' : captionText;
    // Linker::makeImageLink: the size asked of the file.
    let width = o.width;
    const height = o.height;
    if (file && width === undefined) {
      width = height !== undefined && isVector(file) ? SVG_MAX_SIZE : file.width;
      if (o.format || !width) {
        const upright = o.upright === 0 ? THUMB_UPRIGHT : o.upright;
        const pref = upright !== undefined ? Math.round((this.thumbLimit * upright) / 10) * 10 : this.thumbLimit;
        if (height === undefined && (width <= 0 || pref < width || isVector(file))) width = pref;
      }
    }
    if (!this.legacyMedia) return this.hold(this.mediaImageLink(t, file, o, { width, height, alt, tooltip, captionHtml }).replaceAll('\n', ' '));
    let align = o.halign ?? '';
    let prefix = '';
    let postfix = '';
    if (align === 'center') {
      prefix = '<div class="center">';
      postfix = '</div>';
      align = 'none';
    }
    let html: string;
    if (framed) {
      html = this.thumbLink(t, file, o, { width, height, align: align || 'right', alt, captionHtml });
    } else {
      let s: string;
      if (!file) s = this.brokenImageLink(t, captionText);
      else if (this.isBadFile(name)) s = this.knownFileLink(t, captionText || this.prefixed(t));
      else {
        if (o.format === 'frameless' && !mustRender(file) && width! > file.width) width = file.width;
        const shown = transform(file, width!, height, o);
        const className = [o.className ?? '', o.border ? 'thumbborder' : ''].filter(Boolean).join(' ');
        const img = imgTag(shown, { alt, title: link.kind === 'none' ? tooltip : '', valign: o.valign, className, srcset: srcset(file, shown, width!, height, o) });
        s = this.imageAnchor(t, link, tooltip, img, this.descriptionQuery(o));
      }
      html = align ? `<div class="float${align}">${s}</div>` : s;
    }
    return this.hold(`${prefix}${html}${postfix}`.replaceAll('\n', ' '));
  }

  /**
   * Parser::makeImage's option loop: each part a magic word that validates, else the caption (the
   * last such part). Formats after the first, and sizes that are not positive, are captions too.
   */
  private imageOptions(params: string[], file: FileFacts | undefined) {
    const o: {
      caption: string;
      format?: 'thumb' | 'frame' | 'frameless' | 'manualthumb';
      manualthumb?: string;
      width?: number;
      height?: number;
      halign?: HorizAlign;
      valign?: string;
      upright?: number;
      border: boolean;
      link: ImageLink;
      alt?: string;
      className?: string;
      page?: number;
      lang?: string;
    } = { caption: '', border: false, link: { kind: 'description' } };
    for (const p of params) {
      const part = p.trim();
      const m = matchImageOption(part);
      let ok = false;
      switch (m?.kind) {
        case 'width': {
          const wp = parseWidthParam(m.value);
          if (wp.width !== undefined && wp.width > 0) {
            o.width = wp.width;
            ok = true;
          }
          if (wp.height !== undefined && wp.height > 0) {
            o.height = wp.height;
            ok = true;
          }
          break;
        }
        case 'format':
          ok = o.format === undefined;
          if (ok) {
            o.format = m.format;
            if (m.value !== undefined) o.manualthumb = this.plainText(this.renderInline(m.value));
          }
          break;
        case 'halign':
          ok = true;
          o.halign ??= m.align;
          break;
        case 'valign':
          ok = true;
          o.valign ??= m.align;
          break;
        case 'upright':
          ok = m.value === undefined || isNumeric(m.value);
          if (ok) o.upright = m.value === undefined ? 0 : Number(m.value.trim());
          break;
        case 'border':
          ok = true;
          o.border = true;
          break;
        case 'link': {
          // Parser::stripAltText first: a link in the value (link=[[Page]]) counts as its text.
          const l = this.imageLink(/\[\[|\x7f/.test(m.value) ? this.plainText(this.renderInline(m.value)) : m.value);
          if (l) {
            ok = true;
            o.link = l;
          }
          break;
        }
        case 'alt':
          ok = true;
          o.alt = this.plainText(this.renderInline(m.value));
          break;
        case 'class':
          ok = true;
          o.className = this.plainText(this.renderInline(m.value));
          break;
        case 'page':
          // Only a multi-page format's handler takes a page.
          ok = file?.mime === 'image/vnd.djvu' && /^\s*\d+\s*$/.test(m.value);
          if (ok) o.page = Number(m.value);
          break;
        case 'lang':
          ok = file !== undefined && isVector(file) && isLanguageTag(m.value);
          if (ok) o.lang = m.value;
          break;
      }
      if (!ok) o.caption = part;
    }
    return o;
  }

  /** MediaTransformOutput::getDescLinkAttribs's query: a DjVu page other than the first, an SVG's language. */
  private descriptionQuery(o: { page?: number; lang?: string }): string {
    return [o.page && o.page !== 1 ? `page=${o.page}` : '', o.lang ? `lang=${wikiUrlencode(o.lang)}` : ''].filter(Boolean).join('&');
  }

  /** A page's URL with a query (Title::getLocalURL). */
  private fileUrl(t: TitleRef, query: string): string {
    return query ? `/w/index.php?title=${wikiUrlencode(this.prefixedKey(t))}&${query}` : this.pageHref(t);
  }

  /** ThumbnailImage::toHtml's link around the image: custom URL, custom title, none, or the description page. */
  private imageAnchor(t: TitleRef, link: ImageLink, tooltip: string, img: string, query = ''): string {
    const titleAttr = (text: string) => (text ? ` title="${encodeAttr(text)}"` : '');
    // The new media DOM keeps an unlinked image in a <span>, with the tooltip there (MediaTransformOutput::linkWrap).
    if (link.kind === 'none') return this.legacyMedia ? img : `<span${titleAttr(tooltip)}>${img}</span>`;
    if (link.kind === 'interwiki') return `<a href="${escapeAttr(link.url)}" title="${encodeAttr(tooltip || link.text)}">${img}</a>`;
    if (link.kind === 'url') {
      const x = this.externalLinkAttrs(link.url);
      return `<a href="${escapeAttr(link.url)}"${titleAttr(tooltip)}${x.target ? ` target="${escapeAttr(x.target)}"` : ''}${x.rel ? ` rel="${x.rel}"` : ''}>${img}</a>`;
    }
    if (link.kind === 'title') return `<a href="${escapeAttr(this.pageHref(link.title, link.fragment))}"${titleAttr(tooltip || this.prefixed(link.title))}>${img}</a>`;
    return `<a href="${escapeAttr(this.fileUrl(t, query))}" class="${this.legacyMedia ? 'image' : 'mw-file-description'}"${titleAttr(tooltip)}>${img}</a>`;
  }

  /**
   * Linker::makeBrokenImageLinkObj: a missing file links its upload form, or its page when that
   * page is a redirect (the file lives under the redirect's target).
   */
  private brokenImageLink(t: TitleRef, label: string, media?: MediaSize): string {
    const title = this.prefixed(t);
    const text = media ? brokenMedia(label || title, media) : escapeAttr(label || title);
    if (this.exists.get(titleKey(t))?.isRedirect) return `<a href="${escapeAttr(this.pageHref(t))}" class="mw-redirect" title="${escapeAttr(title)}">${text}</a>`;
    this.exp.trackingCategories.add('Pages with broken file links');
    this.addCategory('Pages_with_broken_file_links', '');
    return `<a href="${escapeAttr(`/w/index.php?title=Special:Upload&wpDestFile=${wikiUrlencode(t.dbkey)}`)}" class="new" title="${escapeAttr(title)}">${text}</a>`;
  }

  /**
   * A plain link to a file's page (a file on the bad image list, Linker::makeBrokenImageLinkObj for
   * a file that exists): its text, or `html` as it is.
   */
  private knownFileLink(t: TitleRef, label: string, html?: string): string {
    return `<a href="${escapeAttr(this.pageHref(t))}" title="${escapeAttr(this.prefixed(t))}">${html ?? escapeAttr(label)}</a>`;
  }

  /**
   * Linker::makeImageLink with $wgParserEnableLegacyMediaDOM false: the image in a
   * <span typeof="mw:File">, or a <figure> with a <figcaption> when aligned; its layout in mw-*
   * classes rather than on the <img>. Sizes as the legacy path computed them.
   */
  private mediaImageLink(
    t: TitleRef,
    file: FileFacts | undefined,
    o: ReturnType<Renderer['imageOptions']>,
    a: { width: number | undefined; height: number | undefined; alt: string; tooltip: string; captionHtml: string },
  ): string {
    const classes: string[] = [];
    if (o.width === undefined && o.format !== 'manualthumb' && o.format !== 'frame') classes.push('mw-default-size');
    if (o.format === 'thumb' || o.format === 'frame' || o.format === 'manualthumb') return this.mediaThumbLink(t, file, o, classes, a);
    let width = a.width;
    let rdfa = 'mw:File';
    if (o.format === 'frameless') {
      rdfa += '/Frameless';
      if (file && !mustRender(file) && width! > file.width) width = file.width;
    }
    let s: string;
    if (!file || this.isBadFile(t.dbkey)) {
      rdfa = `mw:Error ${rdfa}`;
      // A missing file is asked for at the size written; an existing one at the size computed.
      s = file ? this.knownFileLink(t, '', brokenMedia(this.prefixed(t), { width, height: a.height })) : this.brokenImageLink(t, '', { width: o.width, height: a.height });
    } else {
      const shown = transform(file, width!, a.height, o);
      s = this.imageAnchor(t, o.link, a.tooltip, imgTag(shown, { alt: a.alt, srcset: srcset(file, shown, width!, a.height, o) }), this.descriptionQuery(o));
    }
    let wrapper = 'span';
    let caption = '';
    if (o.halign) {
      wrapper = 'figure';
      classes.push(`mw-halign-${o.halign}`);
      caption = `<figcaption>${a.captionHtml}</figcaption>`;
    } else if (o.valign) classes.push(`mw-valign-${o.valign}`);
    if (o.border) classes.push('mw-image-border');
    if (o.className) classes.push(o.className);
    return `<${wrapper}${classAttr(classes)} typeof="${rdfa}">${s}${caption}</${wrapper}>`;
  }

  /** Linker::makeThumbLink2 with $wgParserEnableLegacyMediaDOM false: a <figure> of thumb, frame or manual thumbnail. */
  private mediaThumbLink(
    t: TitleRef,
    file: FileFacts | undefined,
    o: ReturnType<Renderer['imageOptions']>,
    classes: string[],
    a: { width: number | undefined; height: number | undefined; alt: string; captionHtml: string },
  ): string {
    let width = a.width || (o.upright !== undefined ? 130 : 180);
    let link = o.link;
    let rdfa = o.format === 'frame' ? 'mw:File/Frame' : 'mw:File/Thumb';
    if (o.halign) classes.push(`mw-halign-${o.halign}`);
    if (o.className) classes.push(o.className);
    let s: string;
    if (!file) {
      rdfa = `mw:Error ${rdfa}`;
      s = this.brokenImageLink(t, '', { width, height: a.height });
    } else {
      let shown: Transformed | undefined;
      let srcsetValue = '';
      let bad = this.isBadFile(t.dbkey);
      if (o.format === 'manualthumb') {
        const manual = o.manualthumb ? this.exp.parseTitle(o.manualthumb, NS_FILE) : undefined;
        const mf = manual?.ns === NS_FILE ? this.files.get(manual.dbkey) : undefined;
        if (mf) {
          bad = this.isBadFile(manual!.dbkey);
          shown = transform(mf, mf.width);
          if (link.kind === 'description') link = { kind: 'title', title: t, fragment: '' };
        }
      } else if (o.format === 'frame') shown = transform(file, file.width, undefined, o);
      else {
        if (!mustRender(file) && width > file.width) width = file.width;
        shown = transform(file, width, a.height, o);
        srcsetValue = srcset(file, shown, width, a.height, o);
      }
      if (!shown || bad) {
        rdfa = `mw:Error ${rdfa}`;
        // No thumbnail: the message thumbnail_error with no reason.
        s = this.knownFileLink(t, '', brokenMedia(shown ? this.prefixed(t) : 'Error creating thumbnail: ', { width, height: a.height }));
      } else s = this.imageAnchor(t, link, '', imgTag(shown, { alt: a.alt, srcset: srcsetValue }), this.descriptionQuery(o));
    }
    return `<figure${classAttr(classes)} typeof="${rdfa}">${s}<figcaption>${a.captionHtml}</figcaption></figure>`;
  }

  /** Linker::makeThumbLink2 (legacy DOM): thumb, frame and manual thumbnail boxes. */
  private thumbLink(
    t: TitleRef,
    file: FileFacts | undefined,
    o: ReturnType<Renderer['imageOptions']>,
    a: { width: number | undefined; height: number | undefined; align: string; alt: string; captionHtml: string },
  ): string {
    let width = a.width || (o.upright !== undefined ? 130 : 180);
    let link = o.link;
    let inner: string;
    let outer: number;
    let zoom = '';
    if (!file) {
      outer = width + 2;
      inner = this.brokenImageLink(t, '');
    } else {
      let shown: Transformed | undefined;
      let srcsetValue = '';
      let bad = this.isBadFile(t.dbkey);
      if (o.format === 'manualthumb') {
        const manual = o.manualthumb ? this.exp.parseTitle(o.manualthumb, NS_FILE) : undefined;
        const mf = manual?.ns === NS_FILE ? this.files.get(manual.dbkey) : undefined;
        if (mf) {
          bad = this.isBadFile(manual!.dbkey);
          shown = transform(mf, mf.width);
          if (link.kind === 'description') link = { kind: 'title', title: t, fragment: '' };
        }
      } else if (o.format === 'frame') shown = transform(file, file.width, undefined, o);
      else {
        if (!mustRender(file) && width > file.width) width = file.width;
        shown = transform(file, width, a.height, o);
        srcsetValue = srcset(file, shown, width, a.height, o);
      }
      outer = (shown?.width ?? width) + 2;
      if (!shown) inner = 'Error creating thumbnail: ';
      else if (bad) inner = this.knownFileLink(t, this.prefixed(t));
      else {
        const img = imgTag(shown, { alt: a.alt, className: `${o.className ? `${o.className} ` : ''}thumbimage`, srcset: srcsetValue });
        inner = this.imageAnchor(t, link, '', img, this.descriptionQuery(o));
        // The magnify link keeps the page (T16771), not the language.
        const zoomHref = o.page ? this.fileUrl(t, `page=${o.page}`) : this.pageHref(t);
        if (o.format !== 'frame') zoom = `<div class="magnify"><a href="${escapeAttr(zoomHref)}" class="internal" title="Enlarge"></a></div>`;
      }
    }
    return `<div class="thumb t${a.align}"><div class="thumbinner" style="width:${outer}px;">${inner}  <div class="thumbcaption">${zoom}${a.captionHtml}</div></div></div>`;
  }

  /** Parsoid's media markup (REST /html). */
  private renderFileParsoid(t: TitleRef, file: FileFacts | undefined, params: string[]): string {
    const name = t.dbkey;
    let caption = '';
    let frame: '' | 'thumb' | 'frame' | 'frameless' = '';
    let width: number | undefined;
    let height: number | undefined;
    let link: ImageLink = { kind: 'description' };
    let alt: string | undefined;
    // Parsoid's data-parsoid optList: each option as written, so html→wikitext writes them back.
    const optList: { ck: string; ak: string }[] = [];
    for (const p of params) {
      const v = p.trim();
      let m: RegExpExecArray | null;
      optList.push({ ck: imageOptionKind(v), ak: this.sourceText(p) });
      if (/^(?:thumb|thumbnail)$/.test(v)) frame = 'thumb';
      else if (/^(?:frame|framed|enframed)$/.test(v)) frame = 'frame';
      else if (v === 'frameless') frame = 'frameless';
      else if (/^(?:left|right|center|none)$/.test(v)) {
        /* alignment: Parsoid's classes are not written here */
      } else if ((m = /^(\d*)(?:x(\d+))?\s*px$/.exec(v))) {
        if (m[1]) width = Number(m[1]);
        if (m[2]) height = Number(m[2]);
      } else if (/^(?:upright|border|baseline|middle|sub|super|top|text-top|bottom|text-bottom)(?:=.*)?$/.test(v)) {
        /* layout hints without effect here */
      } else if ((m = /^link=(.*)$/s.exec(v)) && this.imageLink(m[1]!)) link = this.imageLink(m[1]!)!;
      else if ((m = /^alt=(.*)$/s.exec(v))) alt = m[1];
      else caption = p;
    }
    if (link.kind === 'url') this.noteExternal(link.url);
    if (link.kind === 'title' && link.title.ns !== NS_SPECIAL) this.links.set(titleKey(link.title), { ...link.title, exists: this.exists.has(titleKey(link.title)) });
    const title = this.prefixed(t);
    const captionHtml = caption ? this.renderInline(caption) : '';
    const dataParsoid = optList.length ? ` data-parsoid='${jsonAttr({ optList })}'` : '';
    if (!file) {
      this.exp.trackingCategories.add('Pages with broken file links');
      this.addCategory('Pages_with_broken_file_links', '');
      return this.hold(
        `<span class="mw-default-size mw-broken-media" typeof="mw:Error mw:File"${dataParsoid}><a href="./Special:FilePath/${escapeAttr(wikiUrlencode(name))}"><span class="mw-file-element mw-broken-media" resource="./${escapeAttr(wikiUrlencode(this.prefixedKey(t)))}">${escapeHtml(title)}</span></a>${captionHtml && frame ? `<figcaption>${captionHtml}</figcaption>` : ''}</span>`,
      );
    }
    // A real file: scale to the requested box, keeping the aspect ratio.
    let w = file.width;
    let h = file.height;
    const box = width ?? (frame === 'thumb' || frame === 'frameless' ? 220 : undefined);
    if (box !== undefined && box < w) {
      h = Math.round((file.height * box) / file.width);
      w = box;
    }
    if (height !== undefined && height < h) {
      w = Math.round((file.width * height) / file.height);
      h = height;
    }
    const framed = frame === 'thumb' || frame === 'frame';
    const descriptionHref = this.pageHref(t);
    const altAttr = alt !== undefined ? ` alt="${escapeAttr(alt)}"` : caption && !frame ? ` alt="${escapeAttr(this.plainText(captionHtml))}"` : '';
    const img = `<img resource="./${escapeAttr(wikiUrlencode(this.prefixedKey(t)))}" src="${escapeAttr(file.url)}" decoding="async" data-file-width="${file.width}" data-file-height="${file.height}" data-file-type="bitmap" height="${h}" width="${w}"${altAttr}/>`;
    const inner =
      link.kind === 'none'
        ? `<span>${img}</span>`
        : link.kind === 'url'
          ? `<a href="${escapeAttr(link.url)}">${img}</a>`
          : link.kind === 'title'
            ? `<a href="${escapeAttr(this.pageHref(link.title, link.fragment))}" title="${escapeAttr(this.prefixed(link.title))}">${img}</a>`
            : `<a href="${escapeAttr(descriptionHref)}" class="mw-file-description">${img}</a>`;
    if (framed) return this.hold(`<figure class="mw-default-size" typeof="mw:File/${frame === 'thumb' ? 'Thumb' : 'Frame'}"${dataParsoid}>${inner}<figcaption>${captionHtml}</figcaption></figure>`);
    return this.hold(`<span class="mw-default-size" typeof="mw:File"${dataParsoid}>${inner}</span>`);
  }

  /** Internal links, images, categories and language links of a text. */
  private replaceLinks(text: string): string {
    return this.replaceLinksIn(text, pairLinks(text), 0, text.length);
  }

  /** replaceLinks of text[from, to) (a link's label: the pairs are those of the whole text). */
  private replaceLinksIn(text: string, pairs: LinkPairs, from: number, to: number): string {
    // Links in labels and captions nested deeper than any page needs stay text: the recursion
    // must not exhaust the stack.
    if (this.linkDepth >= MAX_LINK_NESTING) return text.slice(from, to);
    this.linkDepth++;
    try {
      return this.replaceLinksAt(text, pairs, from, to);
    } finally {
      this.linkDepth--;
    }
  }

  private replaceLinksAt(text: string, pairs: LinkPairs, from: number, to: number): string {
    const links = findLinks(text, pairs, from, to);
    if (links.length === 0) return text.slice(from, to);
    const labelOf = (l: ParsedLink) => this.replaceLinksIn(text, pairs, l.restStart, l.end - 2);
    // A link is held whole, as MediaWiki's link holders keep its text out of the later passes: a
    // label gets only its own quotes (T6598), no free URLs or external links, and quotes around
    // the link do not pair with quotes inside it.
    // A label with a `[` before `]]]` takes the third `]` (Parser::handleInternalLinks2, T4095).
    let bracket = false;
    const linkText = (l: ParsedLink) => doQuotes(labelOf(l) + (bracket ? ']' : ''));
    // Pieces, not one string: trimming the end of a string built with += copies all of it.
    const out: string[] = [];
    let pos = from;
    for (let k = 0; k < links.length; k++) {
      const l = links[k]!;
      out.push(text.slice(pos, l.start));
      pos = l.end;
      const label = l.rest;
      bracket = label?.includes('[') === true && l.end < to && text[l.end] === ']';
      // Nothing after the pipe is no link at all (Parser::handleInternalLinks2's pattern needs a text), whatever the target.
      if (label === '') {
        out.push(`[[${this.replaceLinks(l.target)}|]]`);
        continue;
      }
      // `[[http://…]]` is the external link `[http://…]` in brackets: the text stays, its links are made.
      if (URL_TARGET_RE.test(l.target)) {
        out.push(`[[${this.replaceLinksIn(text, pairs, l.start + 2, l.end)}`);
        continue;
      }
      // A target with %XX is read decoded (Parser::handleInternalLinks2), `<` and `>` as references.
      const target = linkTarget(l.target);
      const r = this.resolve(target);
      // A label holding a link makes no link but for a file (Parser::handleInternalLinks2 reads
      // `[[Hi|` as an unclosed link): the text stays, the inner link is made.
      if (r.kind !== 'file' && r.kind !== 'invalid' && label?.includes('[[') && findLinks(text, pairs, l.restStart, l.end - 2).length > 0) {
        out.push(`[[${this.replaceLinks(l.target)}|${labelOf(l)}]]`);
        continue;
      }
      if (r.kind === 'invalid') {
        out.push(`[[${this.replaceLinks(l.target)}${label !== undefined ? `|${labelOf(l)}` : ''}]]`);
        continue;
      }
      if (r.kind === 'lang') {
        const iw = INTERWIKI[r.prefix!]!;
        if (!this.langLinks.some((x) => x.lang === r.prefix)) {
          this.langLinks.push({ lang: r.prefix!, title: r.iwTitle!, url: iw.url.replace('$1', wikiUrlencode(r.iwTitle!.replaceAll(' ', '_'))) });
        }
        if (this.parsoid) {
          out.push(this.hold(`<link rel="mw:PageProp/Language" href="${escapeAttr(iw.url.replace('$1', wikiUrlencode(r.iwTitle!.replaceAll(' ', '_'))))}"/>`));
          continue;
        }
        // Parser::handleInternalLinks2 strips the whitespace before a language link (T10897); what
        // follows it stays (T175416).
        trimEndPieces(out);
        continue;
      }
      if (r.kind === 'interwiki') {
        const { url, title: iwTitle } = interwikiTarget(r.prefix!, r.iwTitle!);
        const shown = `${r.prefix}:${iwTitle}`;
        const iwKey = `${r.prefix}:${iwTitle}`;
        if (!this.iwLinkKeys.has(iwKey)) {
          this.iwLinkKeys.add(iwKey);
          this.iwLinks.push({ prefix: r.prefix!, title: iwTitle, url: url.replace(/#.*$/s, '') });
        }
        if (bracket) pos++;
        const trail = /^[a-z]+/.exec(text.slice(pos, to))?.[0] ?? '';
        pos += trail.length;
        const rel = this.parsoid ? ' rel="mw:WikiLink/Interwiki"' : '';
        out.push(this.hold(`<a${rel} href="${escapeAttr(url)}" class="extiw" title="${escapeAttr(shown)}">${label !== undefined && label !== '' ? linkText(l) : linkDisplay(target)}${trail}</a>`));
        continue;
      }
      if (r.kind === 'category') {
        // The sort key with its references decoded and no line breaks (Parser::handleInternalLinks2).
        const sort = label !== undefined ? decodeCharReferences(label).replaceAll('\n', '') : '';
        // A category without its own sort key takes {{DEFAULTSORT:}} (Parser::handleInternalLinks2).
        this.addCategory(r.title!.dbkey, sort || (this.exp.properties.defaultsort ?? ''));
        if (this.parsoid)
          out.push(this.hold(`<link rel="mw:PageProp/Category" href="./${escapeAttr(wikiUrlencode(this.prefixedKey(r.title!)))}${sort ? `#${escapeAttr(encodeURIComponent(sort))}` : ''}"/>`));
        // Whitespace before a category goes with it (T2087).
        else trimEndPieces(out);
        continue;
      }
      if (r.kind === 'file') {
        out.push(this.renderFile(r.title!, label));
        continue;
      }
      if (r.kind === 'media') {
        const file = this.files.get(r.title!.dbkey);
        this.images.add(r.title!.dbkey);
        if (bracket) pos++;
        const shown = label !== undefined ? linkText(l) : escapeHtml(l.target.trim());
        if (file) out.push(this.hold(`<a href="${escapeAttr(file.url)}" class="internal" title="${escapeAttr(r.title!.dbkey.replaceAll('_', ' '))}">${shown}</a>`));
        else
          out.push(
            this.hold(
              `<a href="/w/index.php?title=Special:Upload&amp;wpDestFile=${escapeAttr(wikiUrlencode(r.title!.dbkey))}" class="new" title="${escapeAttr(r.title!.dbkey.replaceAll('_', ' '))}">${shown}</a>`,
            ),
          );
        continue;
      }
      // A page link with its trail ([[A]]s shows "As").
      if (bracket) pos++;
      const trail = /^[a-z]+/.exec(text.slice(pos, to))?.[0] ?? '';
      pos += trail.length;
      const shown = label !== undefined && label !== '' ? linkText(l) : linkDisplay(target);
      // [[#frag]] is a link within the page; [[This page#frag]] is an ordinary link (not a self-link).
      if (r.title!.ns === this.req.title.ns && r.title!.dbkey === this.req.title.dbkey && r.fragment && decodeHtml(l.target).trim().startsWith('#')) {
        const href = `#${fragmentHref(r.fragment, this.fragmentMode[0]!)}`;
        out.push(
          this.hold(
            `${this.parsoid ? `<a rel="mw:WikiLink" href="./${escapeAttr(wikiUrlencode(this.prefixedKey(r.title!)))}${escapeAttr(href)}">` : `<a href="${escapeAttr(href)}">`}${shown}${trail}</a>`,
          ),
        );
        continue;
      }
      out.push(this.hold(`${this.linkOpen(r.title!, r.fragment ?? '')}${shown}${trail}</a>`));
    }
    out.push(text.slice(pos, to));
    return out.join('');
  }

  /**
   * Parser::getExternalLinkAttribs: rel="nofollow" unless $wgNoFollowLinks is off or the host is
   * a $wgNoFollowDomainExceptions one, and $wgExternalLinkTarget, which (unless it names this
   * window) also gets noreferrer noopener: a new window could navigate its opener.
   */
  private externalLinkAttrs(url: string): { rel: string; target?: string } {
    let rel = (this.site.noFollowLinks ?? true) && !matchesDomainList(url, this.site.noFollowDomainExceptions ?? ['mediawiki.org']) ? 'nofollow' : '';
    const target = this.site.externalLinkTarget;
    if (!target) return { rel };
    if (!['_self', '_parent', '_top'].includes(target)) rel = rel ? `${rel} noreferrer noopener` : 'noreferrer noopener';
    return { rel, target };
  }

  /** An external link's opening attributes as Linker::makeExternalLink orders them: target, rel, then class and href. */
  private externalOpen(href: string): string {
    if (this.parsoid) return ' rel="mw:ExtLink nofollow"';
    const x = this.externalLinkAttrs(href);
    return `${x.target ? ` target="${escapeAttr(x.target)}"` : ''}${x.rel ? ` rel="${x.rel}"` : ''}`;
  }

  /** External links `[url text]` and free URLs. */
  private replaceExternal(text: string): string {
    // Parsoid mode: a template whose output starts a link's target (`[{{fullurl:A}} text]`) left
    // its markers around the URL; the link is made of the URL (its target is an expanded
    // attribute, not a transclusion of its own) rather than shown as a bracketed free URL.
    if (this.parsoid) text = text.replace(MARKED_LINK_TARGET_RE, '[$2');
    text = replaceExternalLinks(text, (rawUrl, rawLabel) => {
      let url = rawUrl;
      let label = rawLabel;
      // `<` and `>` (escaped by now) end the URL; the rest goes before the label.
      const lt = /&(?:lt|gt);/.exec(url);
      if (lt) {
        label = `${url.slice(lt.index)} ${label}`;
        url = url.slice(0, lt.index);
      }
      const href = cleanUrl(url);
      this.noteExternal(href);
      const open = this.externalOpen(href);
      if (label === '') {
        this.autonumber++;
        return `${this.hold(`<a${open} class="external autonumber" href="${escapeAttr(href)}">`)}[${this.autonumber}]</a>`;
      }
      return `${this.hold(`<a${open} class="external text" href="${escapeAttr(href)}">`)}${label}</a>`;
    });
    let out = '';
    let pos = 0;
    // No </a> after this offset: an unclosed <a> or held opener is then skipped alone.
    let noCloseAfter = Number.POSITIVE_INFINITY;
    FREE_URL_RE.lastIndex = 0;
    for (let m = FREE_URL_RE.exec(text); m; m = FREE_URL_RE.exec(text)) {
      const anchor = m[1] !== undefined || (m[2] !== undefined && /^<a\s[^>]*>$/.test(this.holders[Number(m[2])] ?? ''));
      if (anchor) {
        // A link's label is not searched for URLs (MediaWiki skips `<a …>…</a>`).
        const close = m.index >= noCloseAfter ? -1 : text.indexOf('</a>', FREE_URL_RE.lastIndex);
        if (close === -1) noCloseAfter = Math.min(noCloseAfter, m.index);
        else FREE_URL_RE.lastIndex = close + 4;
        continue;
      }
      if (m[3] === undefined) continue;
      out += text.slice(pos, m.index) + this.freeLink(m[3], m[4]!);
      pos = m.index + m[0].length;
    }
    return pos === 0 ? text : out + text.slice(pos);
  }

  /**
   * Parser::makeFreeExternalLink: a free URL's link and the text after it. `<`, `>` or a no-break
   * space ends the URL; trailing punctuation (and `)` when the URL has no `(`) is no part of it,
   * except the `;` of a reference; a URL left with nothing after its protocol is no link.
   */
  private freeLink(whole: string, afterProtocol: string): string {
    let url = whole;
    let trail = '';
    const end = FREE_URL_END_RE.exec(url);
    if (end) {
      trail = url.slice(end.index);
      url = url.slice(0, end.index);
    }
    const sep = url.includes('(') ? ',;\\.:!?' : ',;\\.:!?)';
    // Counted from the end: a pattern anchored at the end retried every position of a long run.
    let cut = url.length;
    while (cut > 0 && sep.includes(url[cut - 1]!)) cut--;
    if (cut < url.length && url[cut] === ';' && TRAILING_REF_RE.test(url.slice(url.lastIndexOf('&', cut), cut))) cut++;
    trail = url.slice(cut) + trail;
    url = url.slice(0, cut);
    // Byte lengths, as PHP's strlen.
    if (trail !== '' && Buffer.byteLength(trail) >= Buffer.byteLength(afterProtocol)) return whole;
    const href = cleanUrl(url);
    this.noteExternal(href);
    return `${this.hold(`<a${this.externalOpen(href)} class="external free" href="${escapeAttr(href)}">`)}${escapeHtml(href)}</a>${trail}`;
  }

  private noteExternal(url: string): void {
    this.externalLinks.add(url);
  }

  /** Inline wikitext (captions, reference bodies): everything but paragraphs and sections. */
  renderInline(text: string): string {
    let t = removeHtmlTags(text, this.fragmentMode[0]);
    t = this.replaceLinks(t);
    t = doQuotes(t);
    t = this.replaceExternal(t);
    return t;
  }

  /** Block wikitext without headings numbering: tables, lists and paragraphs (reference bodies with lists). */
  private renderBlock(text: string): string {
    let t = removeHtmlTags(text, this.fragmentMode[0]);
    t = doTables(t);
    t = this.replaceLinks(t);
    t = doQuotes(t);
    t = this.replaceExternal(t);
    return doBlockLevels(t, { parsoid: this.parsoid })
      .replaceAll(STRAY_CLOSE_MARK, '')
      .replace(/^<p>([\s\S]*?)\n?<\/p>\n?$/, '$1');
  }

  private renderStrip(item: StripItem): string {
    switch (item.name) {
      case 'nowiki': {
        const text = normalizeEntities((item.content ?? '').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
        // Parsoid marks escaped text, so html→wikitext writes the <nowiki> back.
        return this.parsoid ? `<span typeof="mw:Nowiki">${text}</span>` : text;
      }
      case 'pre':
        return `<pre${sanitizeAttributes(
          'pre',
          // The attributes as written: decodeTagAttributes folds whitespace before it decodes
          // references (a line break stays only as &#10;).
          /^<pre(\s[^>]*?)?\/?>/i.exec(item.src)?.[1] ??
            Object.entries(item.attrs)
              .map(([k, v]) => `${k}="${v}"`)
              .join(' '),
        )}${this.extensionAttrs(item)}>${normalizeEntities(
          (item.content ?? '')
            .replace(/<nowiki>([\s\S]*?)<\/nowiki>/gi, '$1')
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;'),
        )}</pre>`;
      case 'ref':
      case 'references':
        return renderCite(this.cite, item, (wt) => this.unstripAll(this.renderBlock(wt)), this.parsoid);
      case 'gallery':
        return this.renderGallery(item);
      case 'indicator':
        return '';
      default:
        return escapeHtml(item.src);
    }
  }

  /** Parsoid's typeof and data-mw of an extension tag whose body is kept as source (extsrc). */
  private extensionAttrs(item: StripItem): string {
    if (!this.parsoid) return '';
    const inner = /^<[^>]*>([\s\S]*)<\/[^>]*>$/.exec(item.src)?.[1];
    return ` typeof="mw:Extension/${escapeAttr(item.name)}" data-mw='${jsonAttr({ name: item.name, attrs: item.attrs, ...(inner !== undefined ? { body: { extsrc: inner } } : {}) })}'`;
  }

  /** The file a gallery line names (Parser::renderImageGallery: percent-decoded, File: by default). */
  private galleryLineTitle(line: string): TitleRef | undefined {
    const m = /^([^|]+)(\|(.*))?$/.exec(line);
    if (!m) return undefined;
    let target = m[1]!;
    if (line.includes('%')) {
      try {
        target = decodeURIComponent(target);
      } catch {
        /* kept as written */
      }
    }
    return this.exp.parseTitle(target.trim(), NS_FILE);
  }

  /**
   * `<gallery>` as Parser::renderImageGallery and TraditionalImageGallery::toHTML (legacy DOM)
   * build it: a list of boxes sized by the mode's arithmetic (media.ts galleryLayout).
   */
  private renderGallery(item: StripItem): string {
    const a = item.attrs;
    const mode = GALLERY_MODES.has((a.mode ?? '').trim().toLowerCase()) ? (a.mode ?? '').trim().toLowerCase() : 'traditional';
    const size = (v: string | undefined, d: number) => {
      const w = v === undefined ? undefined : parseWidthParam(v, false).width;
      return w !== undefined && w > 0 ? w : d;
    };
    const widths = size(a.widths, 120);
    const heights = size(a.heights, 120);
    const layout = galleryLayout(mode, widths, heights);
    const perRow = mode === 'traditional' || mode === 'nolines' ? Math.trunc(Number(a.perrow ?? 0)) || 0 : 0;
    // The <ul>'s own attributes (Sanitizer::validateTagAttributes), its classes after ours.
    const attrs = new Map<string, string>();
    const raw = Object.entries(a)
      .map(([k, v]) => `${k}="${v.replaceAll('"', '&quot;')}"`)
      .join(' ');
    for (const m of sanitizeAttributes('ul', raw).matchAll(/ ([^=\s]+)="([^"]*)"/g)) attrs.set(m[1]!, m[2]!);
    const classes = ['gallery', `mw-gallery-${mode}`, ...(attrs.get('class') ?? '').split(/\s+/).filter(Boolean)];
    attrs.delete('class');
    if (perRow > 0) attrs.set('style', `max-width: ${perRow * (widths + layout.allPadding)}px;${attrs.get('style') ?? ''}`);
    if (mode === 'slideshow') attrs.set('data-showthumbnails', a.showthumbnails !== undefined ? '1' : '');
    let out = `<ul class="${[...new Set(classes)].join(' ')}"${[...attrs].map(([k, v]) => ` ${k}="${v}"`).join('')}${this.extensionAttrs(item)}>`;
    if (a.caption !== undefined) out += `\n\t<li class="gallerycaption">${this.unstripAll(this.renderInline(a.caption))}</li>`;
    for (const line of (item.content ?? '').split('\n')) {
      const m = /^([^|]+)(\|(.*))?$/.exec(line);
      const t = this.galleryLineTitle(line);
      if (!m || !t) continue;
      const img = t.ns === NS_FILE ? this.files.get(t.dbkey) : undefined;
      if (t.ns === NS_FILE) this.images.add(t.dbkey);
      let label = '';
      let alt: string | undefined;
      let link: ImageLink = { kind: 'description' };
      for (const part of m[3] === undefined ? [] : splitParams(m[3].trim())) {
        const opt = matchImageOption(part);
        if (opt?.kind === 'alt') alt = this.plainText(this.renderInline(opt.value));
        else if (opt?.kind === 'link') {
          const l = this.imageLink(this.plainText(this.renderInline(opt.value)));
          if (l) link = l;
          if (l?.kind === 'url') this.noteExternal(l.url);
        } else label = part;
      }
      const labelHtml = label ? this.unstripAll(this.renderInline(label)) : '';
      const labelText = label ? this.plainText(labelHtml) : '';
      const nameText = t.dbkey.replaceAll('_', ' ');
      let thumbHtml: string;
      let shown: Transformed | undefined;
      const legacy = this.legacyMedia;
      // The new media DOM: what stands for a missing or bad file is Linker::makeBrokenImageLinkObj's, sized as the thumb was asked.
      const broken = (html: string) => `<span typeof="mw:Error mw:File">${html}</span>`;
      if (img && canRender(img) && this.isBadFile(t.dbkey)) {
        const html = legacy ? this.knownFileLink(t, nameText) : broken(this.knownFileLink(t, '', brokenMedia(this.prefixed(t), layout.thumbBox)));
        thumbHtml = `\n\t\t\t<div class="thumb" style="height: ${layout.thumbPadding + heights}px;">${html}</div>`;
      } else if (!img || !canRender(img)) {
        if (!img) {
          this.exp.trackingCategories.add('Pages with broken file links');
          this.addCategory('Pages_with_broken_file_links', '');
        }
        const html = legacy ? escapeHtml(nameText) : broken(img ? this.knownFileLink(t, '', brokenMedia(this.prefixed(t), layout.thumbBox)) : this.brokenImageLink(t, '', layout.thumbBox));
        thumbHtml = `\n\t\t\t<div class="thumb" style="height: ${layout.thumbPadding + heights}px;">${html}</div>`;
      } else {
        shown = transform(img, layout.thumbBox.width, layout.thumbBox.height);
        const tag = imgTag(shown, {
          alt: alt ?? (labelText || nameText),
          title: link.kind === 'none' && legacy ? labelText : '',
          ...layout.override(shown),
          srcset: srcset(img, shown, layout.thumbBox.width, layout.thumbBox.height),
        });
        const linked = this.unstripAll(this.imageAnchor(t, link, labelText, tag));
        const divWidth = phpFloat(layout.thumbDivWidth(shown.width));
        thumbHtml = legacy
          ? `\n\t\t\t<div class="thumb" style="width: ${divWidth}px;"><div style="margin:${phpFloat(layout.vpad(shown.height))}px auto;">${linked}</div></div>`
          : `\n\t\t\t<div class="thumb" style="width: ${divWidth}px;${mode === 'traditional' ? ` height: ${layout.thumbPadding + heights}px;` : ''}"><span typeof="mw:File">${linked}</span></div>`;
      }
      const caption =
        a.showfilename !== undefined
          ? `<a href="${escapeAttr(this.pageHref(t))}" class="galleryfilename galleryfilename-truncate" title="${escapeAttr(this.prefixed(t))}">${escapeHtml(nameText)}</a>\n${labelHtml}`
          : labelHtml;
      const text =
        mode === 'packed-overlay' || mode === 'packed-hover'
          ? caption.trim() === ''
            ? ''
            : `\n\t\t\t<div class="gallerytextwrapper" style="width: ${Math.ceil(layout.gbWidth(shown?.width) - layout.thumbPadding - 2 - 20)}px"><div class="gallerytext">\n${caption}\n\t\t\t</div></div>`
          : `\n\t\t\t<div class="gallerytext">\n${caption}\n\t\t\t</div>`;
      const gb = `${phpFloat(layout.gbWidth(shown?.width))}px`;
      out += legacy
        ? `\n\t\t<li class="gallerybox" style="width: ${gb}"><div style="width: ${gb}">${thumbHtml}${text}\n\t\t</div></li>`
        : `\n\t\t<li class="gallerybox" style="width: ${gb}">${thumbHtml}${text}\n\t\t</li>`;
    }
    return `${out}\n</ul>`;
  }

  private unstripAll(text: string, nowiki = true): string {
    let prev: string;
    let depth = 0;
    do {
      prev = text;
      text = text.replace(STRIP_RE, (all, n: string) => {
        const item = this.exp.strip[Number(n)];
        if (!nowiki && item?.name === 'nowiki') return all;
        return item ? this.renderStrip(item) : '';
      });
      text = text.replace(/\x7fL(\d+)\x7f/g, (_a, n: string) => this.holders[Number(n)] ?? '');
      depth++;
    } while (text !== prev && depth < 20);
    return text;
  }

  private doHeadings(text: string): string {
    for (let level = 6; level >= 1; level--) {
      const eq = '='.repeat(level);
      const re = new RegExp(`^((?:\\x7fH\\d+\\x7f)?)${eq}(.+)${eq}\\s*$`, 'gm');
      text = text.replace(re, (_a, mark: string, inner: string) => `<h${level}>${mark}${inner}</h${level}>`);
    }
    return text;
  }

  private sectionsOut: SectionInfo[] = [];
  private showToc = false;

  /** Parser::finalizeHeadings: anchors, numbering, edit links and the table of contents. */
  private formatHeadings(text: string): string {
    const headingRe = /<h([1-6])>([\s\S]*?)<\/h\1>/g;
    const matches = [...text.matchAll(headingRe)];
    // Without headings a __TOC__ mark stays until after the paragraph pass, as MediaWiki's
    // placeholder does (a line starting with it is no <pre>).
    if (matches.length === 0) return text;
    // Parser::finalizeHeadings' $refers: ids given so far, case-insensitively; a repeat gets the first free _2, _3…
    const refers = new Set<string>();
    // Where each id's search for a free number resumes: ids are only added, so the numbers below
    // it stay taken, and a page of identical headings costs linear time, not quadratic.
    const nextFree = new Map<string, number>();
    const unique = (id: string) => {
      const key = asciiLower(id);
      if (!refers.has(key)) {
        refers.add(key);
        return '';
      }
      let i = nextFree.get(key) ?? 2;
      while (refers.has(`${key}_${i}`)) i++;
      refers.add(`${key}_${i}`);
      nextFree.set(key, i + 1);
      return `_${i}`;
    };
    const levelCount: number[] = [];
    const sublevelCount: number[] = [];
    let toclevel = 0;
    let prevLevel = 0;
    let tocLines = '';
    let prevToclevel = 0;
    const editable = this.req.editSections !== false && !this.switches.has('NOEDITSECTION');
    let out = '';
    let pos = 0;
    let firstHeadingAt = -1;
    for (const m of matches) {
      const level = Number(m[1]);
      let inner = m[2]!;
      const hm = /^\x7fH(\d+)\x7f/.exec(inner);
      const src = hm ? this.exp.headings[Number(hm[1])] : undefined;
      inner = inner.replace(HEADING_RE, '').trim();
      if (level > prevLevel) {
        toclevel++;
        sublevelCount[toclevel] = 0;
        levelCount[toclevel] = level;
      } else if (level < prevLevel && toclevel > 1) {
        let i = toclevel;
        for (; i > 0; i--) {
          if (levelCount[i] === level) {
            toclevel = i;
            break;
          } else if ((levelCount[i] ?? 0) < level) {
            toclevel = i + 1;
            break;
          }
        }
        if (i === 0) toclevel = 1;
      }
      prevLevel = level;
      sublevelCount[toclevel] = (sublevelCount[toclevel] ?? 0) + 1;
      const number = sublevelCount.slice(1, toclevel + 1).join('.');
      // Without the markers of transclusions (parsoid mode), which become elements at the end:
      // inside the id attribute one broke out of its quotes.
      const htmlText = stripTransclusionMarkers(this.unstripAll(inner));
      const plain = decodeHtml(stripTags(htmlText)).trim();
      const name = plain.replace(/[\t\n\f\r ]+/g, ' ');
      const [mode, fallbackMode] = this.fragmentMode;
      let anchor = escapeIdAs(name, mode!);
      let fallback = fallbackMode ? escapeIdAs(name, fallbackMode) : undefined;
      if (fallback === anchor) fallback = undefined;
      const suffix = unique(anchor);
      anchor += suffix;
      const linkAnchor = escapeIdForLinkAs(name, mode!) + suffix;
      if (fallback !== undefined) fallback += unique(fallback);
      // Parser::formatHeadings' TOC line: only span, sup, sub, bdi, i, b, s, strike and q stay, without
      // attributes but a span's dir; an empty span (an extra anchor) goes.
      const line = htmlText
        .replace(/<(?!\/?(?:span|sup|sub|bdi|i|b|s|strike|q)(?: [^>]*)?>).*?>/g, '')
        .replace(/<(\/?(?:span(?: dir="(?:rtl|ltr)")?|sup|sub|bdi|i|b|s|strike|q))(?: .*?)?>/g, '<$1>')
        .replaceAll('<span></span>', '')
        .trim();
      const index = src?.index ?? '';
      this.sectionsOut.push({
        toclevel,
        level,
        line,
        number,
        index,
        fromtitle: src ? src.fromtitle.replaceAll(' ', '_') : null,
        byteoffset: src ? src.byteoffset : null,
        anchor,
      });
      // TOC lines nest as MediaWiki's Linker::tocIndent/tocUnindent.
      if (toclevel > prevToclevel && prevToclevel > 0) tocLines += '\n<ul>\n';
      else if (toclevel < prevToclevel) tocLines += `</li>\n${'</ul>\n</li>\n'.repeat(prevToclevel - toclevel)}`;
      else if (prevToclevel > 0) tocLines += '</li>\n';
      tocLines += `<li class="toclevel-${toclevel}${index ? ` tocsection-${index}` : ''}"><a href="#${escapeAttr(linkAnchor)}"><span class="tocnumber">${number}</span> <span class="toctext">${line}</span></a>`;
      prevToclevel = toclevel;
      out += text.slice(pos, m.index);
      if (firstHeadingAt === -1) firstHeadingAt = out.length;
      pos = m.index + m[0].length;
      if (this.parsoid) {
        const sec = src && !src.index.startsWith('T') ? src.index : '-1';
        out += `<h${level} id="${escapeAttr(anchor)}" data-mw-section="${sec}">${inner}</h${level}>`;
        continue;
      }
      let edit = '';
      if (editable && src) {
        const owner = src.index.startsWith('T') ? src.fromtitle.replaceAll(' ', '_') : this.prefixedKey(this.req.title);
        const href = `/w/index.php?title=${wikiUrlencode(owner)}&action=edit&section=${src.index}`;
        edit = `<span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="${escapeAttr(href)}" title="${escapeAttr(`Edit section: ${plain}`)}">edit</a><span class="mw-editsection-bracket">]</span></span>`;
      }
      const fallbackSpan = fallback === undefined ? '' : `<span id="${escapeAttr(fallback)}"></span>`;
      out += `<h${level}>${fallbackSpan}<span class="mw-headline" id="${escapeAttr(anchor)}">${inner}</span>${edit}</h${level}>`;
    }
    out += text.slice(pos);
    if (prevToclevel > 0) tocLines += `</li>\n${'</ul>\n</li>\n'.repeat(prevToclevel - 1)}`;
    const enoughHeadings = matches.length >= 4;
    this.showToc = !this.switches.has('NOTOC') && (enoughHeadings || this.switches.has('FORCETOC') || this.switches.has('TOC'));
    if (this.showToc && !this.parsoid) {
      const toc = `<div id="toc" class="toc" role="navigation" aria-labelledby="mw-toc-heading"><input type="checkbox" role="button" id="toctogglecheckbox" class="toctogglecheckbox" style="display:none" /><div class="toctitle" lang="en" dir="ltr"><h2 id="mw-toc-heading">Contents</h2><span class="toctogglespan"><label class="toctogglelabel" for="toctogglecheckbox"></label></span></div>\n<ul>\n${tocLines}</ul>\n</div>\n`;
      if (out.includes(`${MARK}TOC${MARK}`)) out = out.replace(`${MARK}TOC${MARK}`, toc);
      else out = out.slice(0, firstHeadingAt) + toc + out.slice(firstHeadingAt);
    }
    return out.replaceAll(`${MARK}TOC${MARK}`, '');
  }

  private doubleUnderscore(text: string): string {
    let tocPlaced = false;
    return text.replace(DOUBLE_UNDERSCORE_RE, (all, written: string) => {
      const upper = written.toUpperCase();
      // Most switches are case-insensitive magic words in MessagesEn; the rest only in capitals.
      if (written !== upper && !CASE_INSENSITIVE_SWITCHES.has(upper)) return all;
      const name = SWITCH_ALIASES[upper] ?? upper;
      this.switches.add(name);
      // Every switch is a page property (Parser::handleDoubleUnderscore), named by its magic word.
      this.exp.properties[SWITCH_PROPS[name] ?? name.toLowerCase()] = '';
      // Parsoid keeps the switch in the document as a meta element.
      if (this.parsoid) return this.hold(`<meta property="mw:PageProp/${name.toLowerCase()}"/>`);
      // The first __TOC__ marks where the table of contents goes.
      if (name !== 'TOC' || tocPlaced) return '';
      tocPlaced = true;
      return `${MARK}TOC${MARK}`;
    });
  }

  private displayTitle(): string {
    const t = this.req.title;
    const main = escapeHtml(t.dbkey.replaceAll('_', ' '));
    const nsName = this.codec.namespaces.get(t.ns)?.name ?? '';
    const standard = nsName
      ? `<span class="mw-page-title-namespace">${escapeHtml(nsName)}</span><span class="mw-page-title-separator">:</span><span class="mw-page-title-main">${main}</span>`
      : `<span class="mw-page-title-main">${main}</span>`;
    const custom = this.exp.properties.displaytitle;
    if (custom === undefined) return standard;
    const html = this.unstripAll(this.renderInline(custom));
    const asTitle = this.exp.parseTitle(decodeHtml(stripTags(html)));
    if (!asTitle || asTitle.ns !== t.ns || asTitle.dbkey !== t.dbkey) {
      this.exp.warn(`Display title "${decodeHtml(stripTags(html))}" was ignored since it is not equivalent to the page's actual title.`);
      this.exp.trackingCategories.add('Pages with ignored display titles');
      delete this.exp.properties.displaytitle;
      return standard;
    }
    this.exp.properties.displaytitle = html;
    return html;
  }

  private limitReport(started: number, cpuStart: number): RenderResult['limits'] {
    const x = this.exp;
    const wall = (performance.now() - started) / 1000;
    const cpu = (process.cpuUsage().user - cpuStart) / 1e6;
    const total = [...x.timing.values()].reduce((a, b) => a + b.ms, 0);
    const wallMs = performance.now() - started;
    const profile = [...x.timing.entries()]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 10)
      .map(([name, t]) => `${((t.ms / Math.max(total, 1e-9)) * 100).toFixed(2).padStart(6)}% ${t.ms.toFixed(3).padStart(8)} ${String(t.calls).padStart(6)} ${name}`);
    profile.push(`100.00% ${total.toFixed(3).padStart(8)} ${String(1).padStart(6)} -total`);
    void wallMs;
    return {
      ppVisitedNodes: x.nodes,
      postExpandIncludeSize: x.includeSize,
      templateArgumentSize: x.argSize,
      expansionDepth: Math.max(1, x.maxDepthSeen),
      expensiveFunctions: x.expensive,
      unstripSize: 0,
      cpuSeconds: Math.max(0, cpu),
      wallSeconds: wall,
      timingProfile: profile,
      volatile: x.volatile,
      ttl: x.volatile ? 3600 : 86400,
    };
  }

  async run(): Promise<RenderResult & { parsoidBody?: string; expanded?: string }> {
    const started = performance.now();
    const cpuStart = process.cpuUsage().user;
    const x = this.exp;
    const redirect = redirectTarget(this.codec, this.req.text);
    const expanded = await x.expandPage(this.req.text);
    if (this.req.expandOnly) {
      const limits = this.limitReport(started, cpuStart);
      return { ...this.emptyResult(limits), html: expanded, expanded };
    }
    await this.prefetch([expanded, ...x.strip.map((s) => s.content ?? '')]);
    let t = removeHtmlTags(expanded, this.fragmentMode[0]);
    if (this.parsoid) t = moveTransclusionMarkers(t);
    t = doTables(t);
    t = t.replace(/^----+/gm, '<hr />');
    t = this.doubleUnderscore(t);
    t = this.doHeadings(t);
    t = this.replaceLinks(t);
    t = doQuotes(t);
    t = this.replaceExternal(t);
    t = this.formatHeadings(t);
    // Extension output and held links go in before paragraphs are made (Parser::internalParseHalfParsed
    // unstrips "general" items first); <nowiki> stays protected until after.
    t = this.unstripAll(t, false);
    t = doBlockLevels(t, { parsoid: this.parsoid }).replaceAll(STRAY_CLOSE_MARK, '').replaceAll(`${MARK}TOC${MARK}`, '');
    // References used without <references/> are listed at the end, as Cite does.
    const leftovers = citeLeftovers(this.cite, this.parsoid);
    if (leftovers) {
      x.strip.push({ name: 'references', attrs: {}, content: undefined, src: '<references/>' });
      t += leftovers;
    }
    if (this.cite.hadError) x.trackingCategories.add(CITE_ERROR_CATEGORY);
    t = tidyText(this.unstripAll(t), !this.parsoid);
    if (redirect) {
      const target = { ns: redirect.ns, dbkey: redirect.dbkey };
      const open = this.linkOpen(target, redirect.fragment);
      // The link shows the target's full text, fragment included (Title::getFullText).
      const box = `<div class="redirectMsg"><p>Redirect to:</p><ul class="redirectText"><li>${this.unstripAll(open)}${escapeHtml(this.prefixed(target) + (redirect.fragment ? `#${redirect.fragment}` : ''))}</a></li></ul></div>`;
      // The redirect line itself is not content: Parsoid shows only its link element.
      const rest = t.replace(/^<p>#REDIRECT[\s\S]*?<\/p>\n?|^<ol><li>REDIRECT[\s\S]*?<\/li><\/ol>\n?/i, '');
      t = this.parsoid ? `<link rel="mw:PageProp/redirect" href="${escapeAttr(this.pageHref(target, redirect.fragment))}"/>${rest}` : `${box}${rest}`;
    }
    const displayTitle = this.displayTitle();
    for (const c of x.trackingCategories) this.addCategory(c.replaceAll(' ', '_'), '');
    const limits = this.limitReport(started, cpuStart);
    const result: RenderResult & { parsoidBody?: string } = {
      html: '',
      links: [...this.links.values()],
      templates: [...x.templatesUsed.values()].map((tpl) => ({ ns: tpl.ns, dbkey: tpl.dbkey, exists: tpl.exists })),
      categories: [...this.categories.values()],
      images: [...this.images],
      externalLinks: [...this.externalLinks],
      langLinks: this.langLinks,
      interwikiLinks: this.iwLinks,
      sections: this.sectionsOut,
      showToc: this.showToc,
      displayTitle: removeUnsafeAttributes(displayTitle),
      properties: x.properties,
      warnings: x.warnings,
      limits,
      ...(redirect ? { redirect: { ns: redirect.ns, dbkey: redirect.dbkey, fragment: redirect.fragment } } : {}),
    };
    if (this.parsoid) {
      result.parsoidBody = removeUnsafeAttributes(toParsoidBody(t, x.transclusions));
      return result;
    }
    const report = this.req.limitReport === false ? '' : `\n${limitReportComment(limits, this.req.now ?? new Date())}`;
    const wrap = this.req.wrapClass ?? 'mw-parser-output';
    if (this.req.codeLanguage) {
      // Html::element escapes & and < only.
      t = `<pre class="mw-code mw-${this.req.codeLanguage}" dir="ltr">\n${this.req.text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}\n</pre>\n`;
      result.sections = [];
      result.showToc = false;
    }
    // The output stage: whatever any pass built, no attribute leaves with a refused URL or handler.
    result.html = removeUnsafeAttributes(wrap ? `<div class="${escapeAttr(wrap)}">${t}${report}</div>` : `${t}${report}`);
    return result;
  }

  private emptyResult(limits: RenderResult['limits']): RenderResult {
    for (const c of this.exp.trackingCategories) this.categories.set(c.replaceAll(' ', '_'), { dbkey: c.replaceAll(' ', '_'), sortkey: '', exists: false });
    return {
      html: '',
      links: [],
      templates: [...this.exp.templatesUsed.values()],
      categories: [...this.categories.values()],
      images: [],
      externalLinks: [],
      langLinks: [],
      interwikiLinks: [],
      sections: [],
      showToc: false,
      displayTitle: '',
      properties: this.exp.properties,
      warnings: this.exp.warnings,
      limits,
    };
  }
}

/**
 * `[url label]` links, each replaced by `link(url, label)`, as one global lazy pattern would:
 * the URL as long as it goes, the spaces after it, then the label to the first `]`. The first
 * `]` or control character after a position is looked up once for all the links that share it.
 */
function replaceExternalLinks(text: string, link: (url: string, label: string) => string): string {
  let out = '';
  let pos = 0;
  let labelEnd = -1;
  EXT_LINK_OPEN_RE.lastIndex = 0;
  for (let m = EXT_LINK_OPEN_RE.exec(text); m; m = EXT_LINK_OPEN_RE.exec(text)) {
    const labelStart = m.index + m[0].length;
    if (labelEnd < labelStart) {
      EXT_LINK_LABEL_END_RE.lastIndex = labelStart;
      labelEnd = EXT_LINK_LABEL_END_RE.exec(text)?.index ?? text.length;
    }
    if (text[labelEnd] !== ']') {
      // No label ends on this line: not a link; a shorter URL or fewer spaces would not end it either.
      EXT_LINK_OPEN_RE.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(pos, m.index) + link(m[1]!, text.slice(labelStart, labelEnd));
    pos = labelEnd + 1;
    EXT_LINK_OPEN_RE.lastIndex = pos;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

/** A link without a label shows its target as written: leading spaces and the escaping colon dropped, nothing trimmed. */
function linkDisplay(target: string): string {
  return escapeHtml(decodeCharReferences(target.replace(/^ +/, '').replace(/^:/, '')));
}

/** A link's target as Parser::handleInternalLinks2 reads it: %XX decoded, `<` and `>` then as references. */
function linkTarget(raw: string): string {
  return raw.includes('%') ? rawurldecode(raw).replaceAll('<', '&lt;').replaceAll('>', '&gt;') : raw;
}

/** PHP's rawurldecode: %XX sequences as UTF-8 bytes. */
function rawurldecode(s: string): string {
  return s.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'));
}

/**
 * Sanitizer::escapeIdForExternalInterwiki in $wgExternalInterwikiFragmentMode's default 'legacy'
 * mode: PHP's urlencode with `%` as `.` and `:` kept.
 */
function legacyFragment(id: string): string {
  return [...Buffer.from(id.replaceAll(' ', '_'), 'utf8')]
    .map((b) => (/[A-Za-z0-9_.-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : b === 0x3a ? ':' : `.${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

/**
 * An interwiki link's URL and title (Title::getFullURL, getFragmentForURL): a leading colon after
 * the prefix is dropped, the fragment goes after the URL, and a URL left with an empty query (the
 * other wiki's main page) loses its `?`, as wfExpandUrl reassembles it.
 */
function interwikiTarget(prefix: string, rest: string): { url: string; title: string } {
  const hash = rest.indexOf('#');
  const base = (hash >= 0 ? rest.slice(0, hash) : rest).trim().replace(/^:\s*/, '');
  const fragment = hash >= 0 ? rest.slice(hash + 1) : '';
  let url = INTERWIKI[prefix]!.url.replace('$1', wikiUrlencode(base.replaceAll(' ', '_')));
  if (base === '') url = url.replace(/\?$/, '');
  if (fragment) url += `#${legacyFragment(fragment)}`;
  return { url, title: base.replaceAll('_', ' ') };
}

/** Drops the whitespace at the end of text kept as pieces (String.trimEnd across them). */
function trimEndPieces(pieces: string[]): void {
  while (pieces.length > 0) {
    const last = pieces[pieces.length - 1]!.trimEnd();
    if (last !== '') {
      pieces[pieces.length - 1] = last;
      return;
    }
    pieces.pop();
  }
}

const FRENCH_SPACE_BEFORE_RE = / (?=[?:;!%»›](?![\p{L}\p{N}\p{Mn}\p{Pc}]))/gu;
const FRENCH_SPACE_AFTER_RE = /([«‹]) /gu;

/**
 * What tidying's serializer (RemexCompatFormatter) does to the text between tags:
 * Sanitizer::normalizeCharReferences and, in the legacy output, Sanitizer::armorFrenchSpaces
 * (a space before ? : ; ! % » › not followed by a word character, or after « ‹, is a no-break
 * space); it wraps bare inline content of the body in paragraphs (pWrap) and marks an empty paragraph, list item or row with mw-empty-elt.
 */
function tidyText(html: string, legacy: boolean): string {
  let out = legacy ? pWrap(html).replace(/<(p|li|tr)>([\t\n\f\r ]*)<\/\1>/g, '<$1 class="mw-empty-elt">$2</$1>') : html;
  const entities = out.includes('&');
  if (!entities && !legacy) return out;
  out = out.replace(/(<!--[\s\S]*?-->|<[^>]*>)|[^<]+/g, (all, markup: string | undefined) => {
    if (markup !== undefined) return markup;
    let text = entities ? normalizeCharReferences(all) : all;
    // Remex's serializer writes a no-break space as a reference.
    if (legacy) text = text.replaceAll('\u00a0', '&#160;');
    if (legacy && text.includes(' ')) text = text.replace(FRENCH_SPACE_BEFORE_RE, '&#160;').replace(FRENCH_SPACE_AFTER_RE, '$1&#160;');
    return text;
  });
  return out;
}

/** Sanitizer::escapeIdForLink: html5 fragments with spaces as underscores and a %XX kept literal as %25XX; legacy ones dot-encoded. */
function fragmentHref(fragment: string, mode: FragmentMode): string {
  if (mode === 'legacy') return escapeIdAs(fragment, mode);
  return fragment.replaceAll(' ', '_').replace(/%([0-9A-Fa-f]{2})/g, '%25$1');
}

/** PHP's strtolower: ASCII letters only (two headings differing in other letters' case keep their ids). */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());

function stripTransclusionMarkers(s: string): string {
  return s.replace(TRANSCLUSION_OPEN_RE, '').replace(TRANSCLUSION_CLOSE_RE, '');
}

/** Parsoid's canonical key of an image option (its optList `ck`). */
function imageOptionKind(v: string): string {
  if (/^(?:thumb|thumbnail)$/.test(v)) return 'thumbnail';
  if (/^(?:frame|framed|enframed)$/.test(v)) return 'framed';
  if (/^(?:frameless|left|right|center|none|border|baseline|middle|sub|super|top|text-top|bottom|text-bottom)$/.test(v)) return v;
  if (/^\d*(?:x\d+)?\s*px$/.test(v)) return 'width';
  const key = /^(upright|link|alt|page|lang|class)(?:=|$)/.exec(v);
  return key ? key[1]! : 'caption';
}

/** Image parameters split at '|' outside nested links. */
function splitParams(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s.startsWith('[[', i)) {
      depth++;
      cur += '[[';
      i++;
    } else if (s.startsWith(']]', i) && depth > 0) {
      depth--;
      cur += ']]';
      i++;
    } else if (s[i] === '|' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += s[i];
  }
  out.push(cur);
  return out;
}

/**
 * Parsoid mode: a transclusion marker at the start of a line would hide the line's block syntax
 * (`*`, `{|`, `=`…) from the passes that look for it, so it moves behind that syntax.
 */
function moveTransclusionMarkers(text: string): string {
  return text.replace(/^((?:\x7f\/?T\d+\x7f)+)([*#:;]+ ?|\{\||\|\}|\|-|\||!|=+|\x7fH\d+\x7f=+| )/gm, '$2$1');
}

function ts14(d: Date): string {
  return d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** The "NewPP limit report" comment action=parse shows. */
export function limitReportComment(l: RenderResult['limits'], now: Date): string {
  return [
    '<!-- ',
    'NewPP limit report',
    `Cached time: ${ts14(now)}`,
    `Cache expiry: ${l.ttl}`,
    `Reduced expiry: ${l.volatile}`,
    'Complications: []',
    `CPU time usage: ${l.cpuSeconds.toFixed(3)} seconds`,
    `Real time usage: ${l.wallSeconds.toFixed(3)} seconds`,
    `Preprocessor visited node count: ${l.ppVisitedNodes}/${LIMITS.maxNodes}`,
    `Post\u2010expand include size: ${l.postExpandIncludeSize}/${LIMITS.maxIncludeSize} bytes`,
    `Template argument size: ${l.templateArgumentSize}/${LIMITS.maxArgSize} bytes`,
    `Highest expansion depth: ${l.expansionDepth}/${LIMITS.maxDepth}`,
    `Expensive parser function count: ${l.expensiveFunctions}/${LIMITS.maxExpensive}`,
    'Unstrip recursion depth: 0/20',
    `Unstrip post\u2010expand size: ${l.unstripSize}/${LIMITS.maxUnstripSize} bytes`,
    '-->',
    '<!--',
    'Transclusion expansion time report (%,ms,calls,template)',
    ...l.timingProfile,
    '-->',
    '',
  ].join('\n');
}

/** action=parse's limitreportdata. */
export function limitReportData(l: RenderResult['limits'], now: Date): Record<string, unknown>[] {
  return [
    { name: 'limitreport-cputime', 0: l.cpuSeconds.toFixed(3) },
    { name: 'limitreport-walltime', 0: l.wallSeconds.toFixed(3) },
    { name: 'limitreport-ppvisitednodes', 0: l.ppVisitedNodes, 1: LIMITS.maxNodes },
    { name: 'limitreport-postexpandincludesize', 0: l.postExpandIncludeSize, 1: LIMITS.maxIncludeSize },
    { name: 'limitreport-templateargumentsize', 0: l.templateArgumentSize, 1: LIMITS.maxArgSize },
    { name: 'limitreport-expansiondepth', 0: l.expansionDepth, 1: LIMITS.maxDepth },
    { name: 'limitreport-expensivefunctioncount', 0: l.expensiveFunctions, 1: LIMITS.maxExpensive },
    { name: 'limitreport-unstrip-depth', 0: 0, 1: 20 },
    { name: 'limitreport-unstrip-size', 0: l.unstripSize, 1: LIMITS.maxUnstripSize },
    { name: 'limitreport-timingprofile', ...Object.fromEntries(l.timingProfile.map((p, i) => [i, p])) },
    { name: 'cachereport-timestamp', 0: ts14(now) },
    { name: 'cachereport-ttl', 0: l.ttl },
    { name: 'cachereport-transientcontent', 0: l.volatile },
  ];
}

export async function renderWikitext(codec: TitleCodec, lookup: PageLookup, req: RenderRequest, site: SiteInfo) {
  return new Renderer(codec, lookup, req, site).run();
}
