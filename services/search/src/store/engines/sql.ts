/*
 * The default engine: PostgreSQL full-text search in the service's own schema (page_index,
 * migrations/002). Title words weigh A and body words B in one tsvector with a GIN index; the
 * parsed query becomes one to_tsquery expression (weights restrict intitle: to titles), snippets
 * come from ts_headline over the HTML-escaped text, and completion is a case-insensitive prefix
 * match on the title. It writes in the service's database, so the indexer applies a batch and
 * advances its cursor in one transaction.
 */
import type { Db } from '@quire/kit';
import { lockCursor, resetCursor } from '../cursor.js';
import { MATCH_CLOSE, MATCH_OPEN, type IndexRebuild, type IndexDoc, type Match, type MatchOptions, type MatchPage, type SearchBackend, type SortOrder } from '../../backend.js';
import type { Literal, ParsedQuery } from '../../query/parser.js';

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

const DOC_COLUMNS = 'page_id, namespace, title, title_text, is_redirect, redirect_title, size, word_count, touched, created';

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

/** LIKE pattern of a literal prefix. */
export function likePrefix(s: string): string {
  return `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class SqlBackend implements SearchBackend {
  readonly engine = 'sql';
  readonly transactional = true;

  /** The table written and read: page_index, or page_index_new while a rebuild fills it. */
  private readonly table: string;
  /** Rows written since the planner's statistics were last gathered (embedded database only). */
  private changedSinceAnalyze = 0;
  /** The table's row count when they were. */
  private analyzedRows = 0;
  /** Never analyzed: no statistics at all. */
  private unanalyzed = false;
  private analyzing = false;

  constructor(
    private readonly db: Db,
    table = 'page_index',
  ) {
    this.table = `${db.schema}.${table}`;
  }

  async init(): Promise<void> {
    // The table and its indexes are the service's migrations (002_page_index.sql).
    if (!this.db.embedded) return;
    // An index never analyzed has no statistics (reltuples -1): the planner then filters every
    // row of the namespace instead of asking the GIN index. Gathered in the background.
    const r = await this.db.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE oid = $1::regclass`, [this.table]);
    const rows = Number(r.rows[0]?.reltuples ?? -1);
    this.unanalyzed = rows < 0;
    this.analyzedRows = Math.max(0, rows);
    void this.analyzeIfStale();
  }

  /**
   * The embedded database has no autovacuum, so its ANALYZE is done here, by autovacuum's rule:
   * once the rows written since the last one exceed 500 + 10 % of the table. On a database server
   * autovacuum does it.
   */
  private async analyzeIfStale(): Promise<void> {
    if (this.analyzing || (!this.unanalyzed && this.changedSinceAnalyze <= 500 + 0.1 * this.analyzedRows)) return;
    this.analyzing = true;
    const counted = this.changedSinceAnalyze;
    try {
      await this.db.query(`ANALYZE ${this.table}`);
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
    if (this.db.embedded) {
      this.changedSinceAnalyze += upserts.length + deletes.length;
      this.db.onCommit(() => void this.analyzeIfStale());
    }
    if (deletes.length > 0) await this.db.query(`DELETE FROM ${this.table} WHERE page_id = ANY($1::bigint[])`, [deletes]);
    if (upserts.length === 0) return;
    await this.db.query(
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
    const params: unknown[] = [];
    const param = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const where: string[] = [];
    let tsq = "''::tsquery";
    if (query.groups.length > 0) {
      tsq = `to_tsquery('${CONFIG}', ${param(toTsqueryText(query, opts.field === 'title'))})`;
      where.push(`tsv @@ ${tsq}`);
    }
    if (query.titlePrefix !== undefined) where.push(`lower(title) LIKE ${param(likePrefix(query.titlePrefix))}`);
    if (opts.namespaces) where.push(`namespace = ANY(${param(opts.namespaces)}::int[])`);
    if (where.length === 0) return { matches: [], total: 0 };
    const whereParams = params.length;
    const exact = param(opts.exactTitle.toLowerCase());
    const rank = query.groups.length > 0 ? `ts_rank_cd(tsv, ${tsq})` : '0';
    // Every match is ranked and counted, so the inner query carries only what the order needs
    // (a match's body through the window's spill cost more than its rank); the page of hits
    // then reads its rows, and the snippets are made for those only.
    const inner = `SELECT page_id, namespace, title_text, touched, created,
                          ${rank} + CASE WHEN lower(title_text) = ${exact} OR lower(title) = ${exact} THEN 100 ELSE 0 END AS score,
                          count(*) OVER () AS total
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
    let total = r.rows[0]?.total ?? 0;
    if (r.rows.length === 0 && opts.offset > 0) {
      const c = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.table} WHERE ${where.join(' AND ')}`, params.slice(0, whereParams));
      total = c.rows[0]!.n;
    }
    return { matches, total };
  }

  async complete(prefix: string, namespaces: number[] | undefined, limit: number, offset: number): Promise<Omit<IndexDoc, 'text'>[]> {
    const nsWhere = namespaces ? 'AND namespace = ANY($2::int[])' : 'AND $2::int[] IS NULL';
    const r = await this.db.query<DocRow>(
      `SELECT ${DOC_COLUMNS} FROM ${this.table} WHERE lower(title_text) LIKE $1 ${nsWhere}
        ORDER BY namespace, title_text COLLATE "C" LIMIT $3 OFFSET $4`,
      [likePrefix(prefix), namespaces ?? null, limit, offset],
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
    await this.db.query(`DROP TABLE IF EXISTS ${s}.${NEW_TABLE}`);
    await this.db.query(`CREATE TABLE ${s}.${NEW_TABLE} (LIKE ${s}.page_index INCLUDING ALL)`);
    return {
      target: new SqlBackend(this.db, NEW_TABLE),
      swap: (position) => swapInNewTable(this.db, position),
      abort: async () => {
        await this.db.query(`DROP TABLE IF EXISTS ${s}.${NEW_TABLE}`);
      },
    };
  }

  async close(): Promise<void> {}
}

const NEW_TABLE = 'page_index_new';

/** An index definition without its name and table, to pair an index of the copy with the original's. */
const indexShape = (def: string) => def.replace(/^(CREATE (?:UNIQUE )?INDEX) \S+ ON \S+/, '$1 ON');

/**
 * page_index_new becomes page_index in one transaction: under the cursor's row lock (so no
 * indexer batch is half applied to either table), the old table goes, the new one and its
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
        WHERE n.nspname = $1 AND t.relname IN ('page_index', '${NEW_TABLE}')`,
      [s],
    );
    const canonical = new Map(idx.rows.filter((r) => r.tbl === 'page_index').map((r) => [indexShape(r.def), r.name]));
    await q.query(`DROP TABLE ${s}.page_index`);
    await q.query(`ALTER TABLE ${s}.${NEW_TABLE} RENAME TO page_index`);
    for (const r of idx.rows.filter((r) => r.tbl === NEW_TABLE)) {
      const name = canonical.get(indexShape(r.def));
      if (name && name !== r.name) await q.query(`ALTER INDEX ${s}."${r.name}" RENAME TO "${name}"`);
    }
    await resetCursor(q, s, 'sql', position);
  });
}
