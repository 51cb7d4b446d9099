/* wiki.content.v1.WatchlistService: watching pages, watchlists and new-talk notifications. */
import { invalidArgument } from '@quire/kit';
import type {
  GetNewTalkRequest,
  GetNewTalkResponse,
  ListWatchlistRawRequest,
  ListWatchlistRawResponse,
  ListWatchlistRequest,
  ListWatchlistResponse,
  MarkTalkPageSeenRequest,
  MarkTalkPageSeenResponse,
  WatchedTitle,
  WatchRequest,
  WatchResponse,
} from '@quire/proto/wiki/content/v1/files';
import { MalformedTitleError } from '../title/codec.js';
import { NS_USER_TALK } from '../title/namespaces.js';
import { setWatch } from '../store/watchlist.js';
import { isoTimestamp } from './records.js';
import type { ContentContext } from './context.js';

const RC_TYPES: Record<string, number> = { edit: 0, new: 1, log: 3, categorize: 6 };
const iso = (d: Date | null) => (d ? isoTimestamp(d) : '');

export function watchHandlers(ctx: ContentContext) {
  const { db, codec } = ctx;
  const s = db.schema;

  return {
    async watch(req: WatchRequest): Promise<WatchResponse> {
      if (req.userId <= 0) throw invalidArgument('notloggedin', 'Please log in to view or edit items on your watchlist.');
      const expiry = req.expiry === '' ? undefined : new Date(req.expiry);
      return db.tx(async (q) => {
        const titles: WatchedTitle[] = [];
        for (const text of req.titles) {
          let t;
          try {
            t = codec.parse(text);
            if (t.dbkey === '') throw new MalformedTitleError('title-invalid-empty', text);
          } catch (e) {
            if (!(e instanceof MalformedTitleError)) throw e;
            titles.push({ title: text, ns: 0, missing: false, invalid: true, invalidReason: e.message, special: false, expiry: '' });
            continue;
          }
          const title = codec.prefixedText(t.ns, t.dbkey);
          if (t.ns < 0) {
            titles.push({ title, ns: t.ns, missing: true, invalid: false, invalidReason: '', special: true, expiry: '' });
            continue;
          }
          const page = await q.query(`SELECT 1 FROM ${s}.page WHERE page_namespace = $1 AND page_title = $2`, [t.ns, t.dbkey]);
          await setWatch(q, db, req.userId, t.ns, t.dbkey, !req.unwatch, expiry);
          titles.push({ title, ns: t.ns, missing: page.rows.length === 0, invalid: false, invalidReason: '', special: false, expiry: !req.unwatch && expiry ? isoTimestamp(expiry) : '' });
        }
        return { titles };
      });
    },

    async listWatchlist(req: ListWatchlistRequest): Promise<ListWatchlistResponse> {
      const where: string[] = ['w.wl_user = $1', '(w.wl_expiry IS NULL OR w.wl_expiry > now())'];
      const args: unknown[] = [req.userId];
      const arg = (v: unknown) => {
        args.push(v);
        return `$${args.length}`;
      };
      const older = !req.newerFirst; // wldir=older (default) lists the newest first
      const types = (req.types.length ? req.types : ['edit', 'new', 'log', 'categorize']).map((t) => RC_TYPES[t]).filter((t) => t !== undefined);
      where.push(`rc.rc_type = ANY(${arg(types)}::int[])`);
      if (req.namespaces.length) where.push(`rc.rc_namespace = ANY(${arg(req.namespaces)}::int[])`);
      if (req.start) where.push(`rc.rc_timestamp ${older ? '<=' : '>='} ${arg(new Date(req.start))}`);
      if (req.end) where.push(`rc.rc_timestamp ${older ? '>=' : '<='} ${arg(new Date(req.end))}`);
      if (req.user) where.push(`a.actor_name = ${arg(req.user)}`);
      if (req.excludeUser) where.push(`a.actor_name <> ${arg(req.excludeUser)}`);
      for (const flag of req.show) {
        const not = flag.startsWith('!');
        const cond = { minor: 'rc.rc_minor', bot: 'rc.rc_bot', anon: 'a.actor_user IS NULL', unread: `(w.wl_notificationtimestamp IS NOT NULL AND rc.rc_timestamp >= w.wl_notificationtimestamp)` }[
          not ? flag.slice(1) : flag
        ];
        if (cond) where.push(not ? `NOT ${cond}` : cond);
      }
      // Without allrev only the latest change of each page (and every log entry) is listed.
      if (!req.allRevisions) where.push(`(rc.rc_type = 3 OR rc.rc_this_oldid = (SELECT page_latest FROM ${s}.page WHERE page_id = rc.rc_cur_id))`);
      if (req.continue) {
        const bar = req.continue.indexOf('|');
        where.push(`(rc.rc_timestamp, rc.rc_id) ${older ? '<=' : '>='} (${arg(new Date(req.continue.slice(0, bar)))}::timestamptz, ${arg(Number(req.continue.slice(bar + 1)))}::bigint)`);
      }
      const limit = Math.max(1, req.limit || 10);
      const dir = older ? 'DESC' : 'ASC';
      const r = await db.query<{
        rc_id: number; rc_type: number; rc_namespace: number; rc_title: string; rc_cur_id: number; rc_this_oldid: number; rc_last_oldid: number;
        actor_name: string; actor_user: number | null; rc_bot: boolean; rc_new: boolean; rc_minor: boolean; rc_old_len: number | null; rc_new_len: number | null;
        rc_timestamp: Date; wl_notificationtimestamp: Date | null; rc_comment: string; wl_expiry: Date | null; rc_log_type: string | null; rc_log_action: string | null;
        rc_logid: number | null; tags: string[] | null;
      }>(
        `SELECT rc.*, a.actor_name, a.actor_user, w.wl_notificationtimestamp, w.wl_expiry,
           (SELECT array_agg(d.ctd_name ORDER BY d.ctd_name) FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.ct_rc_id = rc.rc_id) AS tags
         FROM ${s}.recentchanges rc
         JOIN ${s}.watchlist w ON w.wl_namespace = rc.rc_namespace AND w.wl_title = rc.rc_title
         JOIN ${s}.actor a ON a.actor_id = rc.rc_actor
         WHERE ${where.join(' AND ')} ORDER BY rc.rc_timestamp ${dir}, rc.rc_id ${dir} LIMIT ${arg(limit + 1)}`,
        args,
      );
      const rows = r.rows.slice(0, limit);
      const next = r.rows[limit];
      return {
        changes: rows.map((row) => ({
          type: row.rc_type === 1 ? 'new' : row.rc_type === 3 ? 'log' : row.rc_type === 6 ? 'categorize' : 'edit',
          ns: row.rc_namespace,
          title: codec.prefixedText(row.rc_namespace, row.rc_title),
          pageId: Number(row.rc_cur_id),
          revId: Number(row.rc_this_oldid),
          oldRevId: Number(row.rc_last_oldid),
          user: row.actor_name,
          userId: row.actor_user ?? 0,
          anon: row.actor_user === null,
          bot: row.rc_bot,
          new: row.rc_new,
          minor: row.rc_minor,
          oldLen: row.rc_old_len ?? 0,
          newLen: row.rc_new_len ?? 0,
          timestamp: isoTimestamp(row.rc_timestamp),
          notificationTimestamp: iso(row.wl_notificationtimestamp),
          comment: row.rc_comment,
          expiry: iso(row.wl_expiry),
          rcId: Number(row.rc_id),
          logType: row.rc_log_type ?? '',
          logAction: row.rc_log_action ?? '',
          logId: Number(row.rc_logid ?? 0),
          tags: row.tags ?? [],
        })),
        continueFrom: next ? `${isoTimestamp(next.rc_timestamp)}|${next.rc_id}` : '',
      };
    },

    async listWatchlistRaw(req: ListWatchlistRawRequest): Promise<ListWatchlistRawResponse> {
      const where: string[] = ['wl_user = $1', '(wl_expiry IS NULL OR wl_expiry > now())'];
      const args: unknown[] = [req.userId];
      const arg = (v: unknown) => {
        args.push(v);
        return `$${args.length}`;
      };
      const bound = (v: string) => {
        const bar = v.indexOf('|');
        return bar < 0 ? undefined : ([Number(v.slice(0, bar)), v.slice(bar + 1)] as const);
      };
      if (req.namespaces.length) where.push(`wl_namespace = ANY(${arg(req.namespaces)}::int[])`);
      const cmp = req.descending ? '<=' : '>=';
      const from = bound(req.from);
      if (from) where.push(`(wl_namespace, wl_title COLLATE "C") ${cmp} (${arg(from[0])}::int, ${arg(from[1])}::text)`);
      const to = bound(req.to);
      if (to) where.push(`(wl_namespace, wl_title COLLATE "C") ${req.descending ? '>=' : '<='} (${arg(to[0])}::int, ${arg(to[1])}::text)`);
      if (req.show === 'changed') where.push('wl_notificationtimestamp IS NOT NULL');
      if (req.show === '!changed') where.push('wl_notificationtimestamp IS NULL');
      const dir = req.descending ? 'DESC' : 'ASC';
      const limit = Math.max(1, req.limit || 10);
      const r = await db.query<{ wl_namespace: number; wl_title: string; wl_notificationtimestamp: Date | null; wl_expiry: Date | null }>(
        `SELECT wl_namespace, wl_title, wl_notificationtimestamp, wl_expiry FROM ${s}.watchlist WHERE ${where.join(' AND ')}
         ORDER BY wl_namespace ${dir}, wl_title COLLATE "C" ${dir} LIMIT ${arg(limit + 1)}`,
        args,
      );
      const next = r.rows[limit];
      return {
        pages: r.rows.slice(0, limit).map((row) => ({
          ns: row.wl_namespace,
          title: codec.prefixedText(row.wl_namespace, row.wl_title),
          changed: iso(row.wl_notificationtimestamp),
          expiry: iso(row.wl_expiry),
        })),
        continueFrom: next ? `${next.wl_namespace}|${next.wl_title}` : '',
      };
    },

    async getNewTalk(req: GetNewTalkRequest): Promise<GetNewTalkResponse> {
      const r = await db.query<{ unt_timestamp: Date }>(`SELECT unt_timestamp FROM ${s}.user_newtalk WHERE unt_user_name = $1`, [req.userName]);
      const row = r.rows[0];
      return { has: row !== undefined, timestamp: row ? isoTimestamp(row.unt_timestamp) : '' };
    },

    /** WatchlistManager::clearTitleUserNotifications for the user's own talk page. */
    async markTalkPageSeen(req: MarkTalkPageSeenRequest): Promise<MarkTalkPageSeenResponse> {
      const dbkey = req.userName.replace(/ /g, '_');
      await db.tx(async (q) => {
        await q.query(`DELETE FROM ${s}.user_newtalk WHERE unt_user_name = $1`, [req.userName]);
        if (req.userId > 0) {
          await q.query(`UPDATE ${s}.watchlist SET wl_notificationtimestamp = NULL WHERE wl_user = $1 AND wl_namespace = ${NS_USER_TALK} AND wl_title = $2`, [
            req.userId,
            dbkey,
          ]);
        }
      });
      return {};
    },
  };
}
