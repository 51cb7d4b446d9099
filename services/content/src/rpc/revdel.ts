/*
 * wiki.content.edit.v1.EditService RevisionDelete: MediaWiki's RevDelRevisionList::setVisibility
 * (type=revision) for live revisions of the target page and archived revisions of deleted pages. Every item gets its own status; the changed ones, the page's
 * touched time and one delete/revision (or suppress/revision) log entry commit together.
 */
import { invalidArgument, permissionDenied, type Queryable } from '@quire/kit';
import type { RevisionDeleteItem, RevisionDeleteRequest, RevisionDeleteResponse } from '@quire/proto/wiki/content/edit/v1/edit';
import type { StatusMessage } from '@quire/proto/wiki/content/v1/common';
import { checkApplicableTags } from '../domain/tags.js';
import { requireActor } from '../domain/lifecycle/common.js';
import { lockPage } from '../store/lifecycle/common.js';
import { nowToTheSecond, publishLogEntry, writeLogEntry } from '../store/logging.js';
import { recordPageChange } from '../store/page-cache.js';
import { archivedRevisions, DELETED_COMMENT, DELETED_RESTRICTED, DELETED_TEXT, DELETED_USER, pageOfRevision, revisionsOfPage, setRevisionBits, touchPage, type RevDelRow } from '../store/revdel.js';
import { MalformedTitleError } from '../title/codec.js';
import type { ContentContext } from './context.js';
import { isoTimestamp } from './records.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** RevDelItem::formatDate / formatTime in English: "24 November 2026", "21:40". */
function dateAndTime(ts: Date): [string, string] {
  const pad = (n: number) => String(n).padStart(2, '0');
  return [`${ts.getUTCDate()} ${MONTHS[ts.getUTCMonth()]} ${ts.getUTCFullYear()}`, `${pad(ts.getUTCHours())}:${pad(ts.getUTCMinutes())}`];
}

/** RevisionDeleter::extractBitfield: 1 sets a bit, 0 clears it, -1 keeps the old one. */
function extractBitfield(pars: ReadonlyArray<[number, number]>, oldBits: number): number {
  let bits = 0;
  for (const [bit, value] of pars) {
    if (value === 1) bits |= bit;
    else if (value === -1) bits |= oldBits & bit;
  }
  return bits;
}

/** DeleteLogFormatter::getParametersForApi: a bitfield of the log entry as list=logevents shows it. */
function bitfieldForApi(bits: number) {
  return {
    bitmask: bits,
    content: (bits & DELETED_TEXT) !== 0,
    comment: (bits & DELETED_COMMENT) !== 0,
    user: (bits & DELETED_USER) !== 0,
    restricted: (bits & DELETED_RESTRICTED) !== 0,
  };
}

/** RevisionRecord::userCan for one field. */
function userCan(deleted: number, field: number, rights: readonly string[]): boolean {
  if ((deleted & field) === 0) return true;
  const needed = deleted & DELETED_RESTRICTED ? ['suppressrevision', 'viewsuppressed'] : field === DELETED_TEXT ? ['deletedtext'] : ['deletedhistory'];
  return needed.some((r) => rights.includes(r));
}

