/* meta=languageinfo (MediaWiki's ApiQueryLanguageinfo) over MediaWiki's language table. */
import { languages } from '../../i18n/languages.js';
import { message } from '../errors.js';
import { setArrayType, setContentValue, setIndexedTagName, type ResultObject } from '../types.js';
import { modulePath, queryRunOf } from './run.js';
import { defineModule } from '../define.js';

/** siprop=languages (ApiQuerySiteinfo::appendLanguages): code, BCP-47 code and name (an autonym: no CLDR). */
export function languagesInfo(): ResultObject[] {
  return setIndexedTagName(
    [...languages().values()].map((l) => setContentValue({ code: l.code, bcp47: l.bcp47 }, 'name', l.autonym)),
    'lang',
  );
}

const PROPS = ['code', 'bcp47', 'dir', 'autonym', 'name', 'fallbacks', 'variants'] as const;

export const languageinfoModule = defineModule({
  name: 'languageinfo',
  group: 'meta',
  prefix: 'li',
  summary: 'Return information about available languages.',
  params: {
    prop: { type: PROPS, multi: true, default: 'code', help: 'Which information to get for each language.' },
    code: { type: 'string', multi: true, default: '*', help: 'Language codes of the languages that should be returned, or <kbd>*</kbd> for all languages.' },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  },
  flags: {},
  examples: {
    'action=query&meta=languageinfo': 'Get the language codes of all supported languages.',
    'action=query&meta=languageinfo&liprop=autonym|name&uselang=de': 'Get the autonyms and German names of all supported languages.',
    'action=query&meta=languageinfo&liprop=fallbacks|variants&licode=oc': 'Get the fallback languages and variants of Occitan.',
    'action=query&meta=languageinfo&liprop=bcp47|dir': 'Get the BCP-47 language code and direction of all supported languages.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    ctx.setCacheMode('public');
    const props = new Set(ctx.params.prop);
    const table = languages();
    const selected = ctx.params.code;
    let codes: string[];
    if (selected.length === 1 && selected[0] === '*') {
      codes = [...table.keys()];
    } else {
      codes = [...table.keys()].filter((c) => selected.includes(c));
      const unrecognized = selected.filter((c) => !table.has(c));
      if (unrecognized.length > 0) {
        ctx.addWarning(modulePath(ctx.module), message('unrecognizedvalues', 'apiwarn-unrecognizedvalues', [`${ctx.module.prefix}code`, unrecognized.join(', '), unrecognized.length]));
      }
    }
    // The whole table fits in one response: MediaWiki's time-boxed continuation never triggers.
    const from = ctx.params.continue ?? codes[0] ?? '';
    const out: ResultObject = {};
    for (const code of codes) {
      if (code < from) continue;
      const lang = table.get(code)!;
      const info: ResultObject = {};
      if (props.has('code')) info.code = code;
      if (props.has('bcp47')) info.bcp47 = lang.bcp47;
      if (props.has('dir')) info.dir = lang.dir;
      if (props.has('autonym')) info.autonym = lang.autonym;
      if (props.has('name')) info.name = lang.autonym;
      if (props.has('fallbacks')) info.fallbacks = setIndexedTagName([...lang.fallbacks], 'fb');
      if (props.has('variants')) info.variants = setIndexedTagName([...lang.variants], 'var');
      out[code] = setArrayType(info, 'assoc');
    }
    run.data.languageinfo = setArrayType(out, 'assoc');
  },
});
