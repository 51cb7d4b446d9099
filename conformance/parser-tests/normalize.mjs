/*
 * The comparison of ParserTestRunner::runLegacyTest after ParserTestResultNormalizer's two
 * functions (removeTbody, trimWhitespace), on a DOM: both sides are parsed as an HTML body
 * fragment (domino, an HTML5 tree builder, where MediaWiki's normalizer used an XML DOM of the
 * tidied output) and serialized back, so entity spellings (`&#95;` vs `_`), attribute quoting
 * and void-element slashes do not count; attribute order, element structure and text do.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// Loaded on first use: run.mjs imports this module before it installs conformance's dependencies.
let domino;

/** domino, from conformance/node_modules. */
function dom() {
  domino ??= require('domino');
  return domino;
}

/** The normalized serialization of an HTML fragment. */
export function normalizeHtml(html) {
  const doc = dom().createDocument(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`);
  const body = doc.body;
  // removeTbody: the tbody's children take its place.
  for (const tbody of Array.from(body.getElementsByTagName('tbody'))) {
    while (tbody.firstChild) tbody.parentNode.insertBefore(tbody.firstChild, tbody);
    tbody.parentNode.removeChild(tbody);
  }
  // trimWhitespace: one line break off each end inside <pre>, every other text node trimmed,
  // and emptied text nodes removed.
  const walk = (node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) {
        let data = child.data;
        if (node.nodeName.toLowerCase() === 'pre') {
          if (data.startsWith('\n')) data = data.slice(1);
          if (data.endsWith('\n')) data = data.slice(0, -1);
        } else {
          // PHP's trim(): ASCII whitespace and NUL only (not U+00A0 and the other spaces).
          data = data.replace(/^[ \t\n\r\0\v]+|[ \t\n\r\0\v]+$/g, '');
        }
        if (data === '') node.removeChild(child);
        else child.data = data;
      } else if (child.nodeType === 1) {
        walk(child.nodeName.toLowerCase() === 'template' ? child.content : child);
      }
    }
  };
  walk(body);
  return body.innerHTML;
}

/**
 * Where two normalized strings first differ, as `expected «…» got «…»` with a little context,
 * at most `max` characters: the ratchet's one-line reason.
 */
export function firstDifference(expected, actual, max = 120) {
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  const start = Math.max(0, i - 15);
  const clip = (s) =>
    s
      .slice(start, start + 45)
      .replace(/\s+/g, ' ')
      .replace(/ :: /g, ' : ');
  const text = `at ${i}: expected «${clip(expected)}» got «${clip(actual)}»`;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
