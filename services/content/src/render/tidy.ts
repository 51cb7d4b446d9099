/*
 * The paragraph wrapping MediaWiki's tidying adds (RemexCompatMunger): inline content left
 * directly in the page body or in a <blockquote> by the paragraph pass (text or inline elements
 * around a block tag on one line, "a <div>x</div>") is wrapped in a <p>, closed at the next block
 * element or at the end of its parent; table parts outside any table are dropped, as an HTML
 * parser does. One scan over the tags, linear in the HTML.
 */

// RemexCompatMunger::$onlyInlineElements.
const INLINE = new Set(
  'a abbr acronym applet b basefont bdo big br button cite code del dfn em font i iframe img input ins kbd label legend map object param q rb rbc rp rt rtc ruby s samp select small span strike strong sub sup textarea tt u var video audio bdi data time mark'.split(
    ' ',
  ),
);
// Allowed in both inline and block context.
const METADATA = new Set(['style', 'script', 'link', 'meta']);
const VOID = new Set(['br', 'wbr', 'hr', 'img', 'link', 'meta', 'input', 'source', 'track', 'area', 'col', 'embed', 'param', 'base']);
const LI = new Set(['li']);
const DT_DD = new Set(['dt', 'dd']);
const CELLS = new Set(['td', 'th']);
const ROWS = new Set(['tr']);
const ROW_GROUPS = new Set(['tbody', 'thead', 'tfoot']);
const TABLE_PARTS = new Set(['tr', 'td', 'th', 'tbody', 'thead', 'tfoot', 'caption', 'col', 'colgroup']);
const TOKEN_RE = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][^\s/>]*)[^>]*>|[^<]+|</g;

interface Wrapper {
  /** Index of its `<p>` in the output (emptied if the wrapper is disabled). */
  at: number;
  /** Stack depth of its parent (the body, 0, or a blockquote). */
  baseDepth: number;
  disabled: boolean;
}

/** How far back a closing or auto-closing tag looks for its element (bounds the work per tag). */
const LOOK_BACK = 256;
// HTML's "has an element in scope" boundaries (default scope; list items add ul/ol; table parts use table scope).
const SCOPE = new Set(['html', 'table', 'td', 'th', 'caption', 'marquee', 'object', 'applet', 'template']);
const TABLE_SCOPE = new Set(['html', 'table', 'template']);
const LIST_SCOPE = new Set([...SCOPE, 'ul', 'ol']);

