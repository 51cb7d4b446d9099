/* wiki.content.v1.TagService: action=tag (ChangeTags::updateTagsWithChecks) and list=tags. */
import { invalidArgument, notFound, permissionDenied } from '@quire/kit';
import type { ChangeTagsRequest, ChangeTagsResponse, ListTagsRequest, ListTagsResponse, ManageTagRequest, ManageTagResponse, TagInfo } from '@quire/proto/wiki/content/v1/files';
import { publishLogEntry, writeLogEntry } from '../store/logging.js';
import { defineTag, deleteTagEverywhere, lockTagDef, undefineTag } from '../store/tags.js';
import { checkApplicableTags } from '../edit/tags.js';
import { MalformedTitleError } from '../title/codec.js';
import { NS_SPECIAL } from '../title/namespaces.js';
import type { RenderService } from '../render/service.js';
import type { ContentContext } from './context.js';
import { tagMessages } from './tag-messages.js';

/** ChangeTags::getSoftwareTags: MediaWiki's own tags, all defined and active by default. */
export const SOFTWARE_TAGS = [
  'mw-contentmodelchange', 'mw-new-redirect', 'mw-removed-redirect', 'mw-changed-redirect-target', 'mw-blank', 'mw-replace',
  'mw-rollback', 'mw-undo', 'mw-manual-revert', 'mw-reverted', 'mw-server-side-upload',
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
        const defs = await q.query<{ ctd_name: string; ctd_user_defined: boolean }>(
          `SELECT ctd_name, ctd_user_defined FROM ${s}.change_tag_def WHERE ctd_name = ANY($1::text[])`,
          [[...add, ...remove]],
        );
        const userDefined = new Set(defs.rows.filter((d) => d.ctd_user_defined).map((d) => d.ctd_name));
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
        let target: { ns: number; dbkey: string; pageId: number };
        let column: 'ct_rev_id' | 'ct_log_id' | 'ct_rc_id';
        let id: number;
        if (req.revId > 0) {
          const r = await q.query<{ page_id: number; page_namespace: number; page_title: string }>(
            `SELECT p.page_id, p.page_namespace, p.page_title FROM ${s}.revision r JOIN ${s}.page p ON p.page_id = r.rev_page WHERE r.rev_id = $1`,
            [req.revId],
          );
          const row = r.rows[0];
          if (!row) throw notFound('nosuchrevid', `There is no revision with ID ${req.revId}.`);
          target = { ns: row.page_namespace, dbkey: row.page_title, pageId: row.page_id };
          [column, id] = ['ct_rev_id', req.revId];
        } else if (req.logId > 0) {
          const r = await q.query<{ log_namespace: number; log_title: string; log_page: number | null }>(
            `SELECT log_namespace, log_title, log_page FROM ${s}.logging WHERE log_id = $1`,
            [req.logId],
          );
          const row = r.rows[0];
          if (!row) throw notFound('nosuchlogid', `There is no log entry with ID ${req.logId}.`);
          target = { ns: row.log_namespace, dbkey: row.log_title, pageId: row.log_page ?? 0 };
          [column, id] = ['ct_log_id', req.logId];
        } else {
          const r = await q.query<{ rc_namespace: number; rc_title: string; rc_cur_id: number }>(
            `SELECT rc_namespace, rc_title, rc_cur_id FROM ${s}.recentchanges WHERE rc_id = $1`,
            [req.rcId],
          );
          const row = r.rows[0];
          if (!row) throw notFound('nosuchrcid', `There is no recent change with ID ${req.rcId}.`);
          target = { ns: row.rc_namespace, dbkey: row.rc_title, pageId: Number(row.rc_cur_id) };
          [column, id] = ['ct_rc_id', req.rcId];
        }

        const current = await q.query<{ ctd_name: string }>(
          `SELECT d.ctd_name FROM ${s}.change_tag ct JOIN ${s}.change_tag_def d ON d.ctd_id = ct.ct_tag_id WHERE ct.${column} = $1 ORDER BY d.ctd_name`,
          [id],
        );
        const initial = current.rows.map((r) => r.ctd_name);
        const added = add.filter((t) => !initial.includes(t));
        const removed = remove.filter((t) => initial.includes(t) && !added.includes(t));
        if (added.length === 0 && removed.length === 0) return { noop: true, actionLogId: 0, added: [], removed: [] };

        for (const tag of added) {
          await q.query(
            `WITH d AS (UPDATE ${s}.change_tag_def SET ctd_count = ctd_count + 1 WHERE ctd_name = $2 RETURNING ctd_id)
             INSERT INTO ${s}.change_tag (${column}, ct_tag_id) SELECT $1, ctd_id FROM d`,
            [id, tag],
          );
        }
        for (const tag of removed) {
          await q.query(
            `WITH d AS (UPDATE ${s}.change_tag_def SET ctd_count = GREATEST(ctd_count - 1, 0) WHERE ctd_name = $2 RETURNING ctd_id)
             DELETE FROM ${s}.change_tag USING d WHERE ${column} = $1 AND ct_tag_id = d.ctd_id`,
            [id, tag],
          );
        }
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
          actor: { id: actor.id, name: actor.name },
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
      const r = await db.query<{ ctd_name: string; ctd_user_defined: boolean; ctd_count: string }>(
        `SELECT ctd_name, ctd_user_defined, ctd_count FROM ${s}.change_tag_def`,
      );
      const byName = new Map<string, Omit<TagInfo, 'displayHtml' | 'displayDisabled' | 'descriptionText'>>();
      for (const name of SOFTWARE_TAGS) byName.set(name, { name, defined: true, active: true, source: ['extension'], hitCount: 0 });
      for (const row of r.rows) {
        const software = SOFTWARE.has(row.ctd_name);
        const source = [...(row.ctd_user_defined ? ['manual'] : []), ...(software ? ['extension'] : [])];
        byName.set(row.ctd_name, {
          name: row.ctd_name,
          defined: row.ctd_user_defined || software,
          active: row.ctd_user_defined || software,
          source,
          hitCount: Number(row.ctd_count),
        });
      }
      const all = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).filter((t) => req.continue === '' || t.name >= req.continue);
      const limit = Math.max(1, req.limit || 10);
      const page = all.slice(0, limit);
      const messages = await tagMessages(db, render, page.map((t) => t.name));
      const tags = page.map((t): TagInfo => {
        const msg = messages.get(t.name);
        return { ...t, displayHtml: msg?.html, displayDisabled: msg?.disabled ?? false, descriptionText: msg?.description };
      });
      return { tags, continueFrom: all[limit]?.name ?? '' };
    },
  };
}
