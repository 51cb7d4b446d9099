/*
 * DeletePage and UndeletePage of MediaWiki 1.39: a deletion moves every revision of the page into
 * `archive` (same ids, so tags and parents survive) and removes the page, its links, protections
 * and the recent changes of its edits; an undeletion moves the chosen revisions back. Each is one
 * transaction with its log entry and recent change.
 */
import { invalidArgument, type Queryable } from '@quire/kit';
import type { DeletePageRequest, DeletePageResponse, UndeletePageRequest, UndeletePageResponse } from '@quire/proto/wiki/content/v1/content';
import { redirectTarget } from '../../content/wikitext.js';
import { publishLogEntry, nowToTheSecond } from '../logging.js';
import { recordPageChange } from '../page-cache.js';
import { countable } from '../save.js';
import { NS_FILE } from '../../title/namespaces.js';
import { archiveFileVersions, restoreFileVersions } from './file-archive.js';
import { applyRequestedWatch, latestContent, lockExistingPage, requireActor, authorize, targetOf, userOf, type LifecycleDeps, type LockedPage } from './common.js';

/** $wgDeleteRevisionsLimit: deleting longer histories needs `bigdelete`. */
const DELETE_REVISIONS_LIMIT = 5000;

/** Article::getAutoDeleteReason (content language English), the reason when none is given. */
async function autoDeleteReason(deps: LifecycleDeps, q: Queryable, page: LockedPage): Promise<string> {
  const { text } = await latestContent(q, deps.db, page);
  const authors = await q.query<{ actor_name: string }>(
    `SELECT DISTINCT a.actor_name FROM ${deps.db.schema}.revision r JOIN ${deps.db.schema}.actor a ON a.actor_id = r.rev_actor WHERE r.rev_page = $1 LIMIT 2`,
    [page.id],
  );
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return 'content was blank';
  const excerpt = flat.length > 150 ? `${flat.slice(0, 150)}...` : flat;
  const only = authors.rows.length === 1 ? ` (and the only contributor was "[[Special:Contributions/${authors.rows[0]!.actor_name}|${authors.rows[0]!.actor_name}]]")` : '';
  return `content was: "${excerpt}"${only}`;
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
  await q.query(`UPDATE ${s}.site_stats SET ss_total_pages = ss_total_pages - 1, ss_good_articles = ss_good_articles - $1 WHERE ss_row_id = 1`, [
    Number(wasCountable),
  ]);
  await recordPageChange(deps.db, q, page.ns, page.dbkey);
  return archived.rowCount;
}

export async function deletePage(deps: LifecycleDeps, req: DeletePageRequest): Promise<DeletePageResponse> {
  const actor = requireActor(req.actor);
  await authorize(deps, actor, 'delete', req.tags);
  const target = await targetOf(deps, req.title, req.pageId);
  return deps.db.tx(async (q) => {
    const page = await lockExistingPage(q, deps.db, target.ns, target.dbkey);
    const count = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${deps.db.schema}.revision WHERE rev_page = $1`, [page.id]);
    if (count.rows[0]!.n > DELETE_REVISIONS_LIMIT && !actor.rights.includes('bigdelete')) {
      throw invalidArgument('delete-toobig', `This page has a large edit history, over ${DELETE_REVISIONS_LIMIT} revisions.`);
    }
    const reason = req.reason !== '' ? req.reason : await autoDeleteReason(deps, q, page);
    await archivePage(deps, q, page);
    // FileDeleteForm: deleting a file description page deletes every version of the file with it.
    if (page.ns === NS_FILE) await archiveFileVersions(deps, q, page.dbkey, actor, reason);
    await applyRequestedWatch(deps, q, actor, page, req);
    const { logId } = await publishLogEntry(q, deps.db, {
      type: 'delete',
      action: 'delete',
      actor: userOf(actor),
      ns: page.ns,
      dbkey: page.dbkey,
      pageId: page.id,
      comment: reason,
      params: {},
      tags: req.tags,
    });
    return { title: deps.codec.prefixedText(page.ns, page.dbkey), logId, reason };
  });
}

interface ArchiveRow {
  ar_rev_id: number;
  ar_page_id: number;
  ar_timestamp: Date;
  ar_len: number;
  ar_content_id: number;
  ar_content_model: string;
}

export async function undeletePage(deps: LifecycleDeps, req: UndeletePageRequest): Promise<UndeletePageResponse> {
  const actor = requireActor(req.actor);
  await authorize(deps, actor, 'undelete', req.tags);
  const target = await targetOf(deps, req.title, 0);
  const s = deps.db.schema;
  const timestamps = req.timestamps.map((t) => {
    const d = new Date(t);
    if (Number.isNaN(d.getTime())) throw invalidArgument('badtimestamp', `Invalid value "${t}" for timestamp parameter "timestamps".`);
    return d;
  });
  return deps.db.tx(async (q) => {
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
          await q.query<{ page_id: number }>(
            `INSERT INTO ${s}.page (page_namespace, page_title, page_touched, page_content_model) VALUES ($1, $2, now(), $3) RETURNING page_id`,
            [target.ns, target.dbkey, newest.ar_content_model],
          )
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
      const content = await q.query<{ content_text: string; content_model: string }>(
        `SELECT content_text, content_model FROM ${s}.content WHERE content_id = $1`,
        [newest.ar_content_id],
      );
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
        await q.query(`INSERT INTO ${s}.redirect (rd_from, rd_namespace, rd_title, rd_fragment) VALUES ($1, $2, $3, $4)`, [
          pageId,
          redirect.ns,
          redirect.dbkey,
          redirect.fragment,
        ]);
      }
      const nowCountable = countable(deps.codec, target.ns, model, text);
      await q.query(
        `UPDATE ${s}.site_stats SET ss_total_pages = ss_total_pages + $1, ss_good_articles = ss_good_articles + $2 WHERE ss_row_id = 1`,
        [created ? 1 : 0, Number(nowCountable) - Number(oldCountable)],
      );
    }
    // PageArchive::undeleteAsUser: without chosen timestamps the file versions come back too.
    const files = target.ns === NS_FILE && timestamps.length === 0 ? await restoreFileVersions(deps, q, target.dbkey) : 0;
    await recordPageChange(deps.db, q, target.ns, target.dbkey);
    await applyRequestedWatch(deps, q, actor, target, req);
    await publishLogEntry(q, deps.db, {
      type: 'delete',
      action: 'restore',
      actor: userOf(actor),
      ns: target.ns,
      dbkey: target.dbkey,
      pageId,
      comment: req.reason,
      params: { count: { revisions: restored.length, files } },
      tags: req.tags,
      timestamp: nowToTheSecond(),
    });
    return { title: deps.codec.prefixedText(target.ns, target.dbkey), revisions: restored.length, reason: req.reason };
  });
}
