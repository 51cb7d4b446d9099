/*
 * The wiki's trail of changes: log entries (MediaWiki's ManualLogEntry::insert) and recent changes
 * (RecentChange::save), always written with a Queryable of the transaction that makes the change
 * itself, so a change and its trail commit or roll back together.
 */
import type { Db, Queryable } from '@quire/kit';
import { actorId } from './actor.js';

export interface LogActor {
  /** 0 with the IP address as name for anonymous users. */
  id: number;
  name: string;
  /** Has the bot right: its log entries are bot changes (RecentChange::newLogEntry). */
  bot?: boolean;
}

export interface LogEntryInput {
  /** log_type: delete, move, protect, create, upload, newusers, block, rights, patrol… */
  type: string;
  /** log_action: delete, restore, move, move_redir, protect, modify, unprotect, create, upload, overwrite… */
  action: string;
  actor: LogActor;
  ns: number;
  dbkey: string;
  /** The target page's id at the time of the action; 0 when none. */
  pageId: number;
  comment: string;
  /** MediaWiki's log parameters, keyed as LogFormatter keys them ("4::target", "5::noredir"…). */
  params: Record<string, unknown>;
  /** Defaults to now, at one-second resolution. */
  timestamp?: Date;
  tags?: string[];
  /** Idempotency key of an entry delivered from another service (see RecordLogEntries). */
  origin?: string;
}

/** RecentChange's rc_patrolled values. */
export const PATROL = { unpatrolled: 0, patrolled: 1, autopatrolled: 2 } as const;
export type PatrolState = (typeof PATROL)[keyof typeof PATROL];

interface RecentChangeCommon {
  timestamp: Date;
  actor: LogActor;
  ns: number;
  dbkey: string;
  pageId: number;
  comment: string;
  bot: boolean;
  patrolled: PatrolState;
  tags?: string[];
}

export type RecentChangeInput =
  | (RecentChangeCommon & {
      /** An edit of an existing page (rc_type 0) or the creation of a page (rc_type 1). */
      kind: 'edit' | 'new';
      minor: boolean;
      revId: number;
      /** 0 for a page creation. */
      parentId: number;
      oldLen: number | null;
      newLen: number;
      /** Tags already written for the revision are linked to the change instead of repeated. */
      revisionTagsWritten?: boolean;
    })
  | (RecentChangeCommon & {
      /** A published log entry (rc_type 3). */
      kind: 'log';
      logId: number;
      logType: string;
      logAction: string;
      params: Record<string, unknown>;
      /** The revision a log action made (a move's null revision, a protection's), if any. */
      revId?: number;
    });

const RC_TYPE = { edit: 0, new: 1, log: 3 } as const;
const RC_SOURCE = { edit: 'mw.edit', new: 'mw.new', log: 'mw.log' } as const;

export const nowToTheSecond = () => new Date(Math.floor(Date.now() / 1000) * 1000);

/**
 * Tags one change: a revision, a log entry and/or a recent change (one change_tag row per tag, as
 * ChangeTags::updateTags). Unknown tags are registered as software-defined; counts follow.
 */
export async function addChangeTags(q: Queryable, db: Db, tags: readonly string[], target: { revId?: number; logId?: number; rcId?: number }): Promise<void> {
  const names = [...new Set(tags)];
  if (names.length === 0) return;
  const s = db.schema;
  // One statement for all the tags (an edit's round trips).
  await q.query(
    `WITH d AS (
       INSERT INTO ${s}.change_tag_def (ctd_name, ctd_user_defined, ctd_count) SELECT t, false, 1 FROM unnest($1::text[]) AS t
       ON CONFLICT (ctd_name) DO UPDATE SET ctd_count = ${s}.change_tag_def.ctd_count + 1 RETURNING ctd_id)
     INSERT INTO ${s}.change_tag (ct_rev_id, ct_log_id, ct_rc_id, ct_tag_id) SELECT $2::bigint, $3::bigint, $4::bigint, ctd_id FROM d`,
    [names, target.revId ?? null, target.logId ?? null, target.rcId ?? null],
  );
}

