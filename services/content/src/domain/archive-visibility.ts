/*
 * action=revisiondelete type=archive (RevDelArchiveList / RevDelArchiveItem): hides or shows the
 * content, summary and author of a deleted page's revisions, named by their timestamps. The
 * changed rows and one delete/revision entry on the page's title ({type: archive, ids: the
 * timestamps}; suppress/revision, kept out of recent changes, when suppression is involved)
 * commit together.
 */
import { invalidArgument } from '@quire/kit';
import type { ArchivedVisibilityItem, RevisionDeleteArchivedRequest, RevisionDeleteArchivedResponse } from '@quire/proto/wiki/content/v1/archive';
import { requireActor, type LifecycleDeps } from './lifecycle/common.js';
import { applyVisibility, authorizeVisibilityChange, logVisibilityChange } from './visibility.js';
import { archivedByTimestamps, setArchivedBits } from '../store/archive.js';
import { parsePageTitleOrThrow } from '../title/page-title.js';

/** A TS_MW id as a Date; undefined when it is none. */
function dateOfTsMw(id: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(id);
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : undefined;
}

const tsMwOf = (d: Date) =>
  d
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/[-:T]/g, '');
const isoOf = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function revisionDeleteArchived(deps: LifecycleDeps, req: RevisionDeleteArchivedRequest): Promise<RevisionDeleteArchivedResponse> {
  const actor = requireActor(req.actor);
  await authorizeVisibilityChange(deps.db, actor, { right: 'deleterevision', text: 'delete revisions' }, req, req.ids.length);
  if (req.target === '') throw invalidArgument('needtarget', 'A target title is required for this RevDel type.');
  const title = parsePageTitleOrThrow(deps.codec, req.target);
  const { db } = deps;
  const timestamps = req.ids.map(dateOfTsMw).filter((d): d is Date => d !== undefined);
  return db.tx(async (q) => {
    const rows = await archivedByTimestamps(q, db, title.ns, title.dbkey, timestamps, true);
    const outcome = await applyVisibility(
      rows.map((r) => ({ key: tsMwOf(r.timestamp), ref: r.arId, timestamp: r.timestamp, deleted: r.deleted })),
      req.ids,
      { first: req.content, comment: req.comment, user: req.user, suppress: req.suppress },
      actor.rights,
      (item, newBits) => setArchivedBits(q, db, item.ref, item.deleted, newBits),
    );
    const logId = await logVisibilityChange(q, db, outcome, {
      action: 'revision',
      listType: 'archive',
      ns: title.ns,
      dbkey: title.dbkey,
      actor,
      reason: req.reason,
      tags: req.tags,
    });
    const after = new Map((await archivedByTimestamps(q, db, title.ns, title.dbkey, timestamps, false)).map((r) => [tsMwOf(r.timestamp), r]));
    const items = [...outcome.statuses].map(([id, st]): ArchivedVisibilityItem => {
      const row = after.get(id);
      return {
        id,
        ok: st.ok,
        errors: st.errors,
        warnings: st.warnings,
        exists: row !== undefined,
        timestamp: row ? isoOf(row.timestamp) : '',
        deleted: row?.deleted ?? 0,
        userId: row?.userId ?? 0,
        user: row?.user ?? '',
        comment: row?.comment ?? '',
      };
    });
    return { target: deps.codec.prefixedText(title.ns, title.dbkey), items, logId };
  });
}
