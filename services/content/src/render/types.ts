/*
 * The renderer's contract: what it needs from the wiki (PageLookup, answered from the database by
 * the content service, also across a worker-thread boundary) and what it produces (RenderResult,
 * which feeds action=parse, the parser cache, the Parsoid-style HTML and the link tables).
 */

export interface TitleRef {
  ns: number;
  /** DB key (underscores), without the namespace prefix. */
  dbkey: string;
}

export const titleKey = (t: TitleRef) => `${t.ns}:${t.dbkey}`;

export interface PageFacts {
  pageId: number;
  isRedirect: boolean;
  revId: number;
}

export interface TemplateSource extends PageFacts {
  text: string;
}

export interface FileFacts {
  width: number;
  height: number;
  url: string;
  mime: string;
}

/** Everything the renderer asks the wiki. Titles the wiki does not have are absent from the maps. */
export interface PageLookup {
  /** Latest text of pages to transclude. */
  sources(titles: TitleRef[]): Promise<Map<string, TemplateSource>>;
  /** Existence of link targets (red links, `missing` categories, #ifexist). */
  exist(titles: TitleRef[]): Promise<Map<string, PageFacts>>;
  /** Uploaded files by DB key (without namespace). */
  files(names: string[]): Promise<Map<string, FileFacts>>;
}

export type OutputMode = 'legacy' | 'parsoid';

/**
 * A render on the service's own thread passed its deadline: template expansion stops at its next
 * node (a worker thread's render is stopped by ending its thread instead).
 */
export class RenderDeadlineExceeded extends Error {
  constructor() {
    super('the render passed its deadline');
  }
}

export interface RenderRequest {
  /** Milliseconds since the epoch after which template expansion stops (RenderDeadlineExceeded). */
  deadline?: number;
  text: string;
  title: TitleRef;
  /** 0 for text that is no saved page. */
  pageId: number;
  revId: number;
  /** ISO time of the revision (REVISIONTIMESTAMP…); the current time when unset. */
  revTimestamp?: string;
  /** The revision's author (REVISIONUSER); empty when the text is no saved revision. */
  revUser?: string;
  /** Used for CURRENT* magic words; defaults to the time of the render. */
  now?: Date;
  /** Only expand templates (action=expandtemplates): no HTML. */
  expandOnly?: boolean;
  /** Include mode: render as if transcluded (expandtemplates includecomments etc. do not apply). */
  mode?: OutputMode;
  /** Emit the wrapper and limit report of action=parse. */
  limitReport?: boolean;
  wrapClass?: string;
  /** Section edit links (action=parse shows them; previews too). */
  editSections?: boolean;
  /**
   * CSS or JavaScript ($wgTextModelsToParse): the text is parsed for its links and categories,
   * then the HTML is the code in a <pre> (CodeContentHandler), without sections.
   */
  codeLanguage?: 'css' | 'js';
}

export interface LinkRef extends TitleRef {
  exists: boolean;
}

export interface CategoryRef {
  dbkey: string;
  sortkey: string;
  exists: boolean;
}

export interface LangLink {
  lang: string;
  title: string;
  url: string;
}

export interface InterwikiLink {
  prefix: string;
  title: string;
  url: string;
}

export interface SectionInfo {
  toclevel: number;
  level: number;
  line: string;
  number: string;
  /** "1", or "T-1" for a heading from a template. */
  index: string;
  fromtitle: string | null;
  byteoffset: number | null;
  anchor: string;
}

export interface LimitReport {
  ppVisitedNodes: number;
  postExpandIncludeSize: number;
  templateArgumentSize: number;
  expansionDepth: number;
  expensiveFunctions: number;
  unstripSize: number;
  cpuSeconds: number;
  wallSeconds: number;
  timingProfile: string[];
  /** The output depends on the time or similar (magic words): cache it for less time. */
  volatile: boolean;
  ttl: number;
}

export interface RenderResult {
  /** action=parse's text (legacy parser HTML), or the expanded wikitext in expandOnly mode. */
  html: string;
  /** Parsoid-style body content (sections) for the REST html routes; only in parsoid mode. */
  links: LinkRef[];
  templates: LinkRef[];
  categories: CategoryRef[];
  images: string[];
  externalLinks: string[];
  langLinks: LangLink[];
  interwikiLinks: InterwikiLink[];
  sections: SectionInfo[];
  showToc: boolean;
  displayTitle: string;
  /** page_props: displaytitle, defaultsort, notoc, … */
  properties: Record<string, string>;
  warnings: string[];
  limits: LimitReport;
  redirect?: TitleRef & { fragment: string };
}
