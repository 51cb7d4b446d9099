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
