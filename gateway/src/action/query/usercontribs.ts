/* list=usercontribs (ApiQueryUserContribs): the revisions of users (by name, id, name prefix or IP range), newest first. */
import net from 'node:net';
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { DELETED_COMMENT, DELETED_RESTRICTED, DELETED_TEXT, DELETED_USER, hiddenAuthorBits, userCanSee } from '../../revdel.js';
import { queryRunOf } from './run.js';
import { DIR_PARAM, isoOfMw, LIMIT_PARAM, mwOfIso, propsOf, timeWindow } from './changes.js';
import { badContinue } from './continuation.js';
import { isCidr } from '../../validation/typedefs.js';
import { apiError } from '../modules/support.js';
import { defineModule } from '../define.js';

const SHOW = ['!autopatrolled', '!minor', '!new', '!patrolled', '!top', 'autopatrolled', 'minor', 'new', 'patrolled', 'top'];

/** $wgRangeContributionsCIDRLimit: the broadest ranges listed. */
const CIDR_LIMIT = { IPv4: 16, IPv6: 32 };

/** ApiQueryUserContribs' range checks: a CIDR range (`invalidiprange`) no broader than the limit (`cidrtoobroad`). */
function checkedRange(value: string): string {
  if (!isCidr(value)) throw apiError('invalidiprange', 'apierror-invalidiprange', [value]);
  const [ip = '', bits = ''] = value.split('/');
  const type = net.isIP(ip) === 4 ? 'IPv4' : 'IPv6';
  if (Number(bits) < CIDR_LIMIT[type]) throw apiError('cidrtoobroad', 'apierror-cidrtoobroad', [type, CIDR_LIMIT[type]]);
  return value;
}

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
    iprange: { type: 'string', help: 'The CIDR range to retrieve contributions for. Cannot be used with ucuser, ucuserprefix, or ucuserids.' },
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
    const ipRange = p.iprange;
    // ApiBase::requireOnlyOneParameter, naming the parameters in their declared order.
    const sent = (['user', 'userids', 'userprefix', 'iprange'] as const).filter((n) =>
      n === 'user' ? users.length > 0 : n === 'userids' ? userIds.length > 0 : n === 'userprefix' ? prefix !== '' : !!ipRange,
    );
    if (sent.length === 0) throw new ApiUsageError('missingparam', 'One of the parameters "ucuserprefix", "ucuserids", "uciprange" and "ucuser" is required.');
    if (sent.length > 1)
      throw new ApiUsageError(
        'invalidparammix',
        `The parameters ${sent
          .map((n) => `"uc${n}"`)
          .join(' and ')
          .replace(/ and (?=.* and )/g, ', ')} can not be used together.`,
      );
    let range = '';
    let rangeContinue: { user: string; timestamp: string; id: number } | undefined;
    if (ipRange) {
      range = checkedRange(ipRange);
      if (typeof p.continue === 'string') {
        // "name|<address>|<timestamp>|<rev id>", as ApiQueryUserContribs continues a range.
        const m = /^name\|([^|]+)\|(\d{14})\|(\d+)$/.exec(p.continue);
        if (!m || !net.isIP(m[1]!)) throw badContinue();
        rangeContinue = { user: m[1]!, timestamp: isoOfMw(m[2]!), id: Number(m[3]) };
      }
    }
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
      ...timeWindow(range ? { ...p, continue: undefined } : p),
      ipRange: range,
      ...(rangeContinue ? { continueUser: rangeContinue.user, continueTimestamp: rangeContinue.timestamp, continueId: rangeContinue.id } : {}),
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
    if (next) run.continuation.addContinueParam('usercontribs', 'uccontinue', range ? `name|${next.user}|${mwOfIso(next.timestamp)}|${next.revId}` : `${mwOfIso(next.timestamp)}|${next.revId}`);
  },
});
