import { alreadyExists, conflict, notFound, type Db, type Queryable } from '@quire/kit';
import { sha1Base36 } from '../content/sha1.js';
import { hasPageLink, redirectTarget } from '../content/wikitext.js';
import type { TitleCodec } from '../title/codec.js';
import { actorId } from './actor.js';
import { addChangeTags, nowToTheSecond, PATROL, writeLogEntry, writeRecentChange } from './logging.js';
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
    return { pageId: created.rows[0].page_id, created: true, oldCountable: false };
  }
  // FOR UPDATE serializes saves on one page; a save that waited re-reads page_latest afterwards.
  // (Lock the page row alone: with a join, READ COMMITTED would recheck the waiting row against
  // the stale joined revision and lose it.)
  const r = await q.query<{ page_id: number; page_latest: number }>(
    `SELECT page_id, page_latest FROM ${schema}.page WHERE page_namespace = $1 AND page_title = $2 FOR UPDATE`,
    [input.ns, input.dbkey],
  );
  const page = r.rows[0];
  if (!page) throw notFound('missingtitle', "The page you specified doesn't exist.");
  if (page.page_latest !== input.baseRevId) {
    throw conflict('editconflict', 'Edit conflict.', { latestRevId: page.page_latest, baseRevId: input.baseRevId });
  }
  const old = await q.query<{ content_model: string; content_text: string }>(
    `SELECT c.content_model, c.content_text FROM ${schema}.revision r JOIN ${schema}.content c ON c.content_id = r.rev_content_id
      WHERE r.rev_id = $1`,
    [page.page_latest],
  );
  const oldContent = old.rows[0]!;
  return { pageId: page.page_id, created: false, oldCountable: countable(codec, input.ns, oldContent.content_model, oldContent.content_text) };
}

/**
 * Saves a new revision of a page in one transaction: content, revision, tags, the page row
 * (latest, length, touched, new, redirect flag and target) and the site counters. A compare-and-
 * set on the page's latest revision makes a concurrent save on the same base fail instead of
 * overwriting: revision parents always form one chain.
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
    const content = await q.query<{ content_id: number }>(
      `INSERT INTO ${s}.content (content_size, content_sha1, content_model, content_format, content_text)
       VALUES ($1, $2, $3, $4, $5) RETURNING content_id`,
      [size, sha1, input.contentModel, input.contentFormat, input.text],
    );
    const rev = await q.query<{ rev_id: number }>(
      `INSERT INTO ${s}.revision (rev_page, rev_parent_id, rev_timestamp, rev_actor, rev_comment, rev_minor_edit, rev_len, rev_sha1, rev_content_id, rev_bot)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING rev_id`,
      [base.pageId, base.created ? null : input.baseRevId, timestamp, actor, input.comment, input.minor, size, sha1, content.rows[0]!.content_id, input.bot ?? false],
    );
    const revId = rev.rows[0]!.rev_id;
    await q.query(
      `UPDATE ${s}.page SET page_latest = $2, page_len = $3, page_touched = $4, page_is_new = $5, page_is_redirect = $6, page_content_model = $7
       WHERE page_id = $1`,
      [base.pageId, revId, size, timestamp, base.created, redirect !== undefined, input.contentModel],
    );
    if (redirect) {
      await q.query(
        `INSERT INTO ${s}.redirect (rd_from, rd_namespace, rd_title, rd_fragment) VALUES ($1, $2, $3, $4)
         ON CONFLICT (rd_from) DO UPDATE SET rd_namespace = EXCLUDED.rd_namespace, rd_title = EXCLUDED.rd_title, rd_fragment = EXCLUDED.rd_fragment`,
        [base.pageId, redirect.ns, redirect.dbkey, redirect.fragment],
      );
    } else if (!base.created) {
      await q.query(`DELETE FROM ${s}.redirect WHERE rd_from = $1`, [base.pageId]);
    }
    const tags = [...new Set(input.tags)];
    await addChangeTags(q, db, tags, { revId });
    let rcId = 0;
    if (!input.nullRevision) {
      const oldLen = base.created
        ? null
        : (await q.query<{ rev_len: number }>(`SELECT rev_len FROM ${s}.revision WHERE rev_id = $1`, [input.baseRevId])).rows[0]!.rev_len;
      rcId = await writeRecentChange(q, db, {
        kind: base.created ? 'new' : 'edit',
        timestamp,
        actor: input.user,
        ns: input.ns,
        dbkey: input.dbkey,
        pageId: base.pageId,
        comment: input.comment,
        minor: input.minor,
        bot: input.bot ?? false,
        patrolled: input.autopatrol ? PATROL.autopatrolled : PATROL.unpatrolled,
        revId,
        parentId: base.created ? 0 : input.baseRevId,
        oldLen,
        newLen: size,
        tags,
        revisionTagsWritten: true,
      });
    }
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
    await q.query(
      `UPDATE ${s}.site_stats SET ss_total_edits = ss_total_edits + 1, ss_total_pages = ss_total_pages + $1,
         ss_good_articles = ss_good_articles + $2 WHERE ss_row_id = 1`,
      [base.created ? 1 : 0, Number(isCountable) - Number(base.oldCountable)],
    );
    return { pageId: base.pageId, revId, parentId: base.created ? 0 : input.baseRevId, timestamp, created: base.created, size, sha1, rcId };
  });
}
