/*
 * The text snippet in MediaWiki's form (SearchHighlighter::highlightSimple, what the default SQL
 * search backends show): only the lines with a match, at most two, each ending in "\n"; around the
 * last match of a line at most 75 characters before and after, cut with "...". A text without a
 * match gives "". The engines mark matches (with stemming); this shapes what they marked.
 */
import { MATCH_CLOSE, MATCH_OPEN } from './backend.js';

const CONTEXT_LINES = 2;
const CONTEXT_CHARS = 75;
const ELLIPSIS = '...';

interface Piece {
  text: string;
  match: boolean;
}

const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#039);/g, (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#039;': "'" })[e] ?? e);
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');

/** A highlighted line as plain-text pieces, matched or not. */
function pieces(line: string): Piece[] {
  const out: Piece[] = [];
  for (const [i, part] of line.split(MATCH_OPEN).entries()) {
    const close = i === 0 ? -1 : part.indexOf(MATCH_CLOSE);
    if (close >= 0) out.push({ text: unescapeHtml(part.slice(0, close)), match: true });
    out.push({ text: unescapeHtml(close >= 0 ? part.slice(close + MATCH_CLOSE.length) : part), match: false });
  }
  return out.filter((p) => p.text !== '');
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Code points of `s`: its length when it has no surrogate pair (nearly always). A text spread
 * into an array of characters per piece was the snippets' largest cost on a long line.
 */
function codePoints(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The first, or with `fromEnd` the last, `n` code points of `s`. */
function someCodePoints(s: string, n: number, fromEnd: boolean): string {
  if (!SURROGATE.test(s)) return fromEnd ? s.slice(s.length - n) : s.slice(0, n);
  const chars = [...s];
  return (fromEnd ? chars.slice(chars.length - n) : chars.slice(0, n)).join('');
}

/** Keeps at most `max` characters (code points) of `pieces`, from the start or from the end. */
function clip(list: Piece[], max: number, fromEnd: boolean): Piece[] {
  let total = 0;
  for (const p of list) total += codePoints(p.text);
  if (total <= max) return list;
  const kept: Piece[] = [];
  let room = max;
  for (const p of fromEnd ? [...list].reverse() : list) {
    if (room === 0) break;
    const n = codePoints(p.text);
    kept.push({ text: n <= room ? p.text : someCodePoints(p.text, room, fromEnd), match: p.match });
    room -= Math.min(n, room);
  }
  const ellipsis = { text: ELLIPSIS, match: false };
  return fromEnd ? [ellipsis, ...kept.reverse()] : [...kept, ellipsis];
}

function render(list: Piece[]): string {
  return list.map((p) => (p.match ? `${MATCH_OPEN}${escapeHtml(p.text)}${MATCH_CLOSE}` : escapeHtml(p.text))).join('');
}

/** The engine's highlighted text (escaped HTML with match spans) in MediaWiki's snippet form. */
export function mediaWikiSnippet(highlighted: string): string {
  let snippet = '';
  let lines = 0;
  for (const line of highlighted.split('\n')) {
    if (lines === CONTEXT_LINES) break;
    const list = pieces(line);
    const last = list.findLastIndex((p) => p.match);
    if (last < 0) continue;
    lines++;
    snippet += `${render([...clip(list.slice(0, last), CONTEXT_CHARS, true), list[last]!, ...clip(list.slice(last + 1), CONTEXT_CHARS, false)])}\n`;
  }
  return snippet;
}

/**
 * A word: what PostgreSQL's parser separates at everything else. One expression, compiled once:
 * an expression made per search (the query's prefixes, case-insensitive, of Unicode classes)
 * was compiled again at its first use, most of the search thread's time.
 */
const WORDS = /[\p{L}\p{N}]+/gu;
const PLAIN_WORD = /^[\p{L}\p{N}]+$/u;

/** What a word must begin with (lower-cased) to be one of the query's (stemCandidates). */
export interface StemCandidates {
  readonly prefixes: readonly string[];
}

/**
 * Words of a text that may have one of `lexemes` as their stem: an English (Snowball) stem is
 * the word less a suffix, whose last letter or two may differ from the word's ("happy" ->
 * "happi", "ability" -> "abl", "dying" -> "die"), so a word that stems to a lexeme begins with
 * the lexeme less its last two letters (checked on the 133,618 plain words of Debian's
 * american-english-large list: none begins otherwise; less one letter missed dying, lying and
 * tying). Undefined when a lexeme is no plain word (a host name, a hyphenated compound): the
 * parser makes those of several words.
 */
export function stemCandidates(lexemes: string[]): StemCandidates | undefined {
  if (lexemes.length === 0 || lexemes.some((l) => !PLAIN_WORD.test(l))) return undefined;
  return { prefixes: [...new Set(lexemes.map((l) => [...l].slice(0, Math.max(1, [...l].length - 2)).join('')))] };
}

/** A letter or digit (what WORDS is made of), at `at` of `s` (a pair of surrogates read whole). */
const WORD_CHAR_AT = /[\p{L}\p{N}]/uy;
/** The rest of a word from where it is read. */
const WORD_REST_AT = /[\p{L}\p{N}]*/uy;

/** Whether a word of WORDS may begin at `at`: the line begins there, or the character before is no letter or digit. */
function wordStartsAt(line: string, at: number): boolean {
  if (at === 0) return true;
  let before = at - 1;
  const unit = line.charCodeAt(before);
  if (unit >= 0xdc00 && unit <= 0xdfff && before > 0) {
    const high = line.charCodeAt(before - 1);
    if (high >= 0xd800 && high <= 0xdbff) before--;
  }
  WORD_CHAR_AT.lastIndex = before;
  return !WORD_CHAR_AT.test(line);
}

/** The words of `line` that `candidates` accepts, with where they begin. */
export function candidatesIn(line: string, candidates: StemCandidates): { word: string; index: number }[] {
  const out: { word: string; index: number }[] = [];
  const lower = line.toLowerCase();
  if (lower.length === line.length) {
    // Lower-casing kept every character's place (nearly always): each prefix is looked for in
    // place, and taken where a word begins (reading every word of a long line with WORDS was
    // most of the snippets' time).
    for (const p of candidates.prefixes) {
      for (let at = lower.indexOf(p); at >= 0; at = lower.indexOf(p, at + 1)) {
        if (!wordStartsAt(line, at)) continue;
        WORD_REST_AT.lastIndex = at;
        WORD_REST_AT.test(line);
        out.push({ word: line.slice(at, WORD_REST_AT.lastIndex), index: at });
      }
    }
    if (candidates.prefixes.length > 1) {
      out.sort((a, b) => a.index - b.index);
      return out.filter((c, i) => i === 0 || c.index !== out[i - 1]!.index);
    }
    return out;
  }
  WORDS.lastIndex = 0;
  for (let m = WORDS.exec(line); m !== null; m = WORDS.exec(line)) {
    const word = m[0];
    if (candidates.prefixes.some((p) => word.toLowerCase().startsWith(p))) out.push({ word, index: m.index });
  }
  return out;
}

/**
 * `text` HTML-escaped with the words `isMatch` accepts (among those `candidates` finds) in
 * searchmatch spans, as ts_headline with HighlightAll marks them; only the lines with a match, at
 * most `maxLines` of them (by default what mediaWikiSnippet keeps of a text), or every line with `keepAll`
 * (a title).
 */
export function highlightWords(text: string, candidates: StemCandidates, isMatch: (word: string) => boolean, opts: { maxLines?: number; keepAll?: boolean } = {}): string {
  const out: string[] = [];
  const maxLines = opts.maxLines ?? CONTEXT_LINES;
  let matched = 0;
  for (const line of text.split('\n')) {
    if (matched === maxLines) break;
    let html = '';
    let at = 0;
    let found = false;
    for (const { word, index } of candidatesIn(line, candidates)) {
      if (!isMatch(word)) continue;
      found = true;
      html += `${escapeHtml(line.slice(at, index))}${MATCH_OPEN}${escapeHtml(word)}${MATCH_CLOSE}`;
      at = index + word.length;
    }
    if (found) matched++;
    if (found || opts.keepAll) out.push(html + escapeHtml(line.slice(at)));
  }
  return out.join('\n');
}

/**
 * Learns (`learn`) the words `candidates` finds in the lines of `texts` a snippet may show: line
 * by line, in rounds of growing length, until a text has `maxLines` lines with a word `isMatch`
 * accepts (once learnt) or ends. highlightWords reads no line past those, so a long text is not
 * scanned whole, nor every candidate of it learnt.
 */
export async function learnSnippetWords(
  texts: string[],
  candidates: StemCandidates,
  isMatch: (word: string) => boolean,
  learn: (words: string[]) => Promise<void>,
  maxLines = CONTEXT_LINES,
): Promise<void> {
  const states = texts.map((t) => ({ lines: t.split('\n'), next: 0, matched: 0 }));
  for (let round = maxLines + 2; ; round *= 4) {
    const words = new Set<string>();
    const scanned: { state: (typeof states)[number]; lineWords: string[][] }[] = [];
    for (const state of states) {
      if (state.matched >= maxLines || state.next >= state.lines.length) continue;
      const lineWords: string[][] = [];
      let withCandidates = 0;
      while (state.next < state.lines.length && withCandidates < round) {
        const found = candidatesIn(state.lines[state.next]!, candidates).map((c) => c.word);
        state.next++;
        lineWords.push(found);
        if (found.length > 0) withCandidates++;
        for (const w of found) words.add(w);
      }
      scanned.push({ state, lineWords });
    }
    if (scanned.length === 0) return;
    if (words.size > 0) await learn([...words]);
    for (const { state, lineWords } of scanned) for (const found of lineWords) if (found.some(isMatch)) state.matched++;
  }
}