export function pWrap(html: string): string {
  const out: string[] = [];
  // Open elements below the body; a wrapper is not on it (it is always the innermost base child).
  const stack: string[] = [];
  const counts = new Map<string, number>();
  // Depths of the open elements that need wrapping: the body (0) and blockquotes.
  const bases: number[] = [0];
  let wrapper: Wrapper | undefined;

  const closeWrapper = () => {
    if (!wrapper) return;
    if (!wrapper.disabled) out.push('</p>');
    wrapper = undefined;
  };
  const openWrapper = () => {
    out.push('<p>');
    wrapper = { at: out.length - 1, baseDepth: stack.length, disabled: false };
  };
  const atBase = () => stack.length === bases[bases.length - 1];
  const push = (name: string) => {
    stack.push(name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (name === 'blockquote') bases.push(stack.length);
  };
  /** Closes the open elements down to depth `d` (exclusive), writing their end tags as a serializer would. */
  const popTo = (d: number) => {
    while (stack.length > d) {
      if (wrapper && stack.length === wrapper.baseDepth) closeWrapper();
      const top = stack.pop()!;
      counts.set(top, counts.get(top)! - 1);
      if (bases[bases.length - 1] === stack.length + 1) bases.pop();
      out.push(`</${top}>`);
    }
  };
  /** Depth of the nearest open element in `names`, not crossing `boundary` (nor, when `inlineOnly`, anything not inline); -1 if none. */
  const find = (names: Set<string>, boundary: Set<string>, inlineOnly = false): number => {
    if (![...names].some((t) => counts.get(t))) return -1;
    for (let d = stack.length - 1; d >= Math.max(0, stack.length - LOOK_BACK); d--) {
      const open = stack[d]!;
      if (names.has(open)) return d;
      if (boundary.has(open) || (inlineOnly && !INLINE.has(open))) return -1;
    }
    return -1;
  };

  for (const m of html.matchAll(TOKEN_RE)) {
    const token = m[0];
    const name = m[2]?.toLowerCase();
    if (name === undefined) {
      // Text (or a comment, or a stray "<"): bare non-blank text under a base is wrapped.
      if (!token.startsWith('<!--') && atBase() && !wrapper && /[^\t\n\f\r ]/.test(token)) openWrapper();
      out.push(token);
      continue;
    }
    // Table parts outside any table are dropped by HTML parsing ("in body" mode), their content kept.
    if (TABLE_PARTS.has(name) && !counts.get('table')) continue;
    if (m[1] === '/') {
      // An end tag closes its element and what is open inside it, if that element is in scope;
      // otherwise it is ignored (a closing tag with nothing to close, as after an early-closed item).
      const one = new Set([name]);
      const d = INLINE.has(name) ? find(one, SCOPE, true) : find(one, name === 'li' ? LIST_SCOPE : TABLE_PARTS.has(name) ? TABLE_SCOPE : SCOPE);
      if (d < 0) {
        if (name === 'p' || name === 'br') out.push(token);
        continue;
      }
      popTo(d + 1);
      if (wrapper && stack.length === wrapper.baseDepth) closeWrapper();
      const top = stack.pop()!;
      counts.set(top, counts.get(top)! - 1);
      if (bases[bases.length - 1] === stack.length + 1) bases.pop();
      out.push(token);
      continue;
    }
    // An item closes the open one it follows (li; dt/dd), unless a block lies between; a cell
    // closes the open cell, a row the open row, in their table (HTML's "in body"/"in table" rules).
    if (name === 'li' || name === 'dt' || name === 'dd') {
      const closes = name === 'li' ? LI : DT_DD;
      for (let d = stack.length - 1; d >= Math.max(0, stack.length - 64); d--) {
        const open = stack[d]!;
        if (closes.has(open)) {
          popTo(d);
          break;
        }
        if (!INLINE.has(open) && open !== 'address' && open !== 'div' && open !== 'p') break;
      }
    } else if (name === 'td' || name === 'th') {
      const d = find(CELLS, TABLE_SCOPE);
      if (d >= 0) popTo(d);
      // A cell directly in a table or a row group gets its row (and the table its tbody).
      if (stack[stack.length - 1] === 'table') {
        out.push('<tbody>');
        push('tbody');
      }
      if (ROW_GROUPS.has(stack[stack.length - 1]!)) {
        out.push('<tr>');
        push('tr');
      }
    } else if (name === 'tr') {
      const d = find(ROWS, TABLE_SCOPE);
      if (d >= 0) popTo(d);
      if (stack[stack.length - 1] === 'table') {
        out.push('<tbody>');
        push('tbody');
      }
    } else if (ROW_GROUPS.has(name)) {
      const d = find(ROW_GROUPS, TABLE_SCOPE);
      if (d >= 0) popTo(d);
    }
    if (!METADATA.has(name)) {
      const inline = INLINE.has(name);
      if (atBase()) {
        if (inline && !wrapper) openWrapper();
        else if (!inline) closeWrapper();
      } else if (!inline && wrapper && stack.length > wrapper.baseDepth) {
        // A block inside inline content of a wrapper: the wrapper is dropped (Remex's CU/b).
        wrapper.disabled = true;
        out[wrapper.at] = '';
      }
    }
    out.push(token);
    if (VOID.has(name) || token.endsWith('/>')) continue;
    push(name);
  }
  closeWrapper();
  return out.join('');
}
