/* The SQL of deleting and undeleting a page (the rules are in domain/lifecycle/delete.ts). */
import { invalidArgument, type Queryable } from '@quire/kit';
import { redirectTarget } from '../../content/wikitext.js';
import { recordPageChange } from '../page-cache.js';
import { countable } from '../save.js';
import { latestContent, type LifecycleDeps, type LockedPage } from './common.js';

/** How many revisions a page has. */
export async function revisionCount(q: Queryable, schema: string, pageId: number): Promise<number> {
  const r = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.revision WHERE rev_page = $1`, [pageId]);
  return r.rows[0]!.n;
}

/** Up to `limit` distinct authors of a page's revisions. */
export async function someAuthors(q: Queryable, schema: string, pageId: number, limit: number): Promise<{ actor_name: string }[]> {
  const r = await q.query<{ actor_name: string }>(
    `SELECT DISTINCT a.actor_name FROM ${schema}.revision r JOIN ${schema}.actor a ON a.actor_id = r.rev_actor WHERE r.rev_page = $1 LIMIT ${Number(limit)}`,
    [pageId],
  );
  return r.rows;
}

/** Removes a locked page and archives its revisions, in the caller's transaction. Returns the revision count. */
export async function archivePage(deps: LifecycleDeps, q: Queryable, page: LockedPage): Promise<number> {
  const s = deps.db.schema;
  const { text, model } = await latestContent(q, deps.db, page);
  const wasCountable = countable(deps.codec, page.ns, model, text);
  const archived = await q.query(
    `INSERT INTO ${s}.archive (ar_namespace, ar_title, ar_comment, ar_actor, ar_timestamp, ar_minor_edit, ar_bot, ar_rev_id, ar_deleted,
       ar_len, ar_page_id, ar_parent_id, ar_sha1, ar_content_id, ar_content_model)
     SELECT $2, $3, r.rev_comment, r.rev_actor, r.rev_timestamp, r.rev_minor_edit, r.rev_bot, r.rev_id, r.rev_deleted,
            r.rev_len, r.rev_page, r.rev_parent_id, r.rev_sha1, r.rev_content_id, c.content_model
       FROM ${s}.revision r JOIN ${s}.content c ON c.content_id = r.rev_content_id WHERE r.rev_page = $1`,
    [page.id, page.ns, page.dbkey],
  );
  await q.query(`DELETE FROM ${s}.parser_cache WHERE pc_rev_id IN (SELECT rev_id FROM ${s}.revision WHERE rev_page = $1)`, [page.id]);
  await q.query(`DELETE FROM ${s}.recentchanges WHERE rc_cur_id = $1 AND rc_type <> 3`, [page.id]);
  await q.query(`DELETE FROM ${s}.redirect WHERE rd_from = $1`, [page.id]);
  // page_latest's foreign key is deferred, so the revisions can go before the page row.
  await q.query(`DELETE FROM ${s}.revision WHERE rev_page = $1`, [page.id]);
  await q.query(`DELETE FROM ${s}.page WHERE page_id = $1`, [page.id]);
  await q.query(`UPDATE ${s}.site_stats SET ss_total_pages = ss_total_pages - 1, ss_good_articles = ss_good_articles - $1 WHERE ss_row_id = 1`, [Number(wasCountable)]);
  await recordPageChange(deps.db, q, page.ns, page.dbkey);
  return archived.rowCount;
}

interface ArchiveRow {
  ar_rev_id: number;
  ar_page_id: number;
  ar_timestamp: Date;
  ar_len: number;
  ar_content_id: number;
  ar_content_model: string;
}

/**
 * UndeletePage's writes, in the caller's transaction: the archived revisions of a title (those
 * saved at `timestamps`, or all) go back to the page, which is recreated (with its old id when free)
 * if missing; the page row, redirect and counters follow when the newest restored revision becomes
 * the latest. `cantundelete` when there is nothing to restore.
 */
export async function restoreArchivedRevisions(deps: LifecycleDeps, q: Queryable, target: { ns: number; dbkey: string }, timestamps: Date[]): Promise<{ pageId: number; restored: ArchiveRow[] }> {
  const s = deps.db.schema;
  // Serializes with edits and other undeletions of the title: the page row may not exist yet.
  await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${s}.title:${target.ns}:${target.dbkey}`]);
  const rows = await q.query<ArchiveRow>(
    `SELECT ar_rev_id, ar_page_id, ar_timestamp, ar_len, ar_content_id, ar_content_model FROM ${s}.archive
      WHERE ar_namespace = $1 AND ar_title = $2 AND ($3::timestamptz[] IS NULL OR ar_timestamp = ANY($3::timestamptz[]))
      ORDER BY ar_timestamp, ar_rev_id FOR UPDATE`,
    [target.ns, target.dbkey, timestamps.length > 0 ? timestamps : null],
  );
  const restored = rows.rows;
  const newest = restored[restored.length - 1];
  if (!newest) throw invalidArgument('cantundelete', "Couldn't undelete: the requested revisions may not exist, or may have been undeleted already.");

  const existing = await q.query<{ page_id: number; page_latest: number; rev_timestamp: Date }>(
    `SELECT p.page_id, p.page_latest, r.rev_timestamp FROM ${s}.page p JOIN ${s}.revision r ON r.rev_id = p.page_latest
      WHERE p.page_namespace = $1 AND p.page_title = $2 FOR UPDATE OF p`,
    [target.ns, target.dbkey],
  );
  let pageId: number;
  let created = false;
  let oldCountable = false;
  if (existing.rows[0]) {
    pageId = existing.rows[0].page_id;
    const old = await latestContent(q, deps.db, { latest: existing.rows[0].page_latest });
    oldCountable = countable(deps.codec, target.ns, old.model, old.text);
  } else {
    // The old page id comes back when it is free (UndeletePage: insertOn with ar_page_id).
    const inserted = await q.query<{ page_id: number }>(
      `INSERT INTO ${s}.page (page_id, page_namespace, page_title, page_touched, page_content_model)
       SELECT $1, $2, $3, now(), $4 WHERE NOT EXISTS (SELECT 1 FROM ${s}.page WHERE page_id = $1) RETURNING page_id`,
      [newest.ar_page_id, target.ns, target.dbkey, newest.ar_content_model],
    );
    pageId =
      inserted.rows[0]?.page_id ??
      (
        await q.query<{ page_id: number }>(`INSERT INTO ${s}.page (page_namespace, page_title, page_touched, page_content_model) VALUES ($1, $2, now(), $3) RETURNING page_id`, [
          target.ns,
          target.dbkey,
          newest.ar_content_model,
        ])
      ).rows[0]!.page_id;
    created = true;
  }
  const ids = restored.map((r) => r.ar_rev_id);
  await q.query(
    `INSERT INTO ${s}.revision (rev_id, rev_page, rev_parent_id, rev_timestamp, rev_actor, rev_comment, rev_minor_edit, rev_deleted, rev_len, rev_sha1, rev_content_id, rev_bot)
     SELECT ar_rev_id, $1, ar_parent_id, ar_timestamp, ar_actor, ar_comment, ar_minor_edit, ar_deleted, ar_len, ar_sha1, ar_content_id, ar_bot
       FROM ${s}.archive WHERE ar_rev_id = ANY($2::bigint[])`,
    [pageId, ids],
  );
  await q.query(`DELETE FROM ${s}.archive WHERE ar_rev_id = ANY($1::bigint[])`, [ids]);

  const becomesLatest = created || newest.ar_timestamp > existing.rows[0]!.rev_timestamp;
  if (becomesLatest) {
    const content = await q.query<{ content_text: string; content_model: string }>(`SELECT content_text, content_model FROM ${s}.content WHERE content_id = $1`, [newest.ar_content_id]);
    const { content_text: text, content_model: model } = content.rows[0]!;
    const redirect = model === 'wikitext' ? redirectTarget(deps.codec, text) : undefined;
    const revCount = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${s}.revision WHERE rev_page = $1`, [pageId]);
    await q.query(
      `UPDATE ${s}.page SET page_latest = $2, page_len = $3, page_touched = now(), page_is_new = $4, page_is_redirect = $5, page_content_model = $6
        WHERE page_id = $1`,
      [pageId, newest.ar_rev_id, newest.ar_len, revCount.rows[0]!.n === 1, redirect !== undefined, model],
    );
    await q.query(`DELETE FROM ${s}.redirect WHERE rd_from = $1`, [pageId]);
    if (redirect) {
      await q.query(`INSERT INTO ${s}.redirect (rd_from, rd_namespace, rd_title, rd_fragment) VALUES ($1, $2, $3, $4)`, [pageId, redirect.ns, redirect.dbkey, redirect.fragment]);
    }
    const nowCountable = countable(deps.codec, target.ns, model, text);
    await q.query(`UPDATE ${s}.site_stats SET ss_total_pages = ss_total_pages + $1, ss_good_articles = ss_good_articles + $2 WHERE ss_row_id = 1`, [
      created ? 1 : 0,
      Number(nowCountable) - Number(oldCountable),
    ]);
  }
  return { pageId, restored };
}
