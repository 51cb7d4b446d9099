/*
 * prop=categories (MediaWiki's ApiQueryCategories): the categories of the page set, by (page,
 * category), continuing on `from|category`; a generator of the category titles.
 */
import { LinkTable, type ListPageLinksResponse } from '../../clients/types.js';
import { ApiUsageError, type ResultObject } from '../types.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, pageSetLinks, setContinue } from './linktables.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

async function run(ctx: ContextOf<typeof params>, query: QueryRun, generator: boolean): Promise<ListPageLinksResponse | undefined> {
  const show = new Set(ctx.params.show ?? []);
  if (show.has('hidden') && show.has('!hidden')) throw new ApiUsageError('show', 'Incorrect parameter - mutually exclusive values may not be supplied.');
  const resp = await pageSetLinks(ctx, query, LinkTable.LINK_TABLE_CATEGORYLINKS, {
    targets: ctx.params.categories ?? [],
    hidden: show.has('hidden') ? 1 : show.has('!hidden') ? 2 : 0,
  });
  if (resp) setContinue(ctx, query, 'clcontinue', resp.continue, generator);
  return resp;
}

const params = defineParams({
  prop: { type: ['sortkey', 'timestamp', 'hidden'], multi: true, help: 'Which additional properties to get for each category.' },
  show: { type: ['hidden', '!hidden'], multi: true, help: 'Which kind of categories to show.' },
  limit: { ...LIMIT_PARAM, help: 'How many categories to return.' },
  continue: CONTINUE_PARAM,
  categories: { type: 'string', multi: true, help: 'Only list these categories. Useful for checking whether a certain page is in a certain category.' },
  dir: DIR_PARAM,
});

export const categoriesModule = defineGenerator({
  name: 'categories',
  group: 'prop',
  prefix: 'cl',
  summary: 'List all categories the pages belong to.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&prop=categories&titles=Albert%20Einstein': 'Get a list of categories the page Albert Einstein belongs to.',
    'action=query&generator=categories&titles=Albert%20Einstein&prop=info': 'Get information about all categories used in the page Albert Einstein.',
  },
  async execute(ctx, query) {
    const q = queryRunOf(query);
    const props = new Set(ctx.params.prop ?? []);
    const resp = await run(ctx, q, false);
    for (const c of resp?.links ?? []) {
      const vals: ResultObject = { ns: c.ns, title: c.title };
      if (props.has('sortkey')) {
        vals.sortkey = c.sortkeyHex;
        vals.sortkeyprefix = c.sortkeyPrefix;
      }
      if (props.has('timestamp')) vals.timestamp = c.timestamp;
      if (props.has('hidden')) vals.hidden = c.hidden;
      addPageSubItem(q.pages, c.fromPageId, 'categories', 'cl', vals);
    }
  },
  async generate(ctx, query) {
    const resp = await run(ctx, query, true);
    return { titles: (resp?.links ?? []).map((c) => c.title) };
  },
});
