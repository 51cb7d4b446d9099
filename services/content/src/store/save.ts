import { alreadyExists, conflict, notFound, type Db, type Queryable } from '@quire/kit';
import { sha1Base36 } from '../content/sha1.js';
import { hasPageLink, redirectTarget } from '../content/wikitext.js';
import type { TitleCodec } from '../title/codec.js';
import { actorId } from './actor.js';
import { addChangeTags, nowToTheSecond, PATROL, writeLogEntry } from './logging.js';
import { recordPageChange } from './page-cache.js';

export interface SaveRevisionInput {
  ns: number;
  dbkey: string;
  /**
   * The revision this one is based on: it must still be the page's latest revision, or the save
   * fails with `editconflict`. 0 creates the page, and fails with `articleexists` if it exists.
   */
  baseRevId: number;
  text: string;
  contentModel: string;
  contentFormat: string;
  /** userId 0 with an IP address as name for anonymous editors. */
  user: { id: number; name: string };
  comment: string;
  minor: boolean;
  /** A bot edit (MediaWiki's rc_bot); false when omitted. */
  bot?: boolean;
  /** Change tag names; unknown ones are registered as software-defined tags. */
  tags: string[];
  /** Defaults to now, at MediaWiki's one-second resolution. */
  timestamp?: Date;
  /** The editor has the autopatrol right: the recent change is autopatrolled (else unpatrolled). */
  autopatrol?: boolean;
  /**
   * A null revision recording a log action (move, protect): no recent change of its own, as
   * MediaWiki's null revisions (the log entry's recent change shows the action). Default false.
   */
  nullRevision?: boolean;
  /** The page creation log entry (create/create, $wgPageCreationLog); default true for creations. */
  creationLog?: boolean;
  /**
   * The base revision as the caller read it (model, text, size), when it has: the save then does
   * not read it again (it is the page's latest revision, or the save fails with editconflict).
   */
  base?: { model: string; text: string; size: number };
}

export interface SavedRevision {
  pageId: number;
  revId: number;
  /** 0 when the page was created. */
  parentId: number;
  timestamp: Date;
  created: boolean;
  size: number;
  sha1: string;
  /** The recent change of the edit; 0 for a null revision. */
  rcId: number;
}

/**
 * Whether a page counts as an article ($wgArticleCountMethod = 'link'): a non-redirect wikitext
 * page in a content namespace with at least one link to a page.
 */
export function countable(codec: TitleCodec, ns: number, model: string, text: string): boolean {
  return codec.namespaces.isContent(ns) && model === 'wikitext' && !redirectTarget(codec, text) && hasPageLink(codec, text);
}

interface BasePage {
  pageId: number;
  created: boolean;
  oldCountable: boolean;
  /** The base revision's size (rc_old_len); undefined for a creation. */
  oldLen: number | undefined;
  /** Whether the page was a redirect before this save (its redirect row then goes). */
  wasRedirect: boolean;
}

/** Creates the page row, or locks the existing one and checks that `baseRevId` is still its latest. */
async function claimPage(q: Queryable, schema: string, codec: TitleCodec, input: SaveRevisionInput, timestamp: Date): Promise<BasePage> {
  if (input.baseRevId === 0) {
    // The unique (namespace, title) index makes a concurrent creator wait here, then find the page.
    const created = await q.query<{ page_id: number }>(
      `INSERT INTO ${schema}.page (page_namespace, page_title, page_touched, page_content_model)
       VALUES ($1, $2, $3, $4) ON CONFLICT (page_namespace, page_title) DO NOTHING RETURNING page_id`,
      [input.ns, input.dbkey, timestamp, input.contentModel],
    );
    if (!created.rows[0]) throw alreadyExists('articleexists', 'The article you tried to create has been created already.');
    return { pageId: created.rows[0].page_id, created: true, oldCountable: false, oldLen: undefined, wasRedirect: false };
  }
  // FOR UPDATE serializes saves on one page; a save that waited re-reads page_latest afterwards.
  // (Lock the page row alone: with a join, READ COMMITTED would recheck the waiting row against
  // the stale joined revision and lose it.)
  const r = await q.query<{ page_id: number; page_latest: number; page_is_redirect: boolean }>(
    `SELECT page_id, page_latest, page_is_redirect FROM ${schema}.page WHERE page_namespace = $1 AND page_title = $2 FOR UPDATE`,
    [input.ns, input.dbkey],
  );
  const page = r.rows[0];
  if (!page) throw notFound('missingtitle', "The page you specified doesn't exist.");
  if (page.page_latest !== input.baseRevId) {
    throw conflict('editconflict', 'Edit conflict.', { latestRevId: page.page_latest, baseRevId: input.baseRevId });
  }
  // The base revision as the caller prepared on it (the row lock just proved it is still the latest).
  let base = input.base;
  if (!base) {
    const old = await q.query<{ content_model: string; content_text: string; rev_len: number }>(
      `SELECT c.content_model, c.content_text, r.rev_len FROM ${schema}.revision r JOIN ${schema}.content c ON c.content_id = r.rev_content_id
        WHERE r.rev_id = $1`,
      [page.page_latest],
    );
    const row = old.rows[0]!;
    base = { model: row.content_model, text: row.content_text, size: row.rev_len };
  }
  return {
    pageId: page.page_id,
    created: false,
    oldCountable: countable(codec, input.ns, base.model, base.text),
    oldLen: base.size,
    wasRedirect: page.page_is_redirect,
  };
}

