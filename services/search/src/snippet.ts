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

/** Keeps at most `max` characters (code points) of `pieces`, from the start or from the end. */
function clip(list: Piece[], max: number, fromEnd: boolean): Piece[] {
  const total = list.reduce((n, p) => n + [...p.text].length, 0);
  if (total <= max) return list;
  const kept: Piece[] = [];
  let room = max;
  for (const p of fromEnd ? [...list].reverse() : list) {
    if (room === 0) break;
    const chars = [...p.text];
    const text = chars.length <= room ? p.text : (fromEnd ? chars.slice(chars.length - room) : chars.slice(0, room)).join('');
    room -= [...text].length;
    kept.push({ text, match: p.match });
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

/** The characters of a word: PostgreSQL's parser separates words at everything else. */
const WORD = String.raw`[\p{L}\p{N}]`;
const PLAIN_WORD = new RegExp(`^${WORD}+$`, 'u');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Words of a text that may have one of `lexemes` as their stem: a word's English (Snowball)
 * stem is the word less a suffix, plus at most three letters of its own ("ability" -> "abl",
 * "valencies" -> "valenc"; "dying" -> "die" keeps one), so a word that stems to a lexeme begins with
 * the lexeme less its last three letters. Undefined when a lexeme is no plain word (a host name,
 * a hyphenated compound): the parser makes those of several words.
 */
export function stemCandidates(lexemes: string[]): RegExp | undefined {
  if (lexemes.length === 0 || lexemes.some((l) => !PLAIN_WORD.test(l))) return undefined;
  const prefixes = [...new Set(lexemes.map((l) => [...l].slice(0, Math.max(1, [...l].length - 3)).join('')))];
  return new RegExp(`(?<!${WORD})(?:${prefixes.map(escapeRegExp).join('|')})${WORD}*`, 'giu');
}

/**
 * `text` HTML-escaped with the words `isMatch` accepts (among those `candidates` finds) in
 * searchmatch spans, as ts_headline with HighlightAll marks them; only the lines with a match, at
 * most `maxLines` of them (by default what mediaWikiSnippet keeps of a text), or every line with `keepAll`
 * (a title).
 */
export function highlightWords(text: string, candidates: RegExp, isMatch: (word: string) => boolean, opts: { maxLines?: number; keepAll?: boolean } = {}): string {
  const out: string[] = [];
  const maxLines = opts.maxLines ?? CONTEXT_LINES;
  let matched = 0;
  for (const line of text.split('\n')) {
    if (matched === maxLines) break;
    let html = '';
    let at = 0;
    let found = false;
    for (const m of line.matchAll(candidates)) {
      if (!isMatch(m[0])) continue;
      found = true;
      html += `${escapeHtml(line.slice(at, m.index))}${MATCH_OPEN}${escapeHtml(m[0])}${MATCH_CLOSE}`;
      at = m.index + m[0].length;
    }
    if (found) matched++;
    if (found || opts.keepAll) out.push(html + escapeHtml(line.slice(at)));
  }
  return out.join('\n');
}

/** The words of `texts` that `candidates` finds (to learn their stems). */
export function candidateWords(texts: string[], candidates: RegExp): Set<string> {
  const words = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(candidates)) words.add(m[0]);
  return words;
}
