/*
 * The query role: parses the wiki's search syntax, applies namespace defaults, asks the engine,
 * and answers redirect hits with their targets. Stateless: any number of replicas.
 */
import type { CompleteTitlesRequest, CompleteTitlesResponse, SearchHit, SearchPagesRequest, SearchPagesResponse, TitleMatch } from '@quire/proto/wiki/search/v1/search';
import { invalidArgument } from '@quire/kit';
import type { IndexDoc, Match, SearchBackend, SortOrder } from './backend.js';
import { isEmptyQuery, parseQuery, type NamespaceLookup } from './query/parser.js';
import { mediaWikiSnippet } from './snippet.js';

type Doc = Omit<IndexDoc, 'text'>;

const SORTS: Record<string, SortOrder> = {
  '': 'relevance',
  relevance: 'relevance',
  just_match: 'relevance',
  none: 'relevance',
  incoming_links_asc: 'relevance',
  incoming_links_desc: 'relevance',
  last_edit_asc: 'last_edit_asc',
  last_edit_desc: 'last_edit_desc',
  create_timestamp_asc: 'create_timestamp_asc',
  create_timestamp_desc: 'create_timestamp_desc',
  title_natural_asc: 'title_natural_asc',
  title_natural_desc: 'title_natural_desc',
};

const MAX_LIMIT = 5000;

function checkPaging(limit: number, offset: number): void {
  if (limit < 1 || limit > MAX_LIMIT) throw invalidArgument('badvalue', `limit must be between 1 and ${MAX_LIMIT}.`);
  if (offset < 0) throw invalidArgument('badvalue', 'offset must be >= 0.');
}

/** Language::ucfirst: the first character (code point) upper-cased. */
export function upperFirst(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const ch = String.fromCodePoint(first);
  return ch.toUpperCase() + s.slice(ch.length);
}

/** Splits "Talk:Fo" into a namespace and the rest when the prefix names a namespace. */
export function splitNamespace(text: string, lookup: NamespaceLookup): { ns?: number; rest: string } {
  const i = text.indexOf(':');
  if (i <= 0) return { rest: text };
  const ns = lookup(text.slice(0, i).trim().toLowerCase().replace(/_/g, ' '));
  return ns === undefined ? { rest: text } : { ns, rest: text.slice(i + 1).trimStart() };
}

function hitOf(doc: Doc, m?: Match): SearchHit {
  return {
    pageId: doc.pageId,
    namespace: doc.namespace,
    title: doc.title,
    size: doc.size,
    wordCount: doc.wordCount,
    timestamp: doc.touched.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    // Matching lines only, as MediaWiki's highlighter: nothing for a hit by its title only.
    snippet: m ? mediaWikiSnippet(m.snippet) : '',
    titleSnippet: m?.titleSnippet ?? '',
    redirectTitle: '',
    redirectSnippet: '',
    score: m?.score ?? 0,
  };
}

/** Read-your-writes (freshness.ts): what the query role asks before or after reading the index. */
export interface Freshness {
  /** Resolves once the index includes the writes committed before the call. */
  caughtUp(): Promise<void>;
  /** The change feed's head, read after the call began; undefined when unknown. */
  head(): Promise<number | undefined>;
  /** After a read of the index at cursor `through`: true when it missed writes and the index has them now (read again). */
  stale(head: number | undefined, through: number): Promise<boolean>;
}

/** No freshness check (tests of the engines alone). */
const ALWAYS_FRESH: Freshness = { caughtUp: async () => {}, head: async () => undefined, stale: async () => false };

export class SearchIndex {
  constructor(
    readonly backend: SearchBackend,
    private readonly namespaces: () => Promise<NamespaceLookup>,
    private readonly freshness: Freshness = ALWAYS_FRESH,
  ) {}

  private caughtUp(): Promise<void> {
    return this.freshness.caughtUp();
  }

  /** Targets of redirect docs, by lower-case prefixed title. */
  private async targetsOf(docs: Doc[]): Promise<Map<string, Doc>> {
    const titles = [...new Set(docs.filter((d) => d.isRedirect && d.redirectTitle !== '').map((d) => d.redirectTitle))];
    const targets = await this.backend.byTitles(titles);
    return new Map(targets.filter((t) => !t.isRedirect).map((t) => [t.title.toLowerCase(), t]));
  }

