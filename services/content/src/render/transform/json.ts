/*
 * The JSON content model in Parsoid's form (Parsoid's Ext/JSON content model handler): a JSON
 * document is shown as nested `mw-json` tables (wt2html with contentmodel=json) and such a table is
 * read back into JSON text (html2wt with contentmodel=json). The quirks are Parsoid's own: the
 * root array is wrapped in a one-row array table, JSON nested deeper than PHP's json_decode depth
 * of 6 is a `bad-json` error table, and the text comes back as PHP's json_encode writes it
 * (objects with keys 0..n-1 and empty objects are arrays there).
 */
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** The error table Parsoid renders for text that is not JSON. */
const PARSE_ERROR_HTML = `<table typeof="mw:Error" data-mw='{"errors":[{"key":"bad-json"}]}'></table>`;

/** json_decode's default depth limit as Parsoid passes it: nesting beyond it fails to decode. */
const MAX_DEPTH = 6;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Nesting depth as json_decode counts it (a scalar is depth 1... an array of scalars 2). */
function depthOf(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depthOf));
  if (v !== null && typeof v === 'object') return 1 + Math.max(0, ...Object.values(v).map(depthOf));
  return 0;
}

function primitiveCell(v: unknown, extraClass: string): string {
  const [cls, text] =
    v === null ? ['mw-json-null', 'null'] : typeof v === 'boolean' ? ['mw-json-boolean', String(v)] : typeof v === 'number' ? ['mw-json-number', String(v)] : ['mw-json-string', String(v)];
  return `<td class="${extraClass}${cls}">${escapeHtml(text)}</td>`;
}

const EMPTY_ROW = '<tr><td class="mw-json-empty"></td></tr>';

function valueCell(v: unknown): string {
  if (Array.isArray(v)) return `<td>${arrayTable(v)}</td>`;
  if (v !== null && typeof v === 'object') return `<td>${objectTable(v as Record<string, unknown>)}</td>`;
  return primitiveCell(v, 'value ');
}

function arrayTable(items: unknown[]): string {
  const rows = items.length > 0 ? items.map((v) => `<tr>${valueCell(v)}</tr>`).join('') : EMPTY_ROW;
  return `<table class="mw-json mw-json-array"><tbody>${rows}</tbody></table>`;
}

function objectTable(obj: Record<string, unknown>): string {
  const entries = Object.entries(obj);
  const rows = entries.length > 0 ? entries.map(([k, v]) => `<tr><th>${escapeHtml(k.slice(KEY_MARK.length))}</th>${valueCell(v)}</tr>`).join('') : EMPTY_ROW;
  return `<table class="mw-json mw-json-object"><tbody>${rows}</tbody></table>`;
}

/**
 * Prefixed to every object key while parsing: JavaScript objects list integer-like keys first,
 * PHP's decoded objects keep the text's order, and no marked key is integer-like.
 */
const KEY_MARK = '\u0001';

/**
 * Marks the keys of JSON text: string literals are matched one after the other from the start (so
 * each match begins at a real opening quote), and one followed by `:` is a key.
 */
function markKeys(text: string): string {
  const colon = /\s*:/y;
  return text.replace(/"(?:[^"\\]|\\.)*"/g, (literal: string, at: number) => {
    colon.lastIndex = at + literal.length;
    return colon.test(text) ? `"\\u0001${literal.slice(1)}` : literal;
  });
}

/** The body content Parsoid renders for a JSON page's text. */
export function jsonToParsoidBody(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(markKeys(text));
  } catch {
    return PARSE_ERROR_HTML;
  }
  if (depthOf(value) > MAX_DEPTH - 1) return PARSE_ERROR_HTML;
  if (Array.isArray(value)) return arrayTable([value]);
  if (value !== null && typeof value === 'object') return objectTable(value as Record<string, unknown>);
  return `<table class="mw-json mw-json-single-value"><tbody><tr>${primitiveCell(value, '')}</tr></tbody></table>`;
}

