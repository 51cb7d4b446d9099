/*
 * action=mergehistory (ApiMergeHistory): the content service moves the source's older revisions
 * to the destination and logs merge/merge, in one transaction.
 */
import { defineModule } from '../define.js';
import { isoFromMw } from '../../validation/typedefs.js';
import { pageWritingActor, titleOrPageId } from './writes.js';

export const mergehistoryModule = defineModule({
  name: 'mergehistory',
  group: 'action',
  prefix: '',
  summary: 'Merge page histories.',
  params: {
    from: { type: 'string', help: 'Title of the page from which history will be merged. Cannot be used together with fromid.' },
    fromid: { type: 'integer', help: 'Page ID of the page from which history will be merged. Cannot be used together with from.' },
    to: { type: 'string', help: 'Title of the page to which history will be merged. Cannot be used together with toid.' },
    toid: { type: 'integer', help: 'Page ID of the page to which history will be merged. Cannot be used together with to.' },
    timestamp: {
      type: 'timestamp',
      help: "Timestamp up to which revisions will be moved from the source page's history to the destination page's history. If omitted, the entire page history of the source page will be merged into the destination page.",
    },
    reason: { type: 'string', default: '', help: 'Reason for the history merge.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=mergehistory&from=Oldpage&to=Newpage&token=123ABC&reason=Reason': 'Merge the entire history of Oldpage into Newpage.',
    'action=mergehistory&from=Oldpage&to=Newpage&token=123ABC&reason=Reason&timestamp=2015-12-31T04%3A37%3A41Z': 'Merge the page revisions of Oldpage dating up to 2015-12-31T04:37:41Z into Newpage.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const source = titleOrPageId(p, 'from', 'fromid');
    const dest = titleOrPageId(p, 'to', 'toid');
    const timestamp = p.timestamp !== undefined ? isoFromMw(p.timestamp) : '';
    const res = await ctx.deps.clients.archive.mergeHistory({
      from: source.title,
      fromId: source.pageId,
      to: dest.title,
      toId: dest.pageId,
      timestamp,
      reason: p.reason,
      actor: await pageWritingActor(ctx, [source, dest]),
    });
    // ApiMergeHistory echoes the timestamp parameter (wfTimestamp of an unset one: now).
    const echoed = timestamp !== '' ? timestamp : new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    ctx.result.mergehistory = { from: res.from, to: res.to, timestamp: echoed, reason: p.reason };
  },
});
