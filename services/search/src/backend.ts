/*
 * The one interface both engines implement (engines/sql.ts, engines/meilisearch.ts). Engines
 * store and match documents; query parsing, namespace defaults and redirect resolution are done
 * once above them (search.ts).
 */
import type { ParsedQuery } from './query/parser.js';

/** A page as indexed: its current title, redirect target and latest text. */
export interface IndexDoc {
  pageId: number;
  namespace: number;
  /** Prefixed title text: "Talk:Foo bar". */
  title: string;
  /** Title text without the namespace: "Foo bar". */
  titleText: string;
  isRedirect: boolean;
  /** Prefixed title text of the redirect target; "" when not a redirect. */
  redirectTitle: string;
  size: number;
  wordCount: number;
  text: string;
  touched: Date;
  created: Date;
}

export type SortOrder = 'relevance' | 'last_edit_desc' | 'last_edit_asc' | 'create_timestamp_desc' | 'create_timestamp_asc' | 'title_natural_asc' | 'title_natural_desc';

export interface MatchOptions {
  /** undefined: every namespace. */
  namespaces: number[] | undefined;
  /** 'title': every positive literal must match the title. */
  field: 'all' | 'title';
  sort: SortOrder;
  limit: number;
  offset: number;
  snippets: boolean;
  /** Exact (case-insensitive) title of the query: ranked first under relevance. */
  exactTitle: string;
  /** false: the caller reads no total, the engine may skip counting (`total` is then a lower bound). */
  countTotal?: boolean;
}

/** A document that matched, with its snippets (HTML, `<span class='searchmatch'>` around matches). */
export interface Match {
  doc: Omit<IndexDoc, 'text'>;
  score: number;
  snippet: string;
  titleSnippet: string;
}

export interface MatchPage {
  matches: Match[];
  total: number;
  /**
   * The engine's feed cursor in the snapshot the matches were read from, when the engine reads
   * both at once (SQL): the query role then checks freshness after the search instead of before it.
   */
  indexedThrough?: number;
}

/**
 * A new index being filled beside the live one (rebuild.ts): written through `target` while the
 * live index keeps answering, then swapped in.
 */
export interface IndexRebuild {
  readonly target: Pick<SearchBackend, 'apply'>;
  /** Makes the new index the live one; the engine's cursor becomes `position` (a new generation). */
  swap(position: number): Promise<void>;
  /** Drops the new index (a rebuild that failed). */
  abort(): Promise<void>;
}

export interface SearchBackend {
  readonly engine: 'sql' | 'meilisearch';
  /**
   * True when `apply` writes to the service's own database: the indexer then runs it in one
   * transaction with the cursor advance. Otherwise it applies first and advances after
   * (at-least-once; `apply` is idempotent).
   */
  readonly transactional: boolean;
  /** True when `match` reads the engine's feed cursor with the matches (MatchPage.indexedThrough). */
  readonly cursorWithMatches?: boolean;
  /** Creates or updates the index settings. */
  init(): Promise<void>;
  /** Upserts documents and deletes page ids; idempotent. */
  apply(upserts: IndexDoc[], deletes: number[]): Promise<void>;
  match(query: ParsedQuery, opts: MatchOptions): Promise<MatchPage>;
  /**
   * Title prefix match, `prefix` without namespace, its case kept (as MediaWiki's page_title LIKE,
   * the caller capitalises the first letter as titles are); sorted by title.
   */
  complete(prefix: string, namespaces: number[] | undefined, limit: number, offset: number): Promise<Omit<IndexDoc, 'text'>[]>;
  /** Documents by prefixed title, case-insensitive (redirect targets, nearmatch). */
  byTitles(titles: string[]): Promise<Omit<IndexDoc, 'text'>[]>;
  /** Every indexed page id (tests and consistency checks). */
  count(): Promise<number>;
  /** Opens an empty index beside this one for a rebuild. */
  startRebuild(): Promise<IndexRebuild>;
  close(): Promise<void>;
}

/** Words of a text, as MediaWiki's wordcount counts them (runs of letters and digits). */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0;
}

/** htmlspecialchars with ENT_QUOTES, as MediaWiki escapes snippets. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

export const MATCH_OPEN = "<span class='searchmatch'>";
export const MATCH_CLOSE = '</span>';
