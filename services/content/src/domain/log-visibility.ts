/*
 * action=revisiondelete type=logging (RevisionDeleter with RevDelLogList/RevDelLogItem): hides or
 * shows the action (target and parameters), summary and performer of log entries. Every item gets
 * its own status; the changed ones and one delete/event entry (suppress/event, kept out of recent
 * changes, when suppression is involved) commit together.
 */
import { invalidArgument, permissionDenied } from '@quire/kit';
import type { StatusMessage } from '@quire/proto/wiki/content/v1/content';
import type { LogVisibilityItem, RevisionDeleteLogEntriesRequest, RevisionDeleteLogEntriesResponse } from '@quire/proto/wiki/content/v1/archive';
import { requireActor, type LifecycleDeps } from './lifecycle/common.js';
import { logBits, logEntries, setLogBits, type LogVisibilityRow } from '../store/log-visibility.js';
import { nowToTheSecond, publishLogEntry, writeLogEntry } from '../store/logging.js';
import { checkApplicableTags } from './tags.js';
import { NS_SPECIAL } from '../title/namespaces.js';

/** LogPage::DELETED_* (the action bit stands where revisions have their text). */
const DELETED_ACTION = 1;
const DELETED_COMMENT = 2;
const DELETED_USER = 4;
const DELETED_RESTRICTED = 8;

const MONTH_NAMES = 'January February March April May June July August September October November December'.split(' ');

/** RevDelItem's date and time of an item in English, the parameters of its status messages. */
function itemWhen(ts: Date): string[] {
  const two = (n: number) => n.toString().padStart(2, '0');
  return [`${ts.getUTCDate()} ${MONTH_NAMES[ts.getUTCMonth()]} ${ts.getUTCFullYear()}`, `${two(ts.getUTCHours())}:${two(ts.getUTCMinutes())}`];
}

/** The bits an item gets: each field set (1), cleared (0) or kept (-1). */
function requestedBits(req: RevisionDeleteLogEntriesRequest, oldBits: number): number {
  const fields: [number, number][] = [
    [DELETED_ACTION, req.action],
    [DELETED_COMMENT, req.comment],
    [DELETED_USER, req.user],
    [DELETED_RESTRICTED, req.suppress],
  ];
  return fields.reduce((bits, [bit, want]) => (want === 1 || (want === -1 && oldBits & bit) ? bits | bit : bits), 0);
}

/** A bitfield as DeleteLogFormatter::getParametersForApi shows it. */
const fieldsOf = (bits: number) => ({
  bitmask: bits,
  content: Boolean(bits & DELETED_ACTION),
  comment: Boolean(bits & DELETED_COMMENT),
  user: Boolean(bits & DELETED_USER),
  restricted: Boolean(bits & DELETED_RESTRICTED),
});

/** LogEventsList::userCanBitfield: a restricted item needs suppression rights to be touched. */
const mayTouch = (bits: number, rights: readonly string[]) => !(bits & DELETED_RESTRICTED) || rights.includes('suppressrevision') || rights.includes('viewsuppressed');

export async function revisionDeleteLogEntries(deps: LifecycleDeps, req: RevisionDeleteLogEntriesRequest): Promise<RevisionDeleteLogEntriesResponse> {
  const actor = requireActor(req.actor);
  if (!actor.rights.includes('deletelogentry')) throw permissionDenied('permissiondenied', "You don't have permission to delete log entries.");
  if (req.suppress === 1 && !actor.rights.includes('suppressrevision')) {
    throw permissionDenied('permissiondenied', "You don't have permission to review and undelete hidden revisions.");
  }
  if (req.ids.length === 0) throw invalidArgument('paramempty_ids', 'The parameter "ids" may not be empty.');
  if (req.tags.length > 0) await checkApplicableTags(deps.db, actor, req.tags);
  const { db } = deps;
  return db.tx(async (q) => {
    const rows = await logEntries(q, db, req.ids, true);
    // RevDelLogList::suggestTarget: the log of the entries' one type, else the whole log.
    const types = new Set(rows.map((r) => r.type));
    const targetKey = types.size === 1 ? `Log/${[...types][0]}` : 'Log';
    const results = new Map<number, { ok: boolean; errors: StatusMessage[]; warnings: StatusMessage[] }>();
    const changed: number[] = [];
    let hiddenBefore = 0;
    let hiddenAfter = 0;
    let suppressed = false;
    for (const row of rows) {
      const result = { ok: true, errors: [] as StatusMessage[], warnings: [] as StatusMessage[] };
      results.set(row.id, result);
      const params = itemWhen(row.timestamp);
      const newBits = requestedBits(req, row.deleted);
      if (newBits === row.deleted) result.warnings.push({ key: 'revdelete-no-change', params });
      else if (!mayTouch(row.deleted, actor.rights)) {
        result.ok = false;
        result.errors.push({ key: row.deleted !== 0 && newBits === 0 ? 'revdelete-show-no-access' : 'revdelete-modify-no-access', params });
      } else if (newBits === DELETED_RESTRICTED) result.warnings.push({ key: 'revdelete-only-restricted', params });
      else if (await setLogBits(q, db, row.id, row.deleted, newBits)) {
        changed.push(row.id);
        suppressed ||= Boolean((row.deleted | newBits) & DELETED_RESTRICTED);
        hiddenAfter |= newBits & ~row.deleted;
        hiddenBefore |= row.deleted & ~newBits;
      } else {
        result.ok = false;
        result.errors.push({ key: 'revdelete-concurrent-change', params });
      }
    }
    for (const id of req.ids) {
      if (!results.has(id)) results.set(id, { ok: false, errors: [{ key: 'revdelete-modify-missing', params: [String(id)] }], warnings: [] });
    }
    let logId = 0;
    if (changed.length > 0) {
      const entry = {
        type: suppressed ? 'suppress' : 'delete',
        action: 'event',
        actor: { id: actor.id, name: actor.name },
        ns: NS_SPECIAL,
        dbkey: targetKey,
        pageId: 0,
        comment: req.reason,
        params: { type: 'logging', ids: changed.map(String), old: fieldsOf(hiddenBefore), new: fieldsOf(hiddenAfter) },
        timestamp: nowToTheSecond(),
        tags: req.tags,
      };
      // Suppression entries stay out of recent changes (ManualLogEntry::publish for restricted logs).
      logId = suppressed ? await writeLogEntry(q, db, entry) : (await publishLogEntry(q, db, entry)).logId;
    }
    const after = new Map<number, LogVisibilityRow>((await logEntries(q, db, req.ids, false)).map((r) => [r.id, r]));
    const items = [...results].map(([id, st]): LogVisibilityItem => {
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