export function revdelHandlers(ctx: ContentContext) {
  const { db, codec } = ctx;

  /** RevDelRevisionList::doQuery: the live revisions of the page, else also archived ones by id. */
  async function revDelRows(q: Queryable, pageId: number | undefined, ids: readonly number[]): Promise<RevDelRow[]> {
    const live = pageId ? await revisionsOfPage(q, db, pageId, ids) : [];
    if (live.length >= ids.length) return live;
    const liveIds = new Set(live.map((r) => r.revId));
    const archived = (await archivedRevisions(q, db, ids)).filter((r) => !liveIds.has(r.revId));
    return [...live, ...archived].sort((a, b) => b.revId - a.revId);
  }

  return {
    async revisionDelete(req: RevisionDeleteRequest): Promise<RevisionDeleteResponse> {
      const actor = requireActor(req.actor);
      // RevisionDeleter::getRestriction('revision'); suppress=yes also needs suppressrevision.
      if (!actor.rights.includes('deleterevision')) throw permissionDenied('permissiondenied', "You don't have permission to delete revisions.");
      if (req.suppress === 1 && !actor.rights.includes('suppressrevision')) {
        throw permissionDenied('permissiondenied', "You don't have permission to review and undelete hidden revisions.");
      }
      if (req.ids.length === 0) throw invalidArgument('paramempty_ids', 'The parameter "ids" may not be empty.');
      if (req.tags.length) await checkApplicableTags(db, actor, req.tags);

      // RevisionDeleter::suggestTarget: the page of the first revision, else the given title.
      let target = await pageOfRevision(db, req.ids[0]!);
      if (!target && req.target !== '') {
        try {
          const t = codec.parse(req.target);
          if (t.ns >= 0) target = { ns: t.ns, dbkey: t.dbkey };
        } catch (e) {
          if (!(e instanceof MalformedTitleError)) throw e;
        }
      }
      if (!target) throw invalidArgument('needtarget', 'A target title is required for this RevDel type.');
      const { ns, dbkey } = target;
      const pars: [number, number][] = [
        [DELETED_TEXT, req.content],
        [DELETED_COMMENT, req.comment],
        [DELETED_USER, req.user],
        [DELETED_RESTRICTED, req.suppress],
      ];

      return db.tx(async (q) => {
        const page = await lockPage(q, db, ns, dbkey);
        const rows = await revDelRows(q, page?.id, req.ids);
        const statuses = new Map<number, { ok: boolean; errors: StatusMessage[]; warnings: StatusMessage[] }>();
        const changed: number[] = [];
        let oldVirtual = 0;
        let newVirtual = 0;
        let suppressLog = false;
        for (const row of rows) {
          const status = { ok: true, errors: [] as StatusMessage[], warnings: [] as StatusMessage[] };
          statuses.set(row.revId, status);
          const when = dateAndTime(row.timestamp);
          const fail = (key: string) => {
            status.ok = false;
            status.errors.push({ key, params: when });
          };
          const oldBits = row.deleted;
          const newBits = extractBitfield(pars, oldBits);
          if (oldBits === newBits) {
            status.warnings.push({ key: 'revdelete-no-change', params: when });
          } else if (newBits & DELETED_TEXT && !row.archived && page?.latest === row.revId) {
            fail('revdelete-hide-current');
          } else if (!userCan(oldBits, DELETED_RESTRICTED, actor.rights)) {
            fail(oldBits !== 0 && newBits === 0 ? 'revdelete-show-no-access' : 'revdelete-modify-no-access');
          } else if (newBits === DELETED_RESTRICTED) {
            status.warnings.push({ key: 'revdelete-only-restricted', params: when });
          } else if (await setRevisionBits(q, db, row, newBits)) {
            changed.push(row.revId);
            if ((oldBits | newBits) & DELETED_RESTRICTED) suppressLog = true;
            newVirtual |= (oldBits ^ newBits) & newBits;
            oldVirtual |= (oldBits ^ newBits) & oldBits;
          } else {
            fail('revdelete-concurrent-change');
          }
        }
        for (const id of req.ids) {
          if (!statuses.has(id)) statuses.set(id, { ok: false, errors: [{ key: 'revdelete-modify-missing', params: [String(id)] }], warnings: [] });
        }

        let logId = 0;
        if (changed.length > 0) {
          const now = nowToTheSecond();
          if (page) {
            await touchPage(q, db, page.id, now);
            await recordPageChange(db, q, ns, dbkey);
          }
          const entry = {
            type: suppressLog ? 'suppress' : 'delete',
            action: 'revision',
            actor: { id: actor.id, name: actor.name, bot: actor.rights.includes('bot') },
            ns,
            dbkey,
            pageId: page?.id ?? 0,
            comment: req.reason,
            params: { type: 'revision', ids: changed.map(String), old: bitfieldForApi(oldVirtual), new: bitfieldForApi(newVirtual) },
            timestamp: now,
            tags: req.tags,
          };
          // ManualLogEntry::publish leaves restricted logs (suppress) out of recent changes.
          logId = suppressLog ? await writeLogEntry(q, db, entry) : (await publishLogEntry(q, db, entry)).logId;
        }

        // RevDelList::reloadFromPrimary, then each item's API data.
        const after = new Map<number, RevDelRow>((await revDelRows(q, page?.id, req.ids)).map((r) => [r.revId, r]));
        const items: RevisionDeleteItem[] = [...statuses].map(([id, st]) => {
          const rev = after.get(id);
          return {
            id,
            ok: st.ok,
            errors: st.errors,
            warnings: st.warnings,
            exists: rev !== undefined,
            timestamp: rev ? isoTimestamp(rev.timestamp) : '',
            deleted: rev?.deleted ?? 0,
            userId: rev?.userId ?? 0,
            user: rev?.userName ?? '',
            comment: rev?.comment ?? '',
          };
        });
        return { target: codec.prefixedText(ns, dbkey), items, logId };
      });
    },
  };
}
