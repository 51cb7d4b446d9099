/*
 * A search result's snippet as readers see it: the search service returns a stretch of the
 * page's wikitext, HTML-escaped, with its matches in <span class="searchmatch">. Shown as plain
 * text, as MediaWiki's SearchHighlighter::removeWiki cleans snippets (templates dropped or their
 * arguments kept, links as their text, tags and bold/italic quotes removed), plus headings,
 * list markers, behaviour switches and category links; the matches stay highlighted.
 */
import { escapeHtml } from '../action/errors.js';
import { SafeHtml } from './html.js';

const OPEN = '\uE000';
const CLOSE = '\uE001';
const MATCH = /<span class=['"]searchmatch['"]>([\s\S]*?)<\/span>/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#039': "'", '#39': "'", nbsp: '\u00a0' };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** removeWiki's link rule: [[target|caption]] → caption; [[target]] → target; category links vanish, files keep their caption. */
function linkText(inner: string): string {
  const bar = inner.indexOf('|');
  const target = (bar < 0 ? inner : inner.slice(0, bar)).trim();
  if (/^:?\s*category\s*:/i.test(target) && !target.startsWith(':')) return '';
  if (bar < 0) return target.replace(/^:/, '');
  const parts = inner.slice(bar + 1).split('|');
  return /^(file|image)\s*:/i.test(target) ? (parts.at(-1) ?? '') : inner.slice(bar + 1);
}

/** Wikitext (markers kept) as plain text. */
export function wikitextToPlain(text: string): string {
  let t = text;
  // Comments, then templates innermost first: {{name}} vanishes, {{name|args}} leaves its arguments (removeWiki).
  t = t.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  for (let i = 0; i < 5 && /\{\{[^{}]*\}\}/.test(t); i++) {
    t = t.replace(/\{\{\{([^{}|]*)(?:\|([^{}]*))?\}\}\}/g, (_m, _n: string, def?: string) => def ?? '');
    t = t.replace(/\{\{([^{}|]*)(?:\|([^{}]*))?\}\}/g, (_m, _name: string, args?: string) =>
      (args ?? '')
        .split('|')
        .map((a) => a.replace(/^[^=]*=/, ''))
        .join(' '),
    );
  }
  // A template cut by the snippet's edge.
  t = t.replace(/\{\{[^{}]*$/, '').replace(/^[^{}]*\}\}/, '');
  t = t.replace(/\[\[([^[\]]*)\]\]/g, (_m, inner: string) => linkText(inner));
  t = t.replace(/\[(?:https?:|ftp:)?\/\/[^\s\]]+\s+([^\]]*)\]/g, '$1').replace(/\[(?:https?:|ftp:)?\/\/[^\s\]]+\]/g, '');
  t = t.replace(/<\/?[a-z][^>]*>/gi, '');
  t = t.replace(/'''''|'''|''/g, '');
  t = t.replace(/__[A-Z]+__/g, '');
  t = t.replace(/^[ \t]*(={1,6})[ \t]*(.*?)[ \t]*\1[ \t]*$/gm, '$2');
  t = t.replace(/^[*#:;]+[ \t]*/gm, '');
  t = t.replace(/^\{\||^\|\}|^\|-.*$/gm, '').replace(/^[|!][ \t]*/gm, '');
  return t;
}

/** The snippet HTML of a search hit as plain text with its matches highlighted (<span class="searchmatch">). */
export function plainSnippet(snippet: string): SafeHtml {
  // The matches become private-use markers, so the markup removal cannot cut through them.
  const marked = snippet.replace(MATCH, (_m, inner: string) => `${OPEN}${inner}${CLOSE}`).replace(/<[^>]*>/g, '');
  const plain = wikitextToPlain(decode(marked))
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{2,}/g, '\n')
    .trim();
  let out = escapeHtml(plain).replace(/\n/g, '<br>');
  // Markers whose text vanished (inside a removed template name) leave nothing behind; unpaired ones close at the end.
  out = out.replace(new RegExp(`${OPEN}${CLOSE}`, 'g'), '');
  let open = 0;
  out = out.replace(new RegExp(`[${OPEN}${CLOSE}]`, 'g'), (m) => {
    if (m === OPEN) {
      if (open) return '';
      open = 1;
      return '<span class="searchmatch">';
    }
    if (!open) return '';
    open = 0;
    return '</span>';
  });
  if (open) out += '</span>';
  return new SafeHtml(out);
}
