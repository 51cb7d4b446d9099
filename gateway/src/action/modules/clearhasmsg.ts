/* action=clearhasmsg (MediaWiki's ApiClearHasMsg): clears the caller's new-talk notification (hasmsg). */
import { defineModule } from '../define.js';

export const clearhasmsgModule = defineModule({
  name: 'clearhasmsg',
  group: 'action',
  prefix: '',
  summary: 'Clears the <code>hasmsg</code> flag for the current user.',
  params: {},
  flags: { mustBePosted: true, writeMode: true },
  examples: { 'action=clearhasmsg': 'Clear the <code>hasmsg</code> flag for the current user.' },
  async execute(ctx) {
    const { user } = ctx.caller;
    // An anonymous caller's notification belongs to its IP address, as user_newtalk keeps it.
    await ctx.deps.clients.content.markTalkPageSeen(user.name, user.anonymous ? 0 : user.id);
    ctx.result.clearhasmsg = 'success';
  },
});
