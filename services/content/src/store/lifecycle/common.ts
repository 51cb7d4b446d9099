/* What the page lifecycle operations' SQL shares: their dependencies, page locking, the latest text, the null revision. */
import { notFound, type Db, type Queryable } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/common';
import type { TitleCodec } from '../../title/codec.js';
import { saveRevision, type SavedRevision } from '../save.js';
import { findPage, type PageKeyRow } from '../pages.js';

export interface LifecycleDeps {
  db: Db;
  codec: TitleCodec;
}

/** A page row locked for the rest of a lifecycle transaction. */
export type LockedPage = PageKeyRow;

/** Locks a page row for the rest of the transaction; undefined when the page does not exist. */
export async function lockPage(q: Queryable, db: Db, ns: number, dbkey: string): Promise<LockedPage | undefined> {
  return findPage(q, db.schema, { ns, dbkey }, { forUpdate: true });
}

export async function lockExistingPage(q: Queryable, db: Db, ns: number, dbkey: string): Promise<LockedPage> {
  const page = await lockPage(q, db, ns, dbkey);
  if (!page) throw notFound('missingtitle', "The page you specified doesn't exist.");
  return page;
}

/** The latest text of a locked page. */
export async function latestContent(q: Queryable, db: Db, page: Pick<LockedPage, 'latest'>): Promise<{ text: string; model: string; format: string }> {
  const r = await q.query<{ content_text: string; content_model: string; content_format: string }>(
    `SELECT c.content_text, c.content_model, c.content_format FROM ${db.schema}.revision r JOIN ${db.schema}.content c ON c.content_id = r.rev_content_id
      WHERE r.rev_id = $1`,
    [page.latest],
  );
  const row = r.rows[0]!;
  return { text: row.content_text, model: row.content_model, format: row.content_format };
}

/** The revision before this one in its page's history (rev_parent_id), 0 for a page's first. */
export async function parentRevisionId(q: Queryable, db: Db, revId: number): Promise<number> {
  const r = await q.query<{ rev_parent_id: string | number | null }>(`SELECT rev_parent_id FROM ${db.schema}.revision WHERE rev_id = $1`, [revId]);
  return Number(r.rows[0]?.rev_parent_id ?? 0);
}

/**
 * A null revision (same content as the latest, minor, no recent change of its own) recording a
 * change of the page itself — a move or a protection — in the history, as MediaWiki writes one.
 */
export async function saveNullRevision(
  q: Queryable,
  db: Db,
  codec: TitleCodec,
  page: LockedPage,
  at: { ns: number; dbkey: string },
  actor: EditActor,
  comment: string,
  timestamp: Date,
): Promise<SavedRevision> {
  const content = await latestContent(q, db, page);
  return saveRevision(db, codec, {
    ns: at.ns,
    dbkey: at.dbkey,
    baseRevId: page.latest,
    text: content.text,
    contentModel: content.model,
    contentFormat: content.format,
    user: { id: actor.id, name: actor.name },
    comment,
    minor: true,
    tags: [],
    timestamp,
    nullRevision: true,
  });
}
