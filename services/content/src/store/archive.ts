/*
 * Revisions across pages: the archive (revisions of deleted pages, as ApiQueryDeletedRevisions,
 * ApiQueryAllDeletedRevisions and ApiQueryDeletedrevs select them) and the live revisions of
 * every page (ApiQueryAllRevisions). Keyset pagination on MediaWiki's own sort keys, so a
 * continuation is where the previous batch stopped, not an offset.
 */
import type { Db, Queryable } from '@quire/kit';
import type { RevisionRow } from './revisions.js';

export type ArchiveSort = 'title' | 'timestamp' | 'revid';

/** Where the previous batch stopped (inclusive). */
export interface ArchiveCursorRow {
  ns: number;
  dbkey: string;
  timestamp: Date;
  revId: number;
  arId: number;
}

export interface ArchiveQuery {
  titles?: { ns: number; dbkey: string }[];
  revIds?: number[];
  /** undefined: every namespace. */
  namespaces?: number[];
  /** Title bounds and prefix per namespace (DB keys). */
  titleBounds?: { ns: number; from?: string; to?: string; prefix?: string }[];
  start?: Date;
  end?: Date;
  newer: boolean;
  user?: string;
  excludeUser?: string;
  tag?: string;
  /** Rows with all these ar_deleted bits are left out. */
  hiddenUserMask: number;
  sort: ArchiveSort;
  cursor?: ArchiveCursorRow;
  limit: number;
  withContent: boolean;
  uniqueTitles: boolean;
}

/** An archived revision: a RevisionRow (id = ar_rev_id, pageId = ar_page_id) with its title and archive id. */
export interface ArchiveRow extends RevisionRow {
  arId: number;
  ns: number;
  dbkey: string;
}

interface ArchiveSqlRow {
  ar_id: string;
  ar_namespace: number;
  ar_title: string;
  ar_rev_id: string;
  ar_page_id: string;
  ar_parent_id: string | null;
  ar_timestamp: Date;
  actor_user: string | null;
  actor_name: string;
  ar_comment: string;
  ar_minor_edit: boolean;
  ar_deleted: number;
  ar_len: number;
  ar_sha1: string;
  content_model: string;
  content_format: string;
  content_text?: string;
  tags: string[];
}

const toArchiveRow = (r: ArchiveSqlRow): ArchiveRow => ({
  arId: Number(r.ar_id),
  ns: r.ar_namespace,
  dbkey: r.ar_title,
  id: Number(r.ar_rev_id),
  pageId: Number(r.ar_page_id),
  parentId: Number(r.ar_parent_id ?? 0),
  timestamp: r.ar_timestamp,
  userId: Number(r.actor_user ?? 0),
  userText: r.actor_name,
  comment: r.ar_comment,
  minor: r.ar_minor_edit,
  deleted: r.ar_deleted,
  size: r.ar_len,
  sha1: r.ar_sha1,
  contentModel: r.content_model,
  contentFormat: r.content_format,
  ...(r.content_text !== undefined ? { content: r.content_text } : {}),
  tags: r.tags,
});

