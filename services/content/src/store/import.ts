/*
 * XML dumps in and out: the SQL of ImportService. An imported page is written in one transaction
 * (WikiImporter + ImportableOldRevisionImporter), export reads pages and revisions in keyset
 * batches so a whole-wiki dump never holds more than one batch.
 */
import type { Db, Queryable } from '@quire/kit';
import { sha1Base36 } from '../content/sha1.js';
import { redirectTarget } from '../content/wikitext.js';
import type { TitleCodec } from '../title/codec.js';
import { actorId } from './actor.js';
import { addChangeTags, nowToTheSecond, publishLogEntry } from './logging.js';
import { recordPageChange } from './page-cache.js';
import { countable } from './save.js';

export interface ImportRevisionInput {
  timestamp: Date;
  user: { id: number; name: string };
  comment: string;
  minor: boolean;
  model: string;
  format: string;
  text: string;
  deleted: number;
}

export interface ImportPageInput {
  ns: number;
  dbkey: string;
  revisions: ImportRevisionInput[];
}

export interface ImportLogInput {
  performer: { id: number; name: string };
  reason: string;
  /** The null revision's comment for one revision and for other counts, $1 the count. */
  detail: string;
  detailPlural: string;
  tags: string[];
  action: string;
}

export interface ImportPageOutcome {
  pageId: number;
  imported: number;
  skipped: number;
}

/**
 * Imports one page with its revisions in one transaction. A revision the page already has (same
 * timestamp and SHA-1, MediaWiki's duplicate rule) is skipped, which makes a re-run or a resumed
 * import add nothing twice. Each revision's parent is the page's previous revision by time; the
 * page's latest revision becomes the newest one. With `log`, a page that got revisions also gets
 * ImportReporter's null revision and import log entry.
 */
