/*
 * list=pagepropnames and list=pageswithprop (MediaWiki's ApiQueryPagePropNames and
 * ApiQueryPagesWithProp): the page property names in use, and the pages having one of them.
 */
import { setIndexedTagName, type ResultObject } from '../types.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineModule, defineParams, type ContextOf } from '../define.js';
import { defineGenerator } from './generator.js';

export const pagepropnamesModule = defineModule({
  name: 'pagepropnames',
  group: 'list',
  prefix: 'ppn',
  summary: 'List all page property names in use on the wiki.',
  params: {
    continue: CONTINUE_PARAM,
    limit: { ...LIMIT_PARAM, help: 'The maximum number of names to return.' },
  },
  flags: {},
  examples: { 'action=query&list=pagepropnames': 'Get first 10 property names.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const resp = await ctx.deps.clients.lists.listPagePropNames({ limit: p.limit, continue: p.continue ?? '' });
    run.data.pagepropnames = setIndexedTagName(
      resp.names.map((propname) => ({ propname })),
      'p',
    );
    setContinue(ctx, run, 'ppncontinue', resp.continue, false);
  },
});

const PAGES_WITH_PROP_PARAMS = defineParams({
  propname: { type: 'string', required: true, help: 'Page property for which to enumerate pages (action=query&list=pagepropnames returns page property names in use).' },
  prop: { type: ['ids', 'title', 'value'], multi: true, default: 'ids|title', help: 'Which pieces of information to include.' },
  continue: CONTINUE_PARAM,
  limit: { ...LIMIT_PARAM, help: 'The maximum number of pages to return.' },
  dir: { ...DIR_PARAM, help: 'In which direction to sort.' },
});

function fetchPagesWithProp(ctx: ContextOf<typeof PAGES_WITH_PROP_PARAMS>) {
  const p = ctx.params;
  return ctx.deps.clients.lists.listPagesWithProp({
    propname: p.propname,
    descending: p.dir === 'descending',
    limit: p.limit,
    continue: p.continue ?? '',
  });
}

export const pageswithpropModule = defineGenerator({
  name: 'pageswithprop',
  group: 'list',
  prefix: 'pwp',
  summary: 'List all pages using a given page property.',
  params: PAGES_WITH_PROP_PARAMS,
  flags: { generator: true },
  examples: {
    'action=query&list=pageswithprop&pwppropname=displaytitle&pwpprop=ids|title|value': 'List the first 10 pages using {{DISPLAYTITLE:}}.',
    'action=query&generator=pageswithprop&gpwppropname=notoc&prop=info': 'Get additional information about the first 10 pages using __NOTOC__.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = new Set<string>(ctx.params.prop);
    const resp = await fetchPagesWithProp(ctx);
    run.data.pageswithprop = setIndexedTagName(
      resp.pages.map(({ page, value }) => {
        const item: ResultObject = {};
        if (props.has('ids')) item.pageid = page!.id;
        if (props.has('title')) Object.assign(item, { ns: page!.ns, title: page!.title });
        if (props.has('value')) item.value = value;
        return item;
      }),
      'page',
    );
    setContinue(ctx, run, 'pwpcontinue', resp.continue, false);
  },
  async generate(ctx, run: QueryRun) {
    const resp = await fetchPagesWithProp(ctx);
    setContinue(ctx, run, 'pwpcontinue', resp.continue, true);
    return resp.pages.map((pg) => pg.page!.id);
  },
});
