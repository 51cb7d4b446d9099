/*
 * The pre-save transform of wikitext (MediaWiki's Parser::preSaveTransform): `{{subst:…}}` and
 * `{{safesubst:…}}` expanded, signatures (`~~~` name, `~~~~` name and time, `~~~~~` time), the
 * pipe trick (`[[ns:Page (context)|]]`, `[[|Page]]`) and trailing whitespace. Text inside
 * `<nowiki>`, `<pre>` and comments is left alone, as MediaWiki's strip state leaves it.
 */
import { escapeWikiText } from '../functions.js';

export interface PstUser {
  name: string;
  anonymous: boolean;
  /** A registered user's signature preferences (nickname, fancysig). */
  signature?: { nickname: string; fancy: boolean };
}

export interface PstContext {
  /** Prefixed text of the page being saved. */
  title: string;
  /** Its text without the namespace (Title::getText), for the reverse pipe trick; else `title` without its first prefix. */
  titleText?: string;
  user: PstUser;
  now: Date;
  /**
   * Expands the wikitext of each substitution (`{{Template|…}}` without its subst: prefix), all
   * in one call: a text may hold thousands, and each call to the renderer has a cost of its own.
   */
  expandAll(wikitexts: string[]): Promise<string[]>;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `H:i, j F Y (T)` in UTC: the signature's timestamp ($wgLocaltimezone is UTC here). */
export function signatureTimestamp(d: Date): string {
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${hh}:${mm}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} (UTC)`;
}

/** $wgMaxSigChars. */
const MAX_SIG_CHARS = 255;

/** Parser::validateSig: a fancy signature must be a well-formed fragment (every tag closed in order). */
function wellFormed(text: string): boolean {
  const open: string[] = [];
  for (const m of text.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^<>]*?(\/?)>|<|>/g)) {
    if (!m[2]) return false;
    const name = m[2].toLowerCase();
    if (m[3]) continue;
    if (!m[1]) open.push(name);
    else if (open.pop() !== name) return false;
  }
  return open.length === 0 && !/&(?![a-zA-Z][a-zA-Z0-9]*;|#[0-9]+;|#x[0-9a-fA-F]+;)/.test(text);
}

/**
 * Parser::getUserSig: the `signature` / `signature-anon` message with the user's name and
 * nickname (escaped); a fancy nickname as wikitext when well formed, without signatures in it.
 */
export function signatureText(user: PstUser): string {
  let nickname = user.signature?.nickname || user.name;
  if ([...nickname].length > MAX_SIG_CHARS) nickname = user.name;
  else if (user.signature?.fancy && !user.anonymous) {
    // Parser::cleanSig: no signature inside the signature, templates substituted.
    if (wellFormed(nickname)) return nickname.replace(/\{\{(?!subst:)/gi, '{{SUBST:').replace(/~{3,5}/g, '');
    nickname = user.name;
  }
  nickname = nickname.replace(/~{3,5}/g, '');
  const name = escapeWikiText(user.name);
  const nick = escapeWikiText(nickname);
  return user.anonymous ? `[[Special:Contributions/${name}|${nick}]]` : `[[User:${name}|${nick}]] ([[User talk:${name}|talk]])`;
}

/** Regions the transform must not touch: nowiki, pre, comments. */
const PROTECTED_RE = /<nowiki(?:\s[^>]*)?>[\s\S]*?(?:<\/nowiki\s*>|$)|<pre(?:\s[^>]*)?>[\s\S]*?(?:<\/pre\s*>|$)|<!--[\s\S]*?(?:-->|$)/gi;

/** The text cut into regions, alternately outside (even indexes) and inside protected ones. */
function regionsOf(text: string): string[] {
  const regions: string[] = [];
  let at = 0;
  for (const m of text.matchAll(PROTECTED_RE)) {
    regions.push(text.slice(at, m.index), m[0]);
    at = m.index + m[0].length;
  }
  regions.push(text.slice(at));
  return regions;
}

const SUBST_RE = /\{\{\s*(?:safe)?subst:/gi;

/** The end (exclusive) of the `{{…}}` opened at `start`, by brace nesting; -1 when unclosed. */
function closingBraces(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length - 1; i++) {
    if (text[i] === '{' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}' && text[i + 1] === '}') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** A substitution found in a region: where it is, and the wikitext to expand in its place. */
interface Substitution {
  start: number;
  end: number;
  wikitext: string;
}

function substitutionsOf(text: string): Substitution[] {
  const found: Substitution[] = [];
  SUBST_RE.lastIndex = 0;
  for (let m = SUBST_RE.exec(text); m; m = SUBST_RE.exec(text)) {
    const end = closingBraces(text, m.index);
    if (end < 0) break;
    // Nested substitutions expand with their container.
    found.push({ start: m.index, end, wikitext: `{{${text.slice(m.index + m[0].length, end).replace(SUBST_RE, '{{')}` });
    SUBST_RE.lastIndex = end;
  }
  return found;
}

// Title::legalChars(), and the namespace characters of Parser::pstPass2.
const TC = `[ %!"$&'()*,\\-./0-9:;=?@A-Z\\\\^_\`a-z~\\x80-\\uFFFF+]`;
const IS_TC = new RegExp(`^${TC}$`);
const IS_NC = /^[ _0-9A-Za-z\x80-\uFFFF-]$/;
const PIPE_REVERSE = new RegExp(`\\[\\[\\|(${TC}+)]]`, 'g');
const NC = '[ _0-9A-Za-z\\x80-\\uFFFF-]';
// The page's own title is short (a title is at most 255 bytes): these regexes may backtrack.
const TITLE_PARENS = new RegExp(`^(${NC}+:|)${TC}+?( \\(${TC}+\\))$`);
const TITLE_COMMA = new RegExp(`^(${NC}+:|)${TC}+?(, ${TC}+|)$`);

/**
 * Where group 2 of pstPass2's patterns can start in a link target `s` (all title characters):
 * after `ns:` (`:?NC+:`), after a leading `:`, or at 0, in the order the regex alternation tries them.
 */
function prefixEnds(s: string): number[] {
  const ends: number[] = [];
  const colon = s[0] === ':' ? 1 : 0;
  let j = colon;
  while (j < s.length && IS_NC.test(s[j]!)) j++;
  if (j > colon && s[j] === ':') ends.push(j + 1);
  if (colon) ends.push(1);
  ends.push(0);
  return ends;
}

/**
 * The end of group 2 of `[[(:?NC+:|:|)(TC+?)(rest)|]]` on the link target `s`: the smallest
 * split after at least one character, for the first prefix that allows one (what the lazy
 * regex finds), or none. `restAt(i)` says, in constant time, whether `s.slice(i)` matches the rest.
 */
function splitOf(s: string, restAt: (i: number) => boolean): { start: number; end: number } | undefined {
  for (const start of prefixEnds(s)) {
    for (let end = start + 1; end <= s.length; end++) if (restAt(end)) return { start, end };
  }
  return undefined;
}

/** ` ?\(TC+\)` (or its full-width form) to the end of `s`, starting at i. */
function contextAt(s: string, open: string, close: string): (i: number) => boolean {
  const closed = s.endsWith(close);
  return (i) => {
    if (!closed) return false;
    const p = s[i] === ' ' ? i + 1 : i;
    return s[p] === open && p <= s.length - 3;
  };
}

/**
 * Parser::pstPass2's pipe trick on one link target, `[[s|]]`: p1 `[[ns:page (context)|]]`, then
 * p4 with full-width parentheses, then p3 `[[ns:page (context), context|]]` (which also makes a
 * plain `[[ns:page|]]` `[[ns:page|page]]`). Each regex replaces `[[s|]]` by `[[s|` + group 2 + `]]`,
 * so only the end of group 2 matters; it is found in one pass (the regexes backtrack
 * quadratically on a long target with many parentheses, and this runs on the service's thread).
 */
function pipeTrickTarget(s: string): string | undefined {
  const parenAt = contextAt(s, '(', ')');
  let group2 = splitOf(s, parenAt) ?? splitOf(s, contextAt(s, '（', '）'));
  if (!group2) {
    // p3's rest: an optional ` ?(…)` context, then an optional `, …` / `，…` / `، …` context, to the end.
    // commaAfter[k]: some j >= k where `s[j-1] === ')'` and a comma context follows to the end.
    const commaAt = (j: number) => ((s.startsWith(', ', j) || s.startsWith('، ', j)) && j + 2 < s.length) || (s[j] === '，' && j + 1 < s.length);
    const parenComma = new Array<boolean>(s.length + 2).fill(false);
    for (let k = s.length; k >= 0; k--) parenComma[k] = parenComma[k + 1]! || (k > 0 && s[k - 1] === ')' && commaAt(k));
    group2 = splitOf(s, (i) => {
      if (i === s.length || commaAt(i) || parenAt(i)) return true;
      const p = s[i] === ' ' ? i + 1 : i;
      // `(X)` with X non-empty closes at some j-1 >= p + 2, then the comma context.
      return s[p] === '(' && p + 3 <= s.length && parenComma[p + 3]!;
    });
  }
  return group2 && `${s}|${s.slice(group2.start, group2.end)}`;
}

/**
 * Parser::pstPass2's pipe trick. `titleText` is the page's title without its namespace
 * (Title::getText: a colon in it is part of the name, as "Ns:Page" in the main namespace), whose
 * "(context)" or ", context" — with that leading "Ns:" — a `[[|Page]]` link takes.
 */
export function pipeTrick(text: string, titleText: string): string {
  // Each `[[target|]]`: the target runs back from `|]]` over title characters to a `[[`. Title
  // characters exclude `[`, `]` and `|`, so the targets never overlap and one pass finds them all.
  let out = '';
  let at = 0;
  for (let bar = text.indexOf('|]]'); bar >= 0; bar = text.indexOf('|]]', bar + 3)) {
    let b = bar;
    while (b > 0 && IS_TC.test(text[b - 1]!)) b--;
    if (b < 2 || text[b - 1] !== '[' || text[b - 2] !== '[' || b === bar) continue;
    const replaced = pipeTrickTarget(text.slice(b, bar));
    if (replaced === undefined) continue;
    out += `${text.slice(at, b)}${replaced}]]`;
    at = bar + 3;
  }
  text = out + text.slice(at);
  const m = TITLE_PARENS.exec(titleText) ?? TITLE_COMMA.exec(titleText);
  if (m && `${m[1]}${m[2]}` !== '') return text.replace(PIPE_REVERSE, (_all, page: string) => `[[${m[1]}${page}${m[2]}|${page}]]`);
  // Without context the title would only be repeated.
  return text.replace(PIPE_REVERSE, '[[$1]]');
}

export async function preSaveTransform(text: string, ctx: PstContext): Promise<string> {
  text = text.replace(/\r\n?/g, '\n');
  const sig = signatureText(ctx.user);
  const time = signatureTimestamp(ctx.now);
  const regions = regionsOf(text);
  const substitutions = regions.map((region, i) => (i % 2 === 0 ? substitutionsOf(region) : []));
  const expanded = await ctx.expandAll(substitutions.flat().map((x) => x.wikitext));
  let next = 0;
  const out = regions.map((region, i) => {
    if (i % 2 === 1) return region;
    let part = '';
    let at = 0;
    for (const x of substitutions[i]!) {
      part += region.slice(at, x.start) + expanded[next++]!;
      at = x.end;
    }
    part += region.slice(at);
    part = part.replace(/~~~~~|~~~~|~~~/g, (m) => (m.length === 5 ? time : m.length === 4 ? `${sig} ${time}` : sig));
    return pipeTrick(part, ctx.titleText ?? ctx.title.replace(/^[^:]*:/, ''));
  });
  return out.join('').replace(/[ \t\n\r\0\x0B]+$/, '');
}