/** Inserts a log entry (ManualLogEntry::insert) and its tags; returns log_id. Does not publish it to recent changes. */
export async function writeLogEntry(q: Queryable, db: Db, entry: LogEntryInput): Promise<number> {
  const s = db.schema;
  const actor = await actorId(q, s, entry.actor);
  const r = await q.query<{ log_id: number }>(
    `INSERT INTO ${s}.logging (log_type, log_action, log_timestamp, log_actor, log_namespace, log_title, log_page, log_comment, log_params, log_origin)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING log_id`,
    [
      entry.type,
      entry.action,
      entry.timestamp ?? nowToTheSecond(),
      actor,
      entry.ns,
      entry.dbkey,
      entry.pageId > 0 ? entry.pageId : null,
      entry.comment,
      JSON.stringify(entry.params),
      entry.origin ?? null,
    ],
  );
  const logId = r.rows[0]!.log_id;
  if (entry.tags?.length) await addChangeTags(q, db, entry.tags, { logId });
  return logId;
}

/** Inserts a recent change (RecentChange::save) and links its tags; returns rc_id. */
export async function writeRecentChange(q: Queryable, db: Db, rc: RecentChangeInput): Promise<number> {
  const s = db.schema;
  const actor = await actorId(q, s, rc.actor);
  const isLog = rc.kind === 'log';
  const r = await q.query<{ rc_id: number }>(
    `INSERT INTO ${s}.recentchanges (rc_timestamp, rc_actor, rc_namespace, rc_title, rc_comment, rc_minor, rc_bot, rc_new, rc_cur_id,
       rc_this_oldid, rc_last_oldid, rc_type, rc_source, rc_patrolled, rc_ip, rc_old_len, rc_new_len, rc_logid, rc_log_type, rc_log_action, rc_params)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21) RETURNING rc_id`,
    [
      rc.timestamp,
      actor,
      rc.ns,
      rc.dbkey,
      rc.comment,
      isLog ? false : rc.minor,
      rc.bot,
      rc.kind === 'new',
      rc.pageId,
      rc.revId ?? 0,
      isLog ? 0 : rc.parentId,
      RC_TYPE[rc.kind],
      RC_SOURCE[rc.kind],
      rc.patrolled,
      rc.actor.id === 0 ? rc.actor.name : '',
      isLog ? null : rc.oldLen,
      isLog ? null : rc.newLen,
      isLog ? rc.logId : null,
      isLog ? rc.logType : null,
      isLog ? rc.logAction : null,
      isLog ? JSON.stringify(rc.params) : null,
    ],
  );
  const rcId = r.rows[0]!.rc_id;
  if (rc.tags?.length) {
    if (isLog) {
      await q.query(`UPDATE ${s}.change_tag SET ct_rc_id = $1 WHERE ct_log_id = $2`, [rcId, rc.logId]);
    } else if (rc.revisionTagsWritten) {
      await q.query(`UPDATE ${s}.change_tag SET ct_rc_id = $1 WHERE ct_rev_id = $2`, [rcId, rc.revId]);
    } else {
      await addChangeTags(q, db, rc.tags, { revId: rc.revId, rcId });
    }
  }
  return rcId;
}

export interface PublishOptions {
  /** A bot's action (rc_bot). */
  bot?: boolean;
  /**
   * Patrollable log entries (uploads) are unpatrolled unless the actor may autopatrol; every
   * other log entry is autopatrolled (RecentChange::newLogEntry).
   */
  patrollable?: boolean;
  /** Whether the actor has the autopatrol right (only read for patrollable entries). */
  autopatrol?: boolean;
  /** The revision the action made, if any (rc_this_oldid). */
  revId?: number;
}