export async function importPage(db: Db, codec: TitleCodec, input: ImportPageInput, log?: ImportLogInput): Promise<ImportPageOutcome> {
  const s = db.schema;
  return db.tx(async (q) => {
    const existing = await q.query<{ page_id: number; page_latest: number; rev_timestamp: Date | null; content_model: string | null; content_text: string | null }>(
      `SELECT p.page_id, p.page_latest, r.rev_timestamp, c.content_model, c.content_text FROM ${s}.page p
         LEFT JOIN ${s}.revision r ON r.rev_id = p.page_latest LEFT JOIN ${s}.content c ON c.content_id = r.rev_content_id
        WHERE p.page_namespace = $1 AND p.page_title = $2 FOR UPDATE OF p`,
      [input.ns, input.dbkey],
    );
    const first = input.revisions[0];
    let pageId: number;
    let created = false;
    let latest = { id: 0, ts: 0 };
    let oldCountable = false;
    if (existing.rows[0]) {
      const row = existing.rows[0];
      pageId = Number(row.page_id);
      latest = { id: Number(row.page_latest), ts: row.rev_timestamp?.getTime() ?? 0 };
      oldCountable = row.content_text !== null && countable(codec, input.ns, row.content_model!, row.content_text);
    } else {
      if (!first) return { pageId: 0, imported: 0, skipped: 0 };
      const ins = await q.query<{ page_id: number }>(`INSERT INTO ${s}.page (page_namespace, page_title, page_touched, page_content_model) VALUES ($1, $2, $3, $4) RETURNING page_id`, [
        input.ns,
        input.dbkey,
        first.timestamp,
        first.model,
      ]);
      pageId = Number(ins.rows[0]!.page_id);
      created = true;
    }

    const actors = new Map<string, number>();
    const seen = new Set<string>();
    let imported = 0;
    let skipped = 0;
    let last = { id: 0, ts: -Infinity };
    let newest: { id: number; ts: number; size: number; model: string; text: string } | undefined;
    for (const rev of input.revisions) {
      const sha1 = sha1Base36(rev.text);
      const ts = rev.timestamp.getTime();
      const key = `${ts}|${sha1}`;
      if (seen.has(key)) {
        skipped++;
        continue;
      }
      seen.add(key);
      if (!created) {
        const prior = await q.query(`SELECT 1 FROM ${s}.revision WHERE rev_page = $1 AND rev_timestamp = $2 AND rev_sha1 = $3 LIMIT 1`, [pageId, rev.timestamp, sha1]);
        if (prior.rowCount) {
          skipped++;
          continue;
        }
      }
      // The previous revision by time (timestamps are not unique per page, so by id too).
      let parent: number | null;
      if (created && ts >= last.ts) parent = last.id || null;
      else {
        const prev = await q.query<{ rev_id: number }>(`SELECT rev_id FROM ${s}.revision WHERE rev_page = $1 AND rev_timestamp <= $2 ORDER BY rev_timestamp DESC, rev_id DESC LIMIT 1`, [
          pageId,
          rev.timestamp,
        ]);
        parent = prev.rows[0] ? Number(prev.rows[0].rev_id) : null;
      }
      const actorKey = `${rev.user.id}|${rev.user.name}`;
      let actor = actors.get(actorKey);
      if (actor === undefined) {
        actor = await actorId(q, s, rev.user);
        actors.set(actorKey, actor);
      }
      const size = Buffer.byteLength(rev.text, 'utf8');
      const content = await q.query<{ content_id: number }>(
        `INSERT INTO ${s}.content (content_size, content_sha1, content_model, content_format, content_text) VALUES ($1, $2, $3, $4, $5) RETURNING content_id`,
        [size, sha1, rev.model, rev.format, rev.text],
      );
      const ins = await q.query<{ rev_id: number }>(
        `INSERT INTO ${s}.revision (rev_page, rev_parent_id, rev_timestamp, rev_actor, rev_comment, rev_minor_edit, rev_deleted, rev_len, rev_sha1, rev_content_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING rev_id`,
        [pageId, parent, rev.timestamp, actor, rev.comment, rev.minor, rev.deleted, size, sha1, content.rows[0]!.content_id],
      );
      const revId = Number(ins.rows[0]!.rev_id);
      imported++;
      last = { id: revId, ts };
      if (ts >= latest.ts && ts >= (newest?.ts ?? -Infinity)) newest = { id: revId, ts, size, model: rev.model, text: rev.text };
    }

    if (newest) {
      const redirect = newest.model === 'wikitext' ? redirectTarget(codec, newest.text) : undefined;
      await q.query(
        `UPDATE ${s}.page SET page_latest = $2, page_len = $3, page_touched = GREATEST(page_touched, $4), page_is_new = $5, page_is_redirect = $6, page_content_model = $7
          WHERE page_id = $1`,
        [pageId, newest.id, newest.size, new Date(newest.ts), created && imported === 1, redirect !== undefined, newest.model],
      );
      if (redirect) {
        await q.query(
          `INSERT INTO ${s}.redirect (rd_from, rd_namespace, rd_title, rd_fragment) VALUES ($1, $2, $3, $4)
           ON CONFLICT (rd_from) DO UPDATE SET rd_namespace = EXCLUDED.rd_namespace, rd_title = EXCLUDED.rd_title, rd_fragment = EXCLUDED.rd_fragment`,
          [pageId, redirect.ns, redirect.dbkey, redirect.fragment],
        );
      } else if (!created) {
        await q.query(`DELETE FROM ${s}.redirect WHERE rd_from = $1`, [pageId]);
      }
      const nowCountable = countable(codec, input.ns, newest.model, newest.text);
      await q.query(`UPDATE ${s}.site_stats SET ss_total_edits = ss_total_edits + $1, ss_total_pages = ss_total_pages + $2, ss_good_articles = ss_good_articles + $3 WHERE ss_row_id = 1`, [
        imported,
        created ? 1 : 0,
        Number(nowCountable) - Number(oldCountable),
      ]);
    } else if (imported > 0) {
      // Only older revisions arrived: the latest stays, the counters count the edits.
      await q.query(`UPDATE ${s}.site_stats SET ss_total_edits = ss_total_edits + $1 WHERE ss_row_id = 1`, [imported]);
    }
    await recordPageChange(db, q, input.ns, input.dbkey);
    if (log && imported > 0) await logImport(q, db, { pageId, ns: input.ns, dbkey: input.dbkey, count: imported }, log);
    return { pageId, imported, skipped };
  });
}

