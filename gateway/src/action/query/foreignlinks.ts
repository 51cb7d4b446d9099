/*
 * Links to other wikis: list=langbacklinks and list=iwbacklinks (MediaWiki's
 * ApiQueryLangBacklinks and ApiQueryIWBacklinks, one implementation over langlinks and iwlinks:
 * the pages linking to any language/prefix, to one, or to one title there, in (prefix, title,
 * page) order; generators of those pages) and prop=iwlinks (ApiQueryIWLinks).
 */
import { ApiUsageError, setContentValue, setIndexedTagName, type ActionContext, type Params, type ResultObject } from '../types.js';
import { defineGenerator, type GeneratorModule } from './generator.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineModule, defineParams, type ParamsOf } from '../define.js';

interface BacklinksKind {
  name: 'langbacklinks' | 'iwbacklinks';
  prefix: 'lbl' | 'iwbl';
  /** The parameter naming the language or interwiki prefix. */
  target: 'lang' | 'prefix';
  /** The error code when a title comes without it (MediaWiki's differ). */
  missingTargetCode: string;
  /** prop values: the target and the title there. */
  props: readonly [string, string];
  indexTag: string;
  summary: string;
  what: string;
  example: string;
}

function backlinksParams(kind: BacklinksKind) {
  return defineParams({
    [kind.target]: { type: 'string', help: `Prefix for the ${kind.what}.` },
    title: { type: 'string', help: `${kind.what[0]!.toUpperCase()}${kind.what.slice(1)} to search for. Must be used with ${kind.prefix}${kind.target}.` },
    continue: CONTINUE_PARAM,
    limit: { ...LIMIT_PARAM, help: 'How many total pages to return.' },
    prop: { type: kind.props, multi: true, default: '', help: 'Which properties to get.' },
    dir: DIR_PARAM,
  });
}

async function fetchBacklinks(ctx: ActionContext<ParamsOf<ReturnType<typeof backlinksParams>>>, kind: BacklinksKind) {
  const p = ctx.params;
  // The target's parameter name depends on the kind (lbllang, iwblprefix).
  const all: Params = p;
  const targetValue = all[kind.target];
  const target = typeof targetValue === 'string' ? targetValue : undefined;
  const prefix = ctx.module.prefix;
  if (p.title !== undefined && target === undefined) {
    throw new ApiUsageError(kind.missingTargetCode, `The "${prefix}title" parameter may only be used with "${prefix}${kind.target}".`);
  }
  const req = {
    title: p.title ?? '',
    descending: p.dir === 'descending',
    limit: p.limit,
    continue: p.continue ?? '',
  };
  if (kind.name === 'langbacklinks') {
    const r = await ctx.deps.clients.lists.listLangBacklinks({ ...req, lang: target ?? '' });
    return { links: r.links.map((l) => ({ page: l.page!, target: l.lang, title: l.title })), continue: r.continue };
  }
  const r = await ctx.deps.clients.lists.listInterwikiBacklinks({ ...req, prefix: target ?? '' });
  return { links: r.links.map((l) => ({ page: l.page!, target: l.prefix, title: l.title })), continue: r.continue };
}

