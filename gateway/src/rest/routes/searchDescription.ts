/*
 * GET /v1/search: the OpenSearch description document, which lets browsers add the wiki as a
 * search engine. MediaWiki 1.39 serves it from opensearch_desc.php (its /v1/search is a 404);
 * later MediaWiki versions serve it here. Same body, type and caching as opensearch_desc.php.
 */
import { SCRIPT_PATH } from '../../config.js';
import type { GatewayDeps } from '../../context.js';
import { defineRoute } from '../types.js';

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const element = (name: string, attrs: Record<string, string | number>, text?: string) => {
  const a = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
  return text === undefined ? `<${name}${a} />` : `<${name}${a}>${escapeXml(text)}</${name}>`;
};

export function openSearchDescription(deps: GatewayDeps): string {
  const { server, sitename, lang } = deps.config;
  const name = `${sitename} (${lang})`;
  const searchPage = `${server}${SCRIPT_PATH}/index.php?title=Special:Search`;
  const api = `${server}${SCRIPT_PATH}/api.php?action=opensearch`;
  return (
    '<?xml version="1.0"?>' +
    '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/" xmlns:moz="http://www.mozilla.org/2006/browser/search/">' +
    element('ShortName', {}, name) +
    element('Description', {}, name) +
    element('Image', { height: 16, width: 16, type: 'image/x-icon' }, `${server}/favicon.ico`) +
    element('Url', { type: 'text/html', method: 'get', template: `${searchPage}&search={searchTerms}` }) +
    element('Url', { type: 'application/x-suggestions+json', method: 'get', template: `${api}&search={searchTerms}&namespace=0` }) +
    element('Url', { type: 'application/x-suggestions+xml', method: 'get', template: `${api}&format=xml&search={searchTerms}&namespace=0` }) +
    element('moz:SearchForm', {}, `${server}/wiki/Special:Search`) +
    '</OpenSearchDescription>'
  );
}

export const searchDescriptionRoute = defineRoute({
  method: 'GET',
  path: '/v1/search',
  summary: 'Get the OpenSearch description document of this wiki',
  params: {},
  writes: false,
  cacheControl: () => 'max-age=600',
  async execute(ctx) {
    return { text: openSearchDescription(ctx.deps), contentType: 'application/opensearchdescription+xml' };
  },
});
