/* The SQL of a page move (the rules are in domain/lifecycle/move.ts). */
import type { Db, Queryable } from '@quire/kit';

/** A redirect page's revision count and target (null target: the redirect row is missing); undefined when the page is no redirect. */
export async function singleRevisionRedirectTarget(q: Queryable, schema: string, pageId: number): Promise<{ n: number; rd_namespace: number | null; rd_title: string | null } | undefined> {
  const r = await q.query<{ n: number; rd_namespace: number | null; rd_title: string | null }>(
    `SELECT (SELECT count(*)::int FROM ${schema}.revision WHERE rev_page = $1) AS n, rd.rd_namespace, rd.rd_title
       FROM ${schema}.page p LEFT JOIN ${schema}.redirect rd ON rd.rd_from = p.page_id WHERE p.page_id = $1 AND p.page_is_redirect`,
    [pageId],
  );
  return r.rows[0];
}

/** Gives a page row its new title (id, history and protections go with it). */
export async function renamePage(q: Queryable, schema: string, pageId: number, to: { ns: number; dbkey: string }, at: Date): Promise<void> {
  await q.query(`UPDATE ${schema}.page SET page_namespace = $2, page_title = $3, page_touched = $4 WHERE page_id = $1`, [pageId, to.ns, to.dbkey, at]);
}

/** The DB keys of the subpages of a title (`Title/…`), in order, at most `limit`. */
export async function subpageTitles(db: Db, t: { ns: number; dbkey: string }, limit: number): Promise<string[]> {
  const r = await db.query<{ page_title: string }>(`SELECT page_title FROM ${db.schema}.page WHERE page_namespace = $1 AND page_title LIKE $2 ORDER BY page_title LIMIT ${Number(limit)}`, [
    t.ns,
    `${t.dbkey.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`,
  ]);
  return r.rows.map((row) => row.page_title);
}
