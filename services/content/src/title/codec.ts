import { decodeCharReferencesAndNormalize } from './entities.js';
import { sanitizeIP } from './ip.js';
import { NS_MAIN, NS_SPECIAL, NS_TALK, NS_USER, NS_USER_TALK, type NamespaceTable } from './namespaces.js';

/*
 * Title parsing as MediaWiki 1.39 does it: Title::newFromTextThrow (character references, NFC)
 * followed by MediaWikiTitleCodec::splitTitleString. Interwiki prefixes are not recognised yet
 * (this wiki has no interwiki table), so "xx:Foo" is a main-namespace title, as on a wiki whose
 * interwiki table is empty.
 */

/** English texts of MediaWiki's title-invalid-* messages (languages/i18n/en.json). */
const MESSAGES = {
  'title-invalid-empty': () => 'The requested page title is empty or contains only the name of a namespace.',
  'title-invalid-utf8': () => 'The requested page title contains an invalid UTF-8 sequence.',
  'title-invalid-talk-namespace': () => 'The requested page title refers to a talk page that cannot exist.',
  'title-invalid-characters': (chars: string) => `The requested page title contains invalid characters: "${chars}".`,
  'title-invalid-relative': () => "Title has relative path. Relative page titles (./, ../) are invalid, because they will often be unreachable when handled by user's browser.",
  'title-invalid-magic-tilde': () => 'The requested page title contains invalid magic tilde sequence (<nowiki>~~~</nowiki>).',
  'title-invalid-too-long': (max: string) => `The requested page title is too long. It must be no longer than ${max} ${max === '1' ? 'byte' : 'bytes'} in UTF-8 encoding.`,
  'title-invalid-leading-colon': () => 'The requested page title contains an invalid colon at the beginning.',
} as const;

export type TitleErrorCode = keyof typeof MESSAGES;

/** MalformedTitleException: `code` is the message key, `message` its English text. */
export class MalformedTitleError extends Error {
  constructor(
    readonly code: TitleErrorCode,
    readonly input: string,
    param = '',
  ) {
    super(MESSAGES[code](param));
    this.name = 'MalformedTitleError';
  }
}

export interface ParsedTitle {
  ns: number;
  /** DB-key form without the namespace prefix; "" only for a fragment-only main-namespace link. */
  dbkey: string;
  /** Text after "#", with spaces. */
  fragment: string;
}

