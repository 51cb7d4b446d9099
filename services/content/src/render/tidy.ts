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
const TABLE_PARTS = new Set(['tr', 'td', 'th', 'tbody', 'thead', 'tfoot', 'caption', 'col', 'colgroup']);
const TOKEN_RE = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][^\s/>]*)[^>]*>|[^<]+|</g;

interface Wrapper {
  /** Index of its `<p>` in the output (emptied if the wrapper is disabled). */
  at: number;
  /** Stack depth of its parent (the body, 0, or a blockquote). */
  baseDepth: number;
  disabled: boolean;
}

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
      if (!counts.get(name)) {
        // A closing tag with nothing to close is dropped (these come from items closed early below).
        if (name === 'p' || name === 'br') out.push(token);
        continue;
      }
      // Close the open elements down to this one (and the wrapper if its base closes).
      while (stack.length > 0) {
        if (wrapper && stack.length === wrapper.baseDepth) closeWrapper();
        const top = stack.pop()!;
        counts.set(top, counts.get(top)! - 1);
        if (bases[bases.length - 1] === stack.length + 1) bases.pop();
        if (top === name) break;
      }
      out.push(token);
      continue;
    }
    // A list item (or dt/dd) closes the open one it follows, unless a block element lies between
    // (HTML's "in body" rule for <li>, <dt>, <dd>; the look-back is bounded).
    const closes = name === 'li' ? LI : name === 'dt' || name === 'dd' ? DT_DD : undefined;
    if (closes && [...closes].some((t) => counts.get(t))) {
      for (let d = stack.length - 1; d >= Math.max(0, stack.length - 64); d--) {
        const open = stack[d]!;
        if (closes.has(open)) {
          while (stack.length > d) {
            if (wrapper && stack.length === wrapper.baseDepth) closeWrapper();
            const top = stack.pop()!;
            counts.set(top, counts.get(top)! - 1);
            if (bases[bases.length - 1] === stack.length + 1) bases.pop();
            out.push(`</${top}>`);
          }
          break;
        }
        if (!INLINE.has(open) && open !== 'address' && open !== 'div' && open !== 'p') break;
      }
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
    stack.push(name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (name === 'blockquote') bases.push(stack.length);
  }
  closeWrapper();
  return out.join('');
}
