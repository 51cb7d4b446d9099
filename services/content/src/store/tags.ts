/*
 * The change tag registry as MediaWiki's ChangeTags manages it (defineTag, undefineTag,
 * deleteTagEverywhere, tagUsageStatistics) and the tag-<name> messages of tags, all on
 * change_tag_def / change_tag. Each function runs on the caller's Queryable, so a tag change and
 * its managetags log entry commit together.
 */
import type { Db, Queryable } from '@quire/kit';

export interface TagDefRow {
  name: string;
  /** ctd_user_defined: created (or activated) by an administrator. */
  userDefined: boolean;
  /** ctd_count: how many changes carry it. */
  count: number;
}

/** The registry row of a tag, locked for the rest of the transaction; undefined when it has none. */
export async function lockTagDef(q: Queryable, db: Db, name: string): Promise<TagDefRow | undefined> {
  const r = await q.query<{ ctd_name: string; ctd_user_defined: boolean; ctd_count: string }>(
    `SELECT ctd_name, ctd_user_defined, ctd_count FROM ${db.schema}.change_tag_def WHERE ctd_name = $1 FOR UPDATE`,
    [name],
  );
  const row = r.rows[0];
  return row && { name: row.ctd_name, userDefined: row.ctd_user_defined, count: Number(row.ctd_count) };
}

/** ChangeTags::defineTag: ctd_user_defined = 1, inserting the row with count 0 when there is none. */
export async function defineTag(q: Queryable, db: Db, name: string): Promise<void> {
  await q.query(
    `INSERT INTO ${db.schema}.change_tag_def (ctd_name, ctd_user_defined, ctd_count) VALUES ($1, true, 0)
     ON CONFLICT (ctd_name) DO UPDATE SET ctd_user_defined = true`,
    [name],
  );
}

/** ChangeTags::undefineTag: ctd_user_defined = 0; a tag nothing carries leaves the registry. */
export async function undefineTag(q: Queryable, db: Db, name: string): Promise<void> {
  await q.query(`UPDATE ${db.schema}.change_tag_def SET ctd_user_defined = false WHERE ctd_name = $1`, [name]);
  await q.query(`DELETE FROM ${db.schema}.change_tag_def WHERE ctd_name = $1 AND ctd_count = 0`, [name]);
}

/** ChangeTags::deleteTagEverywhere: the tag leaves every revision, log entry and recent change, and the registry. */
export async function deleteTagEverywhere(q: Queryable, db: Db, name: string): Promise<void> {
  const s = db.schema;
  await q.query(`DELETE FROM ${s}.change_tag WHERE ct_tag_id IN (SELECT ctd_id FROM ${s}.change_tag_def WHERE ctd_name = $1)`, [name]);
  await q.query(`DELETE FROM ${s}.change_tag_def WHERE ctd_name = $1`, [name]);
}

/**
 * The texts of interface messages an administrator customised: the latest text of each
 * MediaWiki:<Key> page (the first letter upper case, as the namespace capitalises it), by key.
 */
export async function messageTexts(db: Db, keys: readonly string[], ns: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (keys.length === 0) return out;
  const dbkeys = keys.map((k) => {
    const key = k.replace(/ /g, '_');
    return key.charAt(0).toUpperCase() + key.slice(1);
  });
  const r = await db.query<{ page_title: string; content_text: string }>(
    `SELECT p.page_title, c.content_text FROM ${db.schema}.page p
       JOIN ${db.schema}.revision r ON r.rev_id = p.page_latest JOIN ${db.schema}.content c ON c.content_id = r.rev_content_id
      WHERE p.page_namespace = $1 AND p.page_title = ANY($2::text[])`,
    [ns, dbkeys],
  );
  const byKey = new Map(r.rows.map((row) => [row.page_title, row.content_text]));
  keys.forEach((k, i) => {
    const text = byKey.get(dbkeys[i]!);
    if (text !== undefined) out.set(k, text);
  });
  return out;
}

/** Which of the named tags an administrator defined and left active (ctd_user_defined). */
export async function userDefinedTagNames(db: Db, names: string[]): Promise<Set<string>> {
  const r = await db.query<{ ctd_name: string }>(`SELECT ctd_name FROM ${db.schema}.change_tag_def WHERE ctd_user_defined AND ctd_name = ANY($1::text[])`, [names]);
  return new Set(r.rows.map((x) => x.ctd_name));
}