/** ManualLogEntry::insert + publish: the log entry and its recent change, in the caller's transaction. */
export async function publishLogEntry(q: Queryable, db: Db, entry: LogEntryInput, opts: PublishOptions = {}): Promise<{ logId: number; rcId: number }> {
  const timestamp = entry.timestamp ?? nowToTheSecond();
  const logId = await writeLogEntry(q, db, { ...entry, timestamp });
  // EmailNotification::notifyOnPageChange of the recent change: whoever else watches the target
  // learns of it (list=watchlistraw's `changed`), once until they visit it, as an edit's watchers do.
  if (entry.ns >= 0) {
    await q.query(
      `UPDATE ${db.schema}.watchlist SET wl_notificationtimestamp = $1
        WHERE wl_namespace = $2 AND wl_title = $3 AND wl_user IS DISTINCT FROM $4 AND wl_notificationtimestamp IS NULL AND (wl_expiry IS NULL OR wl_expiry > now())`,
      [timestamp, entry.ns, entry.dbkey, entry.actor.id],
    );
  }
  const rcId = await writeRecentChange(q, db, {
    kind: 'log',
    timestamp,
    actor: entry.actor,
    ns: entry.ns,
    dbkey: entry.dbkey,
    pageId: entry.pageId,
    comment: entry.comment,
    bot: opts.bot ?? entry.actor.bot ?? false,
    patrolled: opts.patrollable && !opts.autopatrol ? PATROL.unpatrolled : PATROL.autopatrolled,
    tags: entry.tags,
    logId,
    logType: entry.type,
    logAction: entry.action,
    params: entry.params,
    revId: opts.revId,
  });
  return { logId, rcId };
}

/**
 * EditPage::wasDeletedSinceLastEdit: a title was deleted (a delete/delete log entry) after `since`
 * and its revisions are still archived.
 */
export async function deletedSince(db: Queryable & { schema: string }, title: { ns: number; dbkey: string }, since: Date): Promise<boolean> {
  const s = db.schema;
  const r = await db.query(
    `SELECT 1 FROM ${s}.logging WHERE log_namespace = $1 AND log_title = $2 AND log_type = 'delete' AND log_action = 'delete'
       AND log_timestamp > $3 AND EXISTS (SELECT 1 FROM ${s}.archive WHERE ar_namespace = $1 AND ar_title = $2) LIMIT 1`,
    [title.ns, title.dbkey, since],
  );
  return r.rows.length > 0;
}

/** Whether the log entry delivered from another service under this origin key was already recorded. */
export async function logOriginRecorded(q: Queryable, schema: string, origin: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM ${schema}.logging WHERE log_origin = $1`, [origin])).rows.length > 0;
}

/** Marks the recent changes of the given revisions as bot edits (rollback with markbot). */
export async function flagRecentChangesBot(q: Queryable, schema: string, revIds: number[]): Promise<void> {
  await q.query(`UPDATE ${schema}.recentchanges SET rc_bot = true WHERE rc_this_oldid = ANY($1::bigint[])`, [revIds]);
}

/** Autopatrols the unpatrolled recent changes of the given revisions. */
export async function autopatrolRecentChanges(q: Queryable, schema: string, revIds: number[]): Promise<void> {
  await q.query(`UPDATE ${schema}.recentchanges SET rc_patrolled = ${PATROL.autopatrolled} WHERE rc_this_oldid = ANY($1::bigint[]) AND rc_patrolled = 0`, [revIds]);
}

/** A recent change (by id, or the edit of a revision) with its author, locked for the caller's transaction. */
export async function lockRecentChange(q: Queryable, schema: string, which: { rcId: number } | { revId: number }) {
  const byRc = 'rcId' in which;
  const r = await q.query<{ rc_id: number; rc_namespace: number; rc_title: string; rc_patrolled: number; rc_cur_id: number; rc_this_oldid: number; rc_last_oldid: number; actor_name: string }>(
    `SELECT rc.rc_id, rc.rc_namespace, rc.rc_title, rc.rc_patrolled, rc.rc_cur_id, rc.rc_this_oldid, rc.rc_last_oldid, a.actor_name
       FROM ${schema}.recentchanges rc JOIN ${schema}.actor a ON a.actor_id = rc.rc_actor
      WHERE ${byRc ? 'rc.rc_id = $1' : 'rc.rc_this_oldid = $1 AND rc.rc_type IN (0, 1)'} FOR UPDATE OF rc`,
    [byRc ? which.rcId : which.revId],
  );
  return r.rows[0];
}

export async function markRecentChangePatrolled(q: Queryable, schema: string, rcId: number): Promise<void> {
  await q.query(`UPDATE ${schema}.recentchanges SET rc_patrolled = ${PATROL.patrolled} WHERE rc_id = $1`, [rcId]);
}
