import fs from 'node:fs';

/*
 * Sanitizer::decodeCharReferencesAndNormalize, which Title::newFromText applies before parsing:
 * `&eacute;`, `&#257;` and `&#x3017;` in a title become the characters they name.
 * html-entities.json is RemexHtml's HTMLData::$namedEntityTranslations (the names ending in ";"),
 * exported from MediaWiki 1.39's vendor folder.
 */

const NAMED: Record<string, string> = JSON.parse(fs.readFileSync(new URL('./html-entities.json', import.meta.url), 'utf8'));
/** MediaWiki-specific entity names (Sanitizer::MW_ENTITY_ALIASES). */
const MW_ALIASES: Record<string, string> = { רלמ: 'rlm', رلم: 'rlm' };
const CHAR_REFS = /&([A-Za-z0-9\u0080-\u{10FFFF}]+);|&#([0-9]+);|&#[xX]([0-9A-Fa-f]+);/gu;
const REPLACEMENT = '\uFFFD';

/** Sanitizer::validateCodepoint: valid in both HTML5 and XML. */
function validCodepoint(cp: number): boolean {
  return cp === 0x09 || cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

function decodeCodepoint(digits: string, radix: number): string {
  const cp = parseInt(digits, radix);
  return validCodepoint(cp) ? String.fromCodePoint(cp) : REPLACEMENT;
}

/**
 * Decodes character references, then applies NFC. MediaWiki's WebRequest already gives NFC
 * input; normalizing here as well keeps a non-NFC title from any caller out of the database.
 */
export function decodeCharReferencesAndNormalize(text: string): string {
  return text
    .replace(CHAR_REFS, (whole, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
      if (name !== undefined) return NAMED[MW_ALIASES[name] ?? name] ?? whole;
      if (dec !== undefined) return decodeCodepoint(dec, 10);
      return decodeCodepoint(hex!, 16);
    })
    .normalize('NFC');
}