/** A change that carries tags: a revision, a log entry or a recent change. */
export interface TaggedChange {
  kind: 'revision' | 'log' | 'rc';
  id: number;
}

const TAG_COLUMN = { revision: 'ct_rev_id', log: 'ct_log_id', rc: 'ct_rc_id' } as const;

/** The definitions (name, user-defined) of the named tags that have one. */
export async function tagDefsNamed(q: Queryable, schema: string, names: string[]): Promise<{ name: string; userDefined: boolean }[]> {
  const r = await q.query<{ ctd_name: string; ctd_user_defined: boolean }>(`SELECT ctd_name, ctd_user_defined FROM ${schema}.change_tag_def WHERE ctd_name = ANY($1::text[])`, [names]);
  return r.rows.map((d) => ({ name: d.ctd_name, userDefined: d.ctd_user_defined }));
}

/** Every tag definition with its hit count. */
export async function allTagDefs(db: Db): Promise<{ name: string; userDefined: boolean; count: number }[]> {
  const r = await db.query<{ ctd_name: string; ctd_user_defined: boolean; ctd_count: string }>(`SELECT ctd_name, ctd_user_defined, ctd_count FROM ${db.schema}.change_tag_def`);
  return r.rows.map((d) => ({ name: d.ctd_name, userDefined: d.ctd_user_defined, count: Number(d.ctd_count) }));
}

/** The title (and page id, 0 when none) a tagged change is about; undefined when the change does not exist. */
export async function taggedChangeTitle(q: Queryable, schema: string, change: TaggedChange): Promise<{ ns: number; dbkey: string; pageId: number } | undefined> {
  const s = schema;
  const sql = {
    revision: `SELECT p.page_namespace AS ns, p.page_title AS dbkey, p.page_id AS page_id FROM ${s}.revision r JOIN ${s}.page p ON p.page_id = r.rev_page WHERE r.rev_id = $1`,
    log: `SELECT log_namespace AS ns, log_title AS dbkey, log_page AS page_id FROM ${s}.logging WHERE log_id = $1`,
    rc: `SELECT rc_namespace AS ns, rc_title AS dbkey, rc_cur_id AS page_id FROM ${s}.recentchanges WHERE rc_id = $1`,
  }[change.kind];
  const row = (await q.query<{ ns: number; dbkey: string; page_id: number | null }>(sql, [change.id])).rows[0];
  return row && { ns: row.ns, dbkey: row.dbkey, pageId: Number(row.page_id ?? 0) };
}

/** The tag names of one change, sorted. */
export async function tagsOfChange(q: Queryable, schema: string, change: TaggedChange): Promise<string[]> {
  const r = await q.query<{ ctd_name: string }>(
    `SELECT d.ctd_name FROM ${schema}.change_tag ct JOIN ${schema}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.${TAG_COLUMN[change.kind]} = $1 ORDER BY d.ctd_name`,
    [change.id],
  );
  return r.rows.map((x) => x.ctd_name);
}

/** Adds a defined tag to a change and counts it. */
export async function tagChange(q: Queryable, schema: string, change: TaggedChange, tag: string): Promise<void> {
  await q.query(
    `WITH d AS (UPDATE ${schema}.change_tag_def SET ctd_count = ctd_count + 1 WHERE ctd_name = $2 RETURNING ctd_id)
     INSERT INTO ${schema}.change_tag (${TAG_COLUMN[change.kind]}, ct_tag_id) SELECT $1, ctd_id FROM d`,
    [change.id, tag],
  );
}

/** Removes a tag from a change and uncounts it. */
export async function untagChange(q: Queryable, schema: string, change: TaggedChange, tag: string): Promise<void> {
  await q.query(
    `WITH d AS (UPDATE ${schema}.change_tag_def SET ctd_count = GREATEST(ctd_count - 1, 0) WHERE ctd_name = $2 RETURNING ctd_id)
     DELETE FROM ${schema}.change_tag USING d WHERE ${TAG_COLUMN[change.kind]} = $1 AND ct_tag_id = d.ctd_id`,
    [change.id, tag],
  );
}
