/*
 * action=purge (ApiPurge): POST only, no token. Drops the cached renderings of the given pages;
 * forcelinkupdate queues their refreshLinks job, forcerecursivelinkupdate also the jobs of the
 * pages that transclude them.
 */
import { setIndexedTagName, type ResultObject } from '../types.js';
import { actionPageSet, addPageSetContinuation, invalidEntries, PAGE_SET_EXTRA_PARAMS } from '../query/action-pageset.js';
import { defineModule } from '../define.js';

export const purgeModule = defineModule({
  name: 'purge',
  group: 'action',
  prefix: '',
  summary: 'Purge the cache for the given titles.',
  params: {
    forcelinkupdate: { type: 'boolean', default: false, help: 'Update the links tables and do other secondary data updates.' },
    forcerecursivelinkupdate: {
      type: 'boolean',
      default: false,
      help: 'Same as forcelinkupdate, and update the links tables for any page that uses this page as a template.',
    },
    titles: { type: 'string', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of titles to work on.' },
    pageids: { type: 'integer', multi: true, multiLimit1: 50, multiLimit2: 500, help: 'A list of page IDs to work on.' },
    redirects: { type: 'boolean', default: false, help: 'Automatically resolve redirects in titles, pageids, and revids, and in pages returned by generator.' },
    ...PAGE_SET_EXTRA_PARAMS,
  },
  flags: { mustBePosted: true, writeMode: true },
  examples: {
    'action=purge&titles=Main_Page|API': 'Purge the Main Page and the API page.',
    'action=purge&generator=allpages&gapnamespace=0&gaplimit=10': 'Purge the first 10 pages in the main namespace.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const { pageSet: ps, continuation } = await actionPageSet(ctx);
    const linkUpdate = p.forcelinkupdate || p.forcerecursivelinkupdate;
    if (ps.good.length) {
      await ctx.deps.clients.content.purgePages({
        titles: ps.good.map((pg) => pg.title),
        forceLinkUpdate: p.forcelinkupdate,
        forceRecursiveLinkUpdate: p.forcerecursivelinkupdate,
      });
    }
    const out: ResultObject[] = invalidEntries(ps);
    for (const page of ps.good) out.push({ ns: page.ns, title: page.title, purged: true, ...(linkUpdate ? { linkupdate: true } : {}) });
    addPageSetContinuation(ctx.result, continuation);
    ctx.result.purge = setIndexedTagName(out, 'page');
    if (ps.normalized.length)
      ctx.result.normalized = setIndexedTagName(
        ps.normalized.map((n) => ({ ...n })),
        'n',
      );
    if (ps.redirects.length)
      ctx.result.redirects = setIndexedTagName(
        ps.redirects.map((r) => ({ ...r })),
        'r',
      );
  },
});
