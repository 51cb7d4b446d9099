/*
 * Parser::getFlatSectionInfo as the REST compare route reports it: the top-level headings of the
 * preprocessed wikitext with their level, their text as written (the whole heading line, trailing
 * whitespace included) and their byte offset. A heading is a line that starts and ends with "="
 * (level = the shorter run, at most 6; a line of only "=" signs is level (n-1)/2). Headings inside
 * comments, extension tags such as <nowiki>/<pre>/<ref> and template calls do not count; an
 * unclosed template call is plain text, so the headings inside it do.
 */
import type { DiffSection } from '@quire/proto/wiki/content/revisions/v1/revisions';

/** Tags whose content the preprocessor does not look into ($wgParser's extension tags + core ones). */
const OPAQUE_TAGS = [
  'nowiki',
  'pre',
  'ref',
  'references',
  'gallery',
  'math',
  'source',
  'syntaxhighlight',
  'poem',
  'templatedata',
  'includeonly',
  'indicator',
  'score',
  'timeline',
  'graph',
  'categorytree',
  'imagemap',
  'inputbox',
  'chem',
  'ce',
  'hiero',
  'charinsert',
  'section',
  'templatestyles',
];
const OPAQUE_OPEN = new RegExp(`^<(${OPAQUE_TAGS.join('|')})(\\s[^>]*)?(/?)>`, 'i');

interface Heading {
  index: number;
  level: number;
  text: string;
}

/** The level of a heading line, or 0 when it is not one. */
function headingLevel(line: string): number {
  // Whitespace and comments after the closing "=" do not count.
  const trimmed = line.replace(/(?:[ \t]|<!--(?:(?!-->)[\s\S])*-->)+$/, '');
  const open = /^=+/.exec(trimmed)![0].length;
  if (open === trimmed.length) return open < 3 ? 0 : Math.min(6, Math.floor((open - 1) / 2));
  const close = /=+$/.exec(trimmed)?.[0].length ?? 0;
  return Math.min(open, close, 6);
}

export function flatSections(text: string): DiffSection[] {
  // Headings found while inside template braces wait in their frame: a closed call drops them,
  // an unclosed one is flattened into its parent at the end.
  const frames: { count: number; headings: Heading[] }[] = [{ count: 0, headings: [] }];
  const top = () => frames[frames.length - 1]!;
  let i = 0;
  while (i < text.length) {
    const atLineStart = i === 0 || text[i - 1] === '\n';
    if (atLineStart && text[i] === '=') {
      let end = text.indexOf('\n', i);
      if (end < 0) end = text.length;
      // A template call or comment left open on the line continues past it: not a heading line.
      const line = text.slice(i, end);
      let calls = line;
      while (/\{\{[^{}]*\}\}/.test(calls)) calls = calls.replace(/\{\{[^{}]*\}\}/g, '');
      if (!/<!--(?![\s\S]*-->)|\{\{/.test(calls)) {
        const level = headingLevel(line);
        if (level > 0) top().headings.push({ index: i, level, text: line });
        i = end;
        continue;
      }
    }
    if (text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      i = close < 0 ? text.length : close + 3;
      continue;
    }
    if (text[i] === '<') {
      const m = OPAQUE_OPEN.exec(text.slice(i, i + 200));
      if (m) {
        if (m[3] === '/') {
          i += m[0].length;
          continue;
        }
        const closeRe = new RegExp(`</${m[1]}\\s*>`, 'ig');
        closeRe.lastIndex = i + m[0].length;
        const close = closeRe.exec(text);
        // An unclosed <includeonly> hides the rest; other unclosed tags are text.
        if (close) {
          i = close.index + close[0].length;
          continue;
        }
        if (m[1]!.toLowerCase() === 'includeonly') break;
      }
    }
    if (text[i] === '{' || text[i] === '}') {
      let run = 1;
      while (text[i + run] === text[i]) run++;
      if (text[i] === '{' && run >= 2) frames.push({ count: run, headings: [] });
      else if (text[i] === '}') {
        let left = run;
        while (left >= 2 && frames.length > 1) {
          const f = top();
          const matched = left >= 3 && f.count >= 3 ? 3 : 2;
          left -= matched;
          f.count -= matched;
          if (f.count < 2) frames.pop();
        }
      }
      i += run;
      continue;
    }
    i++;
  }
  const headings = frames.flatMap((f) => f.headings).sort((a, b) => a.index - b.index);
  let bytes = 0;
  let pos = 0;
  return headings.map((h) => {
    bytes += Buffer.byteLength(text.slice(pos, h.index));
    pos = h.index;
    return { level: h.level, heading: h.text, offset: bytes };
  });
}
