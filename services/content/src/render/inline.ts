/*
 * Line-level wikitext: bold/italic quotes (Parser::doQuotes), horizontal rules, headings,
 * tables (Parser::handleTables) and lists/paragraphs/pre (BlockLevelPass), producing the same
 * HTML shapes as MediaWiki 1.39's legacy parser after tidying.
 */
import { sanitizeAttributes } from './sanitizer.js';

/** Parser::doQuotes for one line. */
export function doQuotesLine(text: string): string {
  const arr = text.split(/(''+)/);
  if (arr.length === 1) return text;
  let numItalics = 0;
  let numBold = 0;
  for (let i = 1; i < arr.length; i += 2) {
    let len = arr[i]!.length;
    if (len === 4) {
      arr[i - 1] += "'";
      arr[i] = "'''";
      len = 3;
    } else if (len > 5) {
      arr[i - 1] += "'".repeat(len - 5);
      arr[i] = "'''''";
      len = 5;
    }
    if (len === 2) numItalics++;
    else if (len === 3) numBold++;
    else if (len === 5) {
      numItalics++;
      numBold++;
    }
  }
  // An odd number of both: one bold is really an apostrophe plus italics.
  if (numItalics % 2 === 1 && numBold % 2 === 1) {
    let firstSingle = -1;
    let firstMulti = -1;
    let firstSpace = -1;
    for (let i = 1; i < arr.length; i += 2) {
      if (arr[i]!.length !== 3) continue;
      const before = arr[i - 1]!;
      const x1 = before.slice(-1);
      const x2 = before.slice(-2, -1);
      if (x1 === ' ') {
        if (firstSpace === -1) firstSpace = i;
      } else if (x2 === ' ') {
        firstSingle = i;
        break;
      } else if (firstMulti === -1) firstMulti = i;
    }
    const pick = firstSingle > -1 ? firstSingle : firstMulti > -1 ? firstMulti : firstSpace;
    if (pick > -1) {
      arr[pick - 1] += "'";
      arr[pick] = "''";
    }
  }
  let out = '';
  let buffer = '';
  let state = '';
  for (let i = 0; i < arr.length; i++) {
    const r = arr[i]!;
    if (i % 2 === 0) {
      if (state === 'both') buffer += r;
      else out += r;
      continue;
    }
    const len = r.length;
    if (len === 2) {
      if (state === 'i') {
        out += '</i>';
        state = '';
      } else if (state === 'bi') {
        out += '</i>';
        state = 'b';
      } else if (state === 'ib') {
        out += '</b></i><b>';
        state = 'b';
      } else if (state === 'both') {
        out += `<b><i>${buffer}</i>`;
        state = 'b';
      } else {
        out += '<i>';
        state += 'i';
      }
    } else if (len === 3) {
      if (state === 'b') {
        out += '</b>';
        state = '';
      } else if (state === 'bi') {
        out += '</i></b><i>';
        state = 'i';
      } else if (state === 'ib') {
        out += '</b>';
        state = 'i';
      } else if (state === 'both') {
        out += `<i><b>${buffer}</b>`;
        state = 'i';
      } else {
        out += '<b>';
        state += 'b';
      }
    } else if (len === 5) {
      if (state === 'b') {
        out += '</b><i>';
        state = 'i';
      } else if (state === 'i') {
        out += '</i><b>';
        state = 'b';
      } else if (state === 'bi') {
        out += '</i></b>';
        state = '';
      } else if (state === 'ib') {
        out += '</b></i>';
        state = '';
      } else if (state === 'both') {
        out += `<i><b>${buffer}</b></i>`;
        state = '';
      } else {
        buffer = '';
        state = 'both';
      }
    }
  }
  if (state === 'b' || state === 'ib') out += '</b>';
  if (state === 'i' || state === 'bi' || state === 'ib') out += '</i>';
  if (state === 'bi') out += '</b>';
  if (state === 'both' && buffer) out += `<b><i>${buffer}</i></b>`;
  return out;
}

