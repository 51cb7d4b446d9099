/*
 * Template expansion (MediaWiki's PPFrame): templates with named and positional parameters and
 * defaults, parser functions and magic words, with loop and depth guards and MediaWiki's
 * expansion limits. Extension tags become strip markers (rendered later, with the page), headings
 * get markers that carry their section index and byte offset, and in Parsoid mode every
 * top-level transclusion is bracketed by markers so the HTML can carry `typeof="mw:Transclusion"`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { MalformedTitleError, type TitleCodec } from '../title/codec.js';
import { NS_MAIN } from '../title/namespaces.js';
import { preprocess, type PNode, type Part, type TemplateNode } from './preprocess.js';
import { callFunction, isFunctionName, magicVariable, TITLE_MAGIC } from './functions.js';
import type { ExpansionHost, Frame } from './frame.js';
import type { FragmentMode } from './sanitizer.js';
import { RenderDeadlineExceeded, titleKey, type PageLookup, type RenderRequest, type TemplateSource, type TitleRef } from './types.js';
import { redirectTarget } from '../content/wikitext.js';

const NS_TEMPLATE_ID = 10;

export const LIMITS = {
  maxIncludeSize: 2_097_152,
  maxArgSize: 2_097_152,
  maxNodes: 1_000_000,
  maxDepth: 100,
  maxExpensive: 100,
  maxUnstripSize: 5_000_000,
  /**
   * Nested expansions (a template's name, an argument's name or value, a template's text: as
   * MediaWiki's $wgMaxPPExpandDepth counts PPFrame::expand calls). Deeper is the error MediaWiki
   * shows; `{{{` or `{{` nested thousands deep otherwise exhausted the stack, each level copying
   * the text of those inside it. Higher than MediaWiki's 100: this expander nests a little more
   * per template, and the template depth limit (maxDepth) comes first on real pages.
   */
  maxExpandNesting: 400,
};

/** Marker delimiters: DEL never survives the sanitizer, so wikitext cannot forge markers. */
export const MARK = '\x7f';
export const stripMarker = (n: number) => `${MARK}UNIQ${n}QINU${MARK}`;
export const STRIP_RE = /\x7fUNIQ(\d+)QINU\x7f/g;
export const HEADING_RE = /\x7fH(\d+)\x7f/g;
export const TRANSCLUSION_OPEN_RE = /\x7fT(\d+)\x7f/g;
export const TRANSCLUSION_CLOSE_RE = /\x7f\/T(\d+)\x7f/g;

export interface StripItem {
  name: string;
  attrs: Record<string, string>;
  /** Raw content (nowiki, pre…) or, for tags that parse their content, the expanded wikitext. */
  content: string | undefined;
  src: string;
}

export interface HeadingSource {
  index: string;
  fromtitle: string;
  byteoffset: number | null;
}

export interface TransclusionInfo {
  /** Parsoid's data-mw: the template target and its parameters, as written. */
  dataMw: unknown;
  /**
   * Parsoid's data-parsoid `pi` (parameter order and the whitespace around named parameters'
   * keys and values), when the parameters are not in the order and spacing data-mw implies.
   */
  paramInfo?: { k: string; named?: boolean; spc?: string[] }[];
}

export type { Frame } from './frame.js';

/** How many expand() calls the current one is inside (LIMITS.maxExpandNesting). */
const expandNesting = new AsyncLocalStorage<number>();

/** Nodes back to the wikitext they came from. */
export function nodesToWikitext(nodes: PNode[]): string {
  return nodes.map((x) => (typeof x === 'string' ? x : x.kind === 'heading' ? '' : x.src)).join('');
}

/** Extension tags whose content is wikitext, so templates in it expand with the page. */
const PARSED_EXT = new Set(['ref', 'references', 'gallery', 'poem']);

