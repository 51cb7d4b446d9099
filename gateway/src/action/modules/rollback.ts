/* action=rollback (ApiRollback): reverts the named user's consecutive latest edits, with the rollback token. */
import { defineModule } from '../define.js';
import { WATCHLIST_EXPIRY_PARAM, WATCHLIST_PARAM, watchlistFields } from './watchlist-params.js';
import { pageWritingActor, TAGS_PARAM, titleOrPageId } from './writes.js';

export const rollbackModule = defineModule({
  name: 'rollback',
  group: 'action',
  prefix: '',
  summary: 'Undo the last edit to the page.',
  params: {
    title: { type: 'string', help: 'Title of the page to roll back. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'Page ID of the page to roll back. Cannot be used together with title.' },
    tags: { ...TAGS_PARAM, help: 'Tags to apply to the rollback.' },
    user: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], required: true, help: 'Name of the user whose edits are to be rolled back.' },
    summary: { type: 'string', default: '', help: 'Custom edit summary. If empty, default summary will be used.' },
    markbot: { type: 'boolean', default: false, help: 'Mark the reverted edits and the revert as bot edits.' },
    watchlist: WATCHLIST_PARAM,
    watchlistexpiry: WATCHLIST_EXPIRY_PARAM,
  },
  flags: { mustBePosted: true, needsToken: 'rollback', writeMode: true },
  examples: { 'action=rollback&title=Main%20Page&user=Example&token=123ABC': 'Roll back the last edits to page Main Page by user Example.' },
  async execute(ctx) {
    const p = ctx.params;
    const target = titleOrPageId(p);
    const actor = await pageWritingActor(ctx, [target]);
    const summary = p.summary !== '' ? p.summary : undefined;
    const res = await ctx.deps.clients.content.rollback({ ...target, user: p.user, summary, markBot: p.markbot, tags: p.tags ?? [], actor, ...(await watchlistFields(ctx, ['watchrollback'])) });
    ctx.result.rollback = { title: res.title, pageid: res.pageId, summary: res.summary, revid: res.revid, old_revid: res.oldRevid, last_revid: res.lastRevid };
  },
});
