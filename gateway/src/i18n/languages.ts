/*
 * MediaWiki 1.39's language table (languages.json, from LanguageNameUtils, LanguageCode,
 * LanguageFallback and the language converters; see gateway/README.md). Without the CLDR
 * extension a language's name in any language is its autonym, as on the reference wiki.
 */
import { readFileSync } from 'node:fs';

export interface LanguageData {
  code: string;
  bcp47: string;
  dir: 'ltr' | 'rtl';
  autonym: string;
  fallbacks: string[];
  variants: string[];
}

let loaded: Map<string, LanguageData> | undefined;

/** Every language MediaWiki knows ('all'), by code, in code order. */
export function languages(): ReadonlyMap<string, LanguageData> {
  if (!loaded) {
    const json = JSON.parse(readFileSync(new URL('./languages.json', import.meta.url), 'utf8')) as Record<string, Omit<LanguageData, 'code'>>;
    loaded = new Map();
    for (const [code, data] of Object.entries(json)) if (code !== '@metadata') loaded.set(code, { code, ...data });
  }
  return loaded;
}
