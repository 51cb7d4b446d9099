/*
 * The QueryPage special pages' queries (MediaWiki's Special*Pages getQueryInfo), computed live as
 * MediaWiki does without $wgMiserMode. Each yields (namespace, title[, value]) rows in the page's
 * order; ties are broken by namespace and title so that offsets are stable.
 */
import type { Db } from '@quire/kit';
import { NS_CATEGORY, NS_FILE, NS_MAIN, NS_MEDIA, NS_MEDIAWIKI, NS_USER, NS_USER_TALK } from '../title/namespaces.js';

const NS_TEMPLATE = 10;

export interface QueryPageDbRow {
  ns: number;
  dbkey: string;
  /** The value column as MediaWiki gives it (a string); undefined for pages without one. */
  value?: string;
  /** For the pages whose value is a time. */
  time?: Date;
  /** The query's other columns (text or null), shown as databaseResult. */
  extra?: Record<string, string | null>;
}

/** $wgContentNamespaces. */
const CONTENT_NS = `(${NS_MAIN})`;

interface QueryPageSql {
  /** SELECT … AS ns, … AS t[, … AS v] FROM … (no ORDER BY / LIMIT). */
  select: (s: string) => string;
  /** ORDER BY terms. */
  order: string;
  /** The value is rev_timestamp-like (QueryPage::usesTimestamps). */
  timestamps?: boolean;
  /** Further columns of the select (as text), in MediaWiki's field order. */
  extra?: readonly string[];
}

const byTitle = 'ns, t COLLATE "C"';
const valueAsc = `v, ${byTitle}`;
const valueDesc = `v DESC, ${byTitle}`;

const revisionCount = (s: string) =>
  `SELECT page_namespace AS ns, page_title AS t, count(*) AS v FROM ${s}.page JOIN ${s}.revision ON rev_page = page_id
   WHERE page_namespace IN ${CONTENT_NS} AND NOT page_is_redirect GROUP BY page_namespace, page_title`;

const pageLength = (s: string) => `SELECT page_namespace AS ns, page_title AS t, page_len AS v FROM ${s}.page WHERE page_namespace IN ${CONTENT_NS} AND NOT page_is_redirect`;

/** Non-redirect pages of the namespaces (an SQL list) in no category. */
const uncategorized = (namespaces: string) => (s: string) =>
  `SELECT page_namespace AS ns, page_title AS t FROM ${s}.page WHERE page_namespace IN ${namespaces} AND NOT page_is_redirect
   AND NOT EXISTS (SELECT 1 FROM ${s}.categorylinks WHERE cl_from = page_id)`;

