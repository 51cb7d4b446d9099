/*
 * A page's history as MediaWiki's REST history handlers read it (PageHistoryHandler,
 * PageHistoryCountHandler): revisions ordered by (rev_timestamp, rev_id), paged with a keyset on
 * that pair (the (rev_page, rev_timestamp, rev_id) index makes every page cost the same, however
 * deep), and counts that stop after cap + 1 matching rows so counting never reads more than that.
 */
import type { Db } from '@quire/kit';
import type { RevisionRow, RevisionStore } from './revisions.js';

export type HistoryFilter = 'anonymous' | 'bot' | 'reverted' | 'minor';
export type CountType = 'anonymous' | 'bot' | 'editors' | 'edits' | 'minor' | 'reverted';

/** ChangeTags::REVERT_TAGS: the tags of edits that revert others (the "reverted" filter and count). */
export const REVERT_TAGS = ['mw-rollback', 'mw-undo', 'mw-manual-revert'] as const;

/** RevisionRecord::DELETED_* bits. */
const DELETED_TEXT = 1;
const DELETED_USER = 4;

export interface HistoryQuery {
  /** At most one: revisions strictly older / newer than this revision of the page. */
  olderThan?: number;
  newerThan?: number;
  filter?: HistoryFilter;
  limit: number;
  /**
   * PageHistoryHandler::getBitmask: revisions whose rev_deleted has all these bits are left out of
   * the anonymous and bot filters (their author is hidden from the caller). 0: no such rule.
   */
  hiddenUserBits: number;
  /** The bot filter's authors: users now in a group with the `bot` right (from the auth service). */
  botUserIds?: readonly number[];
}

export interface HistoryPage {
  /** Newest first, whatever the direction of travel. */
  revisions: RevisionRow[];
  /** More revisions exist beyond these in the direction of travel. */
  more: boolean;
  /** False when olderThan/newerThan is not a revision of this page (nothing else was read). */
  relativeFound: boolean;
}

export interface RevisionCount {
  /** At most the cap. */
  count: number;
  /** The real count exceeds the cap. */
  limit: boolean;
}

interface RevisionPosition {
  id: number;
  page: number;
  timestamp: Date;
}

/** Collects positional query parameters. */
export class SqlArgs {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

export class HistoryStore {
  constructor(
    private readonly db: Db,
    private readonly revisions: RevisionStore,
  ) {}

  private revertTagCondition(args: SqlArgs): string {
    const s = this.db.schema;
    return `EXISTS (SELECT 1 FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id
      WHERE ct.ct_rev_id = r.rev_id AND d.ctd_name = ANY(${args.add([...REVERT_TAGS])}::text[]))`;
  }

  /**
   * PageHistoryHandler / PageHistoryCountHandler: a bot edit is one whose author is *now* in a
   * group with the `bot` right (user_groups), not one saved with rev_bot.
   */
  private botAuthorCondition(args: SqlArgs, botUserIds: readonly number[]): string {
    return `a.actor_user = ANY(${args.add([...botUserIds])}::bigint[])`;
  }

  /** Where revisions are (page and time), by id; unknown ids are absent. */
  async positions(revIds: number[]): Promise<Map<number, RevisionPosition>> {
    if (revIds.length === 0) return new Map();
    const r = await this.db.query<{ rev_id: number; rev_page: number; rev_timestamp: Date }>(
      `SELECT rev_id, rev_page, rev_timestamp FROM ${this.db.schema}.revision WHERE rev_id = ANY($1::bigint[])`,
      [revIds],
    );
    return new Map(r.rows.map((x) => [x.rev_id, { id: x.rev_id, page: x.rev_page, timestamp: x.rev_timestamp }]));
  }

