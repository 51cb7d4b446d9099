/*
 * action=opensearch (MediaWiki's ApiOpenSearch): title completion in the OpenSearch suggestions
 * format — the 4-array JSON `[query, titles, descriptions, urls]` or the SearchSuggestion XML.
 * Redirects are returned as they are for JSON and resolved for XML unless `redirects` says.
 */
import { ARTICLE_PATH } from '../../config.js';
import { wfUrlencode } from '../query/encoding.js';
import { defineModule } from '../define.js';

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const opensearchModule = defineModule({
  name: 'opensearch',
  group: 'action',
  prefix: '',
  summary: 'Search the wiki using the OpenSearch protocol.',
  params: {
    search: { type: 'string', required: true, help: 'Search string.' },
    namespace: { type: 'namespace', multi: true, default: 0, help: 'Namespaces to search. Ignored if search begins with a valid namespace prefix.' },
    limit: { type: 'limit', default: 10, min: 1, max: 100, highMax: 100, help: 'Maximum number of results to return.' },
    suggest: { type: 'boolean', default: false, deprecated: true, help: 'No longer used.' },
    redirects: {
      type: ['return', 'resolve'],
      help: 'How to handle redirects: return the redirect itself, or resolve it to its target. For historical reasons, the default is "return" for format=json and "resolve" for other formats.',
    },
    format: { type: ['json', 'jsonfm', 'xml', 'xmlfm'], default: 'json', help: 'The format of the output.' },
    warningsaserror: { type: 'boolean', default: false, help: 'If warnings are raised with format=json, return an API error instead of ignoring them.' },
  },
  flags: {},
  examples: { 'action=opensearch&search=Te': 'Find pages beginning with Te.' },
  async execute(ctx) {
    const p = ctx.params;
    const search = p.search;
    // Suggestions may be kept for a long time by any cache ($wgSearchSuggestCacheExpiry).
    ctx.setCacheMaxAge(ctx.deps.config.searchSuggestMaxAge);
    ctx.setCacheMode('public');
    const format = p.format ?? 'json';
    const json = format === 'json' || format === 'jsonfm';
    const resolve = p.redirects === undefined ? !json : p.redirects === 'resolve';
    const r = await ctx.deps.clients.search.completeTitles({
      prefix: search,
      namespaces: p.namespace ?? [0],
      limit: p.limit,
      resolveRedirects: resolve,
    });
    const server = ctx.deps.config.server;
    const items = r.matches.map((m) => ({ title: m.title, url: server + ARTICLE_PATH.replace('$1', wfUrlencode(m.title.replace(/ /g, '_'))) }));
    if (json) {
      const body = JSON.stringify([search, items.map((i) => i.title), items.map(() => ''), items.map((i) => i.url)]);
      ctx.setRawOutput({ contentType: 'application/json', filename: 'api-result.json', body });
      return;
    }
    const section = items.length
      ? `<Section>${items.map((i) => `<Item><Text xml:space="preserve">${escapeXml(i.title)}</Text><Url xml:space="preserve">${escapeXml(i.url)}</Url></Item>`).join('')}</Section>`
      : '<Section />';
    const body = `<?xml version="1.0"?><SearchSuggestion version="2.0" xmlns="http://opensearch.org/searchsuggest2"><Query xml:space="preserve">${escapeXml(search)}</Query>${section}</SearchSuggestion>`;
    ctx.setRawOutput({ contentType: 'text/xml', filename: 'api-result.xml', body });
  },
});
