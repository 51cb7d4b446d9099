/*
 * list=langbacklinks (MediaWiki's ApiQueryLangBacklinks): the pages with language links — to any
 * language, to one (lbllang), or to one title in it (lbltitle) — in (language, title, page)
 * order; a generator of those pages.
 */
import { ApiUsageError, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import type { GeneratorModule } from './generator.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { queryRunOf, type QueryRun } from './run.js';

function fetchBacklinks(ctx: ActionContext) {
  const p = ctx.params;
  const prefix = ctx.module.prefix;
  if (p.title !== undefined && p.lang === undefined) {
    throw new ApiUsageError('nolang', `The "${prefix}title" parameter may only be used with "${prefix}lang".`);
  }
  return ctx.deps.clients.lists.listLangBacklinks({
    lang: (p.lang as string | undefined) ?? '',
    title: (p.title as string | undefined) ?? '',
    descending: p.dir === 'descending',
    limit: p.limit as number,
    continue: (p.continue as string | undefined) ?? '',
  });
}

export const langbacklinksModule: GeneratorModule = {
  name: 'langbacklinks',
  group: 'list',
  prefix: 'lbl',
  summary: 'Find all pages that link to the given language link.',
  params: {
    lang: { type: 'string', help: 'Language for the language link.' },
    title: { type: 'string', help: 'Language link to search for. Must be used with lbllang.' },
    continue: CONTINUE_PARAM,
    limit: { ...LIMIT_PARAM, help: 'How many total pages to return.' },
    prop: { type: ['lllang', 'lltitle'], multi: true, default: '', help: 'Which properties to get.' },
    dir: { ...DIR_PARAM, help: 'The direction in which to list.' },
  },
  flags: { generator: true },
  examples: {
    'action=query&list=langbacklinks&lbltitle=Test&lbllang=fr': 'Get pages linking to fr:Test.',
    'action=query&generator=langbacklinks&glbltitle=Test&glbllang=fr&prop=info': 'Get information about pages linking to fr:Test.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = new Set((ctx.params.prop as string[] | undefined) ?? []);
    const resp = await fetchBacklinks(ctx);
    run.data.langbacklinks = setIndexedTagName(
      resp.links.map(({ page, lang, title }) => {
        const item: ResultObject = { pageid: page!.id, ns: page!.ns, title: page!.title };
        if (page!.redirect) item.redirect = true;
        if (props.has('lllang')) item.lllang = lang;
        if (props.has('lltitle')) item.lltitle = title;
        return item;
      }),
      'll',
    );
    setContinue(ctx, run, 'lblcontinue', resp.continue, false);
  },
  async generate(ctx, run: QueryRun) {
    const resp = await fetchBacklinks(ctx);
    setContinue(ctx, run, 'lblcontinue', resp.continue, true);
    return { titles: resp.links.map((l) => l.page!.title) };
  },
};
