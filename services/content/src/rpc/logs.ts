/*
 * Reads of the wiki's trail: list=logevents, list=recentchanges, list=usercontribs (newest first
 * by default, keyset-paginated on (timestamp, id); each returns up to limit + 1 rows so the
 * gateway can tell whether to continue), protections for prop=info, and the delivery of other
 * services' log entries.
 */
import type {
  GetProtectionRequest,
  GetProtectionResponse,
  ListLogEventsRequest,
  ListLogEventsResponse,
  ListRecentChangesRequest,
  ListRecentChangesResponse,
  ListUserContribsRequest,
  ListUserContribsResponse,
  RecordLogEntriesRequest,
  RecordLogEntriesResponse,
} from '@quire/proto/wiki/content/v1/content';
import { SqlArgs } from '../store/history.js';
import { publishLogEntry, writeLogEntry, type LogEntryInput } from '../store/logging.js';
import { cascadeSources, pageRestrictions, titleProtection } from '../store/protection.js';
import { isoTimestamp } from './records.js';
import type { ContentContext } from './context.js';

const RC_TYPES: Record<string, number> = { edit: 0, new: 1, log: 3, categorize: 6 };
const RC_TYPE_NAMES: Record<number, string> = { 0: 'edit', 1: 'new', 3: 'log', 6: 'categorize' };
const MAX_LIMIT = 5000;

/** rev_sha1 is base 36 (as MediaWiki stores it); the APIs show it in hex. */
function base36ToHex(s: string): string {
  let n = 0n;
  for (const ch of s) n = n * 36n + BigInt(parseInt(ch, 36));
  return n.toString(16).padStart(40, '0');
}

/** Keyset bounds and order on (timestamp column, id column). */
function window(args: SqlArgs, where: string[], ts: string, id: string, req: { start: string; end: string; newer: boolean; continueTimestamp: string; continueId: number }): string {
  const [lo, hi] = req.newer ? [req.start, req.end] : [req.end, req.start];
  if (lo) where.push(`${ts} >= ${args.add(new Date(lo))}`);
  if (hi) where.push(`${ts} <= ${args.add(new Date(hi))}`);
  if (req.continueTimestamp) {
    where.push(`(${ts}, ${id}) ${req.newer ? '>=' : '<='} (${args.add(new Date(req.continueTimestamp))}, ${args.add(req.continueId)})`);
  }
  const dir = req.newer ? 'ASC' : 'DESC';
  return `ORDER BY ${ts} ${dir}, ${id} ${dir}`;
}

const tri = (where: string[], value: number, condition: string) => {
  if (value === 1) where.push(condition);
  else if (value === -1) where.push(`NOT (${condition})`);
};

const limitOf = (n: number) => Math.min(Math.max(n, 1), MAX_LIMIT) + 1;

