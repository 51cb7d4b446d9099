/*
 * action=rsd (MediaWiki's ApiRsd): the Really Simple Discovery document, always as its own XML
 * (ApiFormatXmlRsd: application/rsd+xml, whatever `format` asks for).
 */
import { ARTICLE_PATH, SCRIPT_PATH } from '../../config.js';
import { MAIN_PAGE_TITLE } from '../query/siteinfo.js';
import { wfUrlencode } from '../query/encoding.js';
import { defineModule } from '../define.js';

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const text = (tag: string, value: string, attrs = '') => `<${tag}${attrs} xml:space="preserve">${xmlEscape(value)}</${tag}>`;

/** The document ApiFormatXml prints for ApiRsd's result (attribute order as MediaWiki's). */
export function rsdDocument(server: string): string {
  const apiLink = `${server}${SCRIPT_PATH}/api.php`;
  const homePage = server + ARTICLE_PATH.replace('$1', wfUrlencode(MAIN_PAGE_TITLE.replace(/ /g, '_')));
  const api =
    `<api name="MediaWiki" preferred="true" apiLink="${xmlEscape(apiLink)}" blogID="">` +
    `<settings>${text('docs', 'https://www.mediawiki.org/wiki/Special:MyLanguage/API')}${text('setting', 'false', ' name="OAuth"')}</settings></api>`;
  return (
    '<?xml version="1.0"?><rsd version="1.0" xmlns="http://archipelago.phrasewise.com/rsd"><service>' +
    `<apis>${api}</apis>${text('engineName', 'MediaWiki')}${text('engineLink', 'https://www.mediawiki.org/')}${text('homePageLink', homePage)}` +
    '</service></rsd>'
  );
}

export const rsdModule = defineModule({
  name: 'rsd',
  group: 'action',
  prefix: '',
  summary: 'Export an RSD (Really Simple Discovery) schema.',
  params: {},
  flags: { readRights: false },
  examples: { 'action=rsd': 'Export the RSD schema.' },
  async execute(ctx) {
    ctx.setRawOutput({ contentType: 'application/rsd+xml', filename: 'api-result.xml', body: rsdDocument(ctx.deps.config.server) });
  },
});
