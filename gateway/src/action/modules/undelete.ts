/* action=undelete (ApiUndelete): deleted revisions of a title back into its history, all or chosen by timestamp. */
import { defineModule } from '../define.js';
import { isoFromMw } from '../../validation/typedefs.js';
import { WATCHLIST_EXPIRY_PARAM, WATCHLIST_PARAM, watchlistFields } from './watchlist-params.js';
import { pageWritingActor, TAGS_PARAM } from './writes.js';

export const undeleteModule = defineModule({
  name: 'undelete',
  group: 'action',
  prefix: '',
  summary: 'Undelete revisions of a deleted page.',
  params: {
    title: { type: 'string', required: true, help: 'Title of the page to undelete.' },
    reason: { type: 'string', default: '', help: 'Reason for restoring.' },
    tags: TAGS_PARAM,
    timestamps: { type: 'timestamp', multi: true, help: 'Timestamps of the revisions to undelete. If both timestamps and fileids are empty, all will be undeleted.' },
    fileids: { type: 'integer', multi: true, help: 'IDs of the file revisions to restore. If both timestamps and fileids are empty, all will be restored.' },
    undeletetalk: { type: 'boolean', default: false, help: 'Undelete all revisions of the associated talk page, if any.' },
    watchlist: WATCHLIST_PARAM,
    watchlistexpiry: WATCHLIST_EXPIRY_PARAM,
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: { 'action=undelete&title=Main%20Page&token=123ABC&reason=Restoring%20main%20page': 'Undelete page Main Page.' },
  async execute(ctx) {
    const p = ctx.params;
    const actor = await pageWritingActor(ctx, [{ title: p.title }]);
    const timestamps = (p.timestamps ?? []).map(isoFromMw);
    const res = await ctx.deps.clients.content.undeletePage({ title: p.title, reason: p.reason, timestamps, tags: p.tags ?? [], actor, ...(await watchlistFields(ctx, ['watchdefault'])) });
    ctx.result.undelete = { title: res.title, revisions: res.revisions, fileversions: 0, reason: res.reason };
  },
});
