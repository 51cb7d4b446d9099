/*
 * list=categorymembers (MediaWiki's ApiQueryCategoryMembers): the members of a category by sort
 * key (pages, then subcategories, then files; continuing on `type|hexsortkey|from`) or by the
 * time they were added (continuing on `timestamp|from`); also a generator.
 */
import type { ListCategoryMembersResponse } from '../../clients/types.js';
import { ApiUsageError, setArrayType, setIndexedTagName, type ResultObject } from '../types.js';
import { defineParams, type ContextOf } from '../define.js';
import { isoFromMw } from '../../validation/typedefs.js';
import { defineGenerator } from './generator.js';
import { CONTINUE_PARAM, LIMIT_PARAM, setContinue } from './linktables.js';
import { queryRunOf, type QueryRun } from './run.js';

const params = defineParams({
  title: { type: 'string', help: 'Which category to enumerate (required). Must include the Category: prefix. Cannot be used together with cmpageid.' },
  pageid: { type: 'integer', help: 'Page ID of the category to enumerate. Cannot be used together with cmtitle.' },
  prop: { type: ['ids', 'title', 'sortkey', 'sortkeyprefix', 'type', 'timestamp'], multi: true, default: 'ids|title', help: 'Which pieces of information to include.' },
  namespace: { type: 'namespace', multi: true, help: 'Only include pages in these namespaces.' },
  type: { type: ['page', 'subcat', 'file'], multi: true, default: 'page|subcat|file', help: 'Which type of category members to include. Ignored when cmsort=timestamp is set.' },
  continue: CONTINUE_PARAM,
  limit: { ...LIMIT_PARAM, help: 'The maximum number of pages to return.' },
  sort: { type: ['sortkey', 'timestamp'], default: 'sortkey', help: 'Property to sort by.' },
  dir: { type: ['asc', 'desc', 'ascending', 'descending', 'newer', 'older'], default: 'ascending', help: 'In which direction to sort.' },
  start: { type: 'timestamp', help: 'Timestamp to start listing from. Can only be used with cmsort=timestamp.' },
  end: { type: 'timestamp', help: 'Timestamp to end listing at. Can only be used with cmsort=timestamp.' },
  starthexsortkey: { type: 'string', help: 'Sortkey to start listing from, as returned by cmprop=sortkey. Can only be used with cmsort=sortkey.' },
  endhexsortkey: { type: 'string', help: 'Sortkey to end listing at, as returned by cmprop=sortkey. Can only be used with cmsort=sortkey.' },
  startsortkeyprefix: { type: 'string', help: 'Sortkey prefix to start listing from. Can only be used with cmsort=sortkey. Overrides cmstarthexsortkey.' },
  endsortkeyprefix: { type: 'string', help: 'Sortkey prefix to end listing before. Can only be used with cmsort=sortkey. Overrides cmendhexsortkey.' },
  startsortkey: { type: 'string', deprecated: true, help: 'Use cmstarthexsortkey instead.' },
  endsortkey: { type: 'string', deprecated: true, help: 'Use cmendhexsortkey instead.' },
});
type Ctx = ContextOf<typeof params>;

function hexSortkey(ctx: Ctx, name: 'starthexsortkey' | 'endhexsortkey'): string | undefined {
  const v = ctx.params[name];
  if (v === undefined) return undefined;
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(v)) {
    const param = `${ctx.module.prefix}${name}`;
    throw new ApiUsageError(`badvalue_${param}`, `Invalid value for parameter "${param}".`);
  }
  return Buffer.from(v, 'hex').toString('utf8');
}

async function run(ctx: Ctx, query: QueryRun, generator: boolean): Promise<ListCategoryMembersResponse> {
  const p = ctx.params;
  const prefix = ctx.module.prefix;
  const title = p.title;
  const pageId = p.pageid;
  if (title === undefined && pageId === undefined) throw new ApiUsageError('missingparam', `One of the parameters "${prefix}title" and "${prefix}pageid" is required.`);
  if (title !== undefined && pageId !== undefined) throw new ApiUsageError('invalidparammix', `The parameters "${prefix}title" and "${prefix}pageid" can not be used together.`);
  const byTimestamp = p.sort === 'timestamp';
  const descending = !['asc', 'ascending', 'newer'].includes(p.dir);
  const start = hexSortkey(ctx, 'starthexsortkey') ?? p.startsortkey;
  const end = hexSortkey(ctx, 'endhexsortkey') ?? p.endsortkey;
  const resp = await ctx.deps.clients.content.listCategoryMembers({
    title: title ?? '',
    pageId: pageId ?? 0,
    namespaces: p.namespace ?? [],
    types: p.type,
    byTimestamp,
    descending,
    startTimestamp: p.start !== undefined ? isoFromMw(p.start) : '',
    endTimestamp: p.end !== undefined ? isoFromMw(p.end) : '',
    ...(start !== undefined ? { startSortkey: start } : {}),
    ...(end !== undefined ? { endSortkey: end } : {}),
    ...(p.startsortkeyprefix !== undefined ? { startSortkeyPrefix: p.startsortkeyprefix } : {}),
    ...(p.endsortkeyprefix !== undefined ? { endSortkeyPrefix: p.endsortkeyprefix } : {}),
    continue: p.continue ?? '',
    limit: p.limit,
  });
  setContinue(ctx, query, 'cmcontinue', resp.continue, generator);
  return resp;
}

export const categorymembersModule = defineGenerator({
  name: 'categorymembers',
  group: 'list',
  prefix: 'cm',
  summary: 'List all pages in a given category.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=categorymembers&cmtitle=Category:Physics': 'Get first 10 pages in Category:Physics.',
    'action=query&generator=categorymembers&gcmtitle=Category:Physics&prop=info': 'Get page info about first 10 pages in Category:Physics.',
  },
  async execute(ctx, query) {
    const q = queryRunOf(query);
    const props = new Set(ctx.params.prop);
    const resp = await run(ctx, q, false);
    q.data.categorymembers = setIndexedTagName(
      resp.members.map((m) => {
        const vals: ResultObject = setArrayType({}, 'assoc');
        if (props.has('ids')) vals.pageid = m.id;
        if (props.has('title')) {
          vals.ns = m.ns;
          vals.title = m.title;
        }
        if (props.has('sortkey')) vals.sortkey = m.sortkeyHex;
        if (props.has('sortkeyprefix')) vals.sortkeyprefix = m.sortkeyPrefix;
        if (props.has('type')) vals.type = m.type;
        if (props.has('timestamp')) vals.timestamp = m.timestamp;
        return vals;
      }),
      'cm',
    );
  },
  async generate(ctx, query) {
    return (await run(ctx, query, true)).members.map((m) => m.id);
  },
});
