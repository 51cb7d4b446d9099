/*
 * prop=langlinks (MediaWiki's ApiQueryLangLinks): the interlanguage links of the page set, by
 * (page, language), continuing on `from|lang`. Language names are the autonyms of the
 * interwiki table (MediaWiki without the CLDR extension names languages in their own language).
 */
import { LinkTable } from '../../clients/types.js';
import { ApiUsageError, setContentValue, type ResultObject } from '../types.js';
import { CONTINUE_PARAM, DIR_PARAM, LIMIT_PARAM, pageSetLinks, setContinue } from './linktables.js';
import { addPageSubItem } from './pageset.js';
import { queryRunOf } from './run.js';
import { defineModule } from '../define.js';

export const langlinksModule = defineModule({
  name: 'langlinks',
  group: 'prop',
  prefix: 'll',
  summary: 'Returns all interlanguage links from the given pages.',
  params: {
    prop: { type: ['url', 'langname', 'autonym'], multi: true, help: 'Which additional properties to get for each interlanguage link.' },
    lang: { type: 'string', help: 'Only return language links with this language code.' },
    title: { type: 'string', help: 'Link to search for. Must be used with lllang.' },
    dir: DIR_PARAM,
    inlanguagecode: { type: 'string', default: 'en', help: 'Language code for localised language names.' },
    limit: { ...LIMIT_PARAM, help: 'How many langlinks to return.' },
    continue: CONTINUE_PARAM,
    url: { type: 'boolean', default: false, deprecated: true, help: 'Whether to get the full URL (cannot be used with llprop).' },
  },
  flags: {},
  examples: {
    'action=query&prop=langlinks&titles=Main%20Page&redirects=': 'Get interlanguage links from the page Main Page.',
  },
  async execute(ctx, query) {
    const q = queryRunOf(query);
    const p = ctx.params;
    if (p.title !== undefined && p.lang === undefined) throw new ApiUsageError('invalidparammix', 'The "lltitle" parameter may only be used with "lllang".');
    const props = new Set(p.prop ?? []);
    // The deprecated llurl means llprop=url.
    if (p.url) props.add('url');
    const resp = await pageSetLinks(ctx, q, LinkTable.LINK_TABLE_LANGLINKS, {
      ...(typeof p.lang === 'string' ? { lang: p.lang } : {}),
      ...(typeof p.title === 'string' ? { langTitle: p.title } : {}),
    });
    if (!resp) return;
    setContinue(ctx, q, 'llcontinue', resp.continue, false);
    for (const l of resp.links) {
      const entry: ResultObject = { lang: l.lang };
      if (props.has('url')) entry.url = l.url;
      if (props.has('langname')) entry.langname = l.autonym;
      if (props.has('autonym')) entry.autonym = l.autonym;
      setContentValue(entry, 'title', l.title);
      addPageSubItem(q.pages, l.fromPageId, 'langlinks', 'll', entry);
    }
  },
});
