/*
 * action=revisiondelete (MediaWiki's ApiRevisionDelete): type=revision hides or shows the content,
 * summary and author of revisions; type=logging the action, summary and performer of log entries.
 */
import type { StatusMessage } from '../../clients/types.js';
import { DELETED_COMMENT, DELETED_TEXT, DELETED_USER, LOG_DELETED_ACTION, logEntryFieldVisible, userCanSee } from '../../revdel.js';
import { escapeHtml, stripMarkup } from '../errors.js';
import { type ContextOf, defineModule, defineParams } from '../define.js';
import { ApiUsageError, setArrayType, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { TAGS_PARAM, writingActor } from './writes.js';
import { requireRight } from './support.js';

const FIELDS = ['content', 'comment', 'user'] as const;

/** English texts of the item statuses (languages/i18n/en.json). */
const ITEM_TEXTS: Record<string, string> = {
  'revdelete-no-change': '<strong>Warning:</strong> The item dated $2, $1 already had the requested visibility settings.',
  'revdelete-hide-current': 'Error hiding the item dated $2, $1: This is the current revision.\nIt cannot be hidden.',
  'revdelete-show-no-access': 'Error showing the item dated $2, $1: This item has been marked "restricted".\nYou do not have access to it.',
  'revdelete-modify-no-access': 'Error modifying the item dated $2, $1: This item has been marked "restricted".\nYou do not have access to it.',
  'revdelete-only-restricted': 'Error hiding the item dated $2, $1: You cannot suppress items from view by administrators without also selecting one of the other visibility options.',
  'revdelete-concurrent-change': 'Error modifying the item dated $2, $1: Its status appears to have been changed by someone else while you attempted to modify it.\nPlease check the logs.',
  'revdelete-modify-missing': 'Error modifying item ID $1: It is missing from the database!',
};

/** ApiErrorFormatter::arrayFromStatus for one item's errors or warnings, in the request's errorformat. */
function statusArray(ctx: ActionContext, messages: readonly StatusMessage[], type: 'error' | 'warning'): ResultObject[] {
  const format = ctx.raw.get('errorformat') ?? 'bc';
  return setIndexedTagName(
    messages.map((m): ResultObject => {
      // revdelete-modify-missing names the id as a number, the others a date and a time.
      const params: (string | number)[] = m.key === 'revdelete-modify-missing' ? m.params.map(Number) : [...m.params];
      const wikitext = (ITEM_TEXTS[m.key] ?? m.key).replace(/\$(\d)/g, (_x, n: string) => String(params[Number(n) - 1] ?? ''));
      switch (format) {
        case 'bc':
          return { message: m.key, params: setIndexedTagName(params, 'param'), code: m.key, type };
        case 'raw':
          return { code: m.key, key: m.key, params: setIndexedTagName(params, 'param') };
        case 'html':
          return { code: m.key, html: wikitext.includes('<') ? wikitext : escapeHtml(wikitext) };
        case 'wikitext':
          return { code: m.key, text: wikitext };
        case 'none':
          return { code: m.key };
        default:
          return { code: m.key, text: stripMarkup(wikitext) };
      }
    }),
    type,
  );
}

const params = defineParams({
  type: { type: ['revision', 'archive', 'logging'], required: true, help: 'Type of revision deletion being performed.' },
  target: { type: 'string', help: 'Page title for the revision deletion, if required for the type.' },
  ids: { type: 'string', multi: true, required: true, help: 'Identifiers for the revisions to be deleted.' },
  hide: { type: [...FIELDS], multi: true, help: 'What to hide for each revision.' },
  show: { type: [...FIELDS], multi: true, help: 'What to unhide for each revision.' },
  suppress: { type: ['yes', 'no', 'nochange'], default: 'nochange', help: 'Whether to suppress data from administrators as well as others.' },
  reason: { type: 'string', help: 'Reason for the deletion or undeletion.' },
  tags: { ...TAGS_PARAM, help: 'Tags to apply to the entry in the deletion log.' },
});

type RevisionDeleteContext = ContextOf<typeof params>;

/** The status part of an item's result (ApiRevisionDelete::extractStatusInfo), then its id. */
function itemStatus(ctx: ActionContext, item: { ok: boolean; errors: StatusMessage[]; warnings: StatusMessage[]; id: number | string }): ResultObject {
  const out: ResultObject = { status: item.ok ? 'Success' : 'Fail' };
  if (item.errors.length) out.errors = statusArray(ctx, item.errors, 'error');
  if (item.warnings.length) out.warnings = statusArray(ctx, item.warnings, 'warning');
  out.id = item.id;
  return out;
}

/** type=logging: the content service changes log_deleted; each item as RevDelLogItem::getApiData. */
async function deleteLogEntries(ctx: RevisionDeleteContext, ids: number[], action: number, comment: number, user: number): Promise<void> {
  const p = ctx.params;
  const res = await ctx.deps.clients.archive.revisionDeleteLogEntries({
    actor: writingActor(ctx),
    ids,
    action,
    comment,
    user,
    suppress: p.suppress === 'yes' ? 1 : p.suppress === 'no' ? 0 : -1,
    reason: p.reason ?? '',
    tags: p.tags ?? [],
  });
  const rights = ctx.caller.user.rights;
  const items = res.items.map((item): ResultObject => {
    const out = itemStatus(ctx, item);
    if (!item.exists) return out;
    out.type = item.type;
    out.action = item.action;
    out.userhidden = (item.deleted & DELETED_USER) !== 0;
    out.commenthidden = (item.deleted & DELETED_COMMENT) !== 0;
    out.actionhidden = (item.deleted & LOG_DELETED_ACTION) !== 0;
    // RevDelLogItem::getApiData: LogEventsList::userCan, by the bits and the log's type.
    const canSee = (field: number) => logEntryFieldVisible(item.type, item.deleted, field, rights);
    if (canSee(LOG_DELETED_ACTION)) out.params = setArrayType(JSON.parse(item.paramsJson || '{}') as ResultObject, 'assoc');
    if (canSee(DELETED_USER)) {
      out.userid = item.userId;
      out.user = item.user;
    }
    if (canSee(DELETED_COMMENT)) out.comment = item.comment;
    return out;
  });
  ctx.result.revisiondelete = { status: 'Success', target: res.target, items: setIndexedTagName(items, 'i') };
}

export const revisiondeleteModule = defineModule({
  name: 'revisiondelete',
  group: 'action',
  prefix: '',
  summary: 'Delete and undelete revisions.',
  params,
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=revisiondelete&target=Main%20Page&type=revision&ids=12345&hide=content&token=123ABC': 'Hide content for revision 12345 on the page Main Page.',
  },
  async execute(ctx) {
    const p = ctx.params;
    // RevisionDeleter::getRestriction of the type.
    if (p.type === 'logging') requireRight(ctx, 'deletelogentry', 'delete log entries');
    else requireRight(ctx, 'deleterevision', 'delete revisions');
    const ids = p.ids.map((id) => Number.parseInt(id, 10) || 0);
    if (ids.length === 0) throw new ApiUsageError('paramempty_ids', 'The parameter "ids" may not be empty.');
    const hide = p.hide ?? [];
    const show = p.show ?? [];
    if (hide.some((f) => show.includes(f))) throw new ApiUsageError('badparams', 'The same field cannot be used in both hide and show.');
    if (hide.length === 0 && show.length === 0) throw new ApiUsageError('badparams', 'At least one value is required for hide and/or show.');
    const bit = (field: (typeof FIELDS)[number]) => (hide.includes(field) ? 1 : show.includes(field) ? 0 : -1);
    if (p.suppress === 'yes') requireRight(ctx, 'suppressrevision', 'review and undelete hidden revisions');
    if (p.type === 'logging') {
      await deleteLogEntries(ctx, ids, bit('content'), bit('comment'), bit('user'));
      return;
    }
    const fields = { content: bit('content'), comment: bit('comment'), user: bit('user'), suppress: p.suppress === 'yes' ? 1 : p.suppress === 'no' ? 0 : -1 };
    const common = { actor: writingActor(ctx), target: p.target ?? '', ...fields, reason: p.reason ?? '', tags: p.tags ?? [] };
    // type=archive names a deleted page's revisions by their timestamps.
    const res = p.type === 'archive' ? await ctx.deps.clients.archive.revisionDeleteArchived({ ...common, ids: p.ids }) : await ctx.deps.clients.content.revisionDelete({ ...common, ids });
    const rights = ctx.caller.user.rights;
    const items = res.items.map((item: (typeof res.items)[number]): ResultObject => {
      const out = itemStatus(ctx, item);
      if (!item.exists) return out;
      // RevDelRevisionItem::getApiData (RevDelArchiveItem too), as the caller may see it.
      out.timestamp = item.timestamp;
      out.userhidden = (item.deleted & DELETED_USER) !== 0;
      out.commenthidden = (item.deleted & DELETED_COMMENT) !== 0;
      out.texthidden = (item.deleted & DELETED_TEXT) !== 0;
      if (userCanSee(item.deleted, DELETED_USER, rights)) {
        out.userid = item.userId;
        out.user = item.user;
      }
      if (userCanSee(item.deleted, DELETED_COMMENT, rights)) out.comment = item.comment;
      return out;
    });
    ctx.result.revisiondelete = { status: 'Success', target: res.target, items: setIndexedTagName(items, 'i') };
  },
});
