/*
 * action=revisiondelete type=logging (RevisionDeleter with RevDelLogList/RevDelLogItem): hides or
 * shows the action (target and parameters), summary and performer of log entries. Every item gets
 * its own status; the changed ones and one delete/event entry (suppress/event, kept out of recent
 * changes, when suppression is involved) commit together.
 */
import type { LogVisibilityItem, RevisionDeleteLogEntriesRequest, RevisionDeleteLogEntriesResponse } from '@quire/proto/wiki/content/v1/archive';
import { requireActor, type LifecycleDeps } from './lifecycle/common.js';
import { logBits, logEntries, setLogBits, type LogVisibilityRow } from '../store/log-visibility.js';
import { NS_SPECIAL } from '../title/namespaces.js';
import { applyVisibility, authorizeVisibilityChange, logVisibilityChange } from './visibility.js';

/** $wgLogRestrictions of MediaWiki 1.39: a log type and the right needed to read its entries. */
const LOG_RESTRICTIONS: Readonly<Record<string, string>> = { suppress: 'suppressionlog' };

/** LogEventsList::userCanViewLogType. */
const canViewLogType = (type: string, rights: readonly string[]) => !(type in LOG_RESTRICTIONS) || rights.includes(LOG_RESTRICTIONS[type]!);

export async function revisionDeleteLogEntries(deps: LifecycleDeps, req: RevisionDeleteLogEntriesRequest): Promise<RevisionDeleteLogEntriesResponse> {
  const actor = requireActor(req.actor);
  await authorizeVisibilityChange(deps.db, actor, { right: 'deletelogentry', text: 'delete log entries' }, req, req.ids.length);
  const { db } = deps;
  return db.tx(async (q) => {
    const rows = await logEntries(q, db, req.ids, true);
    // RevDelLogList::suggestTarget: the log of the entries' one type, else the whole log.
    const types = new Set(rows.map((r) => r.type));
    const targetKey = types.size === 1 ? `Log/${[...types][0]}` : 'Log';
    const outcome = await applyVisibility(
      // RevDelLogItem::canView: LogEventsList::userCan, the bits and the log's type.
      rows.map((r) => ({ key: String(r.id), ref: r.id, timestamp: r.timestamp, deleted: r.deleted, viewable: canViewLogType(r.type, actor.rights) })),
      req.ids.map(String),
      { first: req.action, comment: req.comment, user: req.user, suppress: req.suppress },
      actor.rights,
      (item, newBits) => setLogBits(q, db, item.ref, item.deleted, newBits),
    );
    const logId = await logVisibilityChange(q, db, outcome, {
      action: 'event',
      listType: 'logging',
      ns: NS_SPECIAL,
      dbkey: targetKey,
      actor,
      reason: req.reason,
      tags: req.tags,
    });
    const after = new Map<number, LogVisibilityRow>((await logEntries(q, db, req.ids, false)).map((r) => [r.id, r]));
    const items = [...outcome.statuses].map(([key, st]): LogVisibilityItem => {
      const id = Number(key);
      const row = after.get(id);
      return {
        id,
        ok: st.ok,
        errors: st.errors,
        warnings: st.warnings,
        exists: row !== undefined,
        type: row?.type ?? '',
        action: row?.action ?? '',
        deleted: row?.deleted ?? 0,
        userId: row?.userId ?? 0,
        user: row?.user ?? '',
        comment: row?.comment ?? '',
        paramsJson: row ? JSON.stringify(row.params ?? {}) : '',
      };
    });
    return { target: deps.codec.prefixedText(NS_SPECIAL, targetKey), items, logId };
  });
}

/** The hidden-field bits of log entries (list=logevents); entries without any are left out. */
export function logEntryVisibility(deps: LifecycleDeps, ids: readonly number[]): Promise<{ id: number; deleted: number }[]> {
  return logBits(deps.db, ids);
}
