/* list=logevents (ApiQueryLogEvents): the log, newest first, filtered by type, action, user, title or tag. */
import { ApiUsageError, setArrayType, setIndexedTagName, type ResultObject } from '../types.js';
import { queryRunOf } from './run.js';
import { DIR_PARAM, LIMIT_PARAM, apiLogParams, mwOfIso, propsOf, timeWindow, titleKey } from './changes.js';
import { defineModule } from '../define.js';
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_USER, LOG_DELETED_ACTION, hiddenLogTypes, logFieldVisible } from '../../revdel.js';

const LOG_TYPES = [
  '',
  'block',
  'contentmodel',
  'create',
  'delete',
  'import',
  'interwiki',
  'managetags',
  'merge',
  'move',
  'newusers',
  'oath',
  'patrol',
  'protect',
  'rights',
  'suppress',
  'tag',
  'upload',
];

/** $wgLogActions and $wgLogActionsHandlers of MediaWiki 1.39 (with the reference wiki's extensions): leaction's values. */
const LOG_ACTIONS = [
  'block/block',
  'block/reblock',
  'block/unblock',
  'contentmodel/change',
  'contentmodel/new',
  'create/create',
  'delete/delete',
  'delete/delete_redir',
  'delete/delete_redir2',
  'delete/event',
  'delete/restore',
  'delete/revision',
  'import/interwiki',
  'import/upload',
  'interwiki/*',
  'managetags/activate',
  'managetags/create',
  'managetags/deactivate',
  'managetags/delete',
  'merge/merge',
  'move/move',
  'move/move_redir',
  'newusers/autocreate',
  'newusers/byemail',
  'newusers/create',
  'newusers/create2',
  'newusers/newusers',
  'oath/*',
  'patrol/autopatrol',
  'patrol/patrol',
  'protect/modify',
  'protect/move_prot',
  'protect/protect',
  'protect/unprotect',
  'rights/autopromote',
  'rights/rights',
  'suppress/block',
  'suppress/delete',
  'suppress/event',
  'suppress/reblock',
  'suppress/revision',
  'tag/update',
  'upload/overwrite',
  'upload/revert',
  'upload/upload',
];

