/* action=tag (MediaWiki's ApiTag): adds or removes change tags on revisions, log entries or recent changes. */
import { GrpcStatus, ServiceError } from '@quire/kit';
import { defineModule } from '../define.js';
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { apiError } from './support.js';
import { editActor, editBlock } from './writes.js';
import { blockedError } from '../blockinfo.js';

export const tagModule = defineModule({
  name: 'tag',
  group: 'action',
  prefix: '',
  summary: 'Add or remove change tags from individual revisions or log entries.',
  params: {
    rcid: { type: 'integer', multi: true, help: 'One or more recent changes IDs from which to add or remove the tag.' },
    revid: { type: 'integer', multi: true, help: 'One or more revision IDs from which to add or remove the tag.' },
    logid: { type: 'integer', multi: true, help: 'One or more log entry IDs from which to add or remove the tag.' },
    add: { type: 'string', multi: true, help: 'Tags to add. Only manually defined tags can be added.' },
    remove: { type: 'string', multi: true, help: 'Tags to remove. Only tags that are either manually defined or completely undefined can be removed.' },
    reason: { type: 'string', default: '', help: 'Reason for the change.' },
    tags: { type: 'string', multi: true, help: 'Tags to apply to the log entry that will be created as a result of this action.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=tag&revid=123&add=vandalism&token=123ABC': 'Add the vandalism tag to revision ID 123 without specifying a reason',
    'action=tag&logid=123&remove=spam&reason=Wrongly+applied&token=123ABC': 'Remove the spam tag from log entry ID 123 with the reason Wrongly applied',
  },
  async execute(ctx) {
    const p = ctx.params;
    const given = (['rcid', 'revid', 'logid'] as const).filter((n) => p[n] !== undefined);
    if (given.length === 0) throw new ApiUsageError('missingparam', 'One of the parameters "rcid", "revid" and "logid" is required.');
    if (given.length > 1) throw apiError('invalidparammix', 'apierror-invalidparammix', [given.map((n) => `<var>${n}</var>`).join(', '), given.length]);
    if (!ctx.caller.user.rights.includes('changetags')) {
      throw apiError('permissiondenied', 'apierror-permissiondenied', ['add and remove arbitrary tags on individual revisions and log entries']);
    }
    // ApiTag: a sitewide block refuses early (a partial one does not cover tagging).
    const block = editBlock(ctx.caller);
    if (block) throw blockedError(block);
    const kind = given[0]!;
    const ids = p[kind] ?? [];
    const field = { rcid: 'rcId', revid: 'revId', logid: 'logId' }[kind];
    const out: ResultObject[] = [];
    for (const id of ids) {
      try {
        const r = await ctx.deps.clients.content.changeTags({
          actor: editActor(ctx.caller),
          [field]: id,
          add: p.add ?? [],
          remove: p.remove ?? [],
          reason: p.reason,
          tags: p.tags ?? [],
        });
        out.push(
          r.noop
            ? { [kind]: id, status: 'success', noop: true }
            : {
                [kind]: id,
                status: 'success',
                actionlogid: r.actionLogId,
                added: setIndexedTagName([...r.added], 't'),
                removed: setIndexedTagName([...r.removed], 't'),
              },
        );
      } catch (e) {
        // A target that does not exist is reported per item; everything else ends the request.
        if (!(e instanceof ServiceError) || e.grpcCode !== GrpcStatus.NOT_FOUND) throw e;
        out.push({ [kind]: id, status: 'error', code: e.mwCode, info: e.message });
      }
    }
    ctx.result.tag = setIndexedTagName(out, 'result');
  },
});
