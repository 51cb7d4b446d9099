/* action=managetags (MediaWiki's ApiManageTags): creates, deletes, activates or deactivates a change tag, with its managetags log entry. */
import { MessageUsageError } from '../errors.js';
import { defineModule } from '../define.js';
import { apiMessage } from './support.js';
import { editActor, editBlock, TAGS_PARAM } from './writes.js';

const refuse = (code: string, key: string, text: string, params: string[] = []) => new MessageUsageError(apiMessage(code, key, params, text));

export const managetagsModule = defineModule({
  name: 'managetags',
  group: 'action',
  prefix: '',
  summary: 'Perform management tasks relating to change tags.',
  params: {
    operation: { type: ['create', 'delete', 'activate', 'deactivate'], required: true, help: 'Which operation to perform.' },
    tag: {
      type: 'string',
      required: true,
      help: 'Tag to create, delete, activate or deactivate. For tag creation, the tag must not exist. For tag deletion, the tag must exist. For tag activation, the tag must exist and not be in use by an extension. For tag deactivation, the tag must be currently active and manually defined.',
    },
    reason: { type: 'string', default: '', help: 'An optional reason for creating, deleting, activating or deactivating the tag.' },
    ignorewarnings: { type: 'boolean', help: 'Whether to ignore any warnings that are issued during the operation.' },
    tags: { ...TAGS_PARAM, help: 'Change tags to apply to the entry in the tag management log.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=managetags&operation=create&tag=spam&reason=For+use+in+edit+patrolling&token=123ABC': 'Create a tag named spam with the reason For use in edit patrolling',
    'action=managetags&operation=delete&tag=vandlaism&reason=Misspelt&token=123ABC': 'Delete the vandlaism tag with the reason Misspelt',
    'action=managetags&operation=activate&tag=spam&reason=For+use+in+edit+patrolling&token=123ABC': 'Activate a tag named spam with the reason For use in edit patrolling',
    'action=managetags&operation=deactivate&tag=spam&reason=No+longer+required&token=123ABC': 'Deactivate a tag named spam with the reason No longer required',
  },
  async execute(ctx) {
    const p = ctx.params;
    const { operation, tag } = p;
    const rights = ctx.caller.user.rights;
    // ApiManageTags::execute, including its `elseif`: every operation, not only delete, needs
    // deletechangetags once managechangetags is there.
    if (operation !== 'delete' && !rights.includes('managechangetags')) {
      throw refuse('permissiondenied', 'tags-manage-no-permission', 'You do not have permission to manage change tags.');
    } else if (!rights.includes('deletechangetags')) {
      throw refuse('permissiondenied', 'tags-delete-no-permission', 'You do not have permission to delete change tags.');
    }
    // ChangeTags::can*Tag: a sitewide block stops tag management.
    if (editBlock(ctx.caller)) throw refuse('tags-manage-blocked', 'tags-manage-blocked', 'You cannot manage change tags while you are blocked.', [ctx.caller.user.name]);
    const res = await ctx.deps.clients.content.manageTag({ actor: editActor(ctx.caller), operation, tag, reason: p.reason, tags: p.tags ?? [] });
    ctx.result.managetags = { operation, tag, success: true, logid: res.logId };
  },
});