// Unicode bidi marks slip into copy-pasted titles; MediaWiki drops them.
const BIDI = /[\u200E\u200F\u202A-\u202E]+/gu;
const WHITESPACE = /[ _\u00A0\u1680\u180E\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/gu;
const PREFIX = /^([^\n]+?)_*:_*([^\n]*)$/;
// $wgLegalTitleChars: every non-ASCII character is legal; percent-escapes and entities are not.
const ILLEGAL = /[^ %!"$&'()*,\-./0-9:;=?@A-Z\\^_`a-z~\u0080-\u{10FFFF}+]|%[0-9A-Fa-f]{2}|&[A-Za-z0-9\u0080-\u{10FFFF}]+;/u;
const MAX_BYTES = 255;
const MAX_BYTES_SPECIAL = 512;

/**
 * Characters that ICU uppercases but PHP 8.2's mbstring (Unicode 14) leaves alone: MediaWiki
 * keeps them as they are at the start of a title.
 */
const NOT_UPPERCASED_BY_MEDIAWIKI = /^[\u019B\u0264\u1C8A\uA7CD\uA7CF\uA7D3\uA7D5\uA7DB\u{10D70}-\u{10D85}\u{16EBB}-\u{16ED3}]$/u;

/** Language::ucfirst for English: ASCII by byte rules, other letters by mb_strtoupper. */
export function ucfirst(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined || first < 0x61) return s;
  if (first < 0x80) return s[0]!.toUpperCase() + s.slice(1);
  const ch = String.fromCodePoint(first);
  if (NOT_UPPERCASED_BY_MEDIAWIKI.test(ch)) return s;
  return ch.toUpperCase() + s.slice(ch.length);
}

const trimUnderscores = (s: string) => s.replace(/^_+|_+$/g, '');

function isRelativePath(dbkey: string): boolean {
  return dbkey === '.' || dbkey === '..' || dbkey.startsWith('./') || dbkey.startsWith('../') || dbkey.includes('/./') || dbkey.includes('/../') || dbkey.endsWith('/.') || dbkey.endsWith('/..');
}

export class TitleCodec {
  constructor(readonly namespaces: NamespaceTable) {}

  /** Parses user input into namespace + DB key; throws MalformedTitleError with MediaWiki's reason. */
  parse(text: string, defaultNs = NS_MAIN): ParsedTitle {
    let dbkey = decodeCharReferencesAndNormalize(text).replaceAll(' ', '_').replace(BIDI, '');
    dbkey = trimUnderscores(dbkey.replace(WHITESPACE, '_'));
    if (dbkey.includes('\uFFFD')) throw new MalformedTitleError('title-invalid-utf8', text);

    let ns = defaultNs;
    // A leading colon forces the main namespace.
    if (dbkey.startsWith(':')) {
      ns = NS_MAIN;
      dbkey = trimUnderscores(dbkey.slice(1));
    }
    if (dbkey === '') throw new MalformedTitleError('title-invalid-empty', text);

    const m = PREFIX.exec(dbkey);
    if (m) {
      const prefixNs = this.namespaces.indexOf(m[1]!);
      if (prefixNs !== undefined) {
        dbkey = m[2]!;
        ns = prefixNs;
        // Talk:File:X would be the talk page of a talk-less title.
        const inner = ns === NS_TALK ? PREFIX.exec(dbkey) : null;
        if (inner && this.namespaces.indexOf(inner[1]!)) throw new MalformedTitleError('title-invalid-talk-namespace', text);
      }
    }

    let fragment = '';
    const hash = dbkey.indexOf('#');
    if (hash !== -1) {
      fragment = dbkey.slice(hash + 1).replaceAll('_', ' ');
      dbkey = dbkey.slice(0, hash).replace(/_+$/, '');
    }

    const illegal = ILLEGAL.exec(dbkey);
    if (illegal) throw new MalformedTitleError('title-invalid-characters', text, illegal[0]);
    if (dbkey.includes('.') && isRelativePath(dbkey)) throw new MalformedTitleError('title-invalid-relative', text);
    if (dbkey.includes('~~~')) throw new MalformedTitleError('title-invalid-magic-tilde', text);
    const maxBytes = ns === NS_SPECIAL ? MAX_BYTES_SPECIAL : MAX_BYTES;
    if (Buffer.byteLength(dbkey, 'utf8') > maxBytes) throw new MalformedTitleError('title-invalid-too-long', text, String(maxBytes));

    if (this.namespaces.isCapitalized(ns)) dbkey = ucfirst(dbkey);
    // A namespace alone is no title; an empty main-namespace title is a link to a fragment.
    if (dbkey === '' && ns !== NS_MAIN) throw new MalformedTitleError('title-invalid-empty', text);
    if (ns === NS_USER || ns === NS_USER_TALK) dbkey = sanitizeIP(dbkey);
    if (dbkey.startsWith(':')) throw new MalformedTitleError('title-invalid-leading-colon', text);
    return { ns, dbkey, fragment };
  }

  /** Title::getPrefixedDBkey: "Talk:Foo_bar". */
  prefixedDbKey(ns: number, dbkey: string): string {
    const name = this.namespaces.get(ns)?.name ?? '';
    return name === '' ? dbkey : `${name.replaceAll(' ', '_')}:${dbkey}`;
  }

  /** Title::getPrefixedText: "Talk:Foo bar". */
  prefixedText(ns: number, dbkey: string): string {
    return this.prefixedDbKey(ns, dbkey).replaceAll('_', ' ');
  }
}
