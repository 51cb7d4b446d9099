/*
 * Reads of the wiki's trail: list=logevents, list=recentchanges, list=usercontribs (newest first
 * by default, keyset-paginated on (timestamp, id); each returns up to limit + 1 rows so the
 * gateway can tell whether to continue), protections for prop=info, and the delivery of other
 * services' log entries.
 */
import type { GetProtectionRequest, GetProtectionResponse } from '@quire/proto/wiki/content/pages/v1/pages';
import type {
  ListLogEventsRequest,
  ListLogEventsResponse,
  ListRecentChangesRequest,
  ListRecentChangesResponse,
  RecordLogEntriesRequest,
  RecordLogEntriesResponse,
} from '@quire/proto/wiki/content/logs/v1/logs';
import type { ListUserContribsRequest, ListUserContribsResponse } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { logOriginRecorded, publishLogEntry, writeLogEntry, type LogEntryInput } from '../store/logging.js';
import { findPage } from '../store/pages.js';
import { cascadeSources, pageRestrictions, titleProtection } from '../store/protection.js';
import { logEventRows, recentChangeRows, userContribRows } from '../store/trail.js';
import { isoTimestamp } from './records.js';
import type { ContentContext } from './context.js';

const RC_TYPE_NAMES: Record<number, string> = { 0: 'edit', 1: 'new', 3: 'log', 6: 'categorize' };

/** rev_sha1 is base 36 (as MediaWiki stores it); the APIs show it in hex. */
function base36ToHex(s: string): string {
  let n = 0n;
  for (const ch of s) n = n * 36n + BigInt(parseInt(ch, 36));
  return n.toString(16).padStart(40, '0');
}

export function logHandlers(ctx: ContentContext) {
  const { db, codec } = ctx;

  return {
    async listLogEvents(req: ListLogEventsRequest): Promise<ListLogEventsResponse> {
      const r = { rows: await logEventRows(db, req) };
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
      const r = { rows: await recentChangeRows(db, req) };
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
          deleted: row.rc_deleted,
        })),
      };
    },

    async listUserContribs(req: ListUserContribsRequest): Promise<ListUserContribsResponse> {
      const r = { rows: await userContribRows(db, req) };
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
        const page = await findPage(db, db.schema, t);
        const iso = (d: Date | undefined) => (d ? isoTimestamp(d) : 'infinity');
        const protections = [];
        if (page) {
          for (const r of await pageRestrictions(db, db, page.id)) {
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
          if (await logOriginRecorded(q, db.schema, e.origin)) return;
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
