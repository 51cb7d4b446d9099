/*
 * MediaWiki's English messages (LocalisationCache + MessageCache::get for language "en"):
 * mediawiki-en.json is MediaWiki 1.39.17's en.json files merged (core, api, rest, paramvalidator,
 * exif, ooui, the reference wiki's skins and extensions; see gateway/README.md). Quire ships no
 * translations, so every language falls back to these, as MediaWiki does for a missing one.
 */
import { readFileSync } from 'node:fs';

const MESSAGES_FILE = new URL('./mediawiki-en.json', import.meta.url);

let loaded: Map<string, string> | undefined;

/** Loaded on first use (about 600 KB): most requests never need a message text. */
function table(): Map<string, string> {
  if (!loaded) {
    const json = JSON.parse(readFileSync(MESSAGES_FILE, 'utf8')) as Record<string, unknown>;
    loaded = new Map();
    for (const [key, value] of Object.entries(json)) {
      if (key !== '@metadata' && typeof value === 'string') loaded.set(key, value);
    }
  }
  return loaded;
}

/** MessageCache::normalizeKey: spaces become underscores, the first (ASCII) letter lower case. */
export function normalizeMessageKey(key: string): string {
  const k = key.replace(/ /g, '_');
  return k === '' ? k : k[0]!.toLowerCase() + k.slice(1);
}

/** MessageCache::get's whitespace fixes (en.json writes kept spaces as &#32;). */
export function fixMessageWhitespace(text: string): string {
  return text
    .replace(/&#32;/g, ' ')
    .replace(/&nbsp;|&#160;/g, '\u00a0')
    .replace(/&shy;/g, '\u00ad');
}

/** The English text of a message key (normalized as MessageCache does), or undefined. */
export function englishMessage(key: string): string | undefined {
  const text = table().get(normalizeMessageKey(key));
  return text === undefined ? undefined : fixMessageWhitespace(text);
}

/** Every message key, sorted as PHP's sort() of strings does (byte order). */
export function allMessageKeys(): string[] {
  return [...table().keys()].sort(compareBytes);
}

/** PHP's strcmp order (UTF-8 bytes), which differs from UTF-16 order above the BMP. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Message::replaceParameters for plain parameters: $n becomes the n-th argument, others stay. */
export function replaceMessageParams(text: string, args: readonly string[]): string {
  return text.replace(/\$(\d+)/g, (m, n: string) => args[Number(n) - 1] ?? m);
}

/** Title::legalChars() as a character class body, for LanguageNameUtils::isValidCode. */
const TITLE_ILLEGAL = /[^ %!"$&'()*,\-./0-9:;=?@A-Z\\^_`a-z~\u{80}-\u{10FFFF}+]|%[0-9A-Fa-f]{2}|&[A-Za-z0-9\u{80}-\u{10FFFF}]+;/u;

/** LanguageNameUtils::isValidCode: HTML-safe, no path traversal, a legal title, ≤ 128 bytes. */
export function isValidLanguageCode(code: string): boolean {
  return !/[:/\\\0&<>'"]/.test(code) && !TITLE_ILLEGAL.test(code) && Buffer.byteLength(code) <= 128;
}
