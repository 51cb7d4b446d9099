/*
 * list=exturlusage (MediaWiki's ApiQueryExtLinksUsage): pages with external links matching a
 * protocol and a host/path pattern, in link order, continuing on `key|id`; also a generator.
 */
import type { ListExternalLinkUsageResponse } from '../../clients/types.js';
import { setIndexedTagName, setArrayType, type ActionContext, type ResultObject } from '../types.js';
import { CONTINUE_PARAM, LIMIT_PARAM, PROTOCOL_PARAM, protocolPrefix, setContinue } from './linktables.js';
import { queryRunOf, type QueryRun } from './run.js';
import { defineGenerator } from './generator.js';
import { type ContextOf, defineParams } from '../define.js';

/** wfExpandUrl( $url, PROTO_CANONICAL ) for a protocol-relative link. */
export function expandUrl(ctx: ActionContext, url: string): string {
  if (!url.startsWith('//')) return url;
  const protocol = /^([a-z][a-z0-9+.-]*:)/i.exec(ctx.deps.config.server)?.[1] ?? 'http:';
  return `${protocol}${url}`;
}

async function run(ctx: ContextOf<typeof params>, query: QueryRun, generator: boolean): Promise<ListExternalLinkUsageResponse> {
  const p = ctx.params;
  const resp = await ctx.deps.clients.content.listExternalLinkUsage({
    protocol: protocolPrefix(p.protocol),
    query: p.query ?? '',
    namespaces: p.namespace ?? [],
    continue: p.continue ?? '',
    limit: p.limit,
  });
  setContinue(ctx, query, 'eucontinue', resp.continue, generator);
  return resp;
}

const params = defineParams({
  prop: { type: ['ids', 'title', 'url'], multi: true, default: 'ids|title|url', help: 'Which pieces of information to include.' },
  continue: CONTINUE_PARAM,
  protocol: PROTOCOL_PARAM,
  query: { type: 'string', help: 'Search string without protocol. See Special:LinkSearch. Leave empty to list all external links.' },
  namespace: { type: 'namespace', multi: true, help: 'The page namespaces to enumerate.' },
  limit: { ...LIMIT_PARAM, help: 'How many pages to return.' },
  expandurl: { type: 'boolean', default: false, help: 'Expand protocol-relative URLs with the canonical protocol.' },
});

export const exturlusageModule = defineGenerator({
  name: 'exturlusage',
  group: 'list',
  prefix: 'eu',
  summary: 'Enumerate pages that contain a given URL.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=exturlusage&euquery=www.mediawiki.org': 'Show pages linking to https://www.mediawiki.org.',
  },
  async execute(ctx, query) {
    const q = queryRunOf(query);
    const props = new Set(ctx.params.prop ?? ['ids', 'title', 'url']);
    const resp = await run(ctx, q, false);
    q.data.exturlusage = setIndexedTagName(
      resp.links.map((l) => {
        const vals: ResultObject = setArrayType({}, 'assoc');
        if (props.has('ids')) vals.pageid = l.pageId;
        if (props.has('title')) {
          vals.ns = l.ns;
          vals.title = l.title;
        }
        if (props.has('url')) vals.url = ctx.params.expandurl ? expandUrl(ctx, l.url) : l.url;
        return vals;
      }),
      'eu',
    );
  },
  async generate(ctx, query) {
    return (await run(ctx, query, true)).links.map((l) => l.pageId);
  },
});