function backlinksModule(kind: BacklinksKind): GeneratorModule {
  const continueParam = `${kind.prefix}continue`;
  return defineGenerator({
    name: kind.name,
    group: 'list',
    prefix: kind.prefix,
    summary: kind.summary,
    params: backlinksParams(kind),
    flags: { generator: true },
    examples: {
      [`action=query&list=${kind.name}&${kind.prefix}title=${kind.example}`]: `Get pages linking to ${kind.example}.`,
      [`action=query&generator=${kind.name}&g${kind.prefix}title=${kind.example}&prop=info`]: `Get information about pages linking to ${kind.example}.`,
    },
    async execute(ctx, query) {
      const run = queryRunOf(query);
      const props = new Set<string>(ctx.params.prop ?? []);
      const resp = await fetchBacklinks(ctx, kind);
      run.data[kind.name] = setIndexedTagName(
        resp.links.map(({ page, target, title }) => {
          const item: ResultObject = { pageid: page.id, ns: page.ns, title: page.title };
          if (page.redirect) item.redirect = true;
          if (props.has(kind.props[0])) item[kind.props[0]] = target;
          if (props.has(kind.props[1])) item[kind.props[1]] = title;
          return item;
        }),
        kind.indexTag,
      );
      setContinue(ctx, run, continueParam, resp.continue, false);
    },
    async generate(ctx, run: QueryRun) {
      const resp = await fetchBacklinks(ctx, kind);
      setContinue(ctx, run, continueParam, resp.continue, true);
      return { titles: resp.links.map((l) => l.page.title) };
    },
  });
}

export const langbacklinksModule = backlinksModule({
  name: 'langbacklinks',
  prefix: 'lbl',
  target: 'lang',
  missingTargetCode: 'nolang',
  props: ['lllang', 'lltitle'],
  indexTag: 'll',
  summary: 'Find all pages that link to the given language link.',
  what: 'language link',
  example: 'Test&lbllang=fr',
});

export const iwbacklinksModule = backlinksModule({
  name: 'iwbacklinks',
  prefix: 'iwbl',
  target: 'prefix',
  missingTargetCode: 'invalidparammix',
  props: ['iwprefix', 'iwtitle'],
  indexTag: 'iw',
  summary: 'Find all pages that link to the given interwiki link.',
  what: 'interwiki link',
  example: 'Test&iwblprefix=wikibooks',
});

export const iwlinksModule = defineModule({
  name: 'iwlinks',
  group: 'prop',
  prefix: 'iw',
  summary: 'Returns all interwiki links from the given pages.',
  params: {
    url: { type: 'boolean', default: false, deprecated: true, help: 'Whether to get the full URL (cannot be used with iwprop).' },
    prop: { type: ['url'], multi: true, help: 'Which additional properties to get for each interwiki link.' },
    prefix: { type: 'string', help: 'Only return interwiki links with this prefix.' },
    title: { type: 'string', help: 'Interwiki link to search for. Must be used with iwprefix.' },
    dir: { ...DIR_PARAM, help: 'The direction in which to list.' },
    limit: { ...LIMIT_PARAM, help: 'How many interwiki links to return.' },
    continue: CONTINUE_PARAM,
  },
  flags: {},
  examples: { 'action=query&prop=iwlinks&titles=Main%20Page': 'Get interwiki links from the page Main Page.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const pageIds = run.pageSet.good.map((pg) => pg.id);
    if (!pageIds.length) return;
    if (p.title !== undefined && p.prefix === undefined) {
      throw new ApiUsageError('invalidparammix', `The "${ctx.module.prefix}title" parameter may only be used with "${ctx.module.prefix}prefix".`);
    }
    // The deprecated iwurl and iwprop exclude each other.
    if (p.url && p.prop !== undefined) {
      throw new ApiUsageError('invalidparammix', `The parameters "${ctx.module.prefix}prop" and "${ctx.module.prefix}url" can not be used together.`);
    }
    const withUrl = p.url || (p.prop ?? []).includes('url');
    const resp = await ctx.deps.clients.lists.listInterwikiLinks({
      pageIds,
      prefix: p.prefix ?? '',
      title: p.title ?? '',
      descending: p.dir === 'descending',
      limit: p.limit,
      continue: p.continue ?? '',
    });
    for (const l of resp.links) {
      const item: ResultObject = { prefix: l.prefix };
      if (withUrl && l.url) item.url = l.url;
      setContentValue(item, 'title', l.title);
      addPageSubItem(run.pages, l.fromPageId, 'iwlinks', 'iw', item);
    }
    setContinue(ctx, run, 'iwcontinue', resp.continue, false);
  },
});
