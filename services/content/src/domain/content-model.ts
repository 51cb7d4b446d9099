/*
 * MediaWiki's ContentModelChange (action=changecontentmodel): the page's latest text saved as a
 * revision in the new model (tagged mw-contentmodelchange, its summary the log action's text),
 * and the contentmodel/change log entry with its recent change — one transaction.
 */
import { invalidArgument, notFound, permissionDenied } from '@quire/kit';
import type { ChangeContentModelRequest, ChangeContentModelResponse } from '@quire/proto/wiki/content/v1/archive';
import { defaultFormat, isContentModel, prepareContent } from '../edit/models.js';
import { checkApplicableTags } from './tags.js';
import { requireActor, targetOf, userOf, type LifecycleDeps } from './lifecycle/common.js';
import { latestContent, lockPage } from '../store/lifecycle/common.js';
import { nowToTheSecond, publishLogEntry } from '../store/logging.js';
import { checkTitlePermissions, checkTitleRules } from './protection.js';
import { saveRevision } from '../store/save.js';

/** content-model-* messages (English). */
const MODEL_NAMES: Record<string, string> = { wikitext: 'wikitext', text: 'plain text', javascript: 'JavaScript', css: 'CSS', json: 'JSON' };

export async function changeContentModel(deps: LifecycleDeps, req: ChangeContentModelRequest): Promise<ChangeContentModelResponse> {
  const actor = requireActor(req.actor);
  const target = await targetOf(deps, req.title, req.pageId);
  if (!isContentModel(req.model)) throw invalidArgument('badvalue', `Unrecognized value for parameter "model": ${req.model}.`);
  const newModel = req.model;
  return deps.db.tx(async (q) => {
    const page = await lockPage(q, deps.db, target.ns, target.dbkey);
    if (!page) {
      throw notFound('changecontentmodel-missingtitle', 'The page you specified doesn\'t exist. To create a new page with a custom content model, use the "action=edit" module.');
    }
    if (!actor.rights.includes('editcontentmodel')) throw permissionDenied('permissiondenied', "You don't have permission to edit the content model of a page.");
    // ContentModelChange::authorizeChange: editing the page (and its protection) is needed too.
    if (!actor.rights.includes('edit')) throw permissionDenied('permissiondenied', "You don't have permission to edit this page.");
    // …of the page as it is and as it would be in the new model (a user's JavaScript is another user's to edit).
    await checkTitlePermissions(q, deps.db, deps.codec, target, 'edit', actor, { model: page.model, known: { pageId: page.id } });
    checkTitleRules(deps.codec, target, newModel, 'edit', actor);
    if (req.tags.length > 0) await checkApplicableTags(deps.db, actor, req.tags);
    const old = await latestContent(q, deps.db, page);
    if (old.model === newModel) throw invalidArgument('nochanges', 'No changes were requested.');
    // The text must be valid in the new model (JSON is checked and pretty-printed as an edit would be).
    const text = prepareContent(newModel, old.text);
    const title = deps.codec.prefixedText(page.ns, page.dbkey);
    const action = `${actor.name} changed the content model of the page [[${title}]] from "${MODEL_NAMES[old.model] ?? old.model}" to "${MODEL_NAMES[newModel]}"`;
    const timestamp = nowToTheSecond();
    const saved = await saveRevision(deps.db, deps.codec, {
      ns: page.ns,
      dbkey: page.dbkey,
      baseRevId: page.latest,
      text,
      contentModel: newModel,
      contentFormat: defaultFormat(newModel),
      user: userOf(actor),
      comment: req.summary !== '' ? `${action}: ${req.summary}` : action,
      minor: false,
      bot: req.bot && actor.rights.includes('bot'),
      tags: ['mw-contentmodelchange', ...req.tags],
      timestamp,
      autopatrol: actor.rights.includes('autopatrol'),
    });
    const { logId } = await publishLogEntry(q, deps.db, {
      type: 'contentmodel',
      action: 'change',
      actor: userOf(actor),
      ns: page.ns,
      dbkey: page.dbkey,
      pageId: page.id,
      comment: req.summary,
      params: { oldmodel: old.model, newmodel: newModel },
      tags: req.tags,
      timestamp,
    });
    return { title, pageId: page.id, contentModel: newModel, logId, revId: saved.revId };
  });
}