export function doQuotes(text: string): string {
  return text.split('\n').map(doQuotesLine).join('\n');
}

/** Parser::handleTables: `{|` … `|}` to HTML tables. */
export function doTables(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  // Per open table: has a row been started, is a cell open (its closing tag), caption open.
  const tdHistory: boolean[] = [];
  const lastTag: string[] = [];
  const trHistory: boolean[] = [];
  const trAttrs: string[] = [];
  const hasOpenedTr: boolean[] = [];
  // Tidy's <tbody>: opened before the first row, after any caption.
  const tbodyOpen: boolean[] = [];
  let indentLevel = 0;
  for (let line of lines) {
    let outLine = line.trim();
    if (outLine === '') {
      out.push(line);
      continue;
    }
    const first = outLine[0];
    const m = /^(:*)\s*\{\|(.*)$/.exec(outLine);
    if (m) {
      indentLevel = m[1]!.length;
      // Transclusion markers (Parsoid mode) moved behind `{|` go back before the table they start.
      const markers = (m[2]!.match(/\x7fT\d+\x7f/g) ?? []).join('');
      const attrs = sanitizeAttributes('table', m[2]!.replace(/\x7fT\d+\x7f/g, ''));
      outLine = `${'<dl><dd>'.repeat(indentLevel)}${markers}<table${attrs}>`;
      tdHistory.push(false);
      lastTag.push('');
      trHistory.push(false);
      trAttrs.push('');
      hasOpenedTr.push(false);
      tbodyOpen.push(false);
      out.push(outLine);
      continue;
    }
    if (tdHistory.length === 0) {
      out.push(line);
      continue;
    }
    if (outLine.startsWith('|}')) {
      line = outLine.slice(2);
      let s = '';
      const td = lastTag.pop()!;
      if (tdHistory.pop()) s += `</${td}>`;
      if (trHistory.pop()) s += '</tr>';
      if (!hasOpenedTr.pop()) s += '<tbody><tr><td></td></tr></tbody>';
      trAttrs.pop();
      s = `${s}${tbodyOpen.pop() ? '</tbody>' : ''}</table>${line}`;
      out.push(s + '</dd></dl>'.repeat(indentLevel));
      indentLevel = 0;
      continue;
    }
    const k = tdHistory.length - 1;
    if (outLine.startsWith('|-')) {
      const attrs = sanitizeAttributes('tr', outLine.replace(/^\|-+/, ''));
      let s = '';
      if (tdHistory[k]) s += `</${lastTag[k]}>`;
      if (trHistory[k]) s += '</tr>';
      trAttrs[k] = attrs;
      // A `|-` counts as a row for `|}` (Parser::handleTables' has_opened_tr), even with no cell after it.
      hasOpenedTr[k] = true;
      trHistory[k] = false;
      tdHistory[k] = false;
      lastTag[k] = '';
      out.push(s);
      continue;
    }
    if (first === '|' || first === '!' || outLine.startsWith('|+')) {
      let rest: string;
      let cells: string[];
      if (outLine.startsWith('|+')) {
        rest = outLine.slice(2);
        cells = [rest];
      } else {
        rest = outLine.slice(1);
        // StringUtils::replaceMarkup: a `!!` inside a tag (an attribute value) divides no cells.
        if (first === '!') rest = rest.replace(/<[^>]*>|!!/g, (m) => (m === '!!' ? '||' : m));
        cells = rest.split('||');
      }
      let s = '';
      const isCaption = outLine.startsWith('|+');
      for (const cell of cells) {
        let prev = '';
        if (!isCaption) {
          if (!trHistory[k]) {
            prev = `${tbodyOpen[k] ? '' : '<tbody>'}<tr${trAttrs[k]}>\n`;
            tbodyOpen[k] = true;
            trHistory[k] = true;
            trAttrs[k] = '';
            hasOpenedTr[k] = true;
          }
        }
        if (tdHistory[k]) prev = `</${lastTag[k]}>\n${prev}`;
        const tag = isCaption ? 'caption' : first === '!' ? 'th' : 'td';
        lastTag[k] = tag;
        tdHistory[k] = true;
        // "attrs | content", unless the first '|' belongs to a link.
        const bar = cell.indexOf('|');
        const linkAt = cell.indexOf('[[');
        if (bar >= 0 && (linkAt === -1 || linkAt > bar)) {
          const attrs = sanitizeAttributes(tag, cell.slice(0, bar));
          s += `${prev}<${tag}${attrs}>${cell.slice(bar + 1).trim()}`;
        } else s += `${prev}<${tag}>${cell.trim()}`;
      }
      if (isCaption && tdHistory[k]) {
        /* caption stays open until the next line closes it */
      }
      out.push(s);
      continue;
    }
    out.push(line);
  }
  // Unclosed tables are closed at the end.
  const closedAtEnd = tdHistory.length > 0;
  while (tdHistory.length) {
    let s = '';
    const td = lastTag.pop()!;
    if (tdHistory.pop()) s += `</${td}>\n`;
    if (trHistory.pop()) s += '</tr>';
    if (!hasOpenedTr.pop()) s += '<tbody><tr><td></td></tr></tbody>';
    out.push(`${s}${tbodyOpen.pop() ? '</tbody>' : ''}</table>`);
  }
  const html = out.join('\n');
  // Parser::handleTables: a text that is only an unclosed empty table ({||}) renders nothing.
  return closedAtEnd && html === '<table>\n<tbody><tr><td></td></tr></tbody></table>' ? '' : html;
}

/** PHP's trim(): only ASCII whitespace and NUL, so a line of no-break spaces is not blank. */
function phpTrim(s: string): string {
  const ws = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\0' || c === '\x0B';
  let a = 0;
  let b = s.length;
  while (a < b && ws(s[a])) a++;
  while (b > a && ws(s[b - 1])) b--;
  return s.slice(a, b);
}

/**
 * BlockLevelPass (MediaWiki 1.39, ported line by line): lists from line prefixes (*, #, :, ;),
 * <p> around paragraphs, <pre> for lines starting with a space, nothing around block HTML.
 */
class BlockLevels {
  constructor(private readonly parsoid: boolean) {}

  private lastParagraph = '';
  private dtOpen = false;
  private inPre = false;

  private closeParagraph(atTheEnd = false): string {
    let r = '';
    if (this.lastParagraph) r = `</${this.lastParagraph}>${atTheEnd ? '' : '\n'}`;
    this.lastParagraph = '';
    return r;
  }

  private openList(c: string): string {
    let r = this.closeParagraph();
    if (c === '*') r += '<ul><li>';
    else if (c === '#') r += '<ol><li>';
    else if (c === ':') r += '<dl><dd>';
    else {
      r += '<dl><dt>';
      this.dtOpen = true;
    }
    return r;
  }

  private nextItem(c: string): string {
    if (c === '*' || c === '#') return '</li>\n<li>';
    const close = this.dtOpen ? '</dt>\n' : '</dd>\n';
    if (c === ';') {
      this.dtOpen = true;
      return `${close}<dt>`;
    }
    this.dtOpen = false;
    return `${close}<dd>`;
  }

  private closeList(c: string): string {
    if (c === '*') return '</li></ul>';
    if (c === '#') return '</li></ol>';
    if (this.dtOpen) {
      this.dtOpen = false;
      return '</dt></dl>';
    }
    return '</dd></dl>';
  }

  run(text: string): string {
    const lines = text.split('\n');
    let lastPrefix = '';
    let output = '';
    let inBlockElem = false;
    let prefixLength = 0;
    let prefix2 = '';
    let pendingPTag: string | false = false;
    let inBlockquote = false;
    for (let n = 0; n < lines.length; n++) {
      const inputLine = lines[n]!;
      const notLastLine = n !== lines.length - 1;
      let lastPrefixLength = lastPrefix.length;
      const preCloseMatch = /<\/pre/i.test(inputLine);
      const preOpenMatch = /<pre/i.test(inputLine);
      let prefix: string;
      let t: string;
      if (!this.inPre) {
        prefixLength = /^[*#:;]*/.exec(inputLine)![0].length;
        prefix = inputLine.slice(0, prefixLength);
        prefix2 = prefix.replaceAll(';', ':');
        t = inputLine.slice(prefixLength);
        this.inPre = preOpenMatch;
      } else {
        prefixLength = 0;
        prefix = prefix2 = '';
        t = inputLine;
      }
      if (prefixLength && lastPrefix === prefix2) {
        output += this.nextItem(prefix.slice(-1));
        pendingPTag = false;
        if (prefix.endsWith(';')) {
          const colon = findColonNoLinks(t);
          if (colon >= 0) {
            output += t.slice(0, colon).trim() + this.nextItem(':');
            t = t.slice(colon + 1);
          }
        }
      } else if (prefixLength || lastPrefixLength) {
        let common = 0;
        // The raw prefix against the last one with `;` as `:` (BlockLevelPass::getCommon): `;` after `;` opens a new list.
        while (common < prefix.length && common < lastPrefix.length && prefix[common] === lastPrefix[common]) common++;
        pendingPTag = false;
        while (common < lastPrefixLength) {
          output += this.closeList(lastPrefix[lastPrefixLength - 1]!);
          --lastPrefixLength;
        }
        if (prefixLength <= common && common > 0) output += this.nextItem(prefix[common - 1]!);
        if (this.dtOpen && common > 0 && prefix[common - 1] === ':') output += this.nextItem(':');
        if (lastPrefix && prefixLength > common) output += '\n';
        while (prefixLength > common) {
          const c = prefix[common]!;
          output += this.openList(c);
          if (c === ';') {
            const colon = findColonNoLinks(t);
            if (colon >= 0) {
              output += t.slice(0, colon).trim() + this.nextItem(':');
              t = t.slice(colon + 1);
            }
          }
          ++common;
        }
        if (!prefixLength && lastPrefix) output += '\n';
        lastPrefix = prefix2;
      }
      if (prefixLength === 0) {
        // BlockLevelPass's two patterns: an opening block tag (or a row, cell end, list item) ends
        // the paragraph and starts a block, in which blank lines make no paragraphs until a closing one.
        const openMatch = /<(?:(?:table|h[1-6]|pre|p|ul|ol|dl)|\/(?:td|th)|\/?(?:tr|caption|dt|dd|li))\b|<section\b/i.test(t);
        const closeMatch =
          /<(?:\/(?:table|h[1-6]|pre|p|ul|ol|dl)|(?:td|th)|\/?(?:center|blockquote|div|hr|aside|figure))\b|<\/section\b|\x7fUNIQ\d+QINU\x7f-pre/i.test(t) ||
          // An unused __TOC__ mark, as MediaWiki's <mw:tocplace> placeholder (a `<mw:` tag).
          t.includes('\x7fTOC\x7f');
        if (openMatch || closeMatch) {
          pendingPTag = false;
          output += this.closeParagraph();
          if (preOpenMatch && !preCloseMatch) this.inPre = true;
          for (const bq of t.matchAll(/<(\/?)blockquote[\s>]/gi)) inBlockquote = !bq[1];
          inBlockElem = !closeMatch;
        } else if (!inBlockElem && !this.inPre) {
          if (t.startsWith(' ') && (this.lastParagraph === 'pre' || phpTrim(t) !== '') && !inBlockquote) {
            if (this.lastParagraph !== 'pre') {
              pendingPTag = false;
              output += `${this.closeParagraph()}<pre>`;
              this.lastParagraph = 'pre';
            }
            t = t.slice(1);
          } else if (/^(?:<style\b[^>]*>.*?<\/style>\s*|<link\b[^>]*>\s*)+$/i.test(t)) {
            if (pendingPTag) {
              output += this.closeParagraph();
              pendingPTag = false;
            }
          } else if (phpTrim(t) === '' && this.parsoid) {
            // Parsoid keeps blank lines as whitespace between blocks; no empty paragraphs.
            output += `${this.closeParagraph()}\n`;
            pendingPTag = false;
            continue;
          } else if (phpTrim(t) === '') {
            if (pendingPTag) {
              output += `${pendingPTag}<br />`;
              pendingPTag = false;
              this.lastParagraph = 'p';
            } else if (this.lastParagraph !== 'p') {
              output += this.closeParagraph();
              pendingPTag = '<p>';
            } else pendingPTag = '</p><p>';
          } else if (pendingPTag) {
            output += pendingPTag;
            pendingPTag = false;
            this.lastParagraph = 'p';
          } else if (this.lastParagraph !== 'p') {
            output += `${this.closeParagraph()}<p>`;
            this.lastParagraph = 'p';
          }
        }
      }
      if (preCloseMatch && this.inPre) this.inPre = false;
      if (pendingPTag === false) {
        if (prefixLength === 0) {
          output += t;
          if (notLastLine || this.lastParagraph) output += '\n';
        } else output += t.trim();
      }
    }
    while (prefixLength) {
      output += this.closeList(prefix2[prefixLength - 1]!);
      --prefixLength;
      if (!prefixLength) output += '\n';
    }
    if (this.lastParagraph) output += `</${this.lastParagraph}>`;
    return output;
  }
}

export function doBlockLevels(text: string, opts: { parsoid: boolean }): string {
  const out = new BlockLevels(opts.parsoid).run(text);
  // Legacy output keeps "text\n</p>"; Parsoid has "text</p>".
  return opts.parsoid ? out.replace(/\n<\/p>/g, '</p>').replace(/<p><br \/><\/p>/g, '') : out;
}

/** The first ':' of a `;term:definition` line that is not inside a link or tag. */
/**
 * BlockLevelPass::findColonNoLinks: the colon ending a `;` term, not one inside a tag's
 * attributes, an element (a link's <a>…</a>, <b>…</b>), a comment or -{ }- markup.
 */
function findColonNoLinks(s: string): number {
  type State = 'text' | 'tagstart' | 'tag' | 'tagslash' | 'closetag' | 'comment' | 'commentdash' | 'commentdashdash' | 'lc';
  let state: State = 'text';
  let ltLevel = 0;
  let lcLevel = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    switch (state) {
      case 'text':
        if (c === '<') state = 'tagstart';
        else if (c === ':') {
          if (ltLevel === 0) return i;
        } else if (c === '-' && s[i + 1] === '{') {
          state = 'lc';
          lcLevel++;
          i++;
        }
        break;
      case 'lc':
        if (c === '-' && s[i + 1] === '{') {
          lcLevel++;
          i++;
        } else if (c === '}' && s[i + 1] === '-') {
          i++;
          if (--lcLevel === 0) state = 'text';
        }
        break;
      case 'tag':
        if (c === '>') {
          ltLevel++;
          state = 'text';
        } else if (c === '/') state = 'tagslash';
        break;
      case 'tagstart':
        state = c === '/' ? 'closetag' : c === '!' ? 'comment' : c === '>' ? 'text' : 'tag';
        break;
      case 'closetag':
        if (c === '>') {
          // An excess closing tag is ignored.
          if (ltLevel > 0) ltLevel--;
          state = 'text';
        }
        break;
      case 'tagslash':
        // A self-closed <tag/>, or a slash inside an attribute.
        state = c === '>' ? 'text' : 'tag';
        break;
      case 'comment':
        if (c === '-') state = 'commentdash';
        break;
      case 'commentdash':
        state = c === '-' ? 'commentdashdash' : 'comment';
        break;
      case 'commentdashdash':
        state = c === '>' ? 'text' : 'comment';
        break;
    }
  }
  return -1;
}
