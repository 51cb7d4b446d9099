/*
 * One user's revisions as MediaWiki's ContribsPager reads them for the REST contributions routes:
 * by actor, ordered by (rev_timestamp, rev_id), bounded by a timestamp offset (IndexPager keeps
 * only rev_timestamp in its offsets), with the visibility and change tag filters.
 */
import type { Db } from '@quire/kit';
import { SqlArgs } from './history.js';

export interface ContributionFilter {
  /** actor_name: a user name or an IP address. */
  user: string;
  /** Only revisions with this change tag; "" for all. */
  tag: string;
  /** Revisions whose rev_deleted has all these bits are left out; 0 for none. */
  hideBits: number;
}

export interface ContributionWindow {
  /**
   * IndexPager offset, undefined for the start: a TS_MW time, or any other string, which is
   * compared with the TS_MW text of rev_timestamp as MediaWiki's database compares it.
   */
  offset?: Date | string;
  /** Query order: descending (newest first) or ascending. */
  descending: boolean;
  /** Whether the offset itself is included (IndexPager::mIncludeOffset). */
  inclusive: boolean;
  limit: number;
}

export interface ContributionRow {
  revId: number;
  parentId: number;
  pageId: number;
  ns: number;
  dbkey: string;
  timestamp: Date;
  comment: string;
  deleted: number;
  size: number;
  /** rev_len of the parent revision, null when it is not a live revision. */
  parentSize: number | null;
  tags: string[];
}

function conditions(db: Db, args: SqlArgs, f: ContributionFilter): string[] {
  const s = db.schema;
  const where = [`a.actor_name = ${args.add(f.user)}`];
  if (f.hideBits) where.push(`(r.rev_deleted & ${args.add(f.hideBits)}) <> ${args.add(f.hideBits)}`);
  if (f.tag) {
    where.push(`EXISTS (SELECT 1 FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.ct_rev_id = r.rev_id AND d.ctd_name = ${args.add(f.tag)})`);
  }
  return where;
}

/** ContribsPager::reallyDoQuery: at most `limit` rows of the window, in query order. */
export async function contributionRows(db: Db, f: ContributionFilter, w: ContributionWindow): Promise<ContributionRow[]> {
  const s = db.schema;
  const args = new SqlArgs();
  const where = conditions(db, args, f);
  const op = `${w.descending ? '<' : '>'}${w.inclusive ? '=' : ''}`;
  if (w.offset instanceof Date) where.push(`r.rev_timestamp ${op} ${args.add(w.offset)}`);
  else if (w.offset) where.push(`to_char(r.rev_timestamp AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISS') COLLATE "C" ${op} ${args.add(w.offset)}`);
  const dir = w.descending ? 'DESC' : 'ASC';
  const r = await db.query<{
    rev_id: number;
    rev_parent_id: number | null;
    rev_timestamp: Date;
    rev_comment: string;
    rev_deleted: number;
    rev_len: number;
    parent_len: number | null;
    page_id: number;
    page_namespace: number;
    page_title: string;
    tags: string[];
  }>(
    `SELECT r.rev_id, r.rev_parent_id, r.rev_timestamp, r.rev_comment, r.rev_deleted, r.rev_len, parent.rev_len AS parent_len,
            p.page_id, p.page_namespace, p.page_title,
            ARRAY(SELECT d.ctd_name FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id
                   WHERE ct.ct_rev_id = r.rev_id ORDER BY d.ctd_name) AS tags
       FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor JOIN ${s}.page p ON p.page_id = r.rev_page
       LEFT JOIN ${s}.revision parent ON parent.rev_id = r.rev_parent_id
      WHERE ${where.join(' AND ')}
      ORDER BY r.rev_timestamp ${dir}, r.rev_id ${dir} LIMIT ${args.add(w.limit)}`,
    args.values,
  );
  return r.rows.map((row) => ({
    revId: Number(row.rev_id),
    parentId: Number(row.rev_parent_id ?? 0),
    pageId: Number(row.page_id),
    ns: row.page_namespace,
    dbkey: row.page_title,
    timestamp: row.rev_timestamp,
    comment: row.rev_comment,
    deleted: row.rev_deleted,
    size: row.rev_len,
    parentSize: row.parent_len,
    tags: row.tags,
  }));
}

/** ContributionsLookup::getContributionCount: the rows of the same query, without a limit. */
export async function countContributions(db: Db, f: ContributionFilter): Promise<number> {
  const s = db.schema;
  const args = new SqlArgs();
  const where = conditions(db, args, f);
  const r = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor WHERE ${where.join(' AND ')}`, args.values);
  return Number(r.rows[0]?.n ?? 0);
}
