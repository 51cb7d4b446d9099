/* wiki.content.v1.TagService: action=tag (ChangeTags::updateTagsWithChecks) and list=tags. */
import { invalidArgument, notFound, permissionDenied } from '@quire/kit';
import type { ChangeTagsRequest, ChangeTagsResponse, ListTagsRequest, ListTagsResponse, ManageTagRequest, ManageTagResponse, TagInfo } from '@quire/proto/wiki/content/v1/files';
import { publishLogEntry, writeLogEntry } from '../store/logging.js';
import { checkApplicableTags } from '../domain/tags.js';
import { allTagDefs, defineTag, deleteTagEverywhere, lockTagDef, tagChange, tagDefsNamed, taggedChangeTitle, tagsOfChange, undefineTag, untagChange, type TaggedChange } from '../store/tags.js';
import { MalformedTitleError } from '../title/codec.js';
import { NS_SPECIAL } from '../title/namespaces.js';
import type { RenderService } from '../domain/render.js';
import type { ContentContext } from './context.js';
import { tagMessages } from './tag-messages.js';

/** ChangeTags::getSoftwareTags: MediaWiki's own tags, all defined and active by default. */
export const SOFTWARE_TAGS = [
  'mw-contentmodelchange',
  'mw-new-redirect',
  'mw-removed-redirect',
  'mw-changed-redirect-target',
  'mw-blank',
  'mw-replace',
  'mw-rollback',
  'mw-undo',
  'mw-manual-revert',
  'mw-reverted',
  'mw-server-side-upload',
] as const;
const SOFTWARE = new Set<string>(SOFTWARE_TAGS);

/** ChangeTags::MAX_DELETE_USES: a tag on more changes than this cannot be deleted. */
const MAX_DELETE_USES = 5000;

/** The English texts of ChangeTags' Status messages that managetags reports. */
const MANAGE_TEXTS: Record<string, (tag: string) => string> = {
  'tags-manage-no-permission': () => 'You do not have permission to manage change tags.',
  'tags-delete-no-permission': () => 'You do not have permission to delete change tags.',
  'tags-create-no-name': () => 'You must specify a tag name.',
  'tags-create-invalid-chars': () => 'Tag names must not contain commas (<code>,</code>), pipes (<code>|</code>), or forward slashes (<code>/</code>).',
  'tags-create-invalid-title-chars': () => 'Tag names must not contain characters that cannot be used in page titles.',
  'tags-create-already-exists': (tag) => `The tag "${tag}" already exists.`,
  'tags-delete-not-found': (tag) => `The tag "${tag}" does not exist.`,
  'tags-delete-too-many-uses': (tag) => `The tag "${tag}" is applied to more than ${MAX_DELETE_USES} revisions, which means it cannot be deleted.`,
  'tags-delete-not-allowed': () => 'Tags defined by an extension cannot be deleted unless the extension specifically allows it.',
  'tags-activate-not-allowed': (tag) => `It is not possible to activate the tag "${tag}".`,
  'tags-activate-not-found': (tag) => `The tag "${tag}" does not exist.`,
  'tags-deactivate-not-allowed': (tag) => `It is not possible to deactivate the tag "${tag}".`,
};

/** A fatal Status of ChangeTags as the service error the API shows (code = message key). */
function manageError(key: string, tag: string) {
  const text = MANAGE_TEXTS[key]?.(tag) ?? key;
  return key.endsWith('-no-permission') ? permissionDenied(key, text) : invalidArgument(key, text);
}

