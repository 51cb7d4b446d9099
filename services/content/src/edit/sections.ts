/*
 * Wikitext sections as MediaWiki's Parser::extractSections sees them: a heading is a line that
 * starts and ends with "=" (level = the smaller run, at most 6); section 0 is the text before
 * the first heading, section N runs from the Nth heading to the next heading of the same or a
 * higher level. Headings inside HTML comments, <nowiki> and <pre> do not count. "N" counts the
 * headings as the page itself shows them (inside <includeonly> they do not count); "T-N", the id of
 * a heading that came from a template, counts them as the template is included (the preprocessor's
 * PTD_FOR_INCLUSION: inside <noinclude> they do not count, and with <onlyinclude> only inside it).
 * Templates are not expanded.
 */

interface Heading {
  /** Offset of the heading line's first character. */
  start: number;
  level: number;
}

const HEADING_LINE = /^(={1,6})(.+?)(={1,6})[ \t]*$/;

/** How the headings are counted: as the page shows them, or as it is included ("T-N"). */
type Mode = 'page' | 'inclusion';

function headings(text: string, mode: Mode = 'page'): Heading[] {
  const out: Heading[] = [];
  let inComment = false;
  let inVerbatim = false;
  // The element whose content the mode leaves out (Preprocessor's ignoredElements) and, for an
  // inclusion of a text with <onlyinclude>, whether we are inside one.
  const skipped = mode === 'page' ? 'includeonly' : 'noinclude';
  const onlyInclude = mode === 'inclusion' && /<onlyinclude\s*>/i.test(text);
  let inSkipped = false;
  let inOnly = false;
  let offset = 0;
  for (const line of text.split('\n')) {
    if (!inComment && !inVerbatim && !inSkipped && (!onlyInclude || inOnly)) {
      const m = HEADING_LINE.exec(line);
      if (m) out.push({ start: offset, level: Math.min(m[1]!.length, m[3]!.length) });
    }
    // Track multi-line comments, verbatim blocks and inclusion tags that start or end on this line.
    for (const token of line.matchAll(/<!--|-->|<\/?(?:nowiki|pre|includeonly|noinclude|onlyinclude)\b[^>]*>/gi)) {
      const t = token[0].toLowerCase();
      if (t === '<!--') inComment = true;
      else if (t === '-->') inComment = false;
      else if (inComment) continue;
      else if (/^<\/?(?:nowiki|pre)\b/.test(t)) inVerbatim = !t.startsWith('</') && !t.endsWith('/>');
      else if (inVerbatim) continue;
      else if (t.startsWith(`<${skipped}`) || t.startsWith(`</${skipped}`)) inSkipped = !t.startsWith('</') && !t.endsWith('/>');
      else if (t.startsWith('<onlyinclude') || t.startsWith('</onlyinclude')) inOnly = !t.startsWith('</') && !t.endsWith('/>');
    }
    offset += line.length + 1;
  }
  return out;
}

/** Index of a section id: "3" and "T-3" are 3; undefined for anything else. */
function sectionIndex(id: string): number | undefined {
  const m = /^(?:T-)?(\d+)$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

/** [start, end) of a section in the text, or undefined when it does not exist. */
function sectionRange(text: string, id: string): [number, number] | undefined {
  const index = sectionIndex(id);
  if (index === undefined) return undefined;
  const hs = headings(text, id.startsWith('T-') ? 'inclusion' : 'page');
  if (index === 0) return [0, hs[0]?.start ?? text.length];
  const h = hs[index - 1];
  if (!h) return undefined;
  const next = hs.slice(index).find((x) => x.level <= h.level);
  return [h.start, next?.start ?? text.length];
}

/** The text of a section (heading included, trailing whitespace trimmed), or undefined. */
export function getSection(text: string, id: string): string | undefined {
  if (text === '') return sectionIndex(id) === 0 ? '' : undefined;
  const range = sectionRange(text, id);
  return range ? text.slice(range[0], range[1]).trimEnd() : undefined;
}

/**
 * Replaces a section (WikitextContent::replaceSection): "" or undefined replaces the whole text,
 * "new" appends a section with an optional "== title ==" heading. Undefined when the section
 * does not exist.
 */
export function replaceSection(text: string, id: string | undefined, replacement: string, sectionTitle?: string): string | undefined {
  if (id === undefined || id === '') return replacement;
  if (id === 'new') {
    const subject = sectionTitle !== undefined && sectionTitle !== '' ? `== ${sectionTitle} ==\n\n` : '';
    return text.trim().length > 0 ? `${text}\n\n${subject}${replacement}` : `${subject}${replacement}`;
  }
  if (text === '') return sectionIndex(id) === 0 ? replacement : undefined;
  const range = sectionRange(text, id);
  if (!range) return undefined;
  const inserted = replacement !== '' ? `${replacement}\n\n` : '';
  return (text.slice(0, range[0]) + inserted + text.slice(range[1])).trimEnd();
}

/** Parser::stripSectionName: the plain text of a heading for the "/* … *\/" summary link. */
export function stripSectionName(title: string): string {
  return title
    .replace(/\[\[(?:[^\]|]*\|)?([^\]]*)\]\]/g, '$1')
    .replace(/\[(?:https?:)?\/\/\S+\s+([^\]]*)\]/g, '$1')
    .replace(/<[^>]*>/g, '')
    .trim();
}