  async search(req: SearchPagesRequest): Promise<SearchPagesResponse> {
    const limit = req.limit || 10;
    checkPaging(limit, req.offset);
    const sort = SORTS[req.sort];
    if (sort === undefined) throw invalidArgument('badvalue', `Unknown sort order ${JSON.stringify(req.sort)}.`);
    // An engine that reads its feed cursor with its matches (SQL) is searched while the feed's
    // head is asked for, and compared after; another is waited for first.
    const afterwards = this.backend.cursorWithMatches === true && req.what !== 'nearmatch';
    const head = afterwards ? this.freshness.head() : undefined;
    head?.catch(() => undefined);
    const [lookup] = await Promise.all([this.namespaces(), afterwards ? undefined : this.caughtUp()]);
    const empty: SearchPagesResponse = { hits: [], totalHits: 0, suggestion: '', suggestionSnippet: '', rewrittenQuery: '', rewrittenQuerySnippet: '' };
    const parsed = parseQuery(req.query, lookup);
    const requested = req.namespaces.length > 0 ? req.namespaces : [0];
    const namespaces = parsed.namespaces === 'all' ? undefined : (parsed.namespaces ?? requested);

    if (req.what === 'nearmatch') {
      // SearchNearMatcher: the page whose prefixed title is the query, case-insensitively.
      const [doc] = await this.backend.byTitles([req.query.trim().replace(/_/g, ' ')]);
      return doc && req.offset === 0 ? { ...empty, hits: [hitOf(doc)], totalHits: 1 } : empty;
    }
    if (req.what !== '' && req.what !== 'text' && req.what !== 'title') throw invalidArgument('badvalue', `Unknown search field ${JSON.stringify(req.what)}.`);
    if (isEmptyQuery(parsed)) return empty;

    const match = () =>
      this.backend.match(parsed, {
        namespaces,
        field: req.what === 'title' ? 'title' : 'all',
        sort,
        limit,
        offset: req.offset,
        snippets: req.withSnippets,
        exactTitle: req.query.trim().replace(/_/g, ' '),
        countTotal: !req.withoutTotal,
      });
    let page = await match();
    if (head) {
      if (page.indexedThrough === undefined) {
        await this.caughtUp();
        page = await match();
      } else if (await this.freshness.stale(await head, page.indexedThrough)) page = await match();
    }
    // A hit on a redirect answers its target, once, with the redirect's title.
    const targets = await this.targetsOf(page.matches.map((m) => m.doc));
    const seen = new Set<number>();
    const hits: SearchHit[] = [];
    for (const m of page.matches) {
      if (!m.doc.isRedirect) {
        if (!seen.has(m.doc.pageId)) hits.push(hitOf(m.doc, m));
        seen.add(m.doc.pageId);
        continue;
      }
      const target = targets.get(m.doc.redirectTitle.toLowerCase());
      if (!target || seen.has(target.pageId)) continue;
      seen.add(target.pageId);
      hits.push({ ...hitOf(target), score: m.score, redirectTitle: m.doc.title, redirectSnippet: m.titleSnippet });
    }
    // Hits merged into their redirect targets are not counted twice.
    return { ...empty, hits, totalHits: Math.max(hits.length, page.total - (page.matches.length - hits.length)) };
  }

  async complete(req: CompleteTitlesRequest): Promise<CompleteTitlesResponse> {
    const limit = req.limit || 10;
    checkPaging(limit, req.offset);
    const [lookup] = await Promise.all([this.namespaces(), this.caughtUp()]);
    const text = req.prefix.replace(/_/g, ' ').trimStart();
    const { ns, rest } = splitNamespace(text, lookup);
    const namespaces = ns !== undefined ? [ns] : req.namespaces.length > 0 ? req.namespaces : [0];
    if (rest === '' && ns === undefined && text === '') return { matches: [], hasMore: false };
    // TitlePrefixSearch: the prefix as a title's text (its first letter capitalised, as the
    // namespaces capitalise titles), matched case-sensitively after it.
    const docs = await this.backend.complete(upperFirst(rest), namespaces, limit + 1, req.offset);
    const hasMore = docs.length > limit;
    const found = docs.slice(0, limit);
    if (!req.resolveRedirects) return { matches: found.map((d) => ({ pageId: d.pageId, namespace: d.namespace, title: d.title, redirectFrom: '' })), hasMore };
    const targets = await this.targetsOf(found);
    const seen = new Set<number>();
    const matches: TitleMatch[] = [];
    // A target that matched by its own title is listed as itself, not through its redirect.
    const direct = new Set(found.filter((d) => !d.isRedirect).map((d) => d.pageId));
    for (const d of found) {
      const target = d.isRedirect ? targets.get(d.redirectTitle.toLowerCase()) : d;
      if (d.isRedirect && target && direct.has(target.pageId)) continue;
      if (!target || seen.has(target.pageId)) continue;
      seen.add(target.pageId);
      matches.push({ pageId: target.pageId, namespace: target.namespace, title: target.title, redirectFrom: d.isRedirect ? d.title : '' });
    }
    return { matches, hasMore };
  }
}