const RC_NEW = 1;
const RC_EDIT = 0;

/**
 * Saves a new revision of a page in one transaction: content, revision, tags, the page row
 * (latest, length, touched, new, redirect flag and target) and the site counters. A compare-and-
 * set on the page's latest revision makes a concurrent save on the same base fail instead of
 * overwriting: revision parents always form one chain.
 *
 * Round trips: the page row is locked (or created) by one statement; content, revision,
 * page row, redirect row, recent change and site counters are written by one more (data-modifying
 * CTEs); tags and the creation log entry only when there are any. The page's triggers queue its
 * deferred work (refreshLinks job, change feed) in the same transaction.
 */
export async function saveRevision(db: Db, codec: TitleCodec, input: SaveRevisionInput): Promise<SavedRevision> {
  const s = db.schema;
  const timestamp = input.timestamp ?? nowToTheSecond();
  const size = Buffer.byteLength(input.text, 'utf8');
  const sha1 = sha1Base36(input.text);
  const redirect = input.contentModel === 'wikitext' ? redirectTarget(codec, input.text) : undefined;
  const isCountable = countable(codec, input.ns, input.contentModel, input.text);

  return db.tx(async (q) => {
    const base = await claimPage(q, s, codec, input, timestamp);
    await recordPageChange(db, q, input.ns, input.dbkey);
    const actor = await actorId(q, s, input.user);
    const parentId = base.created ? 0 : input.baseRevId;
    const withRc = !input.nullRevision;
    const written = await q.query<{ rev_id: number; rc_id: number | null }>(
      `WITH c AS (
         INSERT INTO ${s}.content (content_size, content_sha1, content_model, content_format, content_text)
         VALUES ($1::int, $2::text, $3::text, $4::text, $5::text) RETURNING content_id
       ), r AS (
         INSERT INTO ${s}.revision (rev_page, rev_parent_id, rev_timestamp, rev_actor, rev_comment, rev_minor_edit, rev_len, rev_sha1, rev_content_id, rev_bot)
         SELECT $6::bigint, NULLIF($7::bigint, 0), $8::timestamptz, $9::bigint, $10::text, $11::boolean, $1::int, $2::text, c.content_id, $12::boolean FROM c
         RETURNING rev_id
       ), p AS (
         UPDATE ${s}.page SET page_latest = r.rev_id, page_len = $1::int, page_touched = $8::timestamptz, page_is_new = $13::boolean,
                page_is_redirect = $14::boolean, page_content_model = $3::text
           FROM r WHERE page_id = $6::bigint
       ), rd_set AS (
         INSERT INTO ${s}.redirect (rd_from, rd_namespace, rd_title, rd_fragment)
         SELECT $6::bigint, $15::int, $16::text, $17::text WHERE $14::boolean
         ON CONFLICT (rd_from) DO UPDATE SET rd_namespace = EXCLUDED.rd_namespace, rd_title = EXCLUDED.rd_title, rd_fragment = EXCLUDED.rd_fragment
       ), rd_drop AS (
         DELETE FROM ${s}.redirect WHERE rd_from = $6::bigint AND NOT $14::boolean AND $18::boolean
       ), rc AS (
         INSERT INTO ${s}.recentchanges (rc_timestamp, rc_actor, rc_namespace, rc_title, rc_comment, rc_minor, rc_bot, rc_new, rc_cur_id,
           rc_this_oldid, rc_last_oldid, rc_type, rc_source, rc_patrolled, rc_ip, rc_old_len, rc_new_len)
         SELECT $8::timestamptz, $9::bigint, $19::int, $20::text, $10::text, $11::boolean, $12::boolean, $13::boolean, $6::bigint,
           r.rev_id, $7::bigint, $21::int, $22::text, $23::int, $24::text, $25::int, $1::int FROM r WHERE $26::boolean
         RETURNING rc_id
       ), st AS (
         UPDATE ${s}.site_stats SET ss_total_edits = ss_total_edits + 1, ss_total_pages = ss_total_pages + $27::int,
           ss_good_articles = ss_good_articles + $28::int WHERE ss_row_id = 1
       )
       SELECT r.rev_id, (SELECT rc_id FROM rc) AS rc_id FROM r`,
      [
        size,
        sha1,
        input.contentModel,
        input.contentFormat,
        input.text,
        base.pageId,
        parentId,
        timestamp,
        actor,
        input.comment,
        input.minor,
        input.bot ?? false,
        base.created,
        redirect !== undefined,
        redirect?.ns ?? 0,
        redirect?.dbkey ?? '',
        redirect?.fragment ?? '',
        base.wasRedirect,
        input.ns,
        input.dbkey,
        base.created ? RC_NEW : RC_EDIT,
        base.created ? 'mw.new' : 'mw.edit',
        input.autopatrol ? PATROL.autopatrolled : PATROL.unpatrolled,
        input.user.id === 0 ? input.user.name : '',
        base.oldLen ?? null,
        withRc,
        base.created ? 1 : 0,
        Number(isCountable) - Number(base.oldCountable),
      ],
    );
    const revId = written.rows[0]!.rev_id;
    const rcId = written.rows[0]!.rc_id ?? 0;
    const tags = [...new Set(input.tags)];
    await addChangeTags(q, db, tags, withRc ? { revId, rcId } : { revId });
    if (base.created && input.creationLog !== false) {
      // PageUpdater: the creation log entry is not published to recent changes (the "new" change is).
      await writeLogEntry(q, db, {
        type: 'create',
        action: 'create',
        actor: input.user,
        ns: input.ns,
        dbkey: input.dbkey,
        pageId: base.pageId,
        comment: input.comment,
        params: { associated_rev_id: revId },
        timestamp,
      });
    }
    return { pageId: base.pageId, revId, parentId, timestamp, created: base.created, size, sha1, rcId };
  });
}

