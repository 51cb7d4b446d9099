/*
 * list=protectedtitles (MediaWiki's ApiQueryProtectedTitles): titles protected from creation
 * (action=protect on a missing page), newest first by default; a generator of those titles.
 */
import { setIndexedTagName, type ResultObject } from '../types.js';
import { DIR_PARAM, isoOfMw } from './changes.js';
import { CONTINUE_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

function fetchTitles(ctx: ContextOf<typeof params>) {
  const p = ctx.params;
  return ctx.deps.clients.lists.listProtectedTitles({
    namespaces: p.namespace ?? [],
    levels: p.level ?? [],
    newer: p.dir === 'newer',
    start: typeof p.start === 'string' ? isoOfMw(p.start) : '',
    end: typeof p.end === 'string' ? isoOfMw(p.end) : '',
    limit: p.limit,
    continue: p.continue ?? '',
  });
}

const params = defineParams({
  namespace: { type: 'namespace', multi: true, help: 'Only list titles in these namespaces.' },
  level: { type: ['autoconfirmed', 'sysop'], multi: true, help: 'Only list titles with these protection levels.' },
  limit: { ...LIMIT_PARAM, help: 'How many total pages to return.' },
  dir: DIR_PARAM,
  start: { type: 'timestamp', help: 'Start listing at this protection timestamp.' },
  end: { type: 'timestamp', help: 'Stop listing at this protection timestamp.' },
  prop: {
    type: ['timestamp', 'user', 'userid', 'comment', 'parsedcomment', 'expiry', 'level'],
    multi: true,
    default: 'timestamp|level',
    help: 'Which properties to get.',
  },
  continue: CONTINUE_PARAM,
});

export const protectedtitlesModule = defineGenerator({
  name: 'protectedtitles',
  group: 'list',
  prefix: 'pt',
  summary: 'List all titles protected from creation.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=protectedtitles': 'List protected titles.',
    'action=query&generator=protectedtitles&gptnamespace=0&prop=linkshere': 'Find links to protected titles in the main namespace.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = new Set(ctx.params.prop);
    const resp = await fetchTitles(ctx);
    const parsed = props.has('parsedcomment') ? await ctx.deps.clients.content.formatComments(resp.titles.map((t) => ({ title: t.title, comment: t.comment }))) : [];
    run.data.protectedtitles = setIndexedTagName(
      resp.titles.map((t, i) => {
        const item: ResultObject = { ns: t.ns, title: t.title };
        if (props.has('timestamp')) item.timestamp = t.timestamp;
        if (props.has('user')) item.user = t.user;
        if (props.has('userid') || props.has('user')) item.userid = t.userId;
        if (props.has('comment')) item.comment = t.comment;
        if (props.has('parsedcomment')) item.parsedcomment = parsed[i]!;
        if (props.has('expiry')) item.expiry = t.expiry || 'infinity';
        if (props.has('level')) item.level = t.level;
        return item;
      }),
      'pt',
    );
    setContinue(ctx, run, 'ptcontinue', resp.continue, false);
  },
  async generate(ctx, run: QueryRun) {
    const resp = await fetchTitles(ctx);
    setContinue(ctx, run, 'ptcontinue', resp.continue, true);
    return { titles: resp.titles.map((t) => t.title) };
  },
});
