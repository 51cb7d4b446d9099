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
import { findPage } from '../store/pages.js';
import { clearNewTalk, newTalkSince, setWatch, watchlistChanges, watchlistRaw } from '../store/watchlist.js';
import { isoTimestamp } from './records.js';
import type { ContentContext } from './context.js';

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
          const page = await findPage(q, s, t);
          await setWatch(q, db, req.userId, t.ns, t.dbkey, !req.unwatch, expiry);
          titles.push({ title, ns: t.ns, missing: page === undefined, invalid: false, invalidReason: '', special: false, expiry: !req.unwatch && expiry ? isoTimestamp(expiry) : '' });
        }
        return { titles };
      });
    },

    async listWatchlist(req: ListWatchlistRequest): Promise<ListWatchlistResponse> {
      const limit = Math.max(1, req.limit || 10);
      const r = { rows: await watchlistChanges(db, req, limit) };
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
          logParamsJson: row.rc_params ? JSON.stringify(row.rc_params) : '',
          tags: row.tags ?? [],
          patrolled: Number(row.rc_patrolled),
          deleted: Number(row.rc_deleted),
        })),
        continueFrom: next ? `${isoTimestamp(next.rc_timestamp)}|${next.rc_id}` : '',
      };
    },

    async listWatchlistRaw(req: ListWatchlistRawRequest): Promise<ListWatchlistRawResponse> {
      const limit = Math.max(1, req.limit || 10);
      const r = { rows: await watchlistRaw(db, req, limit) };
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
      const since = await newTalkSince(db, req.userName);
      return { has: since !== undefined, timestamp: since ? isoTimestamp(since) : '' };
    },

    /** WatchlistManager::clearTitleUserNotifications for the user's own talk page. */
    async markTalkPageSeen(req: MarkTalkPageSeenRequest): Promise<MarkTalkPageSeenResponse> {
      const dbkey = req.userName.replace(/ /g, '_');
      await db.tx((q) => clearNewTalk(q, db, req.userName, req.userId, { ns: NS_USER_TALK, dbkey }));
      return {};
    },
  };
}
