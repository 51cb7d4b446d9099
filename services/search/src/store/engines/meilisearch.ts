/*
 * The external engine: Meilisearch through its official client. Documents are pages (redirects
 * included, as in the SQL engine); title text ranks above the body (searchableAttributes order),
 * typos are tolerated, namespace and the lower-case title are filterable, timestamps sortable.
 * Snippets use Meilisearch's highlight and crop with placeholder tags, so the text can be
 * HTML-escaped before the <span class='searchmatch'> tags go in. Every write waits for its task,
 * so the indexer advances its cursor only once the change is searchable.
 *
 * What the wiki syntax maps to: words (all required: matchingStrategy "all"), "phrases" and
 * -negations natively; OR as one search per AND-group, merged by ranking score; intitle: restricts
 * the searched attributes to the title (for the whole group); word* becomes Meilisearch's own
 * prefix matching; prefix: is a `STARTS WITH` filter (the containsFilter experimental feature).
 */
import { Meilisearch, type Index, type SearchParams } from 'meilisearch';
import type { Db } from '@quire/kit';
import { resetCursor } from '../cursor.js';
import { escapeHtml, MATCH_CLOSE, MATCH_OPEN, type IndexRebuild, type IndexDoc, type Match, type MatchOptions, type MatchPage, type SearchBackend, type SortOrder } from '../../backend.js';
import type { Literal, ParsedQuery } from '../../query/parser.js';

interface MeiliDoc {
  id: number;
  namespace: number;
  title: string;
  title_text: string;
  title_lower: string;
  title_text_lower: string;
  is_redirect: boolean;
  redirect_title: string;
  size: number;
  word_count: number;
  body: string;
  touched: number;
  created: number;
}

const PRE = '\u0001';
const POST = '\u0002';
/** Meilisearch's task wait: generous, an index with many documents takes a while. */
const TASK_TIMEOUT_MS = 60_000;

const SORT: Record<SortOrder, string[] | undefined> = {
  relevance: undefined,
  last_edit_desc: ['touched:desc'],
  last_edit_asc: ['touched:asc'],
  create_timestamp_desc: ['created:desc'],
  create_timestamp_asc: ['created:asc'],
  title_natural_asc: ['namespace:asc', 'title_text_lower:asc'],
  title_natural_desc: ['namespace:desc', 'title_text_lower:desc'],
};

/** A filter string literal. */
const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function toDoc(d: MeiliDoc): Omit<IndexDoc, 'text'> {
  return {
    pageId: d.id,
    namespace: d.namespace,
    title: d.title,
    titleText: d.title_text,
    isRedirect: d.is_redirect,
    redirectTitle: d.redirect_title,
    size: d.size,
    wordCount: d.word_count,
    touched: new Date(d.touched),
    created: new Date(d.created),
  };
}

/** Highlighted text from Meilisearch (placeholder tags) → escaped HTML with searchmatch spans. */
function formatted(text: string | undefined): string {
  if (!text) return '';
  return escapeHtml(text).replaceAll(PRE, MATCH_OPEN).replaceAll(POST, MATCH_CLOSE);
}

function literalQuery(l: Literal): string {
  const text = l.kind === 'phrase' ? `"${l.text.replace(/"/g, '')}"` : l.text;
  return l.negated ? `-${text}` : text;
}