/**
 * The common edit — a new revision of an existing page, on the base revision the caller prepared
 * on and whose text it read — saved by ONE statement outside any explicit transaction:
 * a statement is atomic by itself, so content, revision, page row, redirect row, recent change,
 * change tags and site counters commit together, and the page row's triggers queue the deferred
 * work (refreshLinks job, change feed) in it as well. The compare-and-set is the statement's own:
 * the page row is locked only if its latest revision is still `baseRevId` (FOR UPDATE rechecks
 * that after waiting for a concurrent save), and every write hangs off that row, so a stale base
 * writes nothing and fails with `editconflict` (a deleted page with `missingtitle`), as
 * `saveRevision` does. No row lock is held across round trips.
 */
export async function saveRevisionOnBase(db: Db, codec: TitleCodec, input: SaveRevisionInput & { pageId: number; base: NonNullable<SaveRevisionInput['base']> }): Promise<SavedRevision> {
  const s = db.schema;
  const timestamp = input.timestamp ?? nowToTheSecond();
  const size = Buffer.byteLength(input.text, 'utf8');
  const sha1 = sha1Base36(input.text);
  const redirect = input.contentModel === 'wikitext' ? redirectTarget(codec, input.text) : undefined;
  const countDelta = Number(countable(codec, input.ns, input.contentModel, input.text)) - Number(countable(codec, input.ns, input.base.model, input.base.text));
  const actor = await actorId(db, s, input.user);
  const tags = [...new Set(input.tags)];
  const r = await db.query<{ rev_id: number | null; rc_id: number | null; latest: number | null }>(
    `WITH p0 AS (
       SELECT page_id FROM ${s}.page WHERE page_id = $6::bigint AND page_namespace = $18::int AND page_title = $19::text AND page_latest = $7::bigint FOR UPDATE
     ), c AS (
       INSERT INTO ${s}.content (content_size, content_sha1, content_model, content_format, content_text)
       SELECT $1::int, $2::text, $3::text, $4::text, $5::text FROM p0 RETURNING content_id
     ), r AS (
       INSERT INTO ${s}.revision (rev_page, rev_parent_id, rev_timestamp, rev_actor, rev_comment, rev_minor_edit, rev_len, rev_sha1, rev_content_id, rev_bot)
       SELECT $6::bigint, $7::bigint, $8::timestamptz, $9::bigint, $10::text, $11::boolean, $1::int, $2::text, c.content_id, $12::boolean FROM c
       RETURNING rev_id
     ), p AS (
       UPDATE ${s}.page SET page_latest = r.rev_id, page_len = $1::int, page_touched = $8::timestamptz, page_is_new = false,
              page_is_redirect = $13::boolean, page_content_model = $3::text
         FROM r WHERE page_id = $6::bigint
     ), rd_set AS (
       INSERT INTO ${s}.redirect (rd_from, rd_namespace, rd_title, rd_fragment)
       SELECT $6::bigint, $14::int, $15::text, $16::text FROM r WHERE $13::boolean
       ON CONFLICT (rd_from) DO UPDATE SET rd_namespace = EXCLUDED.rd_namespace, rd_title = EXCLUDED.rd_title, rd_fragment = EXCLUDED.rd_fragment
     ), rd_drop AS (
       DELETE FROM ${s}.redirect WHERE rd_from = (SELECT page_id FROM p0) AND NOT $13::boolean
     ), rc AS (
       INSERT INTO ${s}.recentchanges (rc_timestamp, rc_actor, rc_namespace, rc_title, rc_comment, rc_minor, rc_bot, rc_new, rc_cur_id,
         rc_this_oldid, rc_last_oldid, rc_type, rc_source, rc_patrolled, rc_ip, rc_old_len, rc_new_len)
       SELECT $8::timestamptz, $9::bigint, $18::int, $19::text, $10::text, $11::boolean, $12::boolean, false, $6::bigint,
         r.rev_id, $7::bigint, ${RC_EDIT}, 'mw.edit', $20::int, $21::text, $22::int, $1::int FROM r
       RETURNING rc_id
     ), td AS (
       INSERT INTO ${s}.change_tag_def (ctd_name, ctd_user_defined, ctd_count)
       SELECT t, false, 1 FROM unnest($17::text[]) AS t WHERE EXISTS (SELECT 1 FROM p0)
       ON CONFLICT (ctd_name) DO UPDATE SET ctd_count = ${s}.change_tag_def.ctd_count + 1 RETURNING ctd_id
     ), ct AS (
       INSERT INTO ${s}.change_tag (ct_rev_id, ct_log_id, ct_rc_id, ct_tag_id) SELECT r.rev_id, NULL, rc.rc_id, td.ctd_id FROM r, rc, td
     ), st AS (
       UPDATE ${s}.site_stats SET ss_total_edits = ss_total_edits + 1, ss_good_articles = ss_good_articles + $23::int
        WHERE ss_row_id = 1 AND EXISTS (SELECT 1 FROM p0)
     )
     SELECT (SELECT rev_id FROM r) AS rev_id, (SELECT rc_id FROM rc) AS rc_id,
            (SELECT page_latest FROM ${s}.page WHERE page_namespace = $18::int AND page_title = $19::text) AS latest`,
    [
      size,
      sha1,
      input.contentModel,
      input.contentFormat,
      input.text,
      input.pageId,
      input.baseRevId,
      timestamp,
      actor,
      input.comment,
      input.minor,
      input.bot ?? false,
      redirect !== undefined,
      redirect?.ns ?? 0,
      redirect?.dbkey ?? '',
      redirect?.fragment ?? '',
      tags,
      input.ns,
      input.dbkey,
      input.autopatrol ? PATROL.autopatrolled : PATROL.unpatrolled,
      input.user.id === 0 ? input.user.name : '',
      input.base.size,
      countDelta,
    ],
  );
  const row = r.rows[0]!;
  if (row.rev_id === null) {
    if (row.latest === null) throw notFound('missingtitle', "The page you specified doesn't exist.");
    throw conflict('editconflict', 'Edit conflict.', { latestRevId: row.latest, baseRevId: input.baseRevId });
  }
  // After the commit: the cached page goes. (On a server, recordPageChange's NOTIFY would come
  // after the commit, outside it: callers use `saveRevision` there, whose transaction holds it.)
  await recordPageChange(db, db, input.ns, input.dbkey);
  return { pageId: input.pageId, revId: row.rev_id, parentId: input.baseRevId, timestamp, created: false, size, sha1, rcId: row.rc_id ?? 0 };
}
