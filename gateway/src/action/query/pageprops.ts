/*
 * prop=pageprops (MediaWiki's ApiQueryPageProps): the page_props of the page set (displaytitle,
 * defaultsort, hiddencat…) as one object per page, in page id order from ppcontinue on.
 */
import { badContinue } from './continuation.js';
import { setArrayType, type ResultObject } from '../types.js';
import { CONTINUE_PARAM } from './linktables.js';
import { queryRunOf } from './run.js';
import { defineModule } from '../define.js';

export const pagepropsModule = defineModule({
  name: 'pageprops',
  group: 'prop',
  prefix: 'pp',
  summary: 'Get various page properties defined in the page content.',
  params: {
    continue: CONTINUE_PARAM,
    prop: {
      type: 'string',
      multi: true,
      help: 'Only list these page properties (action=query&list=pagepropnames returns page property names in use). Useful for checking whether pages use a certain page property.',
    },
  },
  flags: {},
  examples: {
    'action=query&prop=pageprops&titles=Main%20Page|MediaWiki': 'Get properties for the pages Main Page and MediaWiki.',
  },
  async execute(ctx, query) {
    const q = queryRunOf(query);
    let ids = q.pageSet.good.map((p) => p.id).sort((a, b) => a - b);
    const cont = ctx.params.continue;
    if (cont !== undefined) {
      const from = parseInt(cont, 10);
      if (String(from) !== cont) throw badContinue();
      ids = ids.filter((id) => id >= from);
    }
    if (!ids.length) return;
    const resp = await ctx.deps.clients.content.getPageProps({ pageIds: ids, names: ctx.params.prop ?? [] });
    for (const page of resp.pages) {
      const entry = q.pages.get(page.pageId);
      if (!entry) continue;
      entry.pageprops = setArrayType(Object.fromEntries(page.props.map((p) => [p.name, p.value])) as ResultObject, 'assoc');
    }
  },
});
