/*
 * RevDelList::setVisibility for items other than live revisions (log entries, archived
 * revisions): each item's new bits from the request, its status (no change, no access, only
 * restricted, concurrent change, missing) and what changed overall, for the log entry.
 */
import { invalidArgument, permissionDenied, type Db, type Queryable } from '@quire/kit';
import { nowToTheSecond, publishLogEntry, writeLogEntry } from '../store/logging.js';
import type { EditActor, StatusMessage } from '@quire/proto/wiki/content/v1/common';
import { checkApplicableTags } from './tags.js';

/** The DELETED_* bits of an item (the first is text for revisions, the action for log entries). */
export const DELETED_FIRST = 1;
export const DELETED_COMMENT = 2;
export const DELETED_USER = 4;
export const DELETED_RESTRICTED = 8;

/** What a request does to each field: 1 hide, 0 show, -1 keep. */
export interface VisibilityRequest {
  first: number;
  comment: number;
  user: number;
  suppress: number;
}

export interface VisibilityItem {
  /** The id the request names the item by (several rows may share one: archived revisions of one second). */
  key: string;
  /** The row itself (log_id, ar_id). */
  ref: number;
  timestamp: Date;
  deleted: number;
  /** RevDelItem::canView beyond the bits: false for an entry of a log the actor may not read. */
  viewable?: boolean;
}

export interface ItemStatus {
  ok: boolean;
  errors: StatusMessage[];
  warnings: StatusMessage[];
}

export interface VisibilityOutcome {
  statuses: Map<string, ItemStatus>;
  changed: string[];
  /** Bits cleared and set across the changed items (the log entry's old/new). */
  cleared: number;
  set: number;
  /** Suppression was involved: the change is logged as suppress/…. */
  suppressed: boolean;
}

const MONTH_NAMES = 'January February March April May June July August September October November December'.split(' ');

/** RevDelItem's date and time of an item in English, the parameters of its status messages. */
function itemWhen(ts: Date): string[] {
  const two = (n: number) => n.toString().padStart(2, '0');
  return [`${ts.getUTCDate()} ${MONTH_NAMES[ts.getUTCMonth()]} ${ts.getUTCFullYear()}`, `${two(ts.getUTCHours())}:${two(ts.getUTCMinutes())}`];
}

/** The bits an item gets: each field set (1), cleared (0) or kept (-1). */
function requestedBits(req: VisibilityRequest, oldBits: number): number {
  const fields: [number, number][] = [
    [DELETED_FIRST, req.first],
    [DELETED_COMMENT, req.comment],
    [DELETED_USER, req.user],
    [DELETED_RESTRICTED, req.suppress],
  ];
  return fields.reduce((bits, [bit, want]) => (want === 1 || (want === -1 && oldBits & bit) ? bits | bit : bits), 0);
}

/** A restricted item needs suppression rights to be touched. */
const mayTouch = (bits: number, rights: readonly string[]) => !(bits & DELETED_RESTRICTED) || rights.includes('suppressrevision') || rights.includes('viewsuppressed');

/** A bitfield as DeleteLogFormatter::getParametersForApi shows it. */
export const fieldsOf = (bits: number) => ({
  bitmask: bits,
  content: Boolean(bits & DELETED_FIRST),
  comment: Boolean(bits & DELETED_COMMENT),
  user: Boolean(bits & DELETED_USER),
  restricted: Boolean(bits & DELETED_RESTRICTED),
});

/** Applies a request to the items found (`setBits` is a compare-and-set), in the order given. */
export async function applyVisibility(
  items: readonly VisibilityItem[],
  requestedKeys: readonly string[],
  req: VisibilityRequest,
  rights: readonly string[],
  setBits: (item: VisibilityItem, newBits: number) => Promise<boolean>,
): Promise<VisibilityOutcome> {
  const out: VisibilityOutcome = { statuses: new Map(), changed: [], cleared: 0, set: 0, suppressed: false };
  for (const item of items) {
    const status: ItemStatus = { ok: true, errors: [], warnings: [] };
    out.statuses.set(item.key, status);
    const params = itemWhen(item.timestamp);
    const newBits = requestedBits(req, item.deleted);
    if (newBits === item.deleted) status.warnings.push({ key: 'revdelete-no-change', params });
    else if (item.viewable === false || !mayTouch(item.deleted, rights)) {
      status.ok = false;
      status.errors.push({ key: item.deleted !== 0 && newBits === 0 ? 'revdelete-show-no-access' : 'revdelete-modify-no-access', params });
    } else if (newBits === DELETED_RESTRICTED) status.warnings.push({ key: 'revdelete-only-restricted', params });
    else if (await setBits(item, newBits)) {
      if (!out.changed.includes(item.key)) out.changed.push(item.key);
      out.suppressed ||= Boolean((item.deleted | newBits) & DELETED_RESTRICTED);
      out.set |= newBits & ~item.deleted;
      out.cleared |= item.deleted & ~newBits;
    } else {
      status.ok = false;
      status.errors.push({ key: 'revdelete-concurrent-change', params });
    }
  }
  for (const key of requestedKeys) {
    if (!out.statuses.has(key)) out.statuses.set(key, { ok: false, errors: [{ key: 'revdelete-modify-missing', params: [key] }], warnings: [] });
  }
  return out;
}

/**
 * ApiRevisionDelete's checks before any item: the type's right (RevisionDeleter::getRestriction),
 * suppressrevision for suppress=yes, some ids, applicable tags.
 */
export async function authorizeVisibilityChange(
  db: Db,
  actor: EditActor,
  restriction: { right: string; text: string },
  req: { suppress: number; tags: readonly string[] },
  idCount: number,
): Promise<void> {
  if (!actor.rights.includes(restriction.right)) throw permissionDenied('permissiondenied', `You don't have permission to ${restriction.text}.`);
  if (req.suppress === 1 && !actor.rights.includes('suppressrevision')) {
    throw permissionDenied('permissiondenied', "You don't have permission to review and undelete hidden revisions.");
  }
  if (idCount === 0) throw invalidArgument('paramempty_ids', 'The parameter "ids" may not be empty.');
  if (req.tags.length > 0) await checkApplicableTags(db, actor, req.tags);
}

/**
 * RevDelList::updateLog: one delete/<action> entry for what changed ({type, ids, old, new}), or
 * suppress/<action> — kept out of recent changes — when suppression is involved. 0 when nothing changed.
 */
export async function logVisibilityChange(
  q: Queryable,
  db: Db,
  outcome: VisibilityOutcome,
  entry: { action: string; listType: string; ns: number; dbkey: string; actor: EditActor; reason: string; tags: readonly string[] },
): Promise<number> {
  if (outcome.changed.length === 0) return 0;
  const log = {
    type: outcome.suppressed ? 'suppress' : 'delete',
    action: entry.action,
    actor: { id: entry.actor.id, name: entry.actor.name, bot: entry.actor.rights.includes('bot') },
    ns: entry.ns,
    dbkey: entry.dbkey,
    pageId: 0,
    comment: entry.reason,
    params: { type: entry.listType, ids: outcome.changed, old: fieldsOf(outcome.cleared), new: fieldsOf(outcome.set) },
    timestamp: nowToTheSecond(),
    tags: [...entry.tags],
  };
  return outcome.suppressed ? writeLogEntry(q, db, log) : (await publishLogEntry(q, db, log)).logId;
}