/** ImportReporter::reportPage: a null revision with the detail as comment, and the import log entry (published). */
async function logImport(q: Queryable, db: Db, page: { pageId: number; ns: number; dbkey: string; count: number }, log: ImportLogInput): Promise<void> {
  const s = db.schema;
  const timestamp = nowToTheSecond();
  const actor = await actorId(q, s, log.performer);
  const nullRev = await q.query<{ rev_id: number; rev_len: number }>(
    `INSERT INTO ${s}.revision (rev_page, rev_parent_id, rev_timestamp, rev_actor, rev_comment, rev_minor_edit, rev_len, rev_sha1, rev_content_id)
     SELECT p.page_id, r.rev_id, $2, $3, $4, true, r.rev_len, r.rev_sha1, r.rev_content_id
       FROM ${s}.page p JOIN ${s}.revision r ON r.rev_id = p.page_latest WHERE p.page_id = $1
     RETURNING rev_id, rev_len`,
    [page.pageId, timestamp, actor, (page.count === 1 ? log.detail : log.detailPlural).replaceAll('$1', String(page.count))],
  );
  const revId = Number(nullRev.rows[0]!.rev_id);
  await q.query(`UPDATE ${s}.page SET page_latest = $2, page_touched = $3, page_is_new = false WHERE page_id = $1`, [page.pageId, revId, timestamp]);
  await q.query(`UPDATE ${s}.site_stats SET ss_total_edits = ss_total_edits + 1 WHERE ss_row_id = 1`);
  if (log.tags.length) await addChangeTags(q, db, log.tags, { revId });
  await publishLogEntry(
    q,
    db,
    {
      type: 'import',
      action: log.action,
      actor: log.performer,
      ns: page.ns,
      dbkey: page.dbkey,
      pageId: page.pageId,
      comment: log.reason,
      params: { count: page.count },
      timestamp,
      tags: log.tags,
    },
    { revId },
  );
}

/**
 * rebuildrecentchanges.php for an import: a recent change for every revision newer than `since`
 * that has none, as one INSERT … SELECT (the import itself writes none, as MediaWiki's).
 */
export async function rebuildRecentChanges(db: Db, since: Date): Promise<number> {
  const s = db.schema;
  const r = await db.query(
    `INSERT INTO ${s}.recentchanges (rc_timestamp, rc_actor, rc_namespace, rc_title, rc_comment, rc_minor, rc_bot, rc_new, rc_cur_id,
       rc_this_oldid, rc_last_oldid, rc_type, rc_source, rc_patrolled, rc_ip, rc_old_len, rc_new_len)
     SELECT r.rev_timestamp, r.rev_actor, p.page_namespace, p.page_title, r.rev_comment, r.rev_minor_edit, r.rev_bot, r.rev_parent_id IS NULL, p.page_id,
            r.rev_id, COALESCE(r.rev_parent_id, 0), CASE WHEN r.rev_parent_id IS NULL THEN 1 ELSE 0 END,
            CASE WHEN r.rev_parent_id IS NULL THEN 'mw.new' ELSE 'mw.edit' END, 2,
            CASE WHEN a.actor_user IS NULL AND position('>' IN a.actor_name) = 0 THEN a.actor_name ELSE '' END,
            pr.rev_len, r.rev_len
       FROM ${s}.revision r JOIN ${s}.page p ON p.page_id = r.rev_page JOIN ${s}.actor a ON a.actor_id = r.rev_actor
       LEFT JOIN ${s}.revision pr ON pr.rev_id = r.rev_parent_id
      WHERE r.rev_timestamp > $1
        AND NOT EXISTS (SELECT 1 FROM ${s}.recentchanges rc WHERE rc.rc_this_oldid = r.rev_id)`,
    [since],
  );
  return r.rowCount ?? 0;
}

