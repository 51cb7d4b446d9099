/* action=move (ApiMove): the page, and with movetalk/movesubpages its talk page and subpages. */
import type { MovedPage } from '../../clients/types.js';
import { defineModule } from '../define.js';
import { setIndexedTagName } from '../types.js';
import { WATCHLIST_EXPIRY_PARAM, WATCHLIST_PARAM, watchlistFields } from './watchlist-params.js';
import { countEdits, moveEdits, pageWritingActor, TAGS_PARAM, titleOrPageId } from './writes.js';

/** One moved subpage as ApiMove::moveSubpages reports it: from/to, or the error that stopped it. */
function subpageResult(m: MovedPage): Record<string, unknown> {
  if (m.errorCode) return { errors: setIndexedTagName([{ code: m.errorCode, text: m.errorInfo }], 'error') };
  return { from: m.from, to: m.to };
}

export const moveModule = defineModule({
  name: 'move',
  group: 'action',
  prefix: '',
  summary: 'Move a page.',
  params: {
    from: { type: 'string', help: 'Title of the page to rename. Cannot be used together with fromid.' },
    fromid: { type: 'integer', help: 'Page ID of the page to rename. Cannot be used together with from.' },
    to: { type: 'string', required: true, help: 'Title to rename the page to.' },
    reason: { type: 'string', default: '', help: 'Reason for the rename.' },
    movetalk: { type: 'boolean', default: false, help: 'Rename the talk page, if it exists.' },
    movesubpages: { type: 'boolean', default: false, help: 'Rename subpages, if applicable.' },
    noredirect: { type: 'boolean', default: false, help: "Don't create a redirect." },
    watchlist: WATCHLIST_PARAM,
    watchlistexpiry: WATCHLIST_EXPIRY_PARAM,
    ignorewarnings: { type: 'boolean', default: false, help: 'Ignore any warnings.' },
    tags: TAGS_PARAM,
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: { 'action=move&from=Badtitle&to=Goodtitle&token=123ABC&reason=Misspelled%20title&movetalk=&noredirect=': 'Move Badtitle to Goodtitle without leaving a redirect.' },
  async execute(ctx) {
    const p = ctx.params;
    const from = titleOrPageId(p, 'from', 'fromid');
    // A partial block of either title refuses the move (MovePage checks edit of both).
    const actor = await pageWritingActor(ctx, [from, { title: p.to }]);
    const res = await ctx.deps.clients.content.movePage({
      from: from.title,
      fromId: from.pageId,
      to: p.to,
      reason: p.reason,
      moveTalk: p.movetalk,
      moveSubpages: p.movesubpages,
      noRedirect: p.noredirect,
      ignoreWarnings: p.ignorewarnings,
      tags: p.tags ?? [],
      actor,
      ...(await watchlistFields(ctx, ['watchmoves'])),
    });
    const page = res.page!;
    countEdits(ctx.deps, ctx.caller, moveEdits(res));
    const out: Record<string, unknown> = { from: page.from, to: page.to, reason: p.reason };
    if (page.redirectCreated) out.redirectcreated = true;
    out.moveoverredirect = page.moveOverRedirect;
    if (res.talk) {
      if (res.talk.errorCode) out['talkmove-errors'] = setIndexedTagName([{ code: res.talk.errorCode, text: res.talk.errorInfo }], 'error');
      else {
        out.talkfrom = res.talk.from;
        out.talkto = res.talk.to;
        if (res.talk.redirectCreated) out.talkredirectcreated = true;
        out.talkmoveoverredirect = res.talk.moveOverRedirect;
      }
    }
    if (p.movesubpages) {
      out.subpages = setIndexedTagName(res.subpages.map(subpageResult), 'subpage');
      if (res.talk) out['subpages-talk'] = setIndexedTagName(res.talkSubpages.map(subpageResult), 'subpage');
    }
    ctx.result.move = out;
  },
});
