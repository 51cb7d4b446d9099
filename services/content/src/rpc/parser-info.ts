/*
 * GetParserInfo (meta=siteinfo extensiontags, functionhooks, variables, magicwords,
 * fileextensions, languagevariants, interwikimap): MediaWiki 1.39's lists (magicwords.json, its English magic
 * words with their synonyms, its variant fallbacks) kept to what Quire's renderer really handles —
 * variables are probed through the renderer's own magicVariable, parser functions, tags and
 * variant languages come from its tables.
 */
import { readFileSync } from 'node:fs';
import type { GetParserInfoResponse, MagicWord } from '@quire/proto/wiki/content/site/v1/site';
import { FILE_EXTENSIONS } from '../files/mime.js';
import { Expander } from '../render/expand.js';
import { FUNCTION_NAMES, magicVariable } from '../render/functions.js';
import { EXTENSION_TAGS } from '../render/preprocess.js';
import { INTERWIKI } from '../render/render.js';
import { hasVariants } from '../render/variants/index.js';
import type { PageLookup } from '../render/types.js';
import type { TitleCodec } from '../title/codec.js';

interface MediaWikiMagicWords {
  /** [id, synonyms, case-sensitive] */
  magicwords: [string, string[], boolean][];
  variables: string[];
  functionhooks: string[];
  extensiontags: string[];
  /** language → variant → { fallbacks } */
  languagevariants: Record<string, Record<string, { fallbacks: string[] }>>;
}

const MEDIAWIKI: MediaWikiMagicWords = JSON.parse(readFileSync(new URL('./magicwords.json', import.meta.url), 'utf8')) as MediaWikiMagicWords;

/** The behaviour switches the renderer acts on (render.ts DOUBLE_UNDERSCORE), by magic word id. */
const SWITCHES = [
  'notoc',
  'forcetoc',
  'toc',
  'noeditsection',
  'newsectionlink',
  'nonewsectionlink',
  'hiddencat',
  'index',
  'noindex',
  'nogallery',
  'staticredirect',
  'expectunusedcategory',
  'notitleconvert',
  'nocontentconvert',
];
/** Other magic words the parser and the pre-save transform handle. */
const OTHER_WORDS = ['redirect', 'subst', 'safesubst', 'displaytitle', 'defaultsort', 'default'];

/** Probing needs no page data: variables come from the request, the title and the clock. */
const NO_LOOKUP: PageLookup = {
  sources: () => Promise.resolve(new Map()),
  exist: () => Promise.resolve(new Map()),
  files: () => Promise.resolve(new Map()),
};

export function parserInfo(codec: TitleCodec): GetParserInfoResponse {
  const probe = new Expander(codec, NO_LOOKUP, { text: '', title: { ns: 0, dbkey: 'Probe' }, pageId: 1, revId: 1, revUser: 'Probe' }, { name: 'Probe', server: 'http://probe', now: new Date() });
  const variables = MEDIAWIKI.variables.filter((id) => magicVariable(probe, id.toUpperCase(), undefined as never) !== undefined);
  // The renderer names functions as written ("#if", "lc"); MediaWiki's ids drop the "#".
  const functions = new Set(FUNCTION_NAMES.map((n) => n.replace(/^#/, '')));
  const functionHooks = MEDIAWIKI.functionhooks.filter((id) => functions.has(id));
  const supported = new Set([...variables, ...functionHooks, ...SWITCHES, ...OTHER_WORDS]);
  const magicWords: MagicWord[] = MEDIAWIKI.magicwords.filter(([id]) => supported.has(id)).map(([name, aliases, caseSensitive]) => ({ name, aliases, caseSensitive }));
  const tags = new Set<string>(EXTENSION_TAGS);
  return {
    extensionTags: MEDIAWIKI.extensiontags.filter((t) => tags.has(t)),
    functionHooks,
    variables,
    magicWords,
    fileExtensions: Object.keys(FILE_EXTENSIONS),
    languageVariants: Object.entries(MEDIAWIKI.languagevariants)
      .filter(([language]) => hasVariants(language))
      .map(([language, variants]) => ({ language, variants: Object.entries(variants).map(([variant, v]) => ({ variant, fallbacks: v.fallbacks })) })),
    interwikis: Object.entries(INTERWIKI).map(([prefix, iw]) => ({ prefix, url: iw.url, language: iw.language ?? '' })),
  };
}