export class MeilisearchBackend implements SearchBackend {
  readonly engine = 'meilisearch';
  readonly transactional = false;
  private readonly client: Meilisearch;
  private readonly index: Index<MeiliDoc>;

  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
    private readonly indexUid: string,
    /** The service's database, where the engine's feed cursor is (a rebuild's swap resets it). */
    private readonly db?: Db,
  ) {
    this.client = new Meilisearch({ host: url, ...(apiKey ? { apiKey } : {}) });
    this.index = this.client.index<MeiliDoc>(indexUid);
  }

  async init(): Promise<void> {
    await this.client.updateExperimentalFeatures({ containsFilter: true });
    await this.client.createIndex(this.indexUid, { primaryKey: 'id' }).waitTask({ timeout: TASK_TIMEOUT_MS });
    await this.index
      .updateSettings({
        searchableAttributes: ['title_text', 'body'],
        displayedAttributes: ['*'],
        filterableAttributes: ['namespace', 'title_lower', 'title_text_lower', 'is_redirect'],
        sortableAttributes: ['touched', 'created', 'namespace', 'title_text_lower'],
        rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'],
        typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } },
      })
      .waitTask({ timeout: TASK_TIMEOUT_MS });
  }

  async apply(upserts: IndexDoc[], deletes: number[]): Promise<void> {
    if (deletes.length > 0) await this.index.deleteDocuments(deletes).waitTask({ timeout: TASK_TIMEOUT_MS });
    if (upserts.length === 0) return;
    const docs: MeiliDoc[] = upserts.map((d) => ({
      id: d.pageId,
      namespace: d.namespace,
      title: d.title,
      title_text: d.titleText,
      title_lower: d.title.toLowerCase(),
      title_text_lower: d.titleText.toLowerCase(),
      is_redirect: d.isRedirect,
      redirect_title: d.redirectTitle,
      size: d.size,
      word_count: d.wordCount,
      body: d.text,
      touched: d.touched.getTime(),
      created: d.created.getTime(),
    }));
    const task = await this.index.addDocuments(docs).waitTask({ timeout: TASK_TIMEOUT_MS });
    if (task.status !== 'succeeded') throw new Error(`Meilisearch task ${task.uid} ${task.status}: ${task.error?.message ?? ''}`);
  }

  private filters(query: ParsedQuery, namespaces: number[] | undefined): string[] {
    const f: string[] = [];
    if (namespaces) f.push(`namespace IN [${namespaces.join(', ')}]`);
    if (query.titlePrefix !== undefined) f.push(`title_lower STARTS WITH ${quote(query.titlePrefix.toLowerCase())}`);
    return f;
  }

  async match(query: ParsedQuery, opts: MatchOptions): Promise<MatchPage> {
    const groups = query.groups.length > 0 ? query.groups : [[]];
    const base: SearchParams = {
      filter: this.filters(query, opts.namespaces),
      matchingStrategy: 'all',
      showRankingScore: true,
      // Every group needs offset + limit hits for the merge to page correctly.
      offset: groups.length > 1 ? 0 : opts.offset,
      limit: groups.length > 1 ? opts.offset + opts.limit : opts.limit,
      ...(SORT[opts.sort] ? { sort: SORT[opts.sort] } : {}),
      ...(opts.snippets
        ? {
            attributesToHighlight: ['title'],
            attributesToCrop: ['body'],
            cropLength: 30,
            highlightPreTag: PRE,
            highlightPostTag: POST,
          }
        : {}),
    };
    const responses = await Promise.all(
      groups.map((g) =>
        this.index.search(g.map(literalQuery).join(' '), {
          ...base,
          ...(opts.field === 'title' || (g.length > 0 && g.every((l) => l.titleOnly || l.negated)) ? { attributesToSearchOn: ['title_text'] } : {}),
        }),
      ),
    );
    const byId = new Map<number, Match>();
    let total = 0;
    for (const r of responses) {
      total += r.estimatedTotalHits ?? r.hits.length;
      for (const h of r.hits) {
        const score = h._rankingScore ?? 0;
        const prev = byId.get(h.id);
        if (prev && prev.score >= score) continue;
        byId.set(h.id, {
          doc: toDoc(h),
          score: score + (h.title_text_lower === opts.exactTitle.toLowerCase() || h.title_lower === opts.exactTitle.toLowerCase() ? 100 : 0),
          snippet: formatted(h._formatted?.body),
          titleSnippet: formatted(h._formatted?.title),
        });
      }
    }
    let matches = [...byId.values()];
    if (opts.sort === 'relevance') matches.sort((a, b) => b.score - a.score);
    if (groups.length > 1) matches = matches.slice(opts.offset, opts.offset + opts.limit);
    return { matches, total };
  }

  async complete(prefix: string, namespaces: number[] | undefined, limit: number, offset: number): Promise<Omit<IndexDoc, 'text'>[]> {
    const filter = [`title_text_lower STARTS WITH ${quote(prefix.toLowerCase())}`];
    if (namespaces) filter.push(`namespace IN [${namespaces.join(', ')}]`);
    const r = await this.index.search('', { filter, sort: ['namespace:asc', 'title_text_lower:asc'], limit, offset });
    // The index filters without case; the prefix's own case is kept here.
    return r.hits.map(toDoc).filter((d) => d.titleText.startsWith(prefix));
  }

  async byTitles(titles: string[]): Promise<Omit<IndexDoc, 'text'>[]> {
    if (titles.length === 0) return [];
    const r = await this.index.search('', { filter: [`title_lower IN [${titles.map((t) => quote(t.toLowerCase())).join(', ')}]`], limit: titles.length * 2 });
    return r.hits.map(toDoc);
  }

  async count(): Promise<number> {
    return (await this.index.getStats()).numberOfDocuments;
  }

  /**
   * A second index (`<uid>-rebuild`, same settings) filled while this one answers; the swap is
   * Meilisearch's swapIndexes (atomic for searches), then the old documents, now under the
   * rebuild uid, are deleted. The cursor is reset after the swap: a batch the indexer applied to
   * the old index before it is applied again (its advance fails on the new generation).
   */
  async startRebuild(): Promise<IndexRebuild> {
    const db = this.db;
    if (!db) throw new Error('a Meilisearch rebuild needs the service database (the feed cursor)');
    const uid = `${this.indexUid}-rebuild`;
    const drop = async () => {
      const task = await this.client.deleteIndex(uid).waitTask({ timeout: TASK_TIMEOUT_MS });
      // index_not_found: nothing to drop.
      if (task.status !== 'succeeded' && task.error?.code !== 'index_not_found') throw new Error(`Meilisearch task ${task.uid} ${task.status}: ${task.error?.message ?? ''}`);
    };
    await drop();
    const target = new MeilisearchBackend(this.url, this.apiKey, uid);
    await target.init();
    return {
      target,
      swap: async (position) => {
        const task = await this.client.swapIndexes([{ indexes: [this.indexUid, uid], rename: false }]).waitTask({ timeout: TASK_TIMEOUT_MS });
        if (task.status !== 'succeeded') throw new Error(`Meilisearch swap task ${task.uid} ${task.status}: ${task.error?.message ?? ''}`);
        await resetCursor(db, db.schema, 'meilisearch', position);
        await drop();
      },
      abort: drop,
    };
  }

  async close(): Promise<void> {}
}
