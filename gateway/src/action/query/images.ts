/*
 * prop=images (MediaWiki's ApiQueryImages): the files the page set shows, by (page, file name),
 * continuing on `from|name`; a generator of the file titles.
 */
import { LinkTable, type ListPageLinksResponse } from '../../clients/types.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, pageSetLinks, setContinue } from './linktables.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

async function run(ctx: ContextOf<typeof params>, query: QueryRun, generator: boolean): Promise<ListPageLinksResponse | undefined> {
  const resp = await pageSetLinks(ctx, query, LinkTable.LINK_TABLE_IMAGELINKS, { targets: ctx.params.images ?? [] });
  if (resp) setContinue(ctx, query, 'imcontinue', resp.continue, generator);
  return resp;
}

const params = defineParams({
  limit: { ...LIMIT_PARAM, help: 'How many files to return.' },
  continue: CONTINUE_PARAM,
  images: { type: 'string', multi: true, help: 'Only list these files. Useful for checking whether a certain page has a certain file.' },
  dir: DIR_PARAM,
});

export const imagesModule = defineGenerator({
  name: 'images',
  group: 'prop',
  prefix: 'im',
  summary: 'Returns all files contained on the given pages.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&prop=images&titles=Main%20Page': 'Get a list of files used in the Main Page.',
    'action=query&generator=images&titles=Main%20Page&prop=info': 'Get information about all files used in the Main Page.',
  },
  async execute(ctx, query) {
    const q = queryRunOf(query);
    const resp = await run(ctx, q, false);
    for (const l of resp?.links ?? []) addPageSubItem(q.pages, l.fromPageId, 'images', 'im', { ns: l.ns, title: l.title });
  },
  async generate(ctx, query) {
    const resp = await run(ctx, query, true);
    return { titles: (resp?.links ?? []).map((l) => l.title) };
  },
});
