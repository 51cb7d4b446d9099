/* action=delete (ApiDelete): the content service archives the page's revisions and logs it, in one transaction. */
import { defineModule } from '../define.js';
import { WATCHLIST_EXPIRY_PARAM, WATCHLIST_PARAM, watchlistFields } from './watchlist-params.js';
import { pageWritingActor, TAGS_PARAM, titleOrPageId } from './writes.js';

export const deleteModule = defineModule({
  name: 'delete',
  group: 'action',
  prefix: '',
  summary: 'Delete a page.',
  params: {
    title: { type: 'string', help: 'Title of the page to delete. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'Page ID of the page to delete. Cannot be used together with title.' },
    reason: { type: 'string', help: 'Reason for the deletion. If not set, an automatically generated reason will be used.' },
    tags: TAGS_PARAM,
    deletetalk: { type: 'boolean', default: false, help: 'Delete the talk page, if it exists.' },
    watch: { type: 'boolean', default: false, deprecated: true, help: "Add the page to the current user's watchlist." },
    watchlist: WATCHLIST_PARAM,
    watchlistexpiry: WATCHLIST_EXPIRY_PARAM,
    unwatch: { type: 'boolean', default: false, deprecated: true, help: "Remove the page from the current user's watchlist." },
    oldimage: { type: 'string', help: 'The name of the old image to delete as provided by action=query&prop=imageinfo&iiprop=archivename.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: { 'action=delete&title=Main%20Page&token=123ABC': 'Delete Main Page.' },
  async execute(ctx) {
    const p = ctx.params;
    const target = titleOrPageId(p);
    const actor = await pageWritingActor(ctx, [target]);
    // The deprecated watch/unwatch flags win over watchlist (ApiDelete::execute).
    const watchlist = p.watch ? 'watch' : p.unwatch ? 'unwatch' : p.watchlist;
    const watch = await watchlistFields(ctx, ['watchdeletion'], watchlist);
    if (p.oldimage !== undefined && p.oldimage !== '') {
      // ApiDelete::deleteFile: an old version of a file; a title without a current file is deleted as a page.
      const old = await ctx.deps.clients.archive.deleteOldFileVersion({ ...target, archiveName: p.oldimage, reason: p.reason ?? '', tags: p.tags ?? [], actor, ...watch });
      if (old.handled) {
        ctx.result.delete = { title: old.title, reason: p.reason ?? '', logid: old.logId };
        return;
      }
    }
    const res = await ctx.deps.clients.content.deletePage({ ...target, reason: p.reason ?? '', tags: p.tags ?? [], actor, ...watch });
    ctx.result.delete = { title: res.title, reason: res.reason, logid: res.logId };
  },
});