  /** One page of a page's history (PageHistoryHandler::getDbResults). */
  async history(pageId: number, q: HistoryQuery): Promise<HistoryPage> {
    if (q.olderThan !== undefined && q.newerThan !== undefined) throw new Error('olderThan and newerThan cannot be combined');
    const args = new SqlArgs();
    const conds = [`r.rev_page = ${args.add(pageId)}`];
    const relativeId = q.olderThan ?? q.newerThan;
    const newer = q.newerThan !== undefined;
    if (relativeId !== undefined) {
      const rel = (await this.positions([relativeId])).get(relativeId);
      if (!rel || rel.page !== pageId) return { revisions: [], more: false, relativeFound: false };
      conds.push(`(r.rev_timestamp, r.rev_id) ${newer ? '>' : '<'} (${args.add(rel.timestamp)}::timestamptz, ${args.add(rel.id)}::bigint)`);
    }
    const hidden = (bits: number) => {
      if (bits) conds.push(`(r.rev_deleted & ${args.add(bits)}) <> ${args.add(bits)}`);
    };
    switch (q.filter) {
      case 'anonymous':
        conds.push('a.actor_user IS NULL');
        hidden(q.hiddenUserBits);
        break;
      case 'bot':
        conds.push(this.botAuthorCondition(args, q.botUserIds ?? []));
        hidden(q.hiddenUserBits);
        break;
      case 'reverted':
        conds.push(this.revertTagCondition(args));
        break;
      case 'minor':
        conds.push('r.rev_minor_edit');
        break;
      case undefined:
        break;
    }
    const dir = newer ? 'ASC' : 'DESC';
    const rows = await this.revisions.where(conds.join(' AND '), args.values, `ORDER BY r.rev_timestamp ${dir}, r.rev_id ${dir} LIMIT ${args.add(q.limit + 1)}`, false);
    const more = rows.length > q.limit;
    const page = rows.slice(0, q.limit);
    return { revisions: newer ? page.reverse() : page, more, relativeFound: true };
  }

  /**
   * How many revisions of a page are of a type (PageHistoryCountHandler::get*Count), reading at
   * most cap + 1 matching rows. `between` (edits and editors only) gives two revisions of the page,
   * in either order; the count covers the revisions strictly between them, as MediaWiki's
   * RevisionStore::countRevisionsBetween / countAuthorsBetween without INCLUDE_* options.
   * `botUserIds` (the bot count only) are the users now in a group with the `bot` right.
   */
  /** PageHistoryCountHandler::loggingTableTime: MAX(log_timestamp) of the page's log entries. */
  async lastLogTimestamp(pageId: number): Promise<Date | undefined> {
    const r = await this.db.query<{ ts: Date | null }>(`SELECT max(log_timestamp) AS ts FROM ${this.db.schema}.logging WHERE log_page = $1`, [pageId]);
    return r.rows[0]?.ts ?? undefined;
  }

  async count(pageId: number, type: CountType, cap: number, between?: [RevisionPosition, RevisionPosition], botUserIds: readonly number[] = []): Promise<RevisionCount> {
    const args = new SqlArgs();
    const conds = [`r.rev_page = ${args.add(pageId)}`];
    let joinActor = false;
    let distinctActors = false;
    if (between) {
      const [a, b] = between;
      if (a.id === b.id) return { count: 0, limit: false };
      const [old, neu] = a.timestamp < b.timestamp || (a.timestamp.getTime() === b.timestamp.getTime() && a.id < b.id) ? [a, b] : [b, a];
      conds.push(`(r.rev_timestamp, r.rev_id) > (${args.add(old.timestamp)}::timestamptz, ${args.add(old.id)}::bigint)`);
      conds.push(`(r.rev_timestamp, r.rev_id) < (${args.add(neu.timestamp)}::timestamptz, ${args.add(neu.id)}::bigint)`);
    }
    switch (type) {
      case 'edits':
        conds.push(`(r.rev_deleted & ${DELETED_TEXT}) = 0`);
        break;
      case 'editors':
        conds.push(`(r.rev_deleted & ${DELETED_USER}) = 0`);
        distinctActors = true;
        break;
      case 'anonymous':
        joinActor = true;
        conds.push('a.actor_user IS NULL', `(r.rev_deleted & ${DELETED_TEXT | DELETED_USER}) = 0`);
        break;
      case 'bot':
        joinActor = true;
        conds.push(this.botAuthorCondition(args, botUserIds), `(r.rev_deleted & ${DELETED_TEXT | DELETED_USER}) = 0`);
        break;
      case 'minor':
        conds.push('r.rev_minor_edit', `(r.rev_deleted & ${DELETED_TEXT}) = 0`);
        break;
      case 'reverted':
        // MediaWiki 1.39 builds a rev_deleted condition for this count but never applies it.
        conds.push(this.revertTagCondition(args));
        break;
    }
    const s = this.db.schema;
    const from = `${s}.revision r${joinActor ? ` JOIN ${s}.actor a ON a.actor_id = r.rev_actor` : ''}`;
    const inner = `SELECT ${distinctActors ? 'DISTINCT r.rev_actor' : '1'} FROM ${from} WHERE ${conds.join(' AND ')} LIMIT ${args.add(cap + 1)}`;
    const r = await this.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM (${inner}) capped`, args.values);
    const n = Number(r.rows[0]?.n ?? 0);
    return { count: Math.min(n, cap), limit: n > cap };
  }
}