/** Collects positional parameters of one statement. */
class Args {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** LIKE pattern of a prefix (Database::buildLike). */
const likePrefix = (s: string) => `${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** "a > x OR (a = x AND (b > y OR (b = y AND c >= z)))": a keyset bound, the last key inclusive. */
function keysetBound(cols: string[], values: string[], op: '>' | '<'): string {
  const last = cols.length - 1;
  let cond = `${cols[last]} ${op}= ${values[last]}`;
  for (let i = last - 1; i >= 0; i--) cond = `(${cols[i]} ${op} ${values[i]} OR (${cols[i]} = ${values[i]} AND ${cond}))`;
  return cond;
}

export class ArchiveStore {
  constructor(private readonly db: Db) {}

  /** Archived revisions per the query, in its sort order; at most `limit` rows. */
  async list(q: ArchiveQuery): Promise<ArchiveRow[]> {
    const s = this.db.schema;
    const args = new Args();
    const conds: string[] = [];
    if (q.titles) {
      if (q.titles.length === 0) return [];
      conds.push(`(ar.ar_namespace, ar.ar_title) IN (SELECT * FROM unnest(${args.add(q.titles.map((t) => t.ns))}::int[], ${args.add(q.titles.map((t) => t.dbkey))}::text[]))`);
    }
    if (q.revIds) {
      if (q.revIds.length === 0) return [];
      conds.push(`ar.ar_rev_id = ANY(${args.add(q.revIds)}::bigint[])`);
    }
    if (q.namespaces) {
      if (q.namespaces.length === 0) return [];
      conds.push(`ar.ar_namespace = ANY(${args.add(q.namespaces)}::int[])`);
    }
    const [after, before] = q.newer ? ['>=', '<='] : ['<=', '>='];
    if (q.titleBounds?.length) {
      const perNs = q.titleBounds.map((b) => {
        const c = [`ar.ar_namespace = ${args.add(b.ns)}`];
        if (b.from !== undefined) c.push(`ar.ar_title ${after} ${args.add(b.from)}`);
        if (b.to !== undefined) c.push(`ar.ar_title ${before} ${args.add(b.to)}`);
        if (b.prefix !== undefined) c.push(`ar.ar_title LIKE ${args.add(likePrefix(b.prefix))}`);
        return `(${c.join(' AND ')})`;
      });
      conds.push(`(${perNs.join(' OR ')})`);
    }
    if (q.start) conds.push(`ar.ar_timestamp ${after} ${args.add(q.start)}`);
    if (q.end) conds.push(`ar.ar_timestamp ${before} ${args.add(q.end)}`);
    if (q.user !== undefined) conds.push(`a.actor_name = ${args.add(q.user)}`);
    if (q.excludeUser !== undefined) conds.push(`a.actor_name <> ${args.add(q.excludeUser)}`);
    if (q.hiddenUserMask) conds.push(`(ar.ar_deleted & ${args.add(q.hiddenUserMask)}::int) <> ${args.add(q.hiddenUserMask)}::int`);
    if (q.tag !== undefined) {
      conds.push(`EXISTS (SELECT 1 FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id
        WHERE ct.ct_rev_id = ar.ar_rev_id AND d.ctd_name = ${args.add(q.tag)})`);
    }
    const cols = q.sort === 'title' ? ['ar.ar_namespace', 'ar.ar_title', 'ar.ar_timestamp', 'ar.ar_id'] : q.sort === 'timestamp' ? ['ar.ar_timestamp', 'ar.ar_id'] : ['ar.ar_rev_id', 'ar.ar_id'];
    if (q.cursor) {
      const c = q.cursor;
      const values =
        q.sort === 'title'
          ? [args.add(c.ns), args.add(c.dbkey), `${args.add(c.timestamp)}::timestamptz`, args.add(c.arId)]
          : q.sort === 'timestamp'
            ? [`${args.add(c.timestamp)}::timestamptz`, args.add(c.arId)]
            : [args.add(c.revId), args.add(c.arId)];
      conds.push(keysetBound(cols, values, q.newer ? '>' : '<'));
    }
    const dir = q.newer ? 'ASC' : 'DESC';
    const where = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
    const select = `SELECT ${q.uniqueTitles ? 'DISTINCT ON (ar.ar_namespace, ar.ar_title)' : ''} ar.ar_id, ar.ar_namespace, ar.ar_title, ar.ar_rev_id, ar.ar_page_id,
        ar.ar_parent_id, ar.ar_timestamp, a.actor_user, a.actor_name, ar.ar_comment, ar.ar_minor_edit, ar.ar_deleted, ar.ar_len,
        ar.ar_sha1, ar.ar_content_model AS content_model, c.content_format, ${q.withContent ? 'c.content_text,' : ''}
        ARRAY(SELECT d.ctd_name FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id
              WHERE ct.ct_rev_id = ar.ar_rev_id ORDER BY d.ctd_name) AS tags
      FROM ${s}.archive ar
      JOIN ${s}.actor a ON a.actor_id = ar.ar_actor
      JOIN ${s}.content c ON c.content_id = ar.ar_content_id
      ${where}
      ORDER BY ${cols.map((col) => `${col} ${dir}`).join(', ')}
      LIMIT ${args.add(q.limit)}`;
    const r = await this.db.query<ArchiveSqlRow>(select, args.values);
    return r.rows.map(toArchiveRow);
  }

  /** The title of each archived revision id; unknown ids are absent. */
  async titlesOf(revIds: number[]): Promise<{ revId: number; ns: number; dbkey: string }[]> {
    if (revIds.length === 0) return [];
    const r = await this.db.query<{ ar_rev_id: string; ar_namespace: number; ar_title: string }>(
      `SELECT ar_rev_id, ar_namespace, ar_title FROM ${this.db.schema}.archive WHERE ar_rev_id = ANY($1::bigint[]) ORDER BY ar_rev_id`,
      [revIds],
    );
    return r.rows.map((row) => ({ revId: Number(row.ar_rev_id), ns: row.ar_namespace, dbkey: row.ar_title }));
  }
}

export interface AllRevisionsQuery {
  namespaces?: number[];
  start?: Date;
  end?: Date;
  newer: boolean;
  user?: string;
  excludeUser?: string;
  hiddenUserMask: number;
  cursor?: { timestamp: Date; revId: number };
  limit: number;
  withContent: boolean;
}

export type LiveRevisionRow = Omit<ArchiveRow, 'arId'>;

interface LiveSqlRow extends Omit<ArchiveSqlRow, 'ar_id'> {
  parent_len: number | null;
}

/** list=allrevisions: live revisions of all pages by (rev_timestamp, rev_id). */
export class AllRevisionsStore {
  constructor(private readonly db: Db) {}

  async list(q: AllRevisionsQuery): Promise<LiveRevisionRow[]> {
    const s = this.db.schema;
    const args = new Args();
    const conds: string[] = [];
    if (q.namespaces) {
      if (q.namespaces.length === 0) return [];
      conds.push(`p.page_namespace = ANY(${args.add(q.namespaces)}::int[])`);
    }
    const [after, before] = q.newer ? ['>=', '<='] : ['<=', '>='];
    if (q.start) conds.push(`r.rev_timestamp ${after} ${args.add(q.start)}`);
    if (q.end) conds.push(`r.rev_timestamp ${before} ${args.add(q.end)}`);
    if (q.user !== undefined) conds.push(`a.actor_name = ${args.add(q.user)}`);
    if (q.excludeUser !== undefined) conds.push(`a.actor_name <> ${args.add(q.excludeUser)}`);
    if (q.hiddenUserMask) conds.push(`(r.rev_deleted & ${args.add(q.hiddenUserMask)}::int) <> ${args.add(q.hiddenUserMask)}::int`);
    if (q.cursor) {
      conds.push(keysetBound(['r.rev_timestamp', 'r.rev_id'], [`${args.add(q.cursor.timestamp)}::timestamptz`, args.add(q.cursor.revId)], q.newer ? '>' : '<'));
    }
    const dir = q.newer ? 'ASC' : 'DESC';
    const r = await this.db.query<LiveSqlRow>(
      `SELECT p.page_namespace AS ar_namespace, p.page_title AS ar_title, r.rev_id AS ar_rev_id, r.rev_page AS ar_page_id,
          r.rev_parent_id AS ar_parent_id, r.rev_timestamp AS ar_timestamp, a.actor_user, a.actor_name, r.rev_comment AS ar_comment,
          r.rev_minor_edit AS ar_minor_edit, r.rev_deleted AS ar_deleted, r.rev_len AS ar_len, r.rev_sha1 AS ar_sha1,
          c.content_model, c.content_format, ${q.withContent ? 'c.content_text,' : ''} parent.rev_len AS parent_len,
          ARRAY(SELECT d.ctd_name FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id
                WHERE ct.ct_rev_id = r.rev_id ORDER BY d.ctd_name) AS tags
        FROM ${s}.revision r
        JOIN ${s}.page p ON p.page_id = r.rev_page
        JOIN ${s}.actor a ON a.actor_id = r.rev_actor
        JOIN ${s}.content c ON c.content_id = r.rev_content_id
        LEFT JOIN ${s}.revision parent ON parent.rev_id = r.rev_parent_id
        ${conds.length ? `WHERE ${conds.join(' AND ')}` : ''}
        ORDER BY r.rev_timestamp ${dir}, r.rev_id ${dir}
        LIMIT ${args.add(q.limit)}`,
      args.values,
    );
    return r.rows.map((row) => {
      const { arId: _arId, ...rest } = toArchiveRow({ ...row, ar_id: '0' });
      return { ...rest, ...(row.parent_len !== null ? { parentSize: Number(row.parent_len) } : {}) };
    });
  }
}

/** The archived revisions of a title with these timestamps, newest first (RevDelArchiveList::doQuery), locked when `forUpdate`. */
export async function archivedByTimestamps(
  q: Queryable,
  db: Db,
  ns: number,
  dbkey: string,
  timestamps: readonly Date[],
  forUpdate: boolean,
): Promise<{ arId: number; timestamp: Date; deleted: number; userId: number; user: string; comment: string }[]> {
  if (timestamps.length === 0) return [];
  const s = db.schema;
  const r = await q.query<{ ar_id: string; ar_timestamp: Date; ar_deleted: number; actor_user: string | null; actor_name: string; ar_comment: string }>(
    `SELECT ar.ar_id, ar.ar_timestamp, ar.ar_deleted, a.actor_user, a.actor_name, ar.ar_comment
       FROM ${s}.archive ar JOIN ${s}.actor a ON a.actor_id = ar.ar_actor
      WHERE ar.ar_namespace = $1 AND ar.ar_title = $2 AND ar.ar_timestamp = ANY($3::timestamptz[])
      ORDER BY ar.ar_timestamp DESC, ar.ar_id DESC ${forUpdate ? 'FOR UPDATE OF ar' : ''}`,
    [ns, dbkey, timestamps],
  );
  return r.rows.map((row) => ({
    arId: Number(row.ar_id),
    timestamp: row.ar_timestamp,
    deleted: row.ar_deleted,
    userId: Number(row.actor_user ?? 0),
    user: row.actor_name,
    comment: row.ar_comment,
  }));
}

/** Sets an archived revision's bits when they are still `oldBits` (RevDelArchiveItem::setBits). */
export async function setArchivedBits(q: Queryable, db: Db, arId: number, oldBits: number, newBits: number): Promise<boolean> {
  const r = await q.query(`UPDATE ${db.schema}.archive SET ar_deleted = $3 WHERE ar_id = $1 AND ar_deleted = $2`, [arId, oldBits, newBits]);
  return r.rowCount > 0;
}
