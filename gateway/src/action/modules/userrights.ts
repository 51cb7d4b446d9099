/* action=userrights (MediaWiki's ApiUserrights): add/remove explicit groups, with expiries. */
import { setIndexedTagName } from '../types.js';
import { apiError, requireRight } from './support.js';
import { checkedLogTags } from './block.js';
import { TAGS_PARAM } from './writes.js';
import { defineModule } from '../define.js';

/** $wgGroupPermissions' explicit groups (the implicit *, user and autoconfirmed cannot be assigned). */
export const ASSIGNABLE_GROUPS = ['bot', 'bureaucrat', 'interface-admin', 'suppress', 'sysop'] as const;

export const userrightsModule = defineModule({
  name: 'userrights',
  group: 'action',
  prefix: '',
  summary: "Change a user's group membership.",
  params: {
    user: { type: 'user', userTypes: ['name'], help: 'User.' },
    userid: { type: 'integer', deprecated: true, help: 'Specify user=#ID instead.' },
    add: { type: ASSIGNABLE_GROUPS, multi: true, help: 'Add the user to these groups.' },
    expiry: { type: 'string', multi: true, allowDuplicates: true, default: 'infinite', help: 'Expiry timestamps. May be relative (e.g. 5 months or 2 weeks) or absolute.' },
    remove: { type: ASSIGNABLE_GROUPS, multi: true, help: 'Remove the user from these groups.' },
    reason: { type: 'string', default: '', help: 'Reason for the change.' },
    tags: { ...TAGS_PARAM, help: 'Change tags to apply to the entry in the user rights log.' },
  },
  flags: { mustBePosted: true, needsToken: 'userrights', writeMode: true },
  examples: { 'action=userrights&user=FooBot&add=bot&remove=sysop&token=123ABC': 'Add user FooBot to group bot, and remove from group sysop.' },
  async execute(ctx) {
    requireRight(ctx, 'userrights', 'change user rights');
    const p = ctx.params;
    const add = p.add ?? [];
    let expiry = p.expiry ?? ['infinite'];
    if (add.length && expiry.length !== add.length) {
      if (expiry.length !== 1) throw apiError('toofewexpiries', 'apierror-toofewexpiries', [expiry.length, add.length]);
      expiry = add.map(() => expiry[0]!);
    }
    if (typeof p.user !== 'string' && typeof p.userid !== 'number') throw apiError('missingparam', 'apierror-missingparam-at-least-one-of', ['"user" and "userid"', 2]);
    const tags = await checkedLogTags(ctx);
    const r = await ctx.deps.clients.auth.changeUserGroups({
      username: p.user ?? '',
      userId: p.userid ?? 0,
      add: add.map((group, i) => ({ group, expiry: expiry[i] ?? 'infinite' })),
      remove: p.remove ?? [],
      performerId: ctx.caller.user.id,
      reason: p.reason ?? '',
      tags,
    });
    ctx.result.userrights = {
      user: r.user,
      userid: r.userId,
      added: setIndexedTagName(
        r.added.map((a) => a.group),
        'group',
      ),
      removed: setIndexedTagName([...r.removed], 'group'),
    };
  },
});
