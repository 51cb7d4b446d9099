/*
 * The default engine: PostgreSQL full-text search in the service's own schema (page_index,
 * migrations/002). Title words weigh A and body words B in one tsvector with a GIN index; the
 * parsed query becomes one to_tsquery expression (weights restrict intitle: to titles), snippets
 * come from ts_headline over the HTML-escaped text, and completion is a case-insensitive prefix
 * match on the title. It writes in the service's database, so the indexer applies a batch and
 * advances its cursor in one transaction.
 *
 * The most common searches, plain words by relevance, are answered from postings instead
 * (page_words, migrations/005: each word of a page with its score in the page, in an index by
 * word and score), so the top hits of a word on a tenth of the wiki are an index's first entries,
 * not every match's tsvector read and ranked.
 */
import { invalidArgument, type Db, type Queryable } from '@quire/kit';
import { lockCursor, readCursor, resetCursor } from '../cursor.js';
import { MATCH_CLOSE, MATCH_OPEN, type IndexRebuild, type IndexDoc, type Match, type MatchOptions, type MatchPage, type SearchBackend, type SortOrder } from '../../backend.js';
import type { Literal, ParsedQuery } from '../../query/parser.js';
import { highlightWords, learnSnippetWords, stemCandidates } from '../../snippet.js';
import { cannotMatch } from '../../stem.js';

const CONFIG = 'english';

/**
 * Characters that separate words, as in the index (migrations/003): outside MediaWiki's
 * SearchEngine::legalSearchChars().
 */
