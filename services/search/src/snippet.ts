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
