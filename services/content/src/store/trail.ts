/*
 * Reads of the wiki's trail (list=logevents, list=recentchanges, list=usercontribs): newest first
 * by default, keyset-paginated on (timestamp, id); each returns up to limit + 1 rows so the
 * gateway can tell whether to continue.
 */
import type { Db } from '@quire/kit';
import type { ListLogEventsRequest, ListRecentChangesRequest } from '@quire/proto/wiki/content/logs/v1/logs';
import type { ListUserContribsRequest } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { SqlArgs } from './history.js';
import { ipHex, ipsInRange } from './ip-range.js';

const RC_TYPES: Record<string, number> = { edit: 0, new: 1, log: 3, categorize: 6 };
const MAX_LIMIT = 5000;

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

const tagsOf = (s: string, column: string, id: string) =>
  `ARRAY(SELECT d.ctd_name FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.${column} = ${id} ORDER BY d.ctd_name)`;
const tagFilter = (s: string, args: SqlArgs, column: string, id: string, tag: string) =>
  `EXISTS (SELECT 1 FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.${column} = ${id} AND d.ctd_name = ${args.add(tag)})`;

/** list=logevents: log entries with their actor, page and tags. */
export async function logEventRows(db: Db, req: ListLogEventsRequest) {
  const s = db.schema;
  const args = new SqlArgs();
  const where: string[] = [];
  if (req.type) where.push(`l.log_type = ${args.add(req.type)}`);
  if (req.action) {
    const [type, action] = req.action.split('/');
    where.push(`l.log_type = ${args.add(type)}`);
    if (action && action !== '*') where.push(`l.log_action = ${args.add(action)}`);
  }
  // $wgLogRestrictions: the types the caller may not read are left out of every listing.
  if (req.hiddenTypes.length) where.push(`l.log_type <> ALL(${args.add(req.hiddenTypes)}::text[])`);
  if (req.user) where.push(`a.actor_name = ${args.add(req.user)}`);
  if (req.hasTitle) where.push(`l.log_namespace = ${args.add(req.ns)} AND l.log_title = ${args.add(req.dbkey)}`);
  if (req.hasPrefix) where.push(`l.log_namespace = ${args.add(req.ns)} AND l.log_title LIKE ${args.add(`${req.dbkey.replace(/[\\%_]/g, '\\$&')}%`)}`);
  if (req.namespace >= 0 && !req.hasTitle && !req.hasPrefix) where.push(`l.log_namespace = ${args.add(req.namespace)}`);
  if (req.tag) where.push(tagFilter(s, args, 'ct_log_id', 'l.log_id', req.tag));
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
            p.page_id, l.log_comment, l.log_params, ${tagsOf(s, 'ct_log_id', 'l.log_id')} AS tags
       FROM ${s}.logging l JOIN ${s}.actor a ON a.actor_id = l.log_actor
       LEFT JOIN ${s}.page p ON p.page_namespace = l.log_namespace AND p.page_title = l.log_title
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${order} LIMIT ${limitOf(req.limit)}`,
    args.values,
  );
  return r.rows;
}

/** list=recentchanges: recent changes with their actor, tags, revision SHA-1 and page state. */
export async function recentChangeRows(db: Db, req: ListRecentChangesRequest) {
  const s = db.schema;
  const args = new SqlArgs();
  const where: string[] = [];
  if (req.types.length) where.push(`rc.rc_type = ANY(${args.add(req.types.map((t) => RC_TYPES[t] ?? -1))}::smallint[])`);
  if (req.namespaces.length) where.push(`rc.rc_namespace = ANY(${args.add(req.namespaces)}::int[])`);
  if (req.user) where.push(`a.actor_name = ${args.add(req.user)}`);
  if (req.excludeUser) where.push(`a.actor_name <> ${args.add(req.excludeUser)}`);
  // A change whose author is hidden from the caller matches no user filter (no guessing who it was).
  if ((req.user || req.excludeUser) && req.authorHideBits) {
    const bits = args.add(req.authorHideBits);
    where.push(`(rc.rc_deleted & ${bits}::int) <> ${bits}::int`);
  }
  if (req.tag) where.push(tagFilter(s, args, 'ct_rc_id', 'rc.rc_id', req.tag));
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
    rc_deleted: number;
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
    `SELECT rc.*, a.actor_name, a.actor_user, ${tagsOf(s, 'ct_rc_id', 'rc.rc_id')} AS tags,
            COALESCE(rev.rev_sha1, ar.ar_sha1) AS sha1, p.page_is_redirect, p.page_latest
       FROM ${s}.recentchanges rc JOIN ${s}.actor a ON a.actor_id = rc.rc_actor
       LEFT JOIN ${s}.page p ON p.page_id = rc.rc_cur_id
       LEFT JOIN ${s}.revision rev ON rev.rev_id = rc.rc_this_oldid
       LEFT JOIN ${s}.archive ar ON ar.ar_rev_id = rc.rc_this_oldid
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${order} LIMIT ${limitOf(req.limit)}`,
    args.values,
  );
  return r.rows;
}

/** list=usercontribs: revisions of the given users with their page, parent size, patrol state and tags. */
export async function userContribRows(db: Db, req: ListUserContribsRequest) {
  const s = db.schema;
  const args = new SqlArgs();
  const where: string[] = [];
  const who: string[] = [];
  if (req.users.length) who.push(`a.actor_name = ANY(${args.add(req.users)}::text[])`);
  if (req.userIds.length) who.push(`a.actor_user = ANY(${args.add(req.userIds)}::bigint[])`);
  if (req.userPrefix) who.push(`a.actor_name LIKE ${args.add(`${req.userPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  // uciprange: the anonymous actors in the range, in hex order (the listing's first key).
  let rangeOrder = '';
  if (req.ipRange) {
    const anon = await db.query<{ actor_name: string }>(`SELECT actor_name FROM ${s}.actor WHERE actor_user IS NULL`);
    const names = ipsInRange(
      anon.rows.map((r) => r.actor_name),
      req.ipRange,
    ).sort((x, y) => (ipHex(x) < ipHex(y) ? -1 : 1));
    if (!req.newer) names.reverse();
    const list = args.add(names);
    who.push(`a.actor_name = ANY(${list}::text[])`);
    rangeOrder = `array_position(${list}::text[], a.actor_name)`;
    if (req.continueUser) {
      const at = names.indexOf(req.continueUser) + 1;
      const [ts, id] = [args.add(req.continueTimestamp ? new Date(req.continueTimestamp) : null), args.add(req.continueId)];
      where.push(`(${rangeOrder} > ${args.add(at)} OR (${rangeOrder} = ${args.add(at)} AND (r.rev_timestamp, r.rev_id) ${req.newer ? '>=' : '<='} (${ts}::timestamptz, ${id}::bigint)))`);
    }
  }
  where.push(who.length ? `(${who.join(' OR ')})` : 'false');
  if (req.namespaces.length) where.push(`p.page_namespace = ANY(${args.add(req.namespaces)}::int[])`);
  if (req.tag) where.push(tagFilter(s, args, 'ct_rev_id', 'r.rev_id', req.tag));
  tri(where, req.minor, 'r.rev_minor_edit');
  tri(where, req.new, 'r.rev_parent_id IS NULL');
  tri(where, req.top, 'r.rev_id = p.page_latest');
  tri(where, req.patrolled, 'COALESCE(rc.rc_patrolled, 0) <> 0');
  tri(where, req.autopatrolled, 'COALESCE(rc.rc_patrolled, 0) = 2');
  if (req.hideBits) where.push(`(r.rev_deleted & ${args.add(req.hideBits)}) <> ${args.add(req.hideBits)}`);
  const order = window(args, where, 'r.rev_timestamp', 'r.rev_id', req.ipRange && req.continueUser ? { ...req, continueTimestamp: '' } : req);
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
            ${tagsOf(s, 'ct_rev_id', 'r.rev_id')} AS tags
       FROM ${s}.revision r JOIN ${s}.actor a ON a.actor_id = r.rev_actor JOIN ${s}.page p ON p.page_id = r.rev_page
       LEFT JOIN ${s}.revision parent ON parent.rev_id = r.rev_parent_id
       LEFT JOIN ${s}.recentchanges rc ON rc.rc_this_oldid = r.rev_id AND rc.rc_type IN (0, 1)
      WHERE ${where.join(' AND ')} ${rangeOrder ? order.replace('ORDER BY', `ORDER BY ${rangeOrder},`) : order} LIMIT ${limitOf(req.limit)}`,
    args.values,
  );
  return r.rows;
}
