/*
 * action=filerevert (MediaWiki's ApiFileRevert): an old version of a file is uploaded again as the
 * current one — LocalFile::upload from the archived copy, with the reverter as uploader and the
 * comment as both description and log comment. MediaWiki 1.39 logs it upload/overwrite (its
 * `revert` log action is only passed by Special:RevertFile's older path), with a null revision of
 * the description page, all in one transaction.
 */
import { invalidArgument, notFound, permissionDenied } from '@quire/kit';
import type { RevertFileRequest, RevertFileResponse } from '@quire/proto/wiki/content/v1/files';
import { MalformedTitleError } from '../title/codec.js';
import { NS_FILE, NS_PROJECT } from '../title/namespaces.js';
import { lockFileName, tsMw, type FileRepo } from '../store/files.js';
import { checkProtection } from './protection.js';
import { recordVersion } from './upload.js';

export async function revertFile(repo: FileRepo, req: RevertFileRequest): Promise<RevertFileResponse> {
  const actor = req.actor;
  if (!actor) throw invalidArgument('missingparam', 'The revert has no actor.');
  const { db, codec } = repo.deps;
  let dbkey: string;
  try {
    const t = codec.parse(req.filename, NS_FILE);
    if (t.ns !== NS_FILE || t.dbkey === '') throw new MalformedTitleError('title-invalid-empty', req.filename);
    dbkey = t.dbkey;
  } catch (e) {
    if (!(e instanceof MalformedTitleError)) throw e;
    throw invalidArgument('invalidtitle', `Bad title "${req.filename}".`);
  }
  const project = codec.namespaces.get(NS_PROJECT)?.name ?? 'Project';
  return db.tx(async (q) => {
    await lockFileName(q, db.schema, dbkey);
    const existing = (await repo.current(q, [dbkey])).get(dbkey);
    if (!existing) throw notFound('missingtitle', "The page you specified doesn't exist.");
    const old = await repo.oldVersion(q, dbkey, req.archiveName);
    if (!old) throw invalidArgument('filerevert-badversion', 'There is no previous local version of this file with the provided timestamp.');
    // ApiFileRevert: checkTitleUserPermissions( [ 'edit', 'upload' ] ), then reupload(-own).
    if (!actor.rights.includes('edit') || !actor.rights.includes('upload')) {
      throw permissionDenied('permissiondenied', `The action you have requested is limited to users in one of the groups: [[${project}:Users|Users]], [[${project}:Administrators|Administrators]].`);
    }
    await checkProtection(q, db, codec, { ns: NS_FILE, dbkey }, 'upload', actor.rights);
    const own = actor.id > 0 && existing.user_id === actor.id;
    if (!actor.rights.includes('reupload') && !(own && actor.rights.includes('reupload-own'))) {
      throw permissionDenied('permissiondenied', `The action you have requested is limited to users in the group: [[${project}:Users|Users]].`);
    }
    // LocalFile::publishTo archives the current copy; a copy archived under that name already
    // (two versions within one second) makes the file backend refuse.
    const archiveName = `${tsMw(existing.timestamp)}!${dbkey}`;
    if (await repo.archiveNameTaken(q, archiveName)) {
      return { result: 'Failure', errorCodes: ['backend-fail-alreadyexists'], errorParams: [`mwstore://local-backend/local-public/archive/${archiveName}`], file: undefined };
    }
    const { file } = await recordVersion(q, repo, actor, existing, old, { comment: req.comment, tags: [] });
    return { result: 'Success', errorCodes: [], errorParams: [], file };
  });
}
