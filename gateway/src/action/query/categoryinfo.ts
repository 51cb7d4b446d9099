/*
 * prop=categoryinfo (MediaWiki's ApiQueryCategoryInfo): member counts of the categories in the
 * page set (existing category pages, and missing ones that have members), and whether they are
 * hidden.
 */
import { CONTINUE_PARAM } from './linktables.js';
import { queryRunOf } from './run.js';
import { defineModule } from '../define.js';

const NS_CATEGORY = 14;

export const categoryinfoModule = defineModule({
  name: 'categoryinfo',
  group: 'prop',
  prefix: 'ci',
  summary: 'Returns information about the given categories.',
  params: { continue: CONTINUE_PARAM },
  flags: {},
  examples: {
    'action=query&prop=categoryinfo&titles=Category:Foo|Category:Bar': 'Get information about Category:Foo and Category:Bar.',
  },
  async execute(ctx, query) {
    const q = queryRunOf(query);
    const cont = ctx.params.continue;
    const byName = new Map<string, number>();
    const add = (id: number, page: { ns: number; dbkey: string }) => {
      if (page.ns !== NS_CATEGORY) return;
      const name = page.dbkey.slice(page.dbkey.indexOf(':') + 1);
      // cicontinue names the category to start from (title order).
      if (cont === undefined || name >= cont) byName.set(name, id);
    };
    for (const p of q.pageSet.good) add(p.id, p);
    for (const { id, page } of q.pageSet.missing) add(id, page);
    if (!byName.size) return;
    const resp = await ctx.deps.clients.content.getCategoryInfo({ names: [...byName.keys()] });
    for (const c of resp.categories) {
      const entry = q.pages.get(byName.get(c.name) ?? 0);
      if (entry) entry.categoryinfo = { size: c.size, pages: c.pages, files: c.files, subcats: c.subcats, hidden: c.hidden };
    }
  },
});
