/*
 * ApiPageSet::initFromRevIDs' second half: revision ids that are not live but archived belong,
 * for callers with `deletedhistory`, to the title they were deleted from. Those titles join the
 * page set (missing, or existing when recreated) instead of `badrevids`, and the deleted
 * revision ids are remembered for prop=deletedrevisions.
 */
import type { ActionContext } from '../types.js';
import { buildPageSet, type PageSet } from './pageset.js';

/** The page set of a `revids` source (given or generated) with the archived ones among its bad ids resolved. */
export async function withDeletedRevisions(ctx: ActionContext, ps: PageSet): Promise<PageSet> {
  if (ps.badRevIds.length === 0 || !ctx.caller.user.rights.includes('deletedhistory')) return ps;
  const titleOf = await ctx.deps.clients.archive.archivedRevisionTitles(ps.badRevIds);
  if (titleOf.size === 0) return ps;
  const titles = [...new Set(titleOf.values())];
  const extra = buildPageSet(await ctx.deps.clients.content.resolvePages({ titles }), { source: 'titles', titles, resolveRedirects: false });
  // Fake ids continue below the ones already given out (ApiPageSet keeps one counter).
  const lowest = Math.min(0, ...ps.missing.map((m) => m.id), ...ps.invalid.map((m) => m.id), ...ps.special.map((m) => m.id));
  const shift = (id: number) => id + lowest;
  const good = [...ps.good];
  for (const page of extra.good) if (!good.some((g) => g.id === page.id)) good.push(page);
  const missing = [...ps.missing, ...extra.missing.map((m) => ({ ...m, id: shift(m.id) }))];
  const entryOf = new Map<string, number>([...good.map((g): [string, number] => [g.title, g.id]), ...missing.map((m): [string, number] => [m.page.title, m.id])]);
  const deletedRevisionPages = new Map<number, number>();
  for (const [revId, title] of titleOf) {
    const id = entryOf.get(title);
    if (id !== undefined) deletedRevisionPages.set(revId, id);
  }
  return { ...ps, good, missing, badRevIds: ps.badRevIds.filter((id) => !deletedRevisionPages.has(id)), deletedRevisionPages };
}