export const logeventsModule = defineModule({
  name: 'logevents',
  group: 'list',
  prefix: 'le',
  summary: 'Get events from logs.',
  params: {
    prop: {
      type: ['comment', 'details', 'ids', 'parsedcomment', 'tags', 'timestamp', 'title', 'type', 'user', 'userid'],
      multi: true,
      default: 'ids|title|type|user|timestamp|comment|details',
      help: 'Which properties to get.',
    },
    type: { type: LOG_TYPES, help: 'Filter log entries to only this type.' },
    action: {
      type: LOG_ACTIONS,
      help: 'Filter log actions to only this action. Overrides letype. In the list of possible values, values with the asterisk wildcard such as action/* can have different strings after the slash (/).',
    },
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
    end: { type: 'timestamp', help: 'The timestamp to end enumerating.' },
    dir: DIR_PARAM,
    user: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], help: 'Filter entries to those made by the given user.' },
    title: { type: 'string', help: 'Filter entries to those related to a page.' },
    namespace: { type: 'namespace', extraNamespaces: [-2, -1], help: 'Filter entries to those in the given namespace.' },
    prefix: { type: 'string', help: 'Filter entries that start with this prefix.' },
    tag: { type: 'string', help: 'Only list event entries tagged with this tag.' },
    limit: LIMIT_PARAM,
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  },
  flags: {},
  examples: { 'action=query&list=logevents': 'List recent log events.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const props = propsOf(p);
    // ApiQueryLogEvents: title, namespace and prefix are one filter each, at most one of them (named in the parameters' order).
    const given = (['title', 'namespace', 'prefix'] as const).filter((k) => p[k] !== undefined).map((k) => `"le${k}"`);
    if (given.length > 1) throw new ApiUsageError('invalidparammix', `The parameters ${given.slice(0, -1).join(', ')} and ${given.at(-1)} can not be used together.`);
    const titleFilter = typeof p.title === 'string' ? await titleKey(ctx, p.title) : undefined;
    // leprefix: the entries whose title starts with it, in its namespace (Title::newFromText).
    const prefixFilter = typeof p.prefix === 'string' ? await titleKey(ctx, p.prefix) : undefined;
    const limit = p.limit;
    const resp = await ctx.deps.clients.content.listLogEvents({
      type: typeof p.type === 'string' && typeof p.action !== 'string' ? p.type : '',
      action: p.action ?? '',
      user: p.user ?? '',
      hasTitle: titleFilter !== undefined,
      hasPrefix: prefixFilter !== undefined,
      ns: (titleFilter ?? prefixFilter)?.ns ?? 0,
      dbkey: (titleFilter ?? prefixFilter)?.dbkey ?? '',
      namespace: typeof p.namespace === 'number' ? p.namespace : -1,
      tag: p.tag ?? '',
      limit,
      hiddenTypes: hiddenLogTypes(ctx.caller.user.rights),
      ...timeWindow(p),
    });
    const events = resp.events.slice(0, limit);
    const next = resp.events[limit];
    const parsed = props.has('parsedcomment') ? await ctx.deps.clients.content.formatComments(events.map((e) => ({ title: e.title, comment: e.comment }))) : [];
    // Fields hidden by revision deletion of log entries (log_deleted), per the caller's rights.
    const hiddenBits = await ctx.deps.clients.archive.logEntryVisibility(events.map((e) => e.logId));
    const rights = ctx.caller.user.rights;
    run.data.logevents = setIndexedTagName(
      events.map((e, i): ResultObject => {
        const out: ResultObject = {};
        const bits = hiddenBits.get(e.logId) ?? 0;
        const canSee = (field: number) => logFieldVisible(bits, field, rights);
        let anyHidden = false;
        if (props.has('ids')) out.logid = e.logId;
        // ApiQueryLogEvents::extractRowInfo: the action (target, ids, parameters), performer and summary may be hidden.
        if (props.has('title') || props.has('ids') || props.has('details')) {
          if (bits & LOG_DELETED_ACTION) {
            out.actionhidden = true;
            anyHidden = true;
          }
          if (canSee(LOG_DELETED_ACTION)) {
            if (props.has('title')) {
              out.ns = e.ns;
              out.title = e.title;
            }
            if (props.has('ids')) {
              out.pageid = e.pageId;
              out.logpage = e.logPage;
            }
            if (props.has('details')) out.params = setArrayType(apiLogParams(e.paramsJson, e.type), 'assoc');
          }
        }
        if (props.has('type')) {
          out.type = e.type;
          out.action = e.action;
        }
        if (props.has('user') || props.has('userid')) {
          if (bits & DELETED_USER) {
            out.userhidden = true;
            anyHidden = true;
          }
          if (canSee(DELETED_USER)) {
            if (props.has('user')) out.user = e.user;
            if (props.has('userid')) out.userid = e.userId;
          }
        }
        if (props.has('timestamp')) out.timestamp = e.timestamp;
        if (props.has('comment') || props.has('parsedcomment')) {
          if (bits & DELETED_COMMENT) {
            out.commenthidden = true;
            anyHidden = true;
          }
          if (canSee(DELETED_COMMENT)) {
            if (props.has('comment')) out.comment = e.comment;
            if (props.has('parsedcomment')) out.parsedcomment = parsed[i]!;
          }
        }
        if (props.has('tags')) out.tags = setIndexedTagName([...e.tags], 'tag');
        if (anyHidden && bits & DELETED_RESTRICTED) out.suppressed = true;
        return out;
      }),
      'item',
    );
    if (next) run.continuation.addContinueParam('logevents', 'lecontinue', `${mwOfIso(next.timestamp)}|${next.logId}`);
  },
});
