/* list=usercontribs (ApiQueryUserContribs): the revisions of users (by name, id or name prefix), newest first. */
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_TEXT, DELETED_USER, hiddenAuthorBits, userCanSee } from '../../revdel.js';
import { queryRunOf } from './run.js';
import { DIR_PARAM, LIMIT_PARAM, mwOfIso, propsOf, timeWindow } from './changes.js';
import { defineModule } from '../define.js';

const SHOW = ['!autopatrolled', '!minor', '!new', '!patrolled', '!top', 'autopatrolled', 'minor', 'new', 'patrolled', 'top'];

export const usercontribsModule = defineModule({
  name: 'usercontribs',
  group: 'list',
  prefix: 'uc',
  summary: 'Get all edits by a user.',
  params: {
    limit: LIMIT_PARAM,
    start: { type: 'timestamp', help: 'The start timestamp to return from, i.e. revisions before this timestamp.' },
    end: { type: 'timestamp', help: 'The end timestamp to return to, i.e. revisions after this timestamp.' },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    user: { type: 'user', multi: true, userTypes: ['name', 'ip', 'interwiki'], help: 'The users to retrieve contributions for. Cannot be used with ucuserids, ucuserprefix, or uciprange.' },
    userids: { type: 'integer', multi: true, help: 'The user IDs to retrieve contributions for. Cannot be used with ucuser, ucuserprefix, or uciprange.' },
    userprefix: { type: 'string', help: 'Retrieve contributions for all users whose names begin with this value. Cannot be used with ucuser, ucuserids, or uciprange.' },
    dir: DIR_PARAM,
    namespace: { type: 'namespace', multi: true, help: 'Only list contributions in these namespaces.' },
    prop: {
      type: ['comment', 'flags', 'ids', 'parsedcomment', 'patrolled', 'size', 'sizediff', 'tags', 'timestamp', 'title'],
      multi: true,
      default: 'ids|title|timestamp|comment|size|flags',
      help: 'Include additional pieces of information.',
    },
    show: { type: SHOW, multi: true, help: 'Show only items that meet these criteria.' },
    tag: { type: 'string', help: 'Only list revisions tagged with this tag.' },
    toponly: { type: 'boolean', deprecated: true, help: 'Only list changes which are the latest revision.' },
  },
  flags: {},
  examples: { 'action=query&list=usercontribs&ucuser=Example': 'Show contributions of user Example.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const props = propsOf(p);
    const users = p.user ?? [];
    const userIds = p.userids ?? [];
    const prefix = p.userprefix ?? '';
    const given = [users.length > 0, userIds.length > 0, prefix !== ''].filter(Boolean).length;
    if (given === 0) throw new ApiUsageError('missingparam', 'One of the parameters "user", "userids", "userprefix" and "iprange" is required.');
    if (given > 1) throw new ApiUsageError('invalidparammix', 'The parameters "user", "userids", "userprefix" and "iprange" can not be used together.');
    // The deprecated toponly adds show=top.
    const show = [...(p.show ?? []), ...(p.toponly ? ['top'] : [])];
    if (show.some((v) => /patrolled/.test(v)) && !ctx.caller.user.rights.some((r) => r === 'patrol' || r === 'patrolmarks')) {
      throw new ApiUsageError('permissiondenied', 'You need the "patrol" or "patrolmarks" right to request the patrolled flag.');
    }
    const tri = (name: string) => (show.includes(name) ? 1 : show.includes(`!${name}`) ? -1 : 0);
    const limit = p.limit;
    const resp = await ctx.deps.clients.content.listUserContribs({
      users,
      userIds,
      userPrefix: prefix,
      namespaces: p.namespace ?? [],
      tag: p.tag ?? '',
      minor: tri('minor'),
      new: tri('new'),
      top: tri('top'),
      patrolled: tri('patrolled'),
      autopatrolled: tri('autopatrolled'),
      hideBits: hiddenAuthorBits(ctx.caller.user.rights),
      limit,
      ...timeWindow(p),
    });
    const contribs = resp.contribs.slice(0, limit);
    const next = resp.contribs[limit];
    const parsed = props.has('parsedcomment') ? await ctx.deps.clients.content.formatComments(contribs.map((c) => ({ title: c.title, comment: c.comment }))) : [];
    run.data.usercontribs = setIndexedTagName(
      contribs.map((c, i): ResultObject => {
        const out: ResultObject = {};
        if (c.deleted & DELETED_TEXT) out.texthidden = true;
        out.userid = c.userId;
        out.user = c.user;
        if (c.deleted & DELETED_USER) out.userhidden = true;
        if (props.has('ids')) {
          out.pageid = c.pageId;
          out.revid = c.revId;
          out.parentid = c.parentId;
        }
        if (props.has('title')) {
          out.ns = c.ns;
          out.title = c.title;
        }
        if (props.has('timestamp')) out.timestamp = c.timestamp;
        if (props.has('flags')) {
          out.new = c.new;
          out.minor = c.minor;
          out.top = c.top;
        }
        if (props.has('comment') || props.has('parsedcomment')) {
          if (c.deleted & DELETED_COMMENT) out.commenthidden = true;
          if (userCanSee(c.deleted, DELETED_COMMENT, ctx.caller.user.rights)) {
            if (props.has('comment')) out.comment = c.comment;
            if (props.has('parsedcomment')) out.parsedcomment = parsed[i]!;
          }
        }
        if (props.has('patrolled')) {
          out.patrolled = c.patrolled === 1 || c.patrolled === 2;
          out.autopatrolled = c.patrolled === 2;
        }
        if (props.has('size')) out.size = c.size;
        if (props.has('sizediff')) out.sizediff = c.sizeDiff;
        if (props.has('tags')) out.tags = setIndexedTagName([...c.tags], 'tag');
        if (c.deleted & DELETED_RESTRICTED && (out.texthidden || out.userhidden || out.commenthidden)) out.suppressed = true;
        return out;
      }),
      'item',
    );
    if (next) run.continuation.addContinueParam('usercontribs', 'uccontinue', `${mwOfIso(next.timestamp)}|${next.revId}`);
  },
});