export function tagHandlers(ctx: ContentContext, render: RenderService) {
  const { db } = ctx;
  const s = db.schema;

  return {
    async changeTags(req: ChangeTagsRequest): Promise<ChangeTagsResponse> {
      const actor = req.actor;
      if (!actor) throw invalidArgument('missingparam', 'The change has no actor.');
      if (!actor.rights.includes('changetags')) {
        throw permissionDenied('permissiondenied', 'You do not have permission to add or remove change tags from individual revisions or log entries.');
      }
      const add = [...new Set(req.add)];
      const remove = [...new Set(req.remove)];
      return db.tx(async (q) => {
        // ChangeTags::canUpdateTags: only tags an administrator defined (and left active) may be
        // added; software tags may not be removed.
        const defs = await tagDefsNamed(q, s, [...add, ...remove]);
        const userDefined = new Set(defs.filter((d) => d.userDefined).map((d) => d.name));
        const refused = add.filter((t) => !userDefined.has(t));
        if (refused.length) {
          throw invalidArgument(
            'badtags',
            refused.length === 1 ? `The tag "${refused[0]}" is not allowed to be manually applied.` : `The following tags are not allowed to be manually applied: ${refused.join(', ')}`,
            { api: { disallowedtags: refused } },
          );
        }
        const unremovable = remove.filter((t) => SOFTWARE.has(t) && !userDefined.has(t));
        if (unremovable.length) {
          throw invalidArgument(
            'badtags',
            unremovable.length === 1 ? `The tag "${unremovable[0]}" is not allowed to be removed.` : `The following tags are not allowed to be removed: ${unremovable.join(', ')}`,
            { api: { disallowedtags: unremovable } },
          );
        }

        // The target and the page its log entry names.
        const tagged: TaggedChange = req.revId > 0 ? { kind: 'revision', id: req.revId } : req.logId > 0 ? { kind: 'log', id: req.logId } : { kind: 'rc', id: req.rcId };
        const target = await taggedChangeTitle(q, s, tagged);
        if (!target) {
          const [code, what] = { revision: ['nosuchrevid', 'revision'], log: ['nosuchlogid', 'log entry'], rc: ['nosuchrcid', 'recent change'] }[tagged.kind];
          throw notFound(code!, `There is no ${what} with ID ${tagged.id}.`);
        }
        const initial = await tagsOfChange(q, s, tagged);
        const added = add.filter((t) => !initial.includes(t));
        const removed = remove.filter((t) => initial.includes(t) && !added.includes(t));
        if (added.length === 0 && removed.length === 0) return { noop: true, actionLogId: 0, added: [], removed: [] };

        for (const tag of added) await tagChange(q, s, tagged, tag);
        for (const tag of removed) await untagChange(q, s, tagged, tag);
        // ChangeTags::updateTagsWithChecks logs tag/update (not published to recent changes).
        const actionLogId = await writeLogEntry(q, db, {
          type: 'tag',
          action: 'update',
          actor: { id: actor.id, name: actor.name },
          ns: target.ns,
          dbkey: target.dbkey,
          pageId: target.pageId,
          comment: req.reason,
          params: {
            '4::revid': req.revId > 0 ? String(req.revId) : null,
            '5::logid': req.logId > 0 ? String(req.logId) : null,
            '6:list:tagsAdded': added,
            '7:number:tagsAddedCount': added.length,
            '8:list:tagsRemoved': removed,
            '9:number:tagsRemovedCount': removed.length,
            initialTags: initial,
          },
          tags: req.tags,
        });
        return { noop: false, actionLogId, added, removed };
      });
    },

    /**
     * ApiManageTags → ChangeTags::{create,delete,activate,deactivate}TagWithChecks. Core defines
     * no hooks that could turn a check into a warning, so every refusal is fatal and
     * `ignorewarnings` changes nothing.
     */
    async manageTag(req: ManageTagRequest): Promise<ManageTagResponse> {
      const actor = req.actor;
      if (!actor) throw invalidArgument('missingparam', 'The change has no actor.');
      const { operation, tag } = req;
      const right = operation === 'delete' ? 'deletechangetags' : 'managechangetags';
      if (!actor.rights.includes(right)) throw manageError(operation === 'delete' ? 'tags-delete-no-permission' : 'tags-manage-no-permission', tag);
      if (req.tags.length) await checkApplicableTags(db, actor, req.tags);
      return db.tx(async (q) => {
        const def = await lockTagDef(q, db, tag);
        const software = SOFTWARE.has(tag);
        const defined = software || def?.userDefined === true;
        let count: number | undefined;
        switch (operation) {
          case 'create': {
            // ChangeTags::isTagNameValid, then canCreateTag.
            if (tag === '') throw manageError('tags-create-no-name', tag);
            if (/[,|/]/.test(tag)) throw manageError('tags-create-invalid-chars', tag);
            try {
              ctx.codec.parse(`MediaWiki:Tag-${tag}-description`);
            } catch (e) {
              if (!(e instanceof MalformedTitleError)) throw e;
              throw manageError('tags-create-invalid-title-chars', tag);
            }
            if (def || defined) throw manageError('tags-create-already-exists', tag);
            await defineTag(q, db, tag);
            break;
          }
          case 'delete':
            if (!def && !defined) throw manageError('tags-delete-not-found', tag);
            if (def && def.count > MAX_DELETE_USES) throw manageError('tags-delete-too-many-uses', tag);
            if (software) throw manageError('tags-delete-not-allowed', tag);
            count = def?.count ?? 0;
            await deleteTagEverywhere(q, db, tag);
            break;
          case 'activate':
            if (defined) throw manageError('tags-activate-not-allowed', tag);
            if (!def) throw manageError('tags-activate-not-found', tag);
            await defineTag(q, db, tag);
            break;
          case 'deactivate':
            if (!def?.userDefined) throw manageError('tags-deactivate-not-allowed', tag);
            await undefineTag(q, db, tag);
            break;
          default:
            throw invalidArgument('badvalue', `Unrecognized value for parameter "operation": ${operation}.`);
        }
        // ChangeTags::logTagManagementAction: the target is Special:Tags.
        const { logId } = await publishLogEntry(q, db, {
          type: 'managetags',
          action: operation,
          actor: { id: actor.id, name: actor.name, bot: actor.rights.includes('bot') },
          ns: NS_SPECIAL,
          dbkey: 'Tags',
          pageId: 0,
          comment: req.reason,
          // As list=logevents shows LogFormatter's 4::tag and 5:number:count.
          params: { tag, ...(count !== undefined ? { count } : {}) },
          tags: req.tags,
        });
        return { logId };
      });
    },

    async listTags(req: ListTagsRequest): Promise<ListTagsResponse> {
      const defs = await allTagDefs(db);
      const byName = new Map<string, Omit<TagInfo, 'displayHtml' | 'displayDisabled' | 'descriptionText'>>();
      for (const name of SOFTWARE_TAGS) byName.set(name, { name, defined: true, active: true, source: ['extension'], hitCount: 0 });
      for (const def of defs) {
        const software = SOFTWARE.has(def.name);
        const source = [...(def.userDefined ? ['manual'] : []), ...(software ? ['extension'] : [])];
        byName.set(def.name, {
          name: def.name,
          defined: def.userDefined || software,
          active: def.userDefined || software,
          source,
          hitCount: def.count,
        });
      }
      const all = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).filter((t) => req.continue === '' || t.name >= req.continue);
      const limit = Math.max(1, req.limit || 10);
      const page = all.slice(0, limit);
      const messages = await tagMessages(
        db,
        render,
        page.map((t) => t.name),
      );
      const tags = page.map((t): TagInfo => {
        const msg = messages.get(t.name);
        return { ...t, displayHtml: msg?.html, displayDisabled: msg?.disabled ?? false, descriptionText: msg?.description };
      });
      return { tags, continueFrom: all[limit]?.name ?? '' };
    },
  };
}
