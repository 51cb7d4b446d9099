/*
 * MediaWiki's user-name rules (UserNameUtils): canonical form like a title's text (underscores
 * become spaces, whitespace collapsed, first letter upper case), then validity (not an IP, no
 * "/", not too long, a valid title outside any namespace, no invisible characters), usability
 * (not reserved) and creatability (none of $wgInvalidUsernameCharacters "@:>").
 */
import net from 'node:net';

export const MAX_NAME_CHARS = 255;
export const RESERVED_USERNAMES = ['MediaWiki default', 'Conversion script', 'Maintenance script', 'Template namespace initialisation script', 'ScriptImporter', 'Unknown user'];
const INVALID_CREATE_CHARS = /[@:>]/;
// Title::legalChars() complement: characters a title (hence a user name) may not contain.
const ILLEGAL_TITLE_CHARS = /[#<>[\]|{}\u0000-\u001f\u007f]|%[0-9A-Fa-f]{2}|&[A-Za-z0-9\u0080-\uffff]+;|&#[0-9]+;|&#x[0-9A-Fa-f]+;/;
const INVISIBLE = /[\u0080-\u009f\u00a0\u2000-\u200f\u2028-\u202f\u3000\ue000-\uf8ff]/u;
// Canonical names and aliases of the default namespaces: "User:X" is a title in a namespace, not a name.
const NAMESPACE_PREFIXES = new Set([
  'media',
  'special',
  'talk',
  'user',
  'user talk',
  'project',
  'project talk',
  'file',
  'file talk',
  'image',
  'image talk',
  'mediawiki',
  'mediawiki talk',
  'template',
  'template talk',
  'help',
  'help talk',
  'category',
  'category talk',
]);

export function isIp(name: string): boolean {
  return net.isIP(name) !== 0 || /^\d{1,3}\.\d{1,3}\.\d{1,3}\.xxx$/i.test(name);
}

/** MediaWiki's IP normalization for block targets and anonymous names (upper-case IPv6). */
export function normalizeIp(ip: string): string {
  return net.isIPv6(ip) ? ip.toUpperCase() : ip;
}

function ucfirst(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const ch = String.fromCodePoint(first);
  return ch.toUpperCase() + s.slice(ch.length);
}

/** Title-text normalization of a user name (no validity checks). */
export function normalizeUserName(raw: string): string {
  const text = raw
    .normalize('NFC')
    .replace(/[_\s]+/g, ' ')
    .trim();
  return ucfirst(text);
}

export function isValidUserName(name: string): boolean {
  if (name === '' || isIp(name) || name.includes('/') || Buffer.byteLength(name) > MAX_NAME_CHARS || name !== ucfirst(name)) return false;
  if (ILLEGAL_TITLE_CHARS.test(name) || INVISIBLE.test(name)) return false;
  if (name.startsWith(' ') || name.endsWith(' ') || name.includes('  ') || name.includes('_')) return false;
  const colon = name.indexOf(':');
  if (colon === 0) return false;
  if (colon > 0 && NAMESPACE_PREFIXES.has(name.slice(0, colon).trim().toLowerCase())) return false;
  return true;
}

export function isUsableUserName(name: string): boolean {
  return isValidUserName(name) && !RESERVED_USERNAMES.includes(name);
}

export function isCreatableUserName(name: string): boolean {
  return isUsableUserName(name) && !INVALID_CREATE_CHARS.test(name);
}

/** The canonical name, or null when it is not a valid user name. */
export function canonicalUserName(raw: string): string | null {
  const name = normalizeUserName(raw);
  return isValidUserName(name) ? name : null;
}
