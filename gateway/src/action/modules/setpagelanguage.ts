/*
 * action=setpagelanguage (ApiSetPageLanguage). Page languages live in the database only with
 * $wgPageLanguageUseDB, which is false by default in MediaWiki 1.39 and on this wiki (as on the
 * reference wiki): every request that passes parameter validation answers `pagelang-disabled`,
 * the first thing ApiSetPageLanguage::execute checks.
 */
import { ApiUsageError } from '../types.js';
import { defineModule } from '../define.js';
import { languages } from '../../i18n/languages.js';
import { TAGS_PARAM } from './writes.js';

/**
 * Languages MediaWiki knows but has no Messages file for (LanguageNameUtils::SUPPORTED leaves
 * them out of the choices): aliases, deprecated and wiki-only codes.
 */
const NOT_SUPPORTED = new Set([
  'aa',
  'als',
  'bat-smg',
  'be-x-old',
  'cho',
  'es-419',
  'fiu-vro',
  'ho',
  'hz',
  'kj',
  'mh',
  'mus',
  'ng',
  'no',
  'roa-rup',
  'shi-latn',
  'shi-tfng',
  'simple',
  'tly-cyrl',
  'uz-cyrl',
  'uz-latn',
  'zh-classical',
  'zh-min-nan',
  'zh-yue',
]);

const LANGUAGE_CHOICES = ['default', ...[...languages().keys()].filter((code) => !NOT_SUPPORTED.has(code))];

export const setpagelanguageModule = defineModule({
  name: 'setpagelanguage',
  group: 'action',
  prefix: '',
  summary: 'Change the language of a page.',
  params: {
    title: { type: 'string', help: 'Title of the page whose language you wish to change. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'Page ID of the page whose language you wish to change. Cannot be used together with title.' },
    lang: { type: LANGUAGE_CHOICES, required: true, help: "Language code of the language to change the page to. Use default to reset the page to the wiki's default content language." },
    reason: { type: 'string', help: 'Reason for the change.' },
    tags: { ...TAGS_PARAM, help: 'Change tags to apply to the log entry resulting from this action.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=setpagelanguage&title=Main%20Page&lang=eu&token=123ABC': 'Change the language of Main Page to Basque.',
    'action=setpagelanguage&pageid=123&lang=default&token=123ABC': "Change the language of the page with ID 123 to the wiki's default content language.",
  },
  async execute() {
    throw new ApiUsageError('pagelang-disabled', 'Changing the language of a page is not allowed on this wiki.');
  },
});