export function parseAttrs(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(/([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    out[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
    }
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
    return named[e.toLowerCase()] ?? all;
  });
}

export class Expander implements ExpansionHost {
  readonly strip: StripItem[] = [];
  readonly headings: HeadingSource[] = [];
  readonly transclusions: TransclusionInfo[] = [];
  /** Templates transcluded (for templatelinks and prop=templates), also missing ones. */
  readonly templatesUsed = new Map<string, TitleRef & { exists: boolean }>();
  readonly warnings: string[] = [];
  readonly trackingCategories = new Set<string>();
  readonly properties: Record<string, string> = {};
  readonly timing = new Map<string, { ms: number; calls: number }>();
  readonly existenceChecks = new Map<string, TitleRef>();
  nodes = 0;
  includeSize = 0;
  argSize = 0;
  maxDepthSeen = 0;
  expensive = 0;
  volatile = false;
  private readonly sourceCache = new Map<string, Promise<TemplateSource | undefined>>();
  private readonly treeCache = new Map<string, PNode[]>();
  private readonly existCache = new Map<string, Promise<boolean>>();

  constructor(
    readonly codec: TitleCodec,
    readonly lookup: PageLookup,
    readonly req: RenderRequest,
    /** fragmentMode: $wgFragmentMode's first mode ({{anchorencode:}}); html5 when unset. */
    readonly site: { name: string; server: string; now: Date; fragmentMode?: FragmentMode },
  ) {}

  get expandOnly(): boolean {
    return this.req.expandOnly === true;
  }

  get parsoid(): boolean {
    return this.req.mode === 'parsoid';
  }

  prefixed(t: TitleRef): string {
    return this.codec.prefixedText(t.ns, t.dbkey);
  }

  parseTitle(text: string, defaultNs = NS_MAIN): TitleRef | undefined {
    try {
      const t = this.codec.parse(text, defaultNs);
      return t.dbkey === '' ? undefined : { ns: t.ns, dbkey: t.dbkey };
    } catch (e) {
      if (e instanceof MalformedTitleError) return undefined;
      throw e;
    }
  }

  rootFrame(): Frame {
    return { title: this.req.title, args: new Map(), depth: 0, chain: new Set([titleKey(this.req.title)]), expanded: new Map() };
  }

  /** Expands the page's own text. */
  async expandPage(text: string): Promise<string> {
    const pp = preprocess(text, { include: false, headings: !this.expandOnly });
    this.nodes += pp.nodeCount;
    return this.expand(pp.nodes, this.rootFrame(), this.prefixed(this.req.title));
  }

  async expand(nodes: PNode[], frame: Frame, headingOwner?: string): Promise<string> {
    // Counted along each chain of calls (the parts of a template expand side by side, each
    // waiting on its own lookups: a count of all calls in progress would add those up).
    const nesting = expandNesting.getStore() ?? 0;
    if (nesting >= LIMITS.maxExpandNesting) {
      this.warn('Expansion depth limit exceeded', 'Pages where the expansion depth is exceeded');
      return '<span class="error">Expansion depth limit exceeded</span>';
    }
    return expandNesting.run(nesting + 1, () => this.expandNodes(nodes, frame, headingOwner));
  }

  private async expandNodes(nodes: PNode[], frame: Frame, headingOwner: string | undefined): Promise<string> {
    let out = '';
    for (const node of nodes) {
      this.nodes++;
      // On the service's thread nothing else can stop a long expansion: it checks the time itself.
      if ((this.nodes & 1023) === 0 && this.req.deadline !== undefined && Date.now() > this.req.deadline) throw new RenderDeadlineExceeded();
      if (this.nodes > LIMITS.maxNodes) {
        this.warn('The preprocessor node count limit was exceeded.', 'Pages where node count is exceeded');
        return out;
      }
      if (typeof node === 'string') out += node;
      else if (node.kind === 'tpl') out += await this.expandTemplate(node, frame);
      else if (node.kind === 'arg') out += await this.expandArg(node, frame);
      else if (node.kind === 'ext') out += await this.expandExt(node.name, node.attrs, node.inner, node.src, frame);
      else if (headingOwner !== undefined && !this.expandOnly) {
        const own = frame.depth === 0;
        this.headings.push({ index: own ? String(node.index) : `T-${node.index}`, fromtitle: headingOwner, byteoffset: own && node.byteOffset >= 0 ? node.byteOffset : null });
        out += `${MARK}H${this.headings.length - 1}${MARK}`;
      }
    }
    return out;
  }

  warn(text: string, category?: string): void {
    if (!this.warnings.includes(text)) this.warnings.push(text);
    if (category) this.trackingCategories.add(category);
  }

  async expandPart(part: Part | undefined, frame: Frame, trim = true): Promise<string> {
    if (!part) return '';
    const s = await this.expand(part.name ? [...part.name, '=', ...part.value] : part.value, frame);
    return trim ? s.trim() : s;
  }

  private async expandArg(node: { name: PNode[]; default?: PNode[]; src: string }, frame: Frame): Promise<string> {
    const name = (await this.expand(node.name, frame)).trim();
    const arg = frame.args.get(name);
    if (arg && frame.parent) {
      let v = frame.expanded.get(name);
      if (v === undefined) {
        v = await this.expand(arg.nodes, frame.parent);
        if (arg.named) v = v.trim();
        frame.expanded.set(name, v);
        this.argSize += Buffer.byteLength(v, 'utf8');
      }
      if (this.argSize > LIMITS.maxArgSize) {
        this.warn('Template argument size is too large', 'Pages where template include size is exceeded');
        return '';
      }
      return v;
    }
    if (node.default) return this.expand(node.default, frame);
    return `{{{${name}}}}`;
  }

  async expandExt(name: string, rawAttrs: string, inner: string | undefined, src: string, frame: Frame): Promise<string> {
    if (this.expandOnly) return src;
    let content = inner;
    if (inner !== undefined && PARSED_EXT.has(name)) {
      const pp = preprocess(inner, { include: false });
      this.nodes += pp.nodeCount;
      content = await this.expand(pp.nodes, frame);
    }
    this.strip.push({ name, attrs: parseAttrs(rawAttrs), content, src });
    return stripMarker(this.strip.length - 1);
  }

  /** Existence for #ifexist (an expensive function) and the like; also links the page. */
  async exists(t: TitleRef): Promise<boolean> {
    const key = titleKey(t);
    this.existenceChecks.set(key, t);
    let p = this.existCache.get(key);
    if (!p) {
      p = this.lookup.exist([t]).then((m) => m.has(key));
      this.existCache.set(key, p);
    }
    return p;
  }

  async source(t: TitleRef): Promise<TemplateSource | undefined> {
    const key = titleKey(t);
    let p = this.sourceCache.get(key);
    if (!p) {
      p = this.lookup.sources([t]).then((m) => m.get(key));
      this.sourceCache.set(key, p);
    }
    return p;
  }

  private async expandTemplate(node: TemplateNode, frame: Frame): Promise<string> {
    const started = performance.now();
    let titleText = (await this.expand(node.title, frame)).trim();
    // subst: only applies when saving (pre-save transform); elsewhere it stays literal text.
    if (/^subst:/i.test(titleText)) return `{{${titleText}${(await Promise.all(node.parts.map((p) => this.expandPart(p, frame, false)))).map((p) => `|${p}`).join('')}}}`;
    titleText = titleText.replace(/^safesubst:/i, '').trim();
    const colon = titleText.indexOf(':');
    const fname = colon >= 0 ? titleText.slice(0, colon).trim() : titleText;
    if (colon >= 0 && isFunctionName(fname)) {
      const first = titleText.slice(colon + 1).trim();
      return this.bracket(node, frame, await callFunction(this, fname, first, node.parts, frame));
    }
    if (colon >= 0 && TITLE_MAGIC.has(fname)) {
      // {{PAGENAME:Other page}}: the same word about another title; nothing for an invalid one.
      const other = this.parseTitle(titleText.slice(colon + 1).trim());
      return this.bracket(node, frame, other ? (magicVariable(this, fname, frame, other) ?? '') : '');
    }
    if (colon < 0 && node.parts.length === 0) {
      const v = magicVariable(this, titleText, frame);
      if (v !== undefined) return this.bracket(node, frame, v);
    }
    let msgnw = false;
    if (/^msgnw:/i.test(titleText)) {
      msgnw = true;
      titleText = titleText.slice(6);
    } else titleText = titleText.replace(/^(?:msg|raw):/i, '');
    const title = this.parseTitle(titleText.startsWith(':') ? titleText : titleText, NS_TEMPLATE_ID);
    if (!title) return this.literal(node, frame);
    return this.bracket(node, frame, await this.transclude(title, node, frame, msgnw), title, started);
  }

  /** The construct as text, with its parts expanded (MediaWiki shows unusable calls that way). */
  private async literal(node: TemplateNode, frame: Frame): Promise<string> {
    const parts = await Promise.all(node.parts.map((p) => this.expandPart(p, frame, false)));
    return `{{${await this.expand(node.title, frame)}${parts.map((p) => `|${p}`).join('')}}}`;
  }

  private async transclude(title: TitleRef, node: TemplateNode, frame: Frame, msgnw: boolean): Promise<string> {
    const key = titleKey(title);
    if (frame.chain.has(key)) {
      const name = this.prefixed(title);
      this.warn(`Template loop detected: [[${name}]]`, 'Pages with template loops');
      return `<span class="error">Template loop detected: [[${name}]]</span>`;
    }
    if (frame.depth + 1 > LIMITS.maxDepth) {
      this.warn('Expansion depth limit exceeded', 'Pages where the expansion depth is exceeded');
      return '<span class="error">Expansion depth limit exceeded</span>';
    }
    this.maxDepthSeen = Math.max(this.maxDepthSeen, frame.depth + 2);
    let src = await this.source(title);
    let target = title;
    // A template that redirects is followed once (MediaWiki's Parser::fetchTemplateAndTitle).
    if (src?.isRedirect) {
      const to = redirectTarget(this.codec, src.text);
      if (to) {
        this.templatesUsed.set(key, { ...title, exists: true });
        target = { ns: to.ns, dbkey: to.dbkey };
        src = await this.source(target);
      }
    }
    this.templatesUsed.set(titleKey(target), { ...target, exists: src !== undefined });
    if (!src) return `[[:${this.prefixed(title)}]]`;
    if (msgnw) return src.text.replace(/[{}[\]|=<>'*#:;~_&]/g, (c) => `&#${c.charCodeAt(0)};`);
    const args = new Map<string, { nodes: PNode[]; named: boolean }>();
    let pos = 0;
    for (const part of node.parts) {
      if (part.name) {
        const name = (await this.expand(part.name, frame)).trim();
        args.set(name, { nodes: part.value, named: true });
      } else {
        pos++;
        args.set(String(pos), { nodes: part.value, named: false });
      }
    }
    const tkey = titleKey(target);
    let tree = this.treeCache.get(tkey);
    if (!tree) {
      const pp = preprocess(src.text, { include: true, headings: true });
      this.nodes += pp.nodeCount;
      tree = pp.nodes;
      this.treeCache.set(tkey, tree);
    }
    const child: Frame = { title: target, args, parent: frame, depth: frame.depth + 1, chain: new Set([...frame.chain, tkey]), expanded: new Map() };
    this.maxDepthSeen = Math.max(this.maxDepthSeen, child.depth + 1);
    const out = await this.expand(tree, child, this.prefixed(target));
    const size = Buffer.byteLength(out, 'utf8');
    if (this.includeSize + size > LIMITS.maxIncludeSize) {
      this.warn('Post-expand include size is too large', 'Pages where template include size is exceeded');
      return `<!-- WARNING: template omitted, post-expand include size too large -->`;
    }
    this.includeSize += size;
    return out;
  }

  /** Parsoid's data-mw of a transclusion: target as written, parameters with their wikitext. */
  private dataMw(node: TemplateNode, target: TitleRef | undefined): TransclusionInfo {
    const params: Record<string, { wt: string }> = {};
    const paramInfo: NonNullable<TransclusionInfo['paramInfo']> = [];
    let pos = 0;
    for (const p of node.parts) {
      if (p.name) {
        const rawKey = nodesToWikitext(p.name);
        const rawValue = nodesToWikitext(p.value);
        const k = rawKey.trim();
        const wt = rawValue.trim();
        params[k] = { wt };
        const spc = [/^\s*/.exec(rawKey)![0], /\s*$/.exec(rawKey)![0], /^\s*/.exec(rawValue)![0], wt === '' ? '' : /\s*$/.exec(rawValue)![0]];
        paramInfo.push(spc.some((x) => x !== '') ? { k, named: true, spc } : { k, named: true });
      } else {
        params[String(++pos)] = { wt: nodesToWikitext(p.value) };
        paramInfo.push({ k: String(pos) });
      }
    }
    const wt = nodesToWikitext(node.title);
    const t = target ? { wt, href: `./${this.codec.prefixedDbKey(target.ns, target.dbkey)}` } : { wt, function: wt.split(':')[0]!.trim().toLowerCase() };
    const dataMw = { parts: [{ template: { target: t, params, i: 0 } }] };
    // data-mw's own key order (integer keys first) is the default; only other orders and spacing are recorded.
    const implied = Object.keys(params);
    const plain = paramInfo.every((pi, i) => pi.k === implied[i] && !pi.spc);
    return plain ? { dataMw } : { dataMw, paramInfo };
  }

  /**
   * Block syntax at the start of a template's output starts a new line (T2529); in Parsoid mode
   * a top-level transclusion is bracketed with markers for its data-mw.
   */
  private bracket(node: TemplateNode, frame: Frame, out: string, target?: TitleRef, started?: number): string {
    if (target && started !== undefined && frame.depth === 0) {
      const name = this.prefixed(target).replaceAll(' ', '_');
      const t = this.timing.get(name) ?? { ms: 0, calls: 0 };
      t.ms += performance.now() - started;
      t.calls++;
      this.timing.set(name, t);
    }
    if (!node.lineStart && /^(?:\{\||[:;#*])/.test(out)) out = `\n${out}`;
    if (!this.parsoid || frame.depth !== 0) return out;
    this.transclusions.push(this.dataMw(node, target));
    const n = this.transclusions.length - 1;
    return `${MARK}T${n}${MARK}${out}${MARK}/T${n}${MARK}`;
  }
}