/** What each page lists (named as MediaWiki's special pages). */
export const QUERY_PAGES: Record<string, QueryPageSql> = {
  Ancientpages: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t, rev_timestamp AS v FROM ${s}.page JOIN ${s}.revision ON rev_id = page_latest
       WHERE page_namespace IN ${CONTENT_NS} AND NOT page_is_redirect`,
    order: valueAsc,
    timestamps: true,
  },
  Deadendpages: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t FROM ${s}.page WHERE page_namespace IN ${CONTENT_NS} AND NOT page_is_redirect
       AND NOT EXISTS (SELECT 1 FROM ${s}.pagelinks WHERE pl_from = page_id)`,
    order: byTitle,
  },
  Fewestrevisions: { select: revisionCount, order: valueAsc },
  Mostrevisions: { select: revisionCount, order: valueDesc },
  ListDuplicatedFiles: {
    select: (s) => `SELECT ${NS_FILE} AS ns, min(img_name COLLATE "C") AS t, count(*) AS v FROM ${s}.image GROUP BY img_sha1 HAVING count(*) > 1`,
    order: valueDesc,
  },
  Lonelypages: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t FROM ${s}.page WHERE page_namespace IN ${CONTENT_NS} AND NOT page_is_redirect
       AND NOT EXISTS (SELECT 1 FROM ${s}.pagelinks WHERE pl_namespace = page_namespace AND pl_title = page_title)
       AND NOT EXISTS (SELECT 1 FROM ${s}.templatelinks WHERE tl_namespace = page_namespace AND tl_title = page_title)`,
    order: byTitle,
  },
  Shortpages: { select: pageLength, order: valueAsc },
  Longpages: { select: pageLength, order: valueDesc },
  Mostcategories: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t, count(*) AS v FROM ${s}.categorylinks JOIN ${s}.page ON page_id = cl_from
       WHERE page_namespace IN ${CONTENT_NS} GROUP BY page_namespace, page_title HAVING count(*) > 1`,
    order: valueDesc,
  },
  Mostinterwikis: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t, count(*) AS v FROM ${s}.langlinks JOIN ${s}.page ON page_id = ll_from
       WHERE page_namespace IN ${CONTENT_NS} GROUP BY page_namespace, page_title HAVING count(*) > 1`,
    order: valueDesc,
  },
  Mostlinkedcategories: {
    select: (s) => `SELECT ${NS_CATEGORY} AS ns, cl_to AS t, count(*) AS v FROM ${s}.categorylinks GROUP BY cl_to`,
    order: valueDesc,
  },
  Mostlinkedtemplates: {
    select: (s) => `SELECT tl_namespace AS ns, tl_title AS t, count(*) AS v FROM ${s}.templatelinks GROUP BY tl_namespace, tl_title`,
    order: valueDesc,
  },
  Uncategorizedcategories: { select: uncategorized(`(${NS_CATEGORY})`), order: byTitle },
  Uncategorizedimages: { select: uncategorized(`(${NS_FILE})`), order: byTitle },
  Uncategorizedpages: { select: uncategorized(CONTENT_NS), order: byTitle },
  Uncategorizedtemplates: { select: uncategorized(`(${NS_TEMPLATE})`), order: byTitle },
  Unusedcategories: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t FROM ${s}.page WHERE page_namespace = ${NS_CATEGORY} AND NOT page_is_redirect
       AND NOT EXISTS (SELECT 1 FROM ${s}.categorylinks WHERE cl_to = page_title)
       AND NOT EXISTS (SELECT 1 FROM ${s}.page_props WHERE pp_page = page_id AND pp_propname = 'expectunusedcategory')`,
    order: byTitle,
  },
  Unusedtemplates: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t FROM ${s}.page WHERE page_namespace = ${NS_TEMPLATE} AND NOT page_is_redirect
       AND NOT EXISTS (SELECT 1 FROM ${s}.templatelinks WHERE tl_namespace = page_namespace AND tl_title = page_title)`,
    order: byTitle,
  },
  Wantedcategories: {
    select: (s) =>
      `SELECT ${NS_CATEGORY} AS ns, cl_to AS t, count(*) AS v FROM ${s}.categorylinks
       WHERE NOT EXISTS (SELECT 1 FROM ${s}.page WHERE page_namespace = ${NS_CATEGORY} AND page_title = cl_to) GROUP BY cl_to`,
    order: valueDesc,
  },
  Mostlinked: {
    select: (s) =>
      `SELECT pl_namespace AS ns, pl_title AS t, count(*) AS v, min(page_namespace)::text AS page_namespace FROM ${s}.pagelinks
       LEFT JOIN ${s}.page ON page_namespace = pl_namespace AND page_title = pl_title GROUP BY pl_namespace, pl_title HAVING count(*) > 1`,
    order: valueDesc,
    extra: ['page_namespace'],
  },
  Mostimages: {
    select: (s) => `SELECT ${NS_FILE} AS ns, il_to AS t, count(*) AS v FROM ${s}.imagelinks GROUP BY il_to HAVING count(*) > 1`,
    order: valueDesc,
  },
  // $wgWantedPagesThreshold = 1; links only from redirects or from MediaWiki: pages do not count.
  Wantedpages: {
    select: (s) =>
      `SELECT pl_namespace AS ns, pl_title AS t, count(*) AS v FROM ${s}.pagelinks JOIN ${s}.page src ON src.page_id = pl_from
       WHERE pl_namespace NOT IN (${NS_USER}, ${NS_USER_TALK}) AND src.page_namespace <> ${NS_MEDIAWIKI}
       AND NOT EXISTS (SELECT 1 FROM ${s}.page WHERE page_namespace = pl_namespace AND page_title = pl_title)
       GROUP BY pl_namespace, pl_title HAVING count(*) > 0 AND count(*) > sum(CASE WHEN src.page_is_redirect THEN 1 ELSE 0 END)`,
    order: valueDesc,
  },
  Wantedtemplates: {
    select: (s) =>
      `SELECT tl_namespace AS ns, tl_title AS t, count(*) AS v FROM ${s}.templatelinks WHERE tl_namespace = ${NS_TEMPLATE}
       AND NOT EXISTS (SELECT 1 FROM ${s}.page WHERE page_namespace = tl_namespace AND page_title = tl_title) GROUP BY tl_namespace, tl_title`,
    order: valueDesc,
  },
  // Neither a file nor a File: redirect to one.
  Wantedfiles: {
    select: (s) =>
      `SELECT ${NS_FILE} AS ns, il_to AS t, count(*) AS v FROM ${s}.imagelinks
       WHERE NOT EXISTS (SELECT 1 FROM ${s}.image WHERE img_name = il_to)
       AND NOT EXISTS (SELECT 1 FROM ${s}.page JOIN ${s}.redirect ON rd_from = page_id AND rd_namespace = ${NS_FILE} AND rd_interwiki = ''
                       JOIN ${s}.image ON img_name = rd_title WHERE page_namespace = ${NS_FILE} AND page_title = il_to)
       GROUP BY il_to`,
    order: valueDesc,
  },
  BrokenRedirects: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t, rd_namespace::text AS rd_namespace, rd_title, rd_fragment, rd_from FROM ${s}.redirect
       JOIN ${s}.page ON page_id = rd_from WHERE rd_namespace >= 0 AND rd_interwiki = ''
       AND NOT EXISTS (SELECT 1 FROM ${s}.page p2 WHERE p2.page_namespace = rd_namespace AND p2.page_title = rd_title)`,
    order: 'rd_namespace, rd_title COLLATE "C", rd_from',
    extra: ['rd_namespace', 'rd_title', 'rd_fragment'],
  },
  Listredirects: {
    select: (s) =>
      `SELECT p1.page_namespace AS ns, p1.page_title AS t, rd_namespace::text AS rd_namespace, rd_title, rd_fragment, rd_interwiki, p2.page_id::text AS redirid
       FROM ${s}.page p1 LEFT JOIN ${s}.redirect ON rd_from = p1.page_id
       LEFT JOIN ${s}.page p2 ON p2.page_namespace = rd_namespace AND p2.page_title = rd_title WHERE p1.page_is_redirect`,
    order: byTitle,
    extra: ['rd_namespace', 'rd_title', 'rd_fragment', 'rd_interwiki', 'redirid'],
  },
  // $wgCountCategorizedImagesAsUsed = false: any file no page shows.
  Unusedimages: {
    select: (s) => `SELECT ${NS_FILE} AS ns, img_name AS t, img_timestamp AS v FROM ${s}.image WHERE NOT EXISTS (SELECT 1 FROM ${s}.imagelinks WHERE il_to = img_name)`,
    order: valueAsc,
    timestamps: true,
  },
  DoubleRedirects: {
    select: (s) =>
      `SELECT pa.page_namespace AS ns, pa.page_title AS t, pb.page_namespace::text AS b_namespace, pb.page_title AS b_title, ra.rd_fragment AS b_fragment,
         rb.rd_namespace::text AS c_namespace, rb.rd_title AS c_title, rb.rd_fragment AS c_fragment, rb.rd_interwiki AS c_interwiki,
         ra.rd_namespace AS a_ns, ra.rd_title AS a_title
       FROM ${s}.redirect ra JOIN ${s}.page pa ON pa.page_id = ra.rd_from
       JOIN ${s}.page pb ON pb.page_namespace = ra.rd_namespace AND pb.page_title = ra.rd_title JOIN ${s}.redirect rb ON rb.rd_from = pb.page_id
       WHERE ra.rd_interwiki = ''`,
    order: 'a_ns, a_title COLLATE "C", ns, t COLLATE "C"',
    extra: ['b_namespace', 'b_title', 'b_fragment', 'c_namespace', 'c_title', 'c_fragment', 'c_interwiki'],
  },
  // One fake title per media type and MIME type: "<type>;<mime>;<count>;<bytes>" (value always 1).
  MediaStatistics: {
    select: (s) =>
      `SELECT ${NS_MEDIA} AS ns, img_media_type || ';' || img_major_mime || '/' || img_minor_mime || ';' || count(*) || ';' || sum(img_size) AS t, 1 AS v,
         img_media_type AS o_type, count(*) AS o_count, img_major_mime AS o_major, img_minor_mime AS o_minor
       FROM ${s}.image GROUP BY img_media_type, img_major_mime, img_minor_mime`,
    order: 'o_type DESC, o_count DESC, o_major DESC, o_minor DESC',
  },
  // Special:UnwatchedPages (the unwatchedpages right is checked by the gateway): value is the namespace.
  Unwatchedpages: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t, page_namespace AS v FROM ${s}.page WHERE NOT page_is_redirect AND page_namespace <> ${NS_MEDIAWIKI}
       AND NOT EXISTS (SELECT 1 FROM ${s}.watchlist WHERE wl_namespace = page_namespace AND wl_title = page_title)`,
    order: byTitle,
  },
  Withoutinterwiki: {
    select: (s) =>
      `SELECT page_namespace AS ns, page_title AS t FROM ${s}.page WHERE page_namespace IN ${CONTENT_NS} AND NOT page_is_redirect
       AND NOT EXISTS (SELECT 1 FROM ${s}.langlinks WHERE ll_from = page_id)`,
    order: byTitle,
  },
};

export class QueryPageStore {
  constructor(private readonly db: Db) {}

  /** Rows `offset`… of the page, `limit` + 1 at most (the extra one says there are more). */
  async rows(name: string, offset: number, limit: number): Promise<QueryPageDbRow[]> {
    const def = QUERY_PAGES[name];
    if (!def) return [];
    const r = await this.db.query<{ ns: number; t: string; v?: string | number | Date } & Record<string, unknown>>(
      `SELECT * FROM (${def.select(this.db.schema)}) q ORDER BY ${def.order} OFFSET $1 LIMIT $2`,
      [offset, limit + 1],
    );
    return r.rows.map((x) => {
      const row: QueryPageDbRow = { ns: x.ns, dbkey: x.t };
      if (x.v instanceof Date) Object.assign(row, { value: tsMwOf(x.v), time: x.v });
      else if (x.v !== undefined && x.v !== null) row.value = String(x.v);
      if (def.extra) row.extra = Object.fromEntries(def.extra.map((c) => [c, x[c] === null || x[c] === undefined ? null : String(x[c])]));
      return row;
    });
  }
}

function tsMwOf(d: Date): string {
  return d
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/[-:T]/g, '');
}