const WORD_SEPARATORS = /[^A-Za-z0-9_'.\u0080-\uFFFF-]+/g;

/**
 * A literal in to_tsquery syntax: quoted (so the parser normalizes it; separated words become a
 * phrase, "Parent/Child" matching the subpage), with :* and :A labels.
 */
function literalTsquery(l: Literal, titleOnly: boolean): string {
  const quoted = `'${l.text.replace(WORD_SEPARATORS, ' ').trim().replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const labels = (l.prefix ? '*' : '') + (titleOnly || l.titleOnly ? 'A' : '');
  return `${l.negated ? '!' : ''}${quoted}${labels ? `:${labels}` : ''}`;
}

/** The whole query as one to_tsquery text: AND groups joined by OR. */
export function toTsqueryText(q: ParsedQuery, titleOnly: boolean): string {
  return q.groups.map((g) => `(${g.map((l) => literalTsquery(l, titleOnly)).join(' & ')})`).join(' | ');
}

/** The index expression of the titles' words (migration 007: tsv's title part, migration 003). */
const TITLE_WORDS = `to_tsvector('${CONFIG}', regexp_replace(title_text, '[^A-Za-z0-9_''.\\u0080-\\uFFFF-]+', ' ', 'g'))`;

/** A query of titles only as a to_tsquery text for TITLE_WORDS: the words without the A label. */
export function titleTsqueryText(q: ParsedQuery): string {
  return toTsqueryText({ ...q, groups: q.groups.map((g) => g.map((l) => ({ ...l, titleOnly: false }))) }, false);
}

/** The SQL of HTML-escaping a text column (htmlspecialchars with ENT_QUOTES). */
function escapedSql(col: string): string {
  return `replace(replace(replace(replace(replace(${col}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#039;')`;
}

const SELECT_OPTS = `StartSel="${MATCH_OPEN}", StopSel="${MATCH_CLOSE}"`;
/** Short texts are shown whole (as MediaWiki's highlighter does); long ones as two fragments. */
const WHOLE_TEXT_MAX = 400;
const FRAGMENT_OPTS = `${SELECT_OPTS}, MaxFragments=2, MaxWords=25, MinWords=12, FragmentDelimiter=" ... "`;

const ORDER_BY: Record<SortOrder, string> = {
  relevance: 'score DESC, page_id',
  last_edit_desc: 'touched DESC, page_id DESC',
  last_edit_asc: 'touched, page_id',
  create_timestamp_desc: 'created DESC, page_id DESC',
  create_timestamp_asc: 'created, page_id',
  title_natural_asc: 'namespace, title_text COLLATE "C"',
  title_natural_desc: 'namespace DESC, title_text COLLATE "C" DESC',
};

/** Two words' best sums whose namespace is checked before the join is checked whole (matchByPostings). */
const PAIR_CANDIDATES = 200;
/** Pages whose postings are backfilled in one transaction (~100 postings a page). */
const BACKFILL_PAGES = 500;
/**
 * Below this size (the tables and their indexes; a new wiki's are ~1 MB of empty GIN and B-tree
 * pages) the planner's missing statistics cost nothing worth a VACUUM (ANALYZE) at start.
 */
const SMALL_TABLES_BYTES = 4 * 1024 * 1024;
/** Words whose lexemes are kept (query words, and the words of hits that may match one). */
const LEXEME_CACHE = 100_000;

/** A word the database lower-cases the same in every locale: ASCII letters but "I". */
const ASCII_LETTERS = /^[A-HJ-Za-z]+$/;

const DOC_COLUMNS = 'page_id, namespace, title, title_text, is_redirect, redirect_title, size, word_count, touched, created';

interface CursorRow {
  indexed_through: number | string | null;
}

interface DocRow {
  page_id: number;
  namespace: number;
  title: string;
  title_text: string;
  is_redirect: boolean;
  redirect_title: string;
  size: number;
  word_count: number;
  touched: Date;
  created: Date;
}

function toDoc(r: DocRow): Omit<IndexDoc, 'text'> {
  return {
    pageId: r.page_id,
    namespace: r.namespace,
    title: r.title,
    titleText: r.title_text,
    isRedirect: r.is_redirect,
    redirectTitle: r.redirect_title,
    size: r.size,
    wordCount: r.word_count,
    touched: r.touched,
    created: r.created,
  };
}

/** A count spelled into SQL: a non-negative safe integer, or the search is refused. */
function sqlInteger(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw invalidArgument('badvalue', `Not a count: ${n}.`);
  return n;
}

/** LIKE pattern of a literal prefix. */
export function likePrefix(s: string, keepCase = false): string {
  return `${(keepCase ? s : s.toLowerCase()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class SqlBackend implements SearchBackend {
  readonly engine = 'sql';
  readonly transactional = true;
  readonly cursorWithMatches = true;

  /** The table written and read: page_index, or page_index_new while a rebuild fills it. */
  private readonly table: string;
  /** Its postings: page_words, or page_words_new. */
  private readonly words: string;
  /**
   * Whether this engine vacuums and analyzes its tables itself: the database has no autovacuum
   * (the embedded one never; a server where it is turned off).
   */
  private ownVacuum = false;
  /** Rows written since the planner's statistics were last gathered (ownVacuum only). */
  private changedSinceAnalyze = 0;
  /** The table's row count when they were. */
  private analyzedRows = 0;
  /** Never analyzed: no statistics at all. */
  private unanalyzed = false;
  private analyzing = false;
  /** The postings' pages mostly not marked all-visible (never vacuumed). */
  private unvacuumed = false;
  /** A query word's lexemes (the stemming is fixed): one statement less for a word seen before. */
  private readonly lexemes = new Map<string, string[]>();
  /**
   * Whether every indexed page has its postings. False while the pages indexed before migration
   * 005 are backfilled (in the background): searches then rank as before, without postings.
   */
  private postingsComplete = false;

  constructor(
    private readonly db: Db,
    table = 'page_index',
  ) {
    this.table = `${db.schema}.${table}`;
    this.words = `${db.schema}.${table === NEW_TABLE ? NEW_WORDS : 'page_words'}`;
  }

  async init(): Promise<void> {
    // The table and its indexes are the service's migrations (002_page_index.sql).
    const pending = await this.db.query(`SELECT 1 FROM ${this.db.schema}.page_words_backfill`);
    if (pending.rows.length === 0) this.postingsComplete = true;
    else void this.backfillInBackground();
    // A server whose autovacuum is off never analyzes the postings either: after a bulk index
    // their plans had no statistics (two words 217 ms instead of ~8).
    this.ownVacuum = this.db.embedded || (await this.db.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0]?.autovacuum !== 'on';
    if (!this.ownVacuum) return;
    // An index never analyzed has no statistics (reltuples -1): the planner then filters every
    // row of the namespace instead of asking the GIN index. Gathered in the background.
    // Index-only scans of the postings (two words' join) need their pages marked all-visible,
    // VACUUM's work, which autovacuum does on a server: done here when most are not. A table of
    // a few pages (a new wiki's) needs neither yet: autovacuum's rule below takes over as it
    // grows, and a first start does not wait on a VACUUM of nothing.
    const r = await this.db.query<{ reltuples: number; bytes: number; pages: number; visible: number }>(
      `SELECT t.reltuples, pg_total_relation_size(t.oid) + pg_total_relation_size(w.oid) AS bytes, w.relpages AS pages, w.relallvisible AS visible
         FROM pg_class t, pg_class w WHERE t.oid = $1::regclass AND w.oid = $2::regclass`,
      [this.table, this.words],
    );
    const stats = r.rows[0];
    const rows = Number(stats?.reltuples ?? -1);
    if (stats && Number(stats.visible) < 0.9 * Number(stats.pages)) this.unvacuumed = true;
    this.unanalyzed = rows < 0 && Number(stats?.bytes ?? Infinity) > SMALL_TABLES_BYTES;
    this.analyzedRows = Math.max(0, rows);
    void this.analyzeIfStale();
  }

  /**
   * The backfill runs while the service answers (on 100,000 pages it takes minutes: before the
   * service answered, it held the whole wiki's start for 392 s); searches use postings once it is
   * done. A failure (the database restarting) is tried again.
   */
  private async backfillInBackground(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.backfillPostings();
        this.postingsComplete = true;
        return;
      } catch {
        await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * attempt)).unref());
      }
    }
  }

  /**
   * Postings for the pages indexed before migration 005, BACKFILL_PAGES a transaction (each
   * under the cursor's lock, so no indexer batch changes those pages meanwhile; a page the
   * indexer wrote since already has its postings). Once per database, whichever replica gets there.
   */
  private async backfillPostings(): Promise<void> {
    const s = this.db.schema;
    let filled = false;
    for (;;) {
      const done = await this.db.tx(async (q) => {
        await lockCursor(q, s, 'sql');
        const r = await q.query<{ through: string | number }>(`SELECT through FROM ${s}.page_words_backfill FOR UPDATE`);
        if (r.rows.length === 0) return true;
        const from = Number(r.rows[0]!.through);
        const next = await q.query<{ last: string | number | null }>(
          `SELECT max(page_id) AS last FROM (SELECT page_id FROM ${this.table} WHERE page_id > $1 ORDER BY page_id LIMIT ${BACKFILL_PAGES}) b`,
          [from],
        );
        const last = next.rows[0]?.last;
        if (last === null || last === undefined) {
          await q.query(`DELETE FROM ${s}.page_words_backfill`);
          return true;
        }
        await q.query(
          `INSERT INTO ${this.words} (word, page_id, namespace, score)
           SELECT u.lexeme, p.page_id, p.namespace, ${s}.posting_score(u.weights) FROM ${this.table} p, unnest(p.tsv) u
            WHERE p.page_id > $1 AND p.page_id <= $2 ON CONFLICT (page_id, word) DO NOTHING`,
          [from, last],
        );
        await q.query(`UPDATE ${s}.page_words_backfill SET through = $1`, [last]);
        return false;
      });
      if (done) break;
      filled = true;
    }
    // The planner's statistics of the filled table (autovacuum's work on a server).
    if (filled) await this.db.query(`ANALYZE ${this.words}`);
  }

  /**
   * Without autovacuum (the embedded database; a server with it off), VACUUM (ANALYZE) is done here, by
   * autovacuum's rule: once the rows written since the last one exceed 500 + 10 % of the table
   * (and at start when the postings were never vacuumed). Where autovacuum runs, it does this.
   */
  private async analyzeIfStale(): Promise<void> {
    if (this.analyzing || (!this.unanalyzed && !this.unvacuumed && this.changedSinceAnalyze <= 500 + 0.1 * this.analyzedRows)) return;
    this.analyzing = true;
    const counted = this.changedSinceAnalyze;
    try {
      await this.db.query(`VACUUM (ANALYZE) ${this.table}, ${this.words}`);
      this.unvacuumed = false;
      const r = await this.db.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE oid = $1::regclass`, [this.table]);
      this.analyzedRows = Math.max(0, Number(r.rows[0]?.reltuples ?? 0));
      this.unanalyzed = false;
      this.changedSinceAnalyze -= counted;
    } catch {
      // Tried again after the next batch (a rebuild may have dropped the table meanwhile).
    } finally {
      this.analyzing = false;
    }
  }

  async apply(upserts: IndexDoc[], deletes: number[]): Promise<void> {
    if (this.ownVacuum) {
      this.changedSinceAnalyze += upserts.length + deletes.length;
      this.db.onCommit(() => void this.analyzeIfStale());
    }
    // The row and its postings change together (joining the indexer's transaction). A page
    // indexed again keeps the postings whose score did not change: an edit changes a few of a
    // page's words, and replacing all of them (hundreds of rows in two indexes) was most of an
    // edit's indexing cost (16 -> 21 ms of CPU per edit of a growing page).
    await this.db.tx(async (q) => {
      if (deletes.length > 0) {
        await q.query(`DELETE FROM ${this.words} WHERE page_id = ANY($1::bigint[])`, [deletes]);
        await q.query(`DELETE FROM ${this.table} WHERE page_id = ANY($1::bigint[])`, [deletes]);
      }
      if (upserts.length === 0) return;
      await this.upsertRows(q, upserts);
      await q.query(
        `WITH fresh AS (
           SELECT u.lexeme AS word, p.page_id, p.namespace, ${this.db.schema}.posting_score(u.weights) AS score
             FROM ${this.table} p, unnest(p.tsv) u WHERE p.page_id = ANY($1::bigint[])
         ), old AS (
           SELECT word, page_id, namespace, score FROM ${this.words} WHERE page_id = ANY($1::bigint[])
         ), gone AS (
           DELETE FROM ${this.words} w USING (SELECT o.page_id, o.word FROM old o LEFT JOIN fresh f ON f.page_id = o.page_id AND f.word = o.word WHERE f.word IS NULL) g
            WHERE w.page_id = g.page_id AND w.word = g.word
         )
         INSERT INTO ${this.words} AS w (word, page_id, namespace, score)
         SELECT f.word, f.page_id, f.namespace, f.score FROM fresh f LEFT JOIN old o ON o.page_id = f.page_id AND o.word = f.word
          WHERE o.word IS NULL OR o.score IS DISTINCT FROM f.score OR o.namespace <> f.namespace
         ON CONFLICT (page_id, word) DO UPDATE SET score = EXCLUDED.score, namespace = EXCLUDED.namespace`,
        [upserts.map((d) => d.pageId)],
      );
    });
  }

  private async upsertRows(q: Queryable, upserts: IndexDoc[]): Promise<void> {
    await q.query(
      `INSERT INTO ${this.table} (page_id, namespace, title, title_text, is_redirect, redirect_title, size, word_count, body, touched, created)
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::boolean[], $6::text[], $7::int[], $8::int[], $9::text[], $10::timestamptz[], $11::timestamptz[])
       ON CONFLICT (page_id) DO UPDATE SET namespace = EXCLUDED.namespace, title = EXCLUDED.title, title_text = EXCLUDED.title_text,
         is_redirect = EXCLUDED.is_redirect, redirect_title = EXCLUDED.redirect_title, size = EXCLUDED.size,
         word_count = EXCLUDED.word_count, body = EXCLUDED.body, touched = EXCLUDED.touched, created = EXCLUDED.created`,
      [
        upserts.map((d) => d.pageId),
        upserts.map((d) => d.namespace),
        upserts.map((d) => d.title),
        upserts.map((d) => d.titleText),
        upserts.map((d) => d.isRedirect),
        upserts.map((d) => d.redirectTitle),
        upserts.map((d) => d.size),
        upserts.map((d) => d.wordCount),
        upserts.map((d) => d.text),
        upserts.map((d) => d.touched),
        upserts.map((d) => d.created),
      ],
    );
  }

  async match(query: ParsedQuery, opts: MatchOptions): Promise<MatchPage> {
    const words = await this.postingWords(query, opts);
    if (words) return this.matchByPostings(query, words, opts);
    const params: unknown[] = [];
    const param = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const where: string[] = [];
    let tsq = "''::tsquery";
    if (query.groups.length > 0) {
      tsq = `to_tsquery('${CONFIG}', ${param(toTsqueryText(query, opts.field === 'title'))})`;
      // A title search asks the titles' own index (migration 007: the same matches as tsv's
      // A-weighted lexemes), not every page with the words in its text.
      if (opts.field === 'title' || query.groups.every((g) => g.every((l) => l.titleOnly))) where.push(`${TITLE_WORDS} @@ to_tsquery('${CONFIG}', ${param(titleTsqueryText(query))})`);
      else where.push(`tsv @@ ${tsq}`);
    }
    if (query.titlePrefix !== undefined) where.push(`lower(title) LIKE ${param(likePrefix(query.titlePrefix))}`);
    if (opts.namespaces) where.push(`namespace = ANY(${param(opts.namespaces)}::int[])`);
    // Nothing to match: the answer depends on no page.
    if (where.length === 0) return { matches: [], total: 0, indexedThrough: Number.MAX_SAFE_INTEGER };
    // The cursor before the search: the search's snapshot is no older (read-your-writes, search.ts).
    const through = await readCursor(this.db, 'sql');
    const whereParams = params.length;
    const exact = param(opts.exactTitle.toLowerCase());
    const rank = query.groups.length > 0 ? `ts_rank_cd(tsv, ${tsq})` : '0';
    // Every match is ranked and counted, so the inner query carries only what the order needs
    // (a match's body through the window's spill cost more than its rank); the page of hits
    // then reads its rows, and the snippets are made for those only.
    const inner = `SELECT page_id, namespace, title_text, touched, created,
                          ${rank} + CASE WHEN lower(title_text) = ${exact} OR lower(title) = ${exact} THEN 100 ELSE 0 END AS score,
                          ${opts.countTotal === false ? '0' : 'count(*) OVER ()'} AS total
                     FROM ${this.table} WHERE ${where.join(' AND ')}
                    ORDER BY ${ORDER_BY[opts.sort]} LIMIT ${param(opts.limit)} OFFSET ${param(opts.offset)}`;
    let snippets = `'' AS snippet, '' AS title_snippet`;
    if (opts.snippets && query.groups.length > 0) {
      const whole = param(`HighlightAll=true, ${SELECT_OPTS}`);
      const fragments = param(FRAGMENT_OPTS);
      snippets = `CASE WHEN length(p.body) <= ${WHOLE_TEXT_MAX}
                       THEN ts_headline('${CONFIG}', ${escapedSql('p.body')}, ${tsq}, ${whole})
                       ELSE ts_headline('${CONFIG}', ${escapedSql('p.body')}, ${tsq}, ${fragments}) END AS snippet,
                  ts_headline('${CONFIG}', ${escapedSql('p.title')}, ${tsq}, ${whole}) AS title_snippet`;
    }
    const columns = DOC_COLUMNS.split(', ')
      .map((c) => `p.${c}`)
      .join(', ');
    const sql = `SELECT ${columns}, hits.score, hits.total, ${snippets}
                   FROM (${inner}) hits JOIN ${this.table} p ON p.page_id = hits.page_id
                  ORDER BY ${ORDER_BY[opts.sort].replace(/\b(score|page_id|touched|created|namespace|title_text)\b/g, 'hits.$1')}`;
    // The planner prices `tsv @@ query` on a sequential scan as one cheap operator call, but each
    // is a tsvector read from its row (TOAST): for a word in a tenth of 100,000 pages the scan
    // cost ten times the GIN index (2.4 s against 0.25 s). With a query, the index is used.
    const r = await (query.groups.length > 0
      ? this.db.tx(async (q) => {
          await q.query('SET LOCAL enable_seqscan = off');
          return q.query<DocRow & { score: number; total: number; snippet: string; title_snippet: string }>(sql, params);
        })
      : this.db.query<DocRow & { score: number; total: number; snippet: string; title_snippet: string }>(sql, params));
    const matches: Match[] = r.rows.map((row) => ({ doc: toDoc(row), score: row.score, snippet: row.snippet, titleSnippet: row.title_snippet }));
    // Past the last page the window count is unknown; count once.
    let total = opts.countTotal === false ? opts.offset + r.rows.length : (r.rows[0]?.total ?? 0);
    if (r.rows.length === 0 && opts.offset > 0 && opts.countTotal !== false) {
      const c = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.table} WHERE ${where.join(' AND ')}`, params.slice(0, whereParams));
      total = c.rows[0]!.n;
    }
    return { matches, total, indexedThrough: through };
  }

  /**
   * The query's words as the index's lexemes when postings can answer it: by relevance, one AND
   * group of plain words (no phrase, prefix, negation, intitle: or prefix: filter), each one
   * lexeme or a stop word (ignored, as to_tsquery does), not all stop words. Undefined otherwise.
   */
  private async postingWords(query: ParsedQuery, opts: MatchOptions): Promise<string[] | { raw: string } | undefined> {
    if (!this.postingsComplete) return undefined;
    if (opts.sort !== 'relevance' || opts.field !== 'all' || query.titlePrefix !== undefined || query.groups.length !== 1) return undefined;
    const group = query.groups[0]!;
    if (group.some((l) => l.kind !== 'word' || l.negated || l.prefix || l.titleOnly)) return undefined;
    const texts = group.map((l) => l.text.replace(WORD_SEPARATORS, ' ').trim());
    // One word not seen before whose lexeme is one plain word (the parser makes one token of
    // letters and digits): the search statement stems it itself (a statement less).
    if (texts.length === 1 && this.knownLexemes(texts[0]!) === undefined && /^[A-Za-z0-9]+$/.test(texts[0]!)) return { raw: texts[0]! };
    await this.learnLexemes(texts);
    const lexemes = texts.map((t) => this.knownLexemes(t) ?? []);
    // A stop word has no lexeme and to_tsquery drops it; a word the parser splits is a phrase.
    if (lexemes.some((l) => l.length > 1)) return undefined;
    const words = [...new Set(lexemes.flat())];
    return words.length > 0 ? words : undefined;
  }

  /**
   * Pages with every word, best first (score: the sum of the words' scores; the page titled as
   * the query first), in one statement with their docs, their texts for the snippets and the
   * index's feed cursor in the same snapshot (read-your-writes without a statement of its own):
   * a word alone is its postings index's first entries; two words, their postings joined; more,
   * the GIN index's intersection ranked.
   */
  private async matchByPostings(query: ParsedQuery, asked: string[] | { raw: string }, opts: MatchOptions): Promise<MatchPage> {
    // LIMIT and OFFSET are literals, not parameters: a generic plan assumes a LIMIT parameter
    // passes a tenth of the rows, so PostgreSQL planned these statements at every execution
    // (about 1 ms of the one embedded connection a search); with literals it keeps one
    // plan per statement text (a few: the limits clients use).
    const [limit, offset] = [sqlInteger(opts.limit), sqlInteger(opts.offset)];
    const want = limit + offset;
    const ns = opts.namespaces;
    const tsqText = toTsqueryText(query, false);
    const params: unknown[] = [];
    const param = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const tsq = `to_tsquery('${CONFIG}', ${param(tsqText)})`;
    const nsCond = (col: string) => (ns ? `AND ${col} = ANY(${param(ns)}::int[])` : '');
    const exactTitle = param(opts.exactTitle.toLowerCase());
    let hits: string;
    // The word's lexeme: known, or stemmed here (none for a stop word: nothing matches).
    const rawText = Array.isArray(asked) ? undefined : asked.raw;
    const raw = rawText === undefined ? undefined : param(rawText);
    let words = Array.isArray(asked) ? asked : [];
    const lexemeSql = raw ? `(SELECT x FROM unnest(tsvector_to_array(to_tsvector('${CONFIG}', ${raw}::text))) x LIMIT 1)` : 'NULL::text';
    if (raw || words.length <= 2) {
      // One statement: the best pages by their postings' scores (one word: its postings index's
      // first entries; two words: their postings joined, index-only scans of page_words_rank
      // once the table is vacuumed, ranked by the sum of the two scores), and the page titled as
      // the query (case-insensitively) first if it matches. (Two words were the best 200 sums
      // ranked again by ts_rank_cd, whose rounding differs from the postings' by less than 1e-4,
      // with the GIN query as a fallback: planning that statement and reading the candidates'
      // tsvectors was over half of a two-word search on the one embedded connection.)
      const [first, second] = raw ? ['(SELECT word FROM lx)'] : words.map((w) => param(w));
      const joined = (nsFilter: string, count: number) =>
        `SELECT x.page_id, x.score::float8 + y.score::float8 AS score
           FROM ${this.words} x JOIN ${this.words} y ON y.page_id = x.page_id AND y.word = ${second}
          WHERE x.word = ${first} ${nsFilter} ORDER BY score DESC, x.page_id LIMIT ${count}`;
      let best: string;
      if (second === undefined) {
        best = `SELECT w.page_id, w.score::float8 AS score FROM ${this.words} w WHERE w.word = ${first} ${nsCond('w.namespace')}
                 ORDER BY w.score DESC, w.page_id LIMIT ${want}`;
      } else if (!ns) best = joined('', want);
      else {
        // The postings' rank index has no namespace: checked on the best PAIR_CANDIDATES sums
        // rather than on every page of the join (a heap read each); when fewer than wanted of
        // them are in the namespaces, the join with the check answers.
        best = `WITH pair AS MATERIALIZED (${joined('', PAIR_CANDIDATES)}),
                     inns AS MATERIALIZED (
                       SELECT pair.page_id, pair.score FROM pair JOIN ${this.table} p ON p.page_id = pair.page_id
                        WHERE true ${nsCond('p.namespace')} ORDER BY pair.score DESC, pair.page_id LIMIT ${want})
                SELECT page_id, score FROM inns
                UNION ALL
                SELECT page_id, score FROM (${joined(nsCond('x.namespace'), want)}) f
                 WHERE (SELECT count(*) FROM inns) < ${want} AND (SELECT count(*) FROM pair) = ${PAIR_CANDIDATES}`;
      }
      const titledScore =
        second === undefined
          ? `(SELECT w.score::float8 FROM ${this.words} w WHERE w.page_id = ex.page_id AND w.word = ${first})`
          : `(SELECT sum(w.score::float8) FROM ${this.words} w WHERE w.page_id = ex.page_id AND w.word IN (${first}, ${second}))`;
      hits = `WITH lx AS MATERIALIZED (SELECT ${lexemeSql} AS word),
               ex AS MATERIALIZED (
                 SELECT page_id, tsv FROM ${this.table} WHERE lower(title) = ${exactTitle} ${nsCond('namespace')}
                 UNION ALL SELECT page_id, tsv FROM ${this.table} WHERE lower(title_text) = ${exactTitle} ${nsCond('namespace')}),
               cand AS ((${best}) UNION ALL SELECT ex.page_id, coalesce(${titledScore}, 0) + 100 FROM ex WHERE ex.tsv @@ ${tsq}),
               h AS (SELECT page_id, max(score) AS score FROM cand GROUP BY page_id ORDER BY score DESC, page_id LIMIT ${limit} OFFSET ${offset})`;
    } else {
      // Three words or more: the GIN index intersects them and each page is ranked by the sum of
      // the words' scores (ts_rank_cd of each word alone, what its postings hold), the page
      // titled as the query first.
      const rank = words.map((w) => `ts_rank_cd(tsv, quote_literal(${param(w)}::text)::tsquery)::float8`).join(' + ');
      const bonus = `CASE WHEN lower(title_text) = ${exactTitle} OR lower(title) = ${exactTitle} THEN 100 ELSE 0 END`;
      hits = `WITH h AS (SELECT page_id, ${rank} + ${bonus} AS score FROM ${this.table} WHERE tsv @@ ${tsq} ${nsCond('namespace')}
                         ORDER BY score DESC, page_id LIMIT ${limit} OFFSET ${offset})`;
    }
    // Snippets are made here from the texts (snippet.ts), as the highlighter marks a word whose
    // stem is one of the query's: ts_headline parsed and stemmed every word of ten long texts on
    // the one embedded connection. A lexeme that is no plain word keeps ts_headline.
    let candidates = opts.snippets ? stemCandidates(rawText !== undefined ? [rawText.toLowerCase()] : words) : undefined;
    let snippets = `NULL::text AS body, '' AS snippet, '' AS title_snippet`;
    if (candidates) snippets = `p.body, '' AS snippet, '' AS title_snippet`;
    else if (opts.snippets) {
      const whole = param(`HighlightAll=true, ${SELECT_OPTS}`);
      const fragments = param(FRAGMENT_OPTS);
      snippets = `NULL::text AS body, CASE WHEN length(p.body) <= ${WHOLE_TEXT_MAX}
                       THEN ts_headline('${CONFIG}', ${escapedSql('p.body')}, ${tsq}, ${whole})
                       ELSE ts_headline('${CONFIG}', ${escapedSql('p.body')}, ${tsq}, ${fragments}) END AS snippet,
                  ts_headline('${CONFIG}', ${escapedSql('p.title')}, ${tsq}, ${whole}) AS title_snippet`;
    }
    const columns = DOC_COLUMNS.split(', ')
      .map((c) => `p.${c}`)
      .join(', ');
    // The cursor's row, joined to the hits (none when nothing matches): what the index held.
    const r = await this.db.query<CursorRow & Partial<DocRow> & { lexeme: string | null; score: number | null; body: string | null; snippet: string | null; title_snippet: string | null }>(
      `${hits}
       SELECT c.position AS indexed_through, ${raw ? '(SELECT word FROM lx)' : 'NULL::text'} AS lexeme, ${columns}, h.score, ${snippets}
         FROM ${this.db.schema}.feed_cursors c
         LEFT JOIN (h JOIN ${this.table} p ON p.page_id = h.page_id) ON true
        WHERE c.engine = 'sql'
        ORDER BY h.score DESC, h.page_id`,
      params,
    );
    if (rawText !== undefined && r.rows.length > 0) {
      const lexeme = r.rows[0]!.lexeme;
      this.rememberLexemes([[rawText, lexeme === null ? [] : [lexeme]]]);
      words = lexeme === null ? [] : [lexeme];
      if (candidates) candidates = stemCandidates(words);
    }
    const rows = r.rows.filter((row): row is typeof row & DocRow => row.page_id !== null && row.page_id !== undefined);
    let isMatch: (word: string) => boolean = () => false;
    if (candidates) {
      const wanted = new Set(words);
      isMatch = (w) => (this.knownLexemes(w) ?? []).some((l) => wanted.has(l));
      // The titles (one line each, shown whole) with the texts, of which the lines up to the
      // snippet's last. Only the words that may match are learnt from the database (stem.ts).
      await learnSnippetWords([...rows.map((row) => row.body ?? ''), ...rows.map((row) => row.title)], candidates, isMatch, (texts) => this.learnLexemes(texts.filter((t) => !cannotMatch(t, wanted))));
    }
    const matches: Match[] = rows.map((row) => ({
      doc: toDoc(row),
      score: Number(row.score),
      snippet: candidates ? highlightWords(row.body ?? '', candidates, isMatch) : (row.snippet ?? ''),
      titleSnippet: candidates ? highlightWords(row.title, candidates, isMatch, { keepAll: true }) : (row.title_snippet ?? ''),
    }));
    let total = opts.offset + matches.length;
    if (opts.countTotal !== false && (matches.length === opts.limit || opts.offset > 0)) {
      // Counted only when asked (the action API's totalhits): the GIN index's matches, no ranking.
      const c = await this.db.tx(async (q) => {
        await q.query('SET LOCAL enable_seqscan = off');
        return q.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${this.table} WHERE tsv @@ to_tsquery('${CONFIG}', $1) ${ns ? 'AND namespace = ANY($2::int[])' : ''}`,
          ns ? [tsqText, ns] : [tsqText],
        );
      });
      total = c.rows[0]!.n;
    }
    const through = r.rows[0]?.indexed_through;
    return { matches, total, ...(through === undefined || through === null ? {} : { indexedThrough: Number(through) }) };
  }

  /** Learns the lexemes of texts not seen before (one statement for all of them). */
  private async learnLexemes(texts: string[]): Promise<void> {
    const unknown = texts.filter((t) => this.knownLexemes(t) === undefined);
    if (unknown.length === 0) return;
    const r = await this.db.query<{ t: string; lexemes: string[] }>(`SELECT t, tsvector_to_array(to_tsvector('${CONFIG}', t)) AS lexemes FROM unnest($1::text[]) t`, [unknown]);
    this.rememberLexemes(r.rows.map((row) => [row.t, row.lexemes]));
  }

  /**
   * A text's lexemes when known: learnt for it, or for a word of ASCII letters, learnt for it in
   * lower case (PostgreSQL lower-cases the word first: "Category" is "category"), unless it has
   * an "I", which some locales lower-case otherwise (Turkish: "ı").
   */
  private knownLexemes(t: string): string[] | undefined {
    const known = this.lexemes.get(t);
    if (known !== undefined || !ASCII_LETTERS.test(t)) return known;
    return this.lexemes.get(t.toLowerCase());
  }

  private rememberLexemes(learnt: [string, string[]][]): void {
    if (this.lexemes.size + learnt.length > LEXEME_CACHE) this.lexemes.clear();
    for (const [t, lexemes] of learnt) this.lexemes.set(t, lexemes);
  }

  async complete(prefix: string, namespaces: number[] | undefined, limit: number, offset: number): Promise<Omit<IndexDoc, 'text'>[]> {
    const nsWhere = namespaces ? 'AND namespace = ANY($2::int[])' : 'AND $2::int[] IS NULL';
    const r = await this.db.query<DocRow>(
      // The lower-cased match finds the rows by its index; the second keeps the prefix's case.
      `SELECT ${DOC_COLUMNS} FROM ${this.table} WHERE lower(title_text) LIKE $1 AND title_text LIKE $5 ${nsWhere}
        ORDER BY namespace, title_text COLLATE "C" LIMIT $3 OFFSET $4`,
      [likePrefix(prefix), namespaces ?? null, limit, offset, likePrefix(prefix, true)],
    );
    return r.rows.map(toDoc);
  }

  async byTitles(titles: string[]): Promise<Omit<IndexDoc, 'text'>[]> {
    if (titles.length === 0) return [];
    const r = await this.db.query<DocRow>(`SELECT ${DOC_COLUMNS} FROM ${this.table} WHERE lower(title) = ANY($1::text[])`, [titles.map((t) => t.toLowerCase())]);
    return r.rows.map(toDoc);
  }

  async count(): Promise<number> {
    const r = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.table}`);
    return r.rows[0]!.n;
  }

  /**
   * page_index_new, a copy of page_index's definition (columns, generated tsvector, indexes),
   * filled while page_index answers; the swap renames it in one transaction.
   */
  async startRebuild(): Promise<IndexRebuild> {
    const s = this.db.schema;
    await this.db.query(`DROP TABLE IF EXISTS ${s}.${NEW_TABLE}, ${s}.${NEW_WORDS}`);
    await this.db.query(`CREATE TABLE ${s}.${NEW_TABLE} (LIKE ${s}.page_index INCLUDING ALL)`);
    await this.db.query(`CREATE TABLE ${s}.${NEW_WORDS} (LIKE ${s}.page_words INCLUDING ALL)`);
    return {
      target: new SqlBackend(this.db, NEW_TABLE),
      swap: (position) => swapInNewTable(this.db, position),
      abort: async () => {
        await this.db.query(`DROP TABLE IF EXISTS ${s}.${NEW_TABLE}, ${s}.${NEW_WORDS}`);
      },
    };
  }

  async close(): Promise<void> {}
}

const NEW_TABLE = 'page_index_new';
const NEW_WORDS = 'page_words_new';
/** Each live table and the copy a rebuild fills. */
const COPIES: [string, string][] = [
  ['page_index', NEW_TABLE],
  ['page_words', NEW_WORDS],
];

/** An index definition without its name and table, to pair an index of the copy with the original's. */
const indexShape = (def: string) => def.replace(/^(CREATE (?:UNIQUE )?INDEX) \S+ ON \S+/, '$1 ON');

/**
 * page_index_new and page_words_new become page_index and page_words in one transaction: under
 * the cursor's row lock (so no indexer batch is half applied to either table), the old tables go, the new ones and their
 * indexes take the canonical names (later migrations name them), and the cursor moves to where
 * the rebuild read the feed. Queries wait for the transaction only, never see an empty index.
 */
async function swapInNewTable(db: Db, position: number): Promise<void> {
  const s = db.schema;
  await db.tx(async (q) => {
    await lockCursor(q, s, 'sql');
    const idx = await q.query<{ tbl: string; name: string; def: string }>(
      `SELECT t.relname AS tbl, c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = $1 AND t.relname = ANY($2::text[])`,
      [s, COPIES.flat()],
    );
    for (const [live, copy] of COPIES) {
      const canonical = new Map(idx.rows.filter((r) => r.tbl === live).map((r) => [indexShape(r.def), r.name]));
      await q.query(`DROP TABLE ${s}.${live}`);
      await q.query(`ALTER TABLE ${s}.${copy} RENAME TO ${live}`);
      for (const r of idx.rows.filter((r) => r.tbl === copy)) {
        const name = canonical.get(indexShape(r.def));
        if (name && name !== r.name) await q.query(`ALTER INDEX ${s}."${r.name}" RENAME TO "${name}"`);
      }
    }
    // The new table has every page's postings.
    await q.query(`DELETE FROM ${s}.page_words_backfill`);
    await resetCursor(q, s, 'sql', position);
  });
}
