/* list=logevents (ApiQueryLogEvents): the log, newest first, filtered by type, action, user, title or tag. */
import { setArrayType, setIndexedTagName, type ModuleDecl, type ResultObject } from '../types.js';
import { queryRunOf } from './run.js';
import { DIR_PARAM, LIMIT_PARAM, mwOfIso, propsOf, timeWindow, titleKey } from './changes.js';

const LOG_TYPES = ['', 'block', 'contentmodel', 'create', 'delete', 'import', 'managetags', 'merge', 'move', 'newusers', 'patrol', 'protect', 'rights', 'suppress', 'tag', 'upload', 'userrights'];

export const logeventsModule: ModuleDecl = {
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
    action: { type: 'string', help: 'Filter log actions to only this action ("type/action", or "type/*"). Overrides letype.' },
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
    end: { type: 'timestamp', help: 'The timestamp to end enumerating.' },
    dir: DIR_PARAM,
    user: { type: 'user', help: 'Filter entries to those made by the given user.' },
    title: { type: 'string', help: 'Filter entries to those related to a page.' },
    namespace: { type: 'namespace', help: 'Filter entries to those in the given namespace.' },
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
    const titleFilter = typeof p.title === 'string' ? await titleKey(ctx, p.title) : undefined;
    const limit = p.limit as number;
    const resp = await ctx.deps.clients.content.listLogEvents({
      type: typeof p.type === 'string' && typeof p.action !== 'string' ? p.type : '',
      action: typeof p.action === 'string' ? p.action : '',
      user: typeof p.user === 'string' ? p.user : '',
      hasTitle: titleFilter !== undefined,
      ns: titleFilter?.ns ?? 0,
      dbkey: titleFilter?.dbkey ?? '',
      namespace: typeof p.namespace === 'number' ? p.namespace : -1,
      tag: typeof p.tag === 'string' ? p.tag : '',
      limit,
      ...timeWindow(p),
    });
    const events = resp.events.slice(0, limit);
    const next = resp.events[limit];
    const parsed = props.has('parsedcomment') ? await ctx.deps.clients.content.formatComments(events.map((e) => ({ title: e.title, comment: e.comment }))) : [];
    run.data.logevents = setIndexedTagName(
      events.map((e, i): ResultObject => {
        const out: ResultObject = {};
        if (props.has('ids')) out.logid = e.logId;
        if (props.has('title')) {
          out.ns = e.ns;
          out.title = e.title;
        }
        if (props.has('ids')) {
          out.pageid = e.pageId;
          out.logpage = e.logPage;
        }
        if (props.has('details')) out.params = setArrayType(JSON.parse(e.paramsJson || '{}') as ResultObject, 'assoc');
        if (props.has('type')) {
          out.type = e.type;
          out.action = e.action;
        }
        if (props.has('user')) out.user = e.user;
        if (props.has('userid')) out.userid = e.userId;
        if (props.has('timestamp')) out.timestamp = e.timestamp;
        if (props.has('comment')) out.comment = e.comment;
        if (props.has('parsedcomment')) out.parsedcomment = parsed[i]!;
        if (props.has('tags')) out.tags = setIndexedTagName([...e.tags], 'tag');
        return out;
      }),
      'item',
    );
    if (next) run.continuation.addContinueParam('logevents', 'lecontinue', `${mwOfIso(next.timestamp)}|${next.logId}`);
  },
};
