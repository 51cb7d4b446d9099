/*
 * action=delete with oldimage (ApiDelete::deleteFile + FileDeleteForm::doDelete): one old version
 * of a file is archived and logged as delete/delete ("Deleted old revision …"), with the
 * caller's watchlist change — one transaction. Checks in MediaWiki's order: a current file
 * version (else the page is deleted as usual), the delete right and tags, the oldimage's form,
 * the version's existence.
 */
import { invalidArgument, notFound } from '@quire/kit';
import type { DeleteOldFileVersionRequest, DeleteOldFileVersionResponse } from '@quire/proto/wiki/content/v1/archive';
import { applyRequestedWatch, authorize, requireActor, targetOf, userOf, type LifecycleDeps } from './lifecycle/common.js';
import { archiveOldFileVersion, hasCurrentFile, pageIdOf } from '../store/file-version.js';
import { publishLogEntry } from '../store/logging.js';
import { NS_FILE } from '../title/namespaces.js';

/** FileDeleteForm::isValidOldSpec. */
const isValidOldSpec = (oldimage: string) => oldimage.length >= 16 && !oldimage.includes('/') && !oldimage.includes('\\');

export async function deleteOldFileVersion(deps: LifecycleDeps, req: DeleteOldFileVersionRequest): Promise<DeleteOldFileVersionResponse> {
  const actor = requireActor(req.actor);
  const target = await targetOf(deps, req.title, req.pageId);
  const unhandled = { handled: false, title: '', logId: 0 };
  if (target.ns !== NS_FILE) return unhandled;
  const { db, codec } = deps;
  return db.tx(async (q) => {
    if (!(await hasCurrentFile(q, db, target.dbkey))) return unhandled;
    await authorize(deps, actor, 'delete', req.tags);
    // Both messages are missing from MediaWiki 1.39's English texts: it shows their keys.
    if (!isValidOldSpec(req.archiveName)) throw invalidArgument('invalidoldimage', '⧼invalidoldimage⧽');
    if (!(await archiveOldFileVersion(q, db, target.dbkey, req.archiveName, userOf(actor), req.reason))) throw notFound('nodeleteablefile', '⧼nodeleteablefile⧽');
    const { logId } = await publishLogEntry(q, db, {
      type: 'delete',
      action: 'delete',
      actor: userOf(actor),
      ns: target.ns,
      dbkey: target.dbkey,
      pageId: await pageIdOf(q, db, target.ns, target.dbkey),
      comment: `Deleted old revision ${req.archiveName}${req.reason.trim() !== '' ? `: ${req.reason}` : ''}`,
      params: {},
      tags: req.tags,
    });
    await applyRequestedWatch(deps, q, actor, target, req);
    return { handled: true, title: codec.prefixedText(target.ns, target.dbkey), logId };
  });
}