export function logHandlers(ctx: ContentContext) {
  const { db, codec } = ctx;
  const s = db.schema;
  const tagsOf = (column: string, id: string) =>
    `ARRAY(SELECT d.ctd_name FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.${column} = ${id} ORDER BY d.ctd_name)`;
  const tagFilter = (args: SqlArgs, column: string, id: string, tag: string) =>
    `EXISTS (SELECT 1 FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.${column} = ${id} AND d.ctd_name = ${args.add(tag)})`;

  return {
    async listLogEvents(req: ListLogEventsRequest): Promise<ListLogEventsResponse> {
      const args = new SqlArgs();
      const where: string[] = [];
      if (req.type) where.push(`l.log_type = ${args.add(req.type)}`);
      if (req.action) {
        const [type, action] = req.action.split('/');
        where.push(`l.log_type = ${args.add(type)}`);
        if (action && action !== '*') where.push(`l.log_action = ${args.add(action)}`);
      }
      if (req.user) where.push(`a.actor_name = ${args.add(req.user)}`);
      if (req.hasTitle) where.push(`l.log_namespace = ${args.add(req.ns)} AND l.log_title = ${args.add(req.dbkey)}`);
      if (req.namespace >= 0 && !req.hasTitle) where.push(`l.log_namespace = ${args.add(req.namespace)}`);
      if (req.tag) where.push(tagFilter(args, 'ct_log_id', 'l.log_id', req.tag));
      const order = window(args, where, 'l.log_timestamp', 'l.log_id', req);
      const r = await db.query<{
        log_id: number;
        log_type: string;
        log_action: string;
        log_timestamp: Date;
        actor_name: string;
        actor_user: number | null;
        log_namespace: number;
        log_title: string;
        log_page: number | null;
        page_id: number | null;
        log_comment: string;
        log_params: Record<string, unknown>;
        tags: string[];
      }>(
        `SELECT l.log_id, l.log_type, l.log_action, l.log_timestamp, a.actor_name, a.actor_user, l.log_namespace, l.log_title, l.log_page,
                p.page_id, l.log_comment, l.log_params, ${tagsOf('ct_log_id', 'l.log_id')} AS tags
           FROM ${s}.logging l JOIN ${s}.actor a ON a.actor_id = l.log_actor
           LEFT JOIN ${s}.page p ON p.page_namespace = l.log_namespace AND p.page_title = l.log_title
          ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${order} LIMIT ${limitOf(req.limit)}`,
        args.values,
      );
      return {
        events: r.rows.map((row) => ({
          logId: row.log_id,
          type: row.log_type,
          action: row.log_action,
          timestamp: isoTimestamp(row.log_timestamp),
          user: row.actor_name,
          userId: row.actor_user ?? 0,
          ns: row.log_namespace,
          title: codec.prefixedText(row.log_namespace, row.log_title),
          pageId: row.page_id ?? 0,
          logPage: row.log_page ?? 0,
          comment: row.log_comment,
          paramsJson: JSON.stringify(row.log_params),
          tags: row.tags,
        })),
      };
    },

    async listRecentChanges(req: ListRecentChangesRequest): Promise<ListRecentChangesResponse> {
      const args = new SqlArgs();
      const where: string[] = [];
      if (req.types.length) where.push(`rc.rc_type = ANY(${args.add(req.types.map((t) => RC_TYPES[t] ?? -1))}::smallint[])`);
      if (req.namespaces.length) where.push(`rc.rc_namespace = ANY(${args.add(req.namespaces)}::int[])`);
      if (req.user) where.push(`a.actor_name = ${args.add(req.user)}`);
      if (req.excludeUser) where.push(`a.actor_name <> ${args.add(req.excludeUser)}`);
      if (req.tag) where.push(tagFilter(args, 'ct_rc_id', 'rc.rc_id', req.tag));
      if (req.hasTitle) where.push(`rc.rc_namespace = ${args.add(req.titleNs)} AND rc.rc_title = ${args.add(req.titleDbkey)}`);
      tri(where, req.minor, 'rc.rc_minor');
      tri(where, req.bot, 'rc.rc_bot');
      tri(where, req.anon, 'a.actor_user IS NULL');
      tri(where, req.redirect, 'COALESCE(p.page_is_redirect, false)');
      tri(where, req.patrolled, 'rc.rc_patrolled <> 0');
      tri(where, req.autopatrolled, 'rc.rc_patrolled = 2');
      tri(where, req.unpatrolled, 'rc.rc_patrolled = 0');
      if (req.topOnly) where.push('rc.rc_this_oldid = p.page_latest');
      const order = window(args, where, 'rc.rc_timestamp', 'rc.rc_id', req);
      const r = await db.query<{
        rc_id: number;
        rc_type: number;
        rc_namespace: number;
        rc_title: string;
        rc_cur_id: number;
        rc_this_oldid: number;
        rc_last_oldid: number;
        actor_name: string;
        actor_user: number | null;
        rc_comment: string;
        rc_timestamp: Date;
        rc_minor: boolean;
        rc_bot: boolean;
        rc_new: boolean;
        rc_old_len: number | null;
        rc_new_len: number | null;
        rc_patrolled: number;
        rc_logid: number | null;
        rc_log_type: string | null;
        rc_log_action: string | null;
        rc_params: Record<string, unknown> | null;
        tags: string[];
        sha1: string | null;
        page_is_redirect: boolean | null;
        page_latest: number | null;
      }>(
        `SELECT rc.*, a.actor_name, a.actor_user, ${tagsOf('ct_rc_id', 'rc.rc_id')} AS tags,
                COALESCE(rev.rev_sha1, ar.ar_sha1) AS sha1, p.page_is_redirect, p.page_latest
           FROM ${s}.recentchanges rc JOIN ${s}.actor a ON a.actor_id = rc.rc_actor
           LEFT JOIN ${s}.page p ON p.page_id = rc.rc_cur_id
           LEFT JOIN ${s}.revision rev ON rev.rev_id = rc.rc_this_oldid
           LEFT JOIN ${s}.archive ar ON ar.ar_rev_id = rc.rc_this_oldid
          ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${order} LIMIT ${limitOf(req.limit)}`,
        args.values,
      );
      return {
        changes: r.rows.map((row) => ({
          rcId: row.rc_id,
          type: RC_TYPE_NAMES[row.rc_type] ?? 'edit',
          ns: row.rc_namespace,
          title: codec.prefixedText(row.rc_namespace, row.rc_title),
          pageId: row.rc_cur_id,
          revId: row.rc_this_oldid,
          oldRevId: row.rc_last_oldid,
          user: row.actor_name,
          userId: row.actor_user ?? 0,
          anon: row.actor_user === null,
          comment: row.rc_comment,
          timestamp: isoTimestamp(row.rc_timestamp),
          minor: row.rc_minor,
          bot: row.rc_bot,
          new: row.rc_new,
          oldLen: row.rc_old_len ?? 0,
          newLen: row.rc_new_len ?? 0,
          patrolled: row.rc_patrolled,
          logId: row.rc_logid ?? 0,
          logType: row.rc_log_type ?? '',
          logAction: row.rc_log_action ?? '',
          logParamsJson: row.rc_params ? JSON.stringify(row.rc_params) : '',
          tags: row.tags,
          sha1: row.sha1 ? base36ToHex(row.sha1) : '',
          redirect: row.page_is_redirect ?? false,
          top: row.page_latest !== null && row.page_latest === row.rc_this_oldid,
        })),
      };
    },

    async listUserContribs(req: ListUserContribsRequest): Promise<ListUserContribsResponse> {
      const args = new SqlArgs();
      const where: string[] = [];
      const who: string[] = [];
      if (req.users.length) who.push(`a.actor_name = ANY(${args.add(req.users)}::text[])`);
      if (req.userIds.length) who.push(`a.actor_user = ANY(${args.add(req.userIds)}::bigint[])`);
      if (req.userPrefix) who.push(`a.actor_name LIKE ${args.add(`${req.userPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
      where.push(who.length ? `(${who.join(' OR ')})` : 'false');
      if (req.namespaces.length) where.push(`p.page_namespace = ANY(${args.add(req.namespaces)}::int[])`);
      if (req.tag) where.push(tagFilter(args, 'ct_rev_id', 'r.rev_id', req.tag));
      tri(where, req.minor, 'r.rev_minor_edit');
      tri(where, req.new, 'r.rev_parent_id IS NULL');
      tri(where, req.top, 'r.rev_id = p.page_latest');
      tri(where, req.patrolled, 'COALESCE(rc.rc_patrolled, 0) <> 0');
      tri(where, req.autopatrolled, 'COALESCE(rc.rc_patrolled, 0) = 2');
      if (req.hideBits) where.push(`(r.rev_deleted & ${args.add(req.hideBits)}) <> ${args.add(req.hideBits)}`);
      const order = window(args, where, 'r.rev_timestamp', 'r.rev_id', req);
      const r = await db.query<{
        rev_id: number;
        rev_parent_id: number | null;
        rev_timestamp: Date;
        rev_comment: string;
        rev_minor_edit: boolean;
        rev_deleted: number;
        rev_len: number;
        parent_len: number | null;
        actor_name: string;
        actor_user: number | null;
        page_id: number;
        page_namespace: number;
        page_title: string;
        page_latest: number;
        rc_patrolled: number | null;
        tags: string[];
      }>(
        `SELECT r.rev_id, r.rev_parent_id, r.rev_timestamp, r.rev_comment, r.rev_minor_edit, r.rev_deleted, r.rev_len, parent.rev_len AS parent_len,
                a.actor_name, a.actor_user, p.page_id, p.page_namespace, p.page_title, p.page_latest, rc.rc_patrolled,
                ${tagsOf('ct_rev_id', 'r.rev_id')} AS tags
           FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor JOIN ${s}.page p ON p.page_id = r.rev_page
           LEFT JOIN ${s}.revision parent ON parent.rev_id = r.rev_parent_id
           LEFT JOIN ${s}.recentchanges rc ON rc.rc_this_oldid = r.rev_id AND rc.rc_type IN (0, 1)
          WHERE ${where.join(' AND ')} ${order} LIMIT ${limitOf(req.limit)}`,
        args.values,
      );
      return {
        contribs: r.rows.map((row) => ({
          userId: row.actor_user ?? 0,
          user: row.actor_name,
          pageId: row.page_id,
          revId: row.rev_id,
          parentId: row.rev_parent_id ?? 0,
          ns: row.page_namespace,
          title: codec.prefixedText(row.page_namespace, row.page_title),
          timestamp: isoTimestamp(row.rev_timestamp),
          new: row.rev_parent_id === null,
          minor: row.rev_minor_edit,
          top: row.rev_id === row.page_latest,
          comment: row.rev_comment,
          size: row.rev_len,
          sizeDiff: row.rev_len - (row.parent_len ?? 0),
          tags: row.tags,
          patrolled: row.rc_patrolled ?? -1,
          deleted: row.rev_deleted,
        })),
      };
    },

    async getProtection(req: GetProtectionRequest): Promise<GetProtectionResponse> {
      const out: GetProtectionResponse = { titles: [] };
      for (const text of req.titles) {
        const t = codec.parse(text);
        const page = await db.query<{ page_id: number }>(`SELECT page_id FROM ${s}.page WHERE page_namespace = $1 AND page_title = $2`, [t.ns, t.dbkey]);
        const iso = (d: Date | undefined) => (d ? isoTimestamp(d) : 'infinity');
        const protections = [];
        if (page.rows[0]) {
          for (const r of await pageRestrictions(db, db, page.rows[0].page_id)) {
            protections.push({ type: r.type, level: r.level, expiry: iso(r.expiry), cascade: r.cascade, source: '' });
          }
        } else {
          const pt = await titleProtection(db, db, t.ns, t.dbkey);
          if (pt) protections.push({ type: 'create', level: pt.level, expiry: iso(pt.expiry), cascade: false, source: '' });
        }
        const cascade = await cascadeSources(db, db, t.ns, t.dbkey);
        for (const [type, levels] of cascade.levels) {
          for (const level of levels) {
            for (const src of cascade.sources) {
              protections.push({ type, level, expiry: 'infinity', cascade: false, source: codec.prefixedText(src.ns, src.dbkey) });
            }
          }
        }
        out.titles.push({ title: text, protections });
      }
      return out;
    },

    async recordLogEntries(req: RecordLogEntriesRequest): Promise<RecordLogEntriesResponse> {
      let recorded = 0;
      for (const e of req.entries) {
        await db.tx(async (q) => {
          const seen = await q.query(`SELECT 1 FROM ${s}.logging WHERE log_origin = $1`, [e.origin]);
          if (seen.rows.length > 0) return;
          const entry: LogEntryInput = {
            type: e.type,
            action: e.action,
            actor: { id: e.userId, name: e.userName },
            ns: e.ns,
            dbkey: e.dbkey,
            pageId: 0,
            comment: e.comment,
            params: e.paramsJson ? (JSON.parse(e.paramsJson) as Record<string, unknown>) : {},
            timestamp: new Date(e.timestamp),
            origin: e.origin,
            // Checked by the gateway before the auth service wrote the change (ApiBlock, ApiUserrights).
            tags: e.tags,
          };
          // Published with a recent change, as MediaWiki publishes newusers, block and rights
          // entries, except those it only inserts (newusers/autocreate).
          if (e.logOnly) await writeLogEntry(q, db, entry);
          else await publishLogEntry(q, db, entry, { bot: e.bot });
          recorded++;
        });
      }
      return { recorded };
    },
  };
}