/** A JSON value read from the tables, objects as ordered entries (PHP arrays keep insertion order). */
type JsonValue = null | boolean | number | string | JsonValue[] | { entries: [string, JsonValue][] };

const isElement = (n: Node | undefined): n is Element => n !== undefined && 'tagName' in n;
const classesOf = (e: Element) => (e.attrs.find((a) => a.name === 'class')?.value ?? '').split(/\s+/);
const textOf = (n: Node): string => (n.nodeName === '#text' ? (n as DefaultTreeAdapterMap['textNode']).value : 'childNodes' in n ? n.childNodes.map(textOf).join('') : '');

/** A table's rows (through its tbody), or none when it is the empty marker row. */
function rowsOf(table: Element): Element[] {
  const first = table.childNodes[0];
  const body = isElement(first) && first.tagName === 'tbody' ? first : table;
  const rows = body.childNodes.filter(isElement);
  const firstCell = rows[0]?.childNodes[0];
  return isElement(firstCell) && classesOf(firstCell).includes('mw-json-empty') ? [] : rows;
}

/** PHP floatval: the leading number of the text, 0 when there is none. */
function floatval(text: string): number {
  const m = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text);
  return m ? Number(m[0]) : 0;
}

function primitiveFrom(cell: Element): JsonValue {
  const cls = classesOf(cell);
  if (cls.includes('mw-json-null')) return null;
  if (cls.includes('mw-json-boolean')) return textOf(cell).includes('true');
  if (cls.includes('mw-json-number')) return floatval(textOf(cell));
  if (cls.includes('mw-json-string')) return textOf(cell);
  return null;
}

function cellFrom(cell: Element | undefined): JsonValue {
  if (!cell) return null;
  const inner = cell.childNodes[0];
  if (isElement(inner)) {
    if (classesOf(inner).includes('mw-json-array')) return arrayFrom(inner);
    if (classesOf(inner).includes('mw-json-object')) return objectFrom(inner);
    return null;
  }
  return primitiveFrom(cell);
}

function arrayFrom(table: Element): JsonValue[] {
  return rowsOf(table).map((tr) => cellFrom(tr.childNodes.find(isElement)));
}

function objectFrom(table: Element): JsonValue {
  const entries = new Map<string, JsonValue>();
  for (const tr of rowsOf(table)) {
    const [keyCell, valueCell] = tr.childNodes.filter(isElement);
    if (keyCell) entries.set(textOf(keyCell), cellFrom(valueCell));
  }
  return { entries: [...entries] };
}

/** PHP's json_encode with Parsoid's flags (unescaped slashes and Unicode, U+2028/9 escaped). */
function encode(v: JsonValue): string {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new RangeError('JSON encoding failed.');
    return JSON.stringify(v)
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
  }
  if (Array.isArray(v)) return `[${v.map(encode).join(',')}]`;
  // A PHP array whose keys are 0..n-1 in order (or that is empty) is a JSON list.
  if (v.entries.every(([k], i) => k === String(i))) return `[${v.entries.map(([, x]) => encode(x)).join(',')}]`;
  return `{${v.entries.map(([k, x]) => `${encode(k)}:${encode(x)}`).join(',')}}`;
}

/** The JSON text of a Parsoid JSON document (its body's first element must be the table). */
export function jsonFromParsoidHtml(html: string): string {
  const doc = parse(html);
  const htmlEl = doc.childNodes.find(isElement);
  const body = htmlEl?.childNodes.find((n): n is Element => isElement(n) && n.tagName === 'body');
  const table = body?.childNodes[0];
  if (!isElement(table) || table.tagName !== 'table') throw new TypeError('Expected tagName = table');
  const cls = classesOf(table);
  if (cls.includes('mw-json-single-value')) {
    const cell = rowsOf(table)[0]?.childNodes.find(isElement);
    return encode(cell ? primitiveFrom(cell) : null);
  }
  if (cls.includes('mw-json-array')) return encode(arrayFrom(table)[0] ?? null);
  if (!cls.includes('mw-json-object')) throw new TypeError('Expected mw-json-object');
  return encode(objectFrom(table));
}
