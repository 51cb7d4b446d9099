/*
 * DeletePage and UndeletePage of MediaWiki 1.39: a deletion moves every revision of the page into
 * `archive` (same ids, so tags and parents survive) and removes the page, its links, protections
 * and the recent changes of its edits; an undeletion moves the chosen revisions back. Each is one
 * transaction with its log entry and recent change.
 */
import { invalidArgument, type Queryable } from '@quire/kit';
import type { DeletePageRequest, DeletePageResponse, UndeletePageRequest, UndeletePageResponse } from '@quire/proto/wiki/content/edit/v1/edit';
import { latestContent, lockExistingPage, parentRevisionId, type LockedPage } from '../../store/lifecycle/common.js';
import { archivePage, restoreArchivedRevisions, revisionCount, someAuthors } from '../../store/lifecycle/delete.js';
import { archiveFileVersions, restoreFileVersions } from '../../store/lifecycle/file-archive.js';
import { publishLogEntry, nowToTheSecond } from '../../store/logging.js';
import { recordPageChange } from '../../store/page-cache.js';
import { NS_FILE } from '../../title/namespaces.js';
import { applyRequestedWatch, requireActor, authorize, targetOf, userOf, type LifecycleDeps } from './common.js';
import { checkTitleRules } from '../protection.js';
import { defaultModelFor } from '../../edit/models.js';

/** $wgDeleteRevisionsLimit: deleting longer histories needs `bigdelete`. */
const DELETE_REVISIONS_LIMIT = 5000;

/** CommentStore::COMMENT_CHARACTER_LIMIT. */
const COMMENT_CHARACTER_LIMIT = 500;

/** Language::truncateForDatabase: at most `bytes` UTF-8 bytes, "..." included when cut. */
function truncateForDatabase(text: string, bytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= bytes) return text;
  let out = '';
  let used = 3;
  for (const ch of text) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (used + n > bytes) break;
    out += ch;
    used += n;
  }
  return `${out}...`;
}

/**
 * ContentHandler::getAutoDeleteReason (MediaWiki's English excontent, excontentauthor and
 * exbeforeblank): the reason when none is given. A blank page is described by the revision before.
 */
async function autoDeleteReason(deps: LifecycleDeps, q: Queryable, page: LockedPage): Promise<string> {
  let { text } = await latestContent(q, deps.db, page);
  let blank = false;
  if (text === '') {
    const parent = await parentRevisionId(q, deps.db, page.latest);
    if (parent > 0) {
      text = (await latestContent(q, deps.db, { latest: parent })).text;
      blank = true;
    }
  }
  const authors = await someAuthors(q, deps.db.schema, page.id, 2);
  const only = authors.length === 1 ? authors[0]!.actor_name : undefined;
  const reason = blank
    ? 'content before blanking was: "$1"'
    : only !== undefined
      ? `content was: "$1", and the only contributor was "[[Special:Contributions/${only}|${only}]]" ([[User talk:${only}|talk]])`
      : 'content was: "$1"';
  const maxLength = COMMENT_CHARACTER_LIMIT - (Buffer.byteLength(reason, 'utf8') - 2);
  return reason.replace('$1', () => truncateForDatabase(text.replace(/[\n\r]/g, ' '), Math.max(0, maxLength)));
}

export async function deletePage(deps: LifecycleDeps, req: DeletePageRequest): Promise<DeletePageResponse> {
  const actor = requireActor(req.actor);
  await authorize(deps, actor, 'delete', req.tags);
  const target = await targetOf(deps, req.title, req.pageId);
  return deps.db.tx(async (q) => {
    const page = await lockExistingPage(q, deps.db, target.ns, target.dbkey);
    if ((await revisionCount(q, deps.db.schema, page.id)) > DELETE_REVISIONS_LIMIT && !actor.rights.includes('bigdelete')) {
      throw invalidArgument('delete-toobig', `This page has a large edit history, over ${DELETE_REVISIONS_LIMIT} revisions.`);
    }
    const reason = req.reason !== '' ? req.reason : await autoDeleteReason(deps, q, page);
    await archivePage(deps, q, page);
    // FileDeleteForm: deleting a file description page deletes every version of the file with it.
    if (page.ns === NS_FILE) await archiveFileVersions(deps, q, page.dbkey, actor, reason);
    await applyRequestedWatch(deps, q, actor, page, req);
    const { logId } = await publishLogEntry(q, deps.db, {
      type: 'delete',
      action: 'delete',
      actor: userOf(actor),
      ns: page.ns,
      dbkey: page.dbkey,
      pageId: page.id,
      comment: reason,
      params: {},
      tags: req.tags,
    });
    return { title: deps.codec.prefixedText(page.ns, page.dbkey), logId, reason };
  });
}

export async function undeletePage(deps: LifecycleDeps, req: UndeletePageRequest): Promise<UndeletePageResponse> {
  const actor = requireActor(req.actor);
  await authorize(deps, actor, 'undelete', req.tags);
  const target = await targetOf(deps, req.title, 0);
  const timestamps = req.timestamps.map((t) => {
    const d = new Date(t);
    if (Number.isNaN(d.getTime())) throw invalidArgument('badtimestamp', `Invalid value "${t}" for timestamp parameter "timestamps".`);
    return d;
  });
  return deps.db.tx(async (q) => {
    // UndeletePage::authorizeUndeletion: the title's rules (a user's CSS/JSON/JS) with the model its name gives.
    checkTitleRules(deps.codec, target, defaultModelFor(target.ns, target.dbkey), 'undelete', actor);
    const { pageId, restored } = await restoreArchivedRevisions(deps, q, target, timestamps);
    // PageArchive::undeleteAsUser: without chosen timestamps the file versions come back too.
    const files = target.ns === NS_FILE && timestamps.length === 0 ? await restoreFileVersions(deps, q, target.dbkey) : 0;
    await recordPageChange(deps.db, q, target.ns, target.dbkey);
    await applyRequestedWatch(deps, q, actor, target, req);
    await publishLogEntry(q, deps.db, {
      type: 'delete',
      action: 'restore',
      actor: userOf(actor),
      ns: target.ns,
      dbkey: target.dbkey,
      pageId,
      comment: req.reason,
      params: { count: { revisions: restored.length, files } },
      tags: req.tags,
      timestamp: nowToTheSecond(),
    });
    return { title: deps.codec.prefixedText(target.ns, target.dbkey), revisions: restored.length, reason: req.reason };
  });
}
