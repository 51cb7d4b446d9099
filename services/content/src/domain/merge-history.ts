/*
 * MediaWiki's MergeHistory (action=mergehistory): the source's revisions older than the
 * destination's first one (or up to a given timestamp) become the destination's; a source left
 * without revisions becomes a redirect to the destination (a revision without a recent change of
 * its own); the merge/merge log entry is published — one transaction. Checks in MediaWiki's
 * order: isValidMerge, then the rights (edit on both pages, `mergehistory`).
 */
import { invalidArgument, permissionDenied } from '@quire/kit';
import type { MergeHistoryRequest, MergeHistoryResponse } from '@quire/proto/wiki/content/v1/archive';
import { requireActor, targetOf, userOf, type LifecycleDeps } from './lifecycle/common.js';
import { lockPage } from '../store/lifecycle/common.js';
import { nowToTheSecond, publishLogEntry } from '../store/logging.js';
import { copyWatchers, countRevisionsUpTo, hasRevisions, mergeBounds, moveRevisions } from '../store/merge-history.js';
import { recordPageChange } from '../store/page-cache.js';
import { checkProtection } from './protection.js';
import { saveRevision } from '../store/save.js';
import { interfaceMessages } from './interface-messages.js';

/** MergeHistory::REVISION_LIMIT. */
const REVISION_LIMIT = 5000;

const fail = (code: string, text: string) => invalidArgument(code, text);

export async function mergeHistory(deps: LifecycleDeps, req: MergeHistoryRequest): Promise<MergeHistoryResponse> {
  const actor = requireActor(req.actor);
  const sourceKey = await targetOf(deps, req.from, req.fromId);
  const destKey = await targetOf(deps, req.to, req.toId);
  let timestamp: Date | undefined;
  if (req.timestamp !== '') {
    timestamp = new Date(req.timestamp);
    if (Number.isNaN(timestamp.getTime())) throw fail('mergehistory-fail-bad-timestamp', 'Timestamp is invalid.');
  }
  const { db, codec } = deps;
  return db.tx(async (q) => {
    const source = await lockPage(q, db, sourceKey.ns, sourceKey.dbkey);
    const dest = await lockPage(q, db, destKey.ns, destKey.dbkey);
    if (!source) throw fail('mergehistory-fail-invalid-source', 'Source page is invalid.');
    if (!dest) throw fail('mergehistory-fail-invalid-dest', 'Destination page is invalid.');
    if (source.id === dest.id) throw fail('mergehistory-fail-self-merge', 'Source and destination pages are the same.');
    const bounds = await mergeBounds(q, db, source.id, dest.id, timestamp);
    if (!bounds.limit || !bounds.moveUpTo) throw fail('mergehistory-fail-bad-timestamp', 'Timestamp is invalid.');
    if (bounds.destFirst && bounds.limit > bounds.destFirst) {
      throw fail('mergehistory-fail-timestamps-overlap', 'Source revisions overlap or come after destination revisions.');
    }
    if ((await countRevisionsUpTo(q, db, source.id, bounds.moveUpTo)) > REVISION_LIMIT) {
      throw fail('mergehistory-fail-toobig', `Unable to perform history merge as more than the limit of ${REVISION_LIMIT} revisions would be moved.`);
    }
    // MergeHistory::authorizeMerge: editing both pages (their protections), then the right itself.
    if (!actor.rights.includes('edit')) throw permissionDenied('permissiondenied', "You don't have permission to edit this page.");
    await checkProtection(q, db, codec, sourceKey, 'edit', actor.rights);
    await checkProtection(q, db, codec, destKey, 'edit', actor.rights);
    if (!actor.rights.includes('mergehistory')) throw permissionDenied('mergehistory-fail-permission', 'Insufficient permissions to merge history.');

    const moved = await moveRevisions(q, db, source.id, dest.id, bounds.moveUpTo);
    if (moved < 1) throw fail('mergehistory-fail-no-change', 'History merge did not merge any revisions. Please recheck the page and time parameters.');
    const from = codec.prefixedText(source.ns, source.dbkey);
    const to = codec.prefixedText(dest.ns, dest.dbkey);
    let reason = req.reason;
    const now = nowToTheSecond();
    if (!(await hasRevisions(q, db, source.id))) {
      // MergeHistory::merge: mergehistory-comment (with a reason) or mergehistory-autocomment, the wiki's own.
      const msg = await interfaceMessages(db, ['mergehistory-comment', 'mergehistory-autocomment']);
      reason = reason !== '' ? msg('mergehistory-comment', from, to, reason) : msg('mergehistory-autocomment', from, to);
      // updateSourcePage: a redirect to the destination (mergehistory-redirect-text is empty), no recent change.
      await saveRevision(db, codec, {
        ns: source.ns,
        dbkey: source.dbkey,
        baseRevId: source.latest,
        text: `#REDIRECT [[${to}]]`,
        contentModel: 'wikitext',
        contentFormat: 'text/x-wiki',
        user: userOf(actor),
        comment: reason,
        minor: false,
        tags: [],
        timestamp: now,
        nullRevision: true,
      });
    } else {
      await recordPageChange(db, q, source.ns, source.dbkey);
    }
    await recordPageChange(db, q, dest.ns, dest.dbkey);
    await copyWatchers(q, db, source, dest);
    const { logId } = await publishLogEntry(q, db, {
      type: 'merge',
      action: 'merge',
      actor: userOf(actor),
      ns: source.ns,
      dbkey: source.dbkey,
      pageId: source.id,
      comment: reason,
      params: { dest_ns: dest.ns, dest_title: to, mergepoint: bounds.limit.toISOString().replace(/\.\d{3}Z$/, 'Z') },
      timestamp: now,
    });
    return { from, to, logId, revisions: moved };
  });
}
