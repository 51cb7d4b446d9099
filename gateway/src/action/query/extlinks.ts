/*
 * prop=extlinks (MediaWiki's ApiQueryExternalLinks): the external links of the page set in
 * link order, continuing on the link key and id (and the page, with several pages).
 */
import { LinkTable } from '../../clients/types.js';
import { setContentValue } from '../types.js';
import { CONTINUE_PARAM, LIMIT_PARAM, PROTOCOL_PARAM, pageSetLinks, protocolPrefix, setContinue } from './linktables.js';
import { expandUrl } from './exturlusage.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf } from './run.js';
import { defineModule } from '../define.js';

export const extlinksModule = defineModule({
  name: 'extlinks',
  group: 'prop',
  prefix: 'el',
  summary: 'Returns all external URLs (not interwikis) from the given pages.',
  params: {
    limit: { ...LIMIT_PARAM, help: 'How many links to return.' },
    continue: CONTINUE_PARAM,
    protocol: PROTOCOL_PARAM,
    query: { type: 'string', help: 'Search string without protocol. Useful for checking whether a certain page contains a certain external url.' },
    expandurl: { type: 'boolean', default: false, help: 'Expand protocol-relative URLs with the canonical protocol.' },
  },
  flags: {},
  examples: {
    'action=query&prop=extlinks&titles=Main%20Page': 'Get a list of external links on Main Page.',
  },
  async execute(ctx, query) {
    const q = queryRunOf(query);
    const p = ctx.params;
    const resp = await pageSetLinks(ctx, q, LinkTable.LINK_TABLE_EXTERNALLINKS, { protocol: protocolPrefix(p.protocol), query: p.query ?? '' });
    if (!resp) return;
    setContinue(ctx, q, 'elcontinue', resp.continue, false);
    for (const l of resp.links) {
      const url = p.expandurl ? expandUrl(ctx, l.url) : l.url;
      addPageSubItem(q.pages, l.fromPageId, 'extlinks', 'el', setContentValue({}, 'url', url));
    }
  },
});
