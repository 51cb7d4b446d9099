/* action=patrol (ApiPatrol): marks a recent change (by rcid or revid) patrolled, with the patrol token. */
import { defineModule } from '../define.js';
import { ApiUsageError } from '../types.js';
import { TAGS_PARAM, writingActor } from './writes.js';

export const patrolModule = defineModule({
  name: 'patrol',
  group: 'action',
  prefix: '',
  summary: 'Patrol a page or revision.',
  params: {
    rcid: { type: 'integer', help: 'Recentchanges ID to patrol.' },
    revid: { type: 'integer', help: 'Revision ID to patrol.' },
    tags: { ...TAGS_PARAM, help: 'Change tags to apply to the entry in the patrol log.' },
  },
  flags: { mustBePosted: true, needsToken: 'patrol', writeMode: true },
  examples: { 'action=patrol&token=123ABC&rcid=230672766': 'Patrol a recent change.', 'action=patrol&token=123ABC&revid=230672766': 'Patrol a revision.' },
  async execute(ctx) {
    const p = ctx.params;
    const rcId = p.rcid ?? 0;
    const revId = p.revid ?? 0;
    if (rcId > 0 === revId > 0) {
      throw new ApiUsageError(
        rcId > 0 ? 'invalidparammix' : 'missingparam',
        rcId > 0 ? 'The parameters "rcid" and "revid" can not be used together.' : 'One of the parameters "rcid" and "revid" is required.',
      );
    }
    const res = await ctx.deps.clients.content.patrol({ rcId, revId, tags: p.tags ?? [], actor: writingActor(ctx) });
    ctx.result.patrol = { rcid: res.rcId, ns: res.ns, title: res.title };
  },
});
