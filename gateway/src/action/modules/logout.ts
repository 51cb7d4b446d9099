/* action=logout (MediaWiki's ApiLogout): ends the session; its tokens stop working. */
import { cookies } from './support.js';
import { defineModule } from '../define.js';

export const logoutModule = defineModule({
  name: 'logout',
  group: 'action',
  prefix: '',
  summary: 'Log out and clear session data.',
  params: {},
  flags: { mustBePosted: true, needsToken: 'csrf', readRights: false },
  examples: { 'action=logout&token=123ABC': 'Log the current user out.' },
  async execute(ctx) {
    if (ctx.caller.sessionId) await ctx.deps.clients.auth.logout(ctx.caller.sessionId);
    cookies(ctx).clear();
  },
});
