/*
 * action=purge (ApiPurge): POST only, no token. Drops the cached renderings of the given pages;
 * forcelinkupdate queues their refreshLinks job, forcerecursivelinkupdate also the jobs of the
 * pages that transclude them.
 */
import { setIndexedTagName, type ModuleDecl, type ResultObject } from '../types.js';
import { splitMultiValue } from '../query/encoding.js';
import { buildPageSet, type PageSetSource } from '../query/pageset.js';

export const purgeModule: ModuleDecl = {
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
    redirects: { type: 'boolean', default: false, help: 'Automatically resolve redirects in titles and pageids.' },
  },
  flags: { mustBePosted: true, writeMode: true },
  examples: { 'action=purge&titles=Main_Page|API': 'Purge the Main Page and the API page.' },
  async execute(ctx) {
    const p = ctx.params;
    const titles = (p.titles as string[] | undefined) ?? [];
    const pageIds = (p.pageids as number[] | undefined) ?? [];
    const source: PageSetSource = titles.length ? 'titles' : pageIds.length ? 'pageids' : 'none';
    const resolveRedirects = p.redirects === true;
    const resp = await ctx.deps.clients.content.resolvePages({ titles, pageIds, resolveRedirects });
    const rawTitles = ctx.raw.get('titles');
    const ps = buildPageSet(resp, { source, titles, rawTitles: rawTitles === undefined ? undefined : splitMultiValue(rawTitles), resolveRedirects });
    const linkUpdate = p.forcelinkupdate === true || p.forcerecursivelinkupdate === true;
    if (ps.good.length) {
      await ctx.deps.clients.content.purgePages({
        titles: ps.good.map((pg) => pg.title),
        forceLinkUpdate: p.forcelinkupdate === true,
        forceRecursiveLinkUpdate: p.forcerecursivelinkupdate === true,
      });
    }
    const out: ResultObject[] = [];
    for (const { page } of ps.missing) out.push({ ns: page.ns, title: page.title, missing: true });
    for (const { title, reason } of ps.invalid) out.push({ title, invalidreason: reason, invalid: true });
    for (const pageid of ps.missingPageIds) out.push({ pageid, missing: true });
    for (const { page } of ps.special) out.push({ ns: page.ns, title: page.title, special: true });
    for (const page of ps.good) out.push({ ns: page.ns, title: page.title, purged: true, ...(linkUpdate ? { linkupdate: true } : {}) });
    ctx.result.batchcomplete = true;
    ctx.result.purge = setIndexedTagName(out, 'page');
    if (ps.normalized.length) ctx.result.normalized = setIndexedTagName(ps.normalized.map((n) => ({ ...n })), 'n');
    if (ps.redirects.length) ctx.result.redirects = setIndexedTagName(ps.redirects.map((r) => ({ ...r })), 'r');
  },
};
