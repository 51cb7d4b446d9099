/*
 * Language variant conversion of rendered HTML (MediaWiki's LanguageConverter): a language with
 * variants converts the text of its pages to the variant a reader asks for (Accept-Language);
 * every other language passes through. Serbian (sr-ec Cyrillic ↔ sr-el Latin, SrConverter's
 * tables) is the one language with variants here.
 */

/** strtr with longest-match-first keys (MediaWiki's ReplacementArray). */
class Replacer {
  private readonly re: RegExp;
  constructor(private readonly table: Record<string, string>) {
    const keys = Object.keys(table).sort((a, b) => b.length - a.length);
    this.re = new RegExp(keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  }
  replace(s: string): string {
    return s.replace(this.re, (m) => this.table[m]!);
  }
}

const TO_LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ђ: 'đ',
  е: 'e',
  ж: 'ž',
  з: 'z',
  и: 'i',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'ć',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'č',
  џ: 'dž',
  ш: 'š',
  А: 'A',
  Б: 'B',
  В: 'V',
  Г: 'G',
  Д: 'D',
  Ђ: 'Đ',
  Е: 'E',
  Ж: 'Ž',
  З: 'Z',
  И: 'I',
  Ј: 'J',
  К: 'K',
  Л: 'L',
  Љ: 'Lj',
  М: 'M',
  Н: 'N',
  Њ: 'Nj',
  О: 'O',
  П: 'P',
  Р: 'R',
  С: 'S',
  Т: 'T',
  Ћ: 'Ć',
  У: 'U',
  Ф: 'F',
  Х: 'H',
  Ц: 'C',
  Ч: 'Č',
  Џ: 'Dž',
  Ш: 'Š',
};

const TO_CYRILLIC: Record<string, string> = {
  a: 'а',
  b: 'б',
  c: 'ц',
  č: 'ч',
  ć: 'ћ',
  d: 'д',
  dž: 'џ',
  đ: 'ђ',
  e: 'е',
  f: 'ф',
  g: 'г',
  h: 'х',
  i: 'и',
  j: 'ј',
  k: 'к',
  l: 'л',
  lj: 'љ',
  m: 'м',
  n: 'н',
  nj: 'њ',
  o: 'о',
  p: 'п',
  r: 'р',
  s: 'с',
  š: 'ш',
  t: 'т',
  u: 'у',
  v: 'в',
  z: 'з',
  ž: 'ж',
  A: 'А',
  B: 'Б',
  C: 'Ц',
  Č: 'Ч',
  Ć: 'Ћ',
  D: 'Д',
  Dž: 'Џ',
  Đ: 'Ђ',
  E: 'Е',
  F: 'Ф',
  G: 'Г',
  H: 'Х',
  I: 'И',
  J: 'Ј',
  K: 'К',
  L: 'Л',
  LJ: 'Љ',
  M: 'М',
  N: 'Н',
  NJ: 'Њ',
  O: 'О',
  P: 'П',
  R: 'Р',
  S: 'С',
  Š: 'Ш',
  T: 'Т',
  U: 'У',
  V: 'В',
  Z: 'З',
  Ž: 'Ж',
  DŽ: 'Џ',
  'd!ž': 'дж',
  'D!ž': 'Дж',
  'D!Ž': 'ДЖ',
  Lj: 'Љ',
  'l!j': 'лј',
  'L!j': 'Лј',
  'L!J': 'ЛЈ',
  Nj: 'Њ',
  'n!j': 'нј',
  'N!j': 'Нј',
  'N!J': 'НЈ',
};

// SrConverter::translate keeps Roman numerals (whole words) in Latin letters.
const ROMAN = '(?=[MDCLXVI])M{0,4}(?:C[DM]|D?C{0,3})(?:X[LC]|L?X{0,3})(?:I[VX]|V?I{0,3})';
const ROMAN_WORD = new RegExp(`(?<![\\p{L}\\p{N}_])${ROMAN}(?![\\p{L}\\p{N}_])`, 'gu');

interface Converter {
  /** The language's own code, and its variants, first the default. */
  variants: string[];
  translate(text: string, variant: string): string;
}

const sr: Converter = {
  variants: ['sr', 'sr-ec', 'sr-el'],
  translate(text, variant) {
    const table = variant === 'sr-el' ? latin : variant === 'sr-ec' ? cyrillic : undefined;
    if (!table) return text;
    let out = '';
    let at = 0;
    for (const m of text.matchAll(ROMAN_WORD)) {
      if (m[0] === '') continue;
      out += table.replace(text.slice(at, m.index)) + m[0];
      at = m.index + m[0].length;
    }
    return out + table.replace(text.slice(at));
  },
};
const latin = new Replacer(TO_LATIN);
const cyrillic = new Replacer(TO_CYRILLIC);

const CONVERTERS: Record<string, Converter> = { sr };

/**
 * The variant of `language` that an Accept-Language header asks for (LanguageConverter::
 * getHeaderVariant: the first listed tag that is one of the variants), or undefined when the
 * language has no variants or the header names none of them.
 */
export function headerVariant(language: string, acceptLanguage: string): string | undefined {
  const conv = CONVERTERS[language];
  if (!conv) return undefined;
  const tags = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((x) => /^\s*q=([\d.]+)/.exec(x)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((t) => t.tag && t.q > 0)
    .sort((a, b) => b.q - a.q);
  return tags.map((t) => t.tag).find((t) => conv.variants.includes(t));
}

/** Converts the text of an HTML fragment, leaving tags, attributes, `<code>`/`<pre>` and entities as they are. */
export function convertHtml(language: string, html: string, variant: string): string {
  const conv = CONVERTERS[language];
  if (!conv || variant === language) return html;
  let skip = 0;
  return html.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag: string | undefined, text: string | undefined) => {
    if (tag) {
      if (/^<(code|pre|script|style)\b/i.test(tag)) skip++;
      else if (/^<\/(code|pre|script|style)\b/i.test(tag) && skip > 0) skip--;
      return tag;
    }
    if (skip > 0) return text!;
    return text!.replace(/(&[#\w]+;)|([^&]+)/g, (_x, entity: string | undefined, plain: string | undefined) => entity ?? conv.translate(plain!, variant));
  });
}

export function hasVariants(language: string): boolean {
  return language in CONVERTERS;
}
