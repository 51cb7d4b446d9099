import { invalidArgument, permissionDenied, type Db } from '@quire/kit';
import type { EditActor } from '@quire/proto/wiki/content/v1/common';
import { userDefinedTagNames } from '../store/tags.js';

/**
 * ChangeTags::canAddTagsAccompanyingChange: applying tags needs `applychangetags`, and each tag
 * must be one an administrator defined and left active (ctd_user_defined; software tags such as
 * mw-undo are applied by the software only).
 */
export async function checkApplicableTags(db: Db, actor: EditActor, tags: readonly string[]): Promise<void> {
  if (!actor.rights.includes('applychangetags')) {
    throw permissionDenied('tags-apply-no-permission', 'You do not have permission to apply change tags along with your changes.');
  }
  const wanted = [...new Set(tags)];
  const defined = await userDefinedTagNames(db, wanted);
  const refused = wanted.filter((t) => !defined.has(t));
  if (refused.length === 1) throw invalidArgument('tags-apply-not-allowed-one', `The tag "${refused[0]}" is not allowed to be manually applied.`);
  if (refused.length > 1) {
    throw invalidArgument('tags-apply-not-allowed-multi', `The following tags are not allowed to be manually applied: ${refused.join(', ')}`);
  }
}
