/*
 * action=setnotificationtimestamp (MediaWiki's ApiSetNotificationTimestamp): marks changes of
 * watched pages as seen or unseen — for a page set (titles, pageids, revids, a generator) or the
 * whole watchlist — at a timestamp, at a revision (torevid), or after one (newerthanrevid).
 */
import { usageError } from '../errors.js';
import { defineModule } from '../define.js';
import { setIndexedTagName, type ResultObject } from '../types.js';
import { actionPageSet, addPageSetContinuation, PAGE_SET_EXTRA_PARAMS } from '../query/action-pageset.js';
import { requireWatchlistUser } from './watchlist-params.js';

const mwToIso = (mw: string) => `${mw.slice(0, 4)}-${mw.slice(4, 6)}-${mw.slice(6, 8)}T${mw.slice(8, 10)}:${mw.slice(10, 12)}:${mw.slice(12, 14)}Z`;

export const setnotificationtimestampModule = defineModule({
  name: 'setnotificationtimestamp',
  group: 'action',
  prefix: '',
  summary: 'Update the notification timestamp for watched pages.',
  params: {
    entirewatchlist: { type: 'boolean', default: false, help: 'Work on all watched pages.' },
    timestamp: { type: 'timestamp', help: 'Timestamp to which to set the notification timestamp.' },
    torevid: { type: 'integer', help: 'Revision to set the notification timestamp to (one page only).' },
    newerthanrevid: { type: 'integer', help: 'Revision to set the notification timestamp newer than (one page only).' },
    continue: PAGE_SET_EXTRA_PARAMS.continue,
    titles: { type: 'string', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of titles to work on.' },
    pageids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of page IDs to work on.' },
    revids: PAGE_SET_EXTRA_PARAMS.revids,
    generator: PAGE_SET_EXTRA_PARAMS.generator,
    redirects: { type: 'boolean', default: false, help: 'Automatically resolve redirects in titles, pageids, and revids, and in pages returned by generator.' },
    converttitles: PAGE_SET_EXTRA_PARAMS.converttitles,
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=setnotificationtimestamp&entirewatchlist=&token=123ABC': 'Mark entire watchlist as read.',
    'action=setnotificationtimestamp&titles=Main_page&token=123ABC': 'Mark Main page as read.',
    'action=setnotificationtimestamp&titles=Main_page&timestamp=2012-01-01T00:00:00Z&token=123ABC': 'Set the notification timestamp for Main page so all edits since 1 January 2012 are unviewed.',
    'action=setnotificationtimestamp&generator=allpages&gapnamespace=2&token=123ABC': 'Reset the notification status for pages in the User namespace.',
  },
  async execute(ctx) {
    const p = ctx.params;
    requireWatchlistUser(ctx, 'editmywatchlist');
    const given = (['timestamp', 'torevid', 'newerthanrevid'] as const).filter((n) => p[n] !== undefined);
    if (given.length > 1) throw usageError('invalidparammix', 'apierror-invalidparammix', [given.map((n) => `<var>${n}</var>`).join(given.length === 2 ? ' and ' : ', '), given.length]);
    const source = (['titles', 'pageids', 'revids', 'generator'] as const).find((n) => p[n] !== undefined);
    if (p.entirewatchlist && source) throw usageError('multisource', 'apierror-invalidparammix-cannotusewith', ['entirewatchlist', source]);
    const { content, notifications } = ctx.deps.clients;
    const userId = ctx.caller.user.id;
    let timestamp = p.timestamp !== undefined ? mwToIso(p.timestamp) : '';

    if (p.entirewatchlist) {
      if (p.torevid !== undefined || p.newerthanrevid !== undefined) throw usageError('multpages', 'apierror-multpages', [p.torevid !== undefined ? 'torevid' : 'newerthanrevid']);
      await notifications.setNotificationTimestamps({ userId, entireWatchlist: true, titles: [], timestamp });
      // ApiContinuationManager leaves batchcomplete first.
      ctx.result.batchcomplete = true;
      ctx.result.setnotificationtimestamp = { notificationtimestamp: timestamp };
      return;
    }
    const { pageSet: ps, continuation } = await actionPageSet(ctx);
    const titles = [...ps.good.map((g) => g.title), ...ps.missing.map((m) => m.page.title)];
    for (const name of ['torevid', 'newerthanrevid'] as const) {
      const revId = p[name];
      if (revId === undefined) continue;
      if (ps.good.length > 1) throw usageError('multpages', 'apierror-multpages', [name]);
      if (ps.good.length === 0) continue;
      const rev = (await content.getRevisions({ revIds: [revId] })).revisions[0];
      if (name === 'torevid') timestamp = rev?.timestamp ?? '';
      else {
        // RevisionStore::getNextRevision: the page's next revision after this one.
        const next = rev ? (await content.getRevisions({ pageIds: [rev.pageId], dirNewer: true, startId: rev.id, limit: 2 })).revisions.find((r) => r.id !== rev.id) : undefined;
        timestamp = next?.timestamp ?? '';
      }
    }

    const out: ResultObject[] = [];
    for (const { title, reason } of ps.invalid) out.push({ title, invalidreason: reason, invalid: true });
    for (const pageid of ps.missingPageIds) out.push({ pageid, missing: true, notwatched: true });
    for (const revid of ps.badRevIds) out.push({ revid, missing: true, notwatched: true });
    if (titles.length > 0) {
      const missing = new Set(ps.missing.map((m) => m.page.title));
      const r = await notifications.setNotificationTimestamps({ userId, entireWatchlist: false, titles, timestamp });
      for (const page of r.pages) {
        const entry: ResultObject = { ns: page.ns, title: page.title };
        if (missing.has(page.title)) entry.missing = true;
        if (page.watched) entry.notificationtimestamp = page.timestamp;
        else entry.notwatched = true;
        out.push(entry);
      }
    }
    addPageSetContinuation(ctx.result, continuation);
    ctx.result.setnotificationtimestamp = setIndexedTagName(out, 'page');
  },
});
