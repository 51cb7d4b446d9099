/*
 * list=allcategories (MediaWiki's ApiQueryAllCategories): every category that has members or a
 * page, in name order, with member counts (`prop=size`) and the hidden flag; a generator of the
 * category pages.
 */
import { setContentValue, setIndexedTagName, type ResultObject } from '../types.js';
import { titlePartKeyer } from './allpages.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

const NS_CATEGORY = 14;

async function fetchCategories(ctx: ContextOf<typeof params>) {
  const p = ctx.params;
  const key = await titlePartKeyer(ctx, NS_CATEGORY);
  return ctx.deps.clients.lists.listAllCategories({
    from: key(p.from) ?? '',
    to: key(p.to) ?? '',
    prefix: key(p.prefix) ?? '',
    descending: p.dir === 'descending',
    ...(typeof p.min === 'number' ? { min: p.min } : {}),
    ...(typeof p.max === 'number' ? { max: p.max } : {}),
    limit: p.limit,
    continue: p.continue ?? '',
  });
}

const params = defineParams({
  from: { type: 'string', help: 'The category to start enumerating from.' },
  continue: CONTINUE_PARAM,
  to: { type: 'string', help: 'The category to stop enumerating at.' },
  prefix: { type: 'string', help: 'Search for all category titles that begin with this value.' },
  dir: { ...DIR_PARAM, help: 'Direction to sort in.' },
  min: { type: 'integer', help: 'Only return categories with at least this many members.' },
  max: { type: 'integer', help: 'Only return categories with at most this many members.' },
  limit: { ...LIMIT_PARAM, help: 'How many categories to return.' },
  prop: { type: ['size', 'hidden'], multi: true, default: '', help: 'Which properties to get.' },
});

export const allcategoriesModule = defineGenerator({
  name: 'allcategories',
  group: 'list',
  prefix: 'ac',
  summary: 'Enumerate all categories.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=allcategories&acprop=size': 'List categories with information on the number of pages in each.',
    'action=query&generator=allcategories&gacprefix=List&prop=info': 'Retrieve info about the category page itself for categories beginning List.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = new Set(ctx.params.prop ?? []);
    const resp = await fetchCategories(ctx);
    run.data.allcategories = setIndexedTagName(
      resp.categories.map((c) => {
        const item: ResultObject = {};
        setContentValue(item, 'category', c.name);
        if (props.has('size')) Object.assign(item, { size: c.size, pages: c.pages, files: c.files, subcats: c.subcats });
        if (props.has('hidden')) item.hidden = c.hidden;
        return item;
      }),
      'c',
    );
    setContinue(ctx, run, 'accontinue', resp.continue, false);
  },
  async generate(ctx, run: QueryRun) {
    const resp = await fetchCategories(ctx);
    setContinue(ctx, run, 'accontinue', resp.continue, true);
    const namespaces = (await ctx.deps.site.namespaces()).namespaces;
    const nsName = namespaces.find((n) => n.id === NS_CATEGORY)?.name ?? 'Category';
    return { titles: resp.categories.map((c) => `${nsName}:${c.name}`) };
  },
});