export async function pendingRefreshLinksJobs(db: Db): Promise<number> {
  const r = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${db.schema}.job WHERE job_cmd = 'refreshLinks'`);
  return Number(r.rows[0]!.n);
}

export interface ExportPageRow {
  pageId: number;
  ns: number;
  dbkey: string;
  latest: number;
  redirect?: { ns: number; dbkey: string };
}

/** Pages to export after `afterPageId`, by page id: the given ids, or all pages of the given namespaces (all when empty). */
export async function exportPageBatch(db: Db, filter: { pageIds: number[]; namespaces: number[] }, afterPageId: number, limit: number): Promise<ExportPageRow[]> {
  const s = db.schema;
  const r = await db.query<{ page_id: number; page_namespace: number; page_title: string; page_latest: number; rd_namespace: number | null; rd_title: string | null }>(
    `SELECT p.page_id, p.page_namespace, p.page_title, p.page_latest, rd.rd_namespace, rd.rd_title
       FROM ${s}.page p LEFT JOIN ${s}.redirect rd ON rd.rd_from = p.page_id AND p.page_is_redirect AND rd.rd_interwiki = ''
      WHERE p.page_id > $1 AND p.page_latest <> 0
        AND (cardinality($2::bigint[]) = 0 OR p.page_id = ANY($2::bigint[]))
        AND (cardinality($3::int[]) = 0 OR p.page_namespace = ANY($3::int[]))
      ORDER BY p.page_id LIMIT $4`,
    [afterPageId, filter.pageIds, filter.namespaces, limit],
  );
  return r.rows.map((row) => ({
    pageId: Number(row.page_id),
    ns: row.page_namespace,
    dbkey: row.page_title,
    latest: Number(row.page_latest),
    redirect: row.rd_title === null ? undefined : { ns: row.rd_namespace!, dbkey: row.rd_title },
  }));
}

export interface ExportRevisionRow {
  id: number;
  parentId: number;
  timestamp: Date;
  userId: number;
  userName: string;
  deleted: number;
  minor: boolean;
  comment: string;
  model: string;
  format: string;
  text: string;
  size: number;
  sha1: string;
  origin: number;
}

/** Revisions of one page after `afterRevId` by id (only the latest with `latestOnly`). */
export async function exportRevisionBatch(db: Db, page: { pageId: number; latest: number }, latestOnly: boolean, afterRevId: number, limit: number): Promise<ExportRevisionRow[]> {
  const s = db.schema;
  const r = await db.query<{
    rev_id: number;
    rev_parent_id: number | null;
    rev_timestamp: Date;
    actor_user: number | null;
    actor_name: string;
    rev_deleted: number;
    rev_minor_edit: boolean;
    rev_comment: string;
    content_model: string;
    content_format: string;
    content_text: string;
    rev_len: number;
    rev_sha1: string;
    origin: number;
  }>(
    `SELECT r.rev_id, r.rev_parent_id, r.rev_timestamp, a.actor_user, a.actor_name, r.rev_deleted, r.rev_minor_edit, r.rev_comment,
            c.content_model, c.content_format, c.content_text, r.rev_len, r.rev_sha1,
            (SELECT min(o.rev_id) FROM ${s}.revision o WHERE o.rev_content_id = r.rev_content_id) AS origin
       FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor JOIN ${s}.content c ON c.content_id = r.rev_content_id
      WHERE r.rev_page = $1 AND ${latestOnly ? 'r.rev_id = $2' : 'r.rev_id > $2'}
      ORDER BY r.rev_id LIMIT $3`,
    latestOnly ? [page.pageId, page.latest, 1] : [page.pageId, afterRevId, limit],
  );
  if (latestOnly && afterRevId >= page.latest) return [];
  return r.rows.map((row) => ({
    id: Number(row.rev_id),
    parentId: Number(row.rev_parent_id ?? 0),
    timestamp: row.rev_timestamp,
    userId: Number(row.actor_user ?? 0),
    userName: row.actor_name,
    deleted: row.rev_deleted,
    minor: row.rev_minor_edit,
    comment: row.rev_comment,
    model: row.content_model,
    format: row.content_format,
    text: row.content_text,
    size: row.rev_len,
    sha1: row.rev_sha1,
    origin: Number(row.origin),
  }));
}

/**
 * actorId for many users in two statements: the missing actor rows are created, then all are
 * read (anonymous and imported actors by name, registered users by id, as actorId finds them).
 */
async function resolveActors(q: Queryable, s: string, users: { id: number; name: string }[], actors: Map<string, number>): Promise<void> {
  const missing = new Map<string, { id: number; name: string }>();
  for (const u of users) if (!actors.has(`${u.id}|${u.name}`)) missing.set(`${u.id}|${u.name}`, u);
  if (missing.size === 0) return;
  const list = [...missing.values()];
  await q.query(`INSERT INTO ${s}.actor (actor_user, actor_name) SELECT NULLIF(u, 0), n FROM unnest($1::bigint[], $2::text[]) AS t(u, n) ON CONFLICT DO NOTHING`, [
    list.map((u) => u.id),
    list.map((u) => u.name),
  ]);
  const rows = await q.query<{ actor_id: number; actor_user: number | null; actor_name: string }>(
    `SELECT actor_id, actor_user, actor_name FROM ${s}.actor WHERE actor_name = ANY($1::text[]) OR actor_user = ANY($2::bigint[])`,
    [list.map((u) => u.name), list.filter((u) => u.id > 0).map((u) => u.id)],
  );
  const byName = new Map(rows.rows.map((r) => [r.actor_name, Number(r.actor_id)]));
  const byUser = new Map(rows.rows.filter((r) => r.actor_user !== null).map((r) => [Number(r.actor_user), Number(r.actor_id)]));
  for (const [key, u] of missing) {
    const id = (u.id > 0 ? byUser.get(u.id) : undefined) ?? byName.get(u.name);
    actors.set(key, id ?? (await actorId(q, s, u)));
  }
}

interface FreshRevision {
  input: ImportRevisionInput;
  sha1: string;
  size: number;
  revId: number;
  contentId: number;
  parent: number | null;
  actor: number;
}

/**
 * The bulk path of an import (importDump): a batch of pages in one transaction with a handful of
 * set-based statements (unnest arrays) instead of a dozen round trips per page. Pages that exist
 * already, or whose title repeats within the batch, take importPage's path inside the same
 * transaction. All or nothing: a batch that fails is retried page by page by the caller.
 */
export async function importPageBatch(db: Db, codec: TitleCodec, inputs: ImportPageInput[], actors = new Map<string, number>()): Promise<ImportPageOutcome[]> {
  const s = db.schema;
  return db.tx(async (q) => {
    const existing = await q.query<{ page_namespace: number; page_title: string }>(
      `SELECT p.page_namespace, p.page_title FROM ${s}.page p
        WHERE (p.page_namespace, p.page_title) IN (SELECT * FROM unnest($1::int[], $2::text[])) FOR UPDATE OF p`,
      [inputs.map((i) => i.ns), inputs.map((i) => i.dbkey)],
    );
    const taken = new Set(existing.rows.map((r) => `${r.page_namespace}|${r.page_title}`));
    const outcomes: ImportPageOutcome[] = new Array(inputs.length);
    const deferred: number[] = [];
    const fresh: { i: number; input: ImportPageInput; revs: FreshRevision[] }[] = [];
    for (const [i, input] of inputs.entries()) {
      const key = `${input.ns}|${input.dbkey}`;
      if (taken.has(key) || input.revisions.length === 0) deferred.push(i);
      else {
        taken.add(key);
        fresh.push({ i, input, revs: [] });
      }
    }

    // Revisions of new pages: duplicates (same timestamp and SHA-1) dropped as MediaWiki skips them.
    for (const f of fresh) {
      const seen = new Set<string>();
      for (const rev of f.input.revisions) {
        const sha1 = sha1Base36(rev.text);
        const k = `${rev.timestamp.getTime()}|${sha1}`;
        if (seen.has(k)) continue;
        seen.add(k);
        f.revs.push({ input: rev, sha1, size: Buffer.byteLength(rev.text, 'utf8'), revId: 0, contentId: 0, parent: null, actor: 0 });
      }
    }
    const allRevs = fresh.flatMap((f) => f.revs);
    if (fresh.length) {
      // Fresh ids, as MediaWiki's importer gives them: the dump's ids name another wiki's rows
      // (and one near 2^53 would leave this wiki no ids to give).
      const ids = await q.query<{ kind: string; id: number }>(
        `SELECT 'page' AS kind, nextval('${s}.page_page_id_seq') AS id FROM generate_series(1, $1::int)
         UNION ALL SELECT 'rev', nextval('${s}.revision_rev_id_seq') FROM generate_series(1, $2::int)
         UNION ALL SELECT 'content', nextval('${s}.content_content_id_seq') FROM generate_series(1, $2::int)`,
        [fresh.length, allRevs.length],
      );
      const newIds = (kind: string) => ids.rows.filter((r) => r.kind === kind).map((r) => Number(r.id));
      const [pageIds, newRevs, newContents] = [newIds('page'), newIds('rev'), newIds('content')];
      await resolveActors(
        q,
        s,
        allRevs.map((r) => r.input.user),
        actors,
      );
      for (const r of allRevs) {
        r.revId = newRevs.shift()!;
        r.contentId = newContents.shift()!;
        r.actor = actors.get(`${r.input.user.id}|${r.input.user.name}`)!;
      }
      // Parents: the previous revision by time (and id), as ImportableOldRevisionImporter picks it.
      for (const f of fresh) {
        const done: FreshRevision[] = [];
        for (const r of f.revs) {
          const ts = r.input.timestamp.getTime();
          let prev: FreshRevision | undefined;
          for (const d of done) {
            const dts = d.input.timestamp.getTime();
            if (dts <= ts && (!prev || dts > prev.input.timestamp.getTime() || (dts === prev.input.timestamp.getTime() && d.revId > prev.revId))) prev = d;
          }
          r.parent = prev?.revId ?? null;
          done.push(r);
        }
      }

      await q.query(
        `INSERT INTO ${s}.page (page_id, page_namespace, page_title, page_touched, page_content_model)
         SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::timestamptz[], $5::text[])`,
        [pageIds, fresh.map((f) => f.input.ns), fresh.map((f) => f.input.dbkey), fresh.map((f) => f.revs[0]!.input.timestamp), fresh.map((f) => f.revs[0]!.input.model)],
      );
      await q.query(
        `INSERT INTO ${s}.content (content_id, content_size, content_sha1, content_model, content_format, content_text)
         SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[])`,
        [
          allRevs.map((r) => r.contentId),
          allRevs.map((r) => r.size),
          allRevs.map((r) => r.sha1),
          allRevs.map((r) => r.input.model),
          allRevs.map((r) => r.input.format),
          allRevs.map((r) => r.input.text),
        ],
      );
      const pageOfRev = fresh.flatMap((f, n) => f.revs.map(() => pageIds[n]!));
      await q.query(
        `INSERT INTO ${s}.revision (rev_id, rev_page, rev_parent_id, rev_timestamp, rev_actor, rev_comment, rev_minor_edit, rev_deleted, rev_len, rev_sha1, rev_content_id)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::timestamptz[], $5::bigint[], $6::text[], $7::boolean[], $8::smallint[], $9::int[], $10::text[], $11::bigint[])`,
        [
          allRevs.map((r) => r.revId),
          pageOfRev,
          allRevs.map((r) => r.parent),
          allRevs.map((r) => r.input.timestamp),
          allRevs.map((r) => r.actor),
          allRevs.map((r) => r.input.comment),
          allRevs.map((r) => r.input.minor),
          allRevs.map((r) => r.input.deleted),
          allRevs.map((r) => r.size),
          allRevs.map((r) => r.sha1),
          allRevs.map((r) => r.contentId),
        ],
      );
      // Each page's newest revision (by time, then id) becomes its latest.
      const latest = fresh.map((f) =>
        f.revs.reduce((a, b) => (b.input.timestamp.getTime() > a.input.timestamp.getTime() || (b.input.timestamp.getTime() === a.input.timestamp.getTime() && b.revId > a.revId) ? b : a)),
      );
      const redirects = latest.map((r) => (r.input.model === 'wikitext' ? redirectTarget(codec, r.input.text) : undefined));
      await q.query(
        `UPDATE ${s}.page p SET page_latest = u.latest, page_len = u.len, page_touched = u.touched, page_is_new = u.is_new, page_is_redirect = u.is_redirect, page_content_model = u.model
           FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::timestamptz[], $5::boolean[], $6::boolean[], $7::text[]) AS u(id, latest, len, touched, is_new, is_redirect, model)
          WHERE p.page_id = u.id`,
        [
          pageIds,
          latest.map((r) => r.revId),
          latest.map((r) => r.size),
          latest.map((r) => r.input.timestamp),
          fresh.map((f) => f.revs.length === 1),
          redirects.map((r) => r !== undefined),
          latest.map((r) => r.input.model),
        ],
      );
      const rd = redirects.flatMap((r, n) => (r ? [{ from: pageIds[n]!, ...r }] : []));
      if (rd.length) {
        await q.query(`INSERT INTO ${s}.redirect (rd_from, rd_namespace, rd_title, rd_fragment) SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[])`, [
          rd.map((r) => r.from),
          rd.map((r) => r.ns),
          rd.map((r) => r.dbkey),
          rd.map((r) => r.fragment),
        ]);
      }
      const good = fresh.filter((f, n) => countable(codec, f.input.ns, latest[n]!.input.model, latest[n]!.input.text)).length;
      await q.query(`UPDATE ${s}.site_stats SET ss_total_edits = ss_total_edits + $1, ss_total_pages = ss_total_pages + $2, ss_good_articles = ss_good_articles + $3 WHERE ss_row_id = 1`, [
        allRevs.length,
        fresh.length,
        good,
      ]);
      for (const [n, f] of fresh.entries()) {
        await recordPageChange(db, q, f.input.ns, f.input.dbkey);
        outcomes[f.i] = { pageId: pageIds[n]!, imported: f.revs.length, skipped: f.input.revisions.length - f.revs.length };
      }
    }
    for (const i of deferred) outcomes[i] = await importPage(db, codec, inputs[i]!);
    return outcomes;
  });
}
