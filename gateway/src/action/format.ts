/*
 * Output formats of the action API (MediaWiki's ApiFormat* printers): json, jsonfm, rawfm, xml,
 * php, none. Each is declared as a 'format' module with its real parameters (for validation,
 * help and paraminfo) and prints a result after the ApiResult transformations of its format.
 */
import { STATUS_CODES } from 'node:http';
import type { ModuleDecl, Params, ParamDecl } from './types.js';
import { META } from './types.js';
import { PhpArray, transformResult, isMetadataKey, type PhpKey, type PhpValue, type Transforms } from './result.js';
import { escapeHtml, message } from './errors.js';
import type { ApiMessage } from './types.js';

export interface PrintRequest {
  /** The final result (warnings, module output or error), with META keys. */
  result: unknown;
  params: Params;
  /** Status the response would have; *fm formats print it instead of sending it. */
  httpStatus: number;
  posted: boolean;
  /** Query parameters in request order, for the jsonfm link to the non-HTML format. */
  query: readonly [string, string][];
  scriptUrl: string;
  sitename: string;
}

export interface Printed {
  contentType: string;
  filename: string;
  body: string;
  /** *fm formats always answer 200 (they display the intended status). */
  httpStatus: number;
}

export interface FormatModuleDecl extends ModuleDecl {
  group: 'format';
  /** formatversion as the format reads it (1 for formats without the parameter). */
  formatVersion(params: Params): 1 | 2;
  /** Warnings the printer raises about its own parameters (e.g. xslt disabled). */
  warnings(params: Params): ApiMessage[];
  print(req: PrintRequest): Printed;
}

const FORMATVERSION: ParamDecl = {
  type: ['1', '2', 'latest'],
  default: '1',
  help: 'Output formatting: 1 is the backwards-compatible format (XML-style booleans, * keys for content nodes, etc.), 2 the modern format, latest the latest format (currently 2), which may change without warning.',
};
const WRAPPEDHTML: ParamDecl = {
  type: 'boolean',
  help: 'Return the pretty-printed HTML and associated ResourceLoader modules as a JSON object.',
};
const JSON_PARAMS: Record<string, ParamDecl> = {
  callback: {
    type: 'string',
    help: 'If specified, wraps the output into a given function call. For safety, all user-specific data will be restricted.',
  },
  utf8: {
    type: 'boolean',
    help: 'If specified, encodes most (but not all) non-ASCII characters as UTF-8 instead of replacing them with hexadecimal escape sequences. Default when formatversion is not 1.',
  },
  ascii: {
    type: 'boolean',
    help: 'If specified, encodes all non-ASCII using hexadecimal escape sequences. Default when formatversion is 1.',
  },
  formatversion: FORMATVERSION,
};

function fvOf(params: Params): 1 | 2 {
  return params.formatversion === '2' || params.formatversion === 'latest' ? 2 : 1;
}

/* ---------------------------------------------------------------- JSON */

function jsonString(s: string, asciiOnly: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff) || (asciiOnly && c > 0x7e)) {
      // PHP escapes with lower-case hex, astral characters as surrogate pairs.
      for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

function isList(a: PhpArray): boolean {
  return !a.asObject && a.entries.every(([k], i) => k === i);
}

/** PHP json_encode with FormatJson's options (unescaped slashes; pretty = 4-space indent). */
export function encodeJson(value: PhpValue, opts: { pretty: boolean; asciiOnly: boolean }, depth = 0): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'string') return jsonString(value, opts.asciiOnly);
  const list = isList(value);
  const [open, close] = list ? ['[', ']'] : ['{', '}'];
  if (value.entries.length === 0) return open + close;
  const nl = opts.pretty ? `\n${'    '.repeat(depth + 1)}` : '';
  const items = value.entries.map(([k, v]) => (list ? '' : jsonString(String(k), opts.asciiOnly) + (opts.pretty ? ': ' : ':')) + encodeJson(v, opts, depth + 1));
  return open + nl + items.join(`,${nl}`) + (opts.pretty ? `\n${'    '.repeat(depth)}` : '') + close;
}

/* ---------------------------------------------------------------- XML */

const NAME_START =
  'A-Za-z\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2FF}\\u{370}-\\u{37D}\\u{37F}-\\u{1FFF}\\u{200C}-\\u{200D}\\u{2070}-\\u{218F}\\u{2C00}-\\u{2FEF}\\u{3001}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFFD}\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = `${NAME_START}_\\-.0-9\\u{B7}\\u{300}-\\u{36F}\\u{203F}-\\u{2040}`;
const XML_NAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`, 'u');
const XML_NOT_NAME_CHAR = new RegExp(`[^${NAME_CHAR}]`, 'gu');

/** ApiFormatXml::mangleName: invalid XML names become `_` + escaped characters. */
function mangleName(name: PhpKey, preserve: readonly string[]): string {
  const n = String(name);
  if (preserve.includes(n)) return n;
  if (n === '') return '_';
  if (XML_NAME.test(n)) return n;
  return `_${n.replace(/\./g, '.2E.').replace(XML_NOT_NAME_CHAR, (c) => `.${c.codePointAt(0)!.toString(16).toUpperCase()}.`)}`;
}

function xmlAttr(v: string): string {
  return escapeHtml(v).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function scalarString(v: PhpValue): string {
  if (typeof v === 'boolean') return v ? '1' : '';
  return v === null ? '' : String(v);
}

/** Xml::element: `contents` null = open tag only; '' = self-closing. */
function xmlElement(name: string, attrs: Map<string, string>, contents: string | null = ''): string {
  let out = `<${name}`;
  for (const [k, v] of attrs) out += ` ${k}="${xmlAttr(v)}"`;
  if (contents === null) return `${out}>`;
  if (contents === '') return `${out} />`;
  return `${out}>${contents.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</${name}>`;
}

function metaList(a: PhpArray, key: string): string[] {
  const v = a.get(key);
  return v instanceof PhpArray ? v.entries.map(([, x]) => String(x)) : [];
}

function contentWrapper(v: PhpValue): PhpArray {
  return new PhpArray([
    ['content', v],
    [META.CONTENT, 'content'],
    [META.TYPE, 'assoc'],
  ]);
}

/** Port of ApiFormatXml::recXmlPrint. */
function recXmlPrint(name: string | null, value: PhpValue, indent: number | null, attributesIn: Map<string, string> = new Map()): string {
  const attributes = new Map(attributesIn);
  let ind = indent;
  if (ind !== null && name !== null) ind += 2;
  const indstr = ind !== null ? `\n${' '.repeat(ind)}` : '';
  let out = '';
  if (!(value instanceof PhpArray)) {
    return indstr + xmlElement(name!, attributes, scalarString(value));
  }
  const contentKey = String(value.get(META.CONTENT) ?? '*');
  const subelementKeys = [...metaList(value, META.SUBELEMENTS), ...metaList(value, META.BC_SUBELEMENTS)];
  const preserve = metaList(value, META.PRESERVE_KEYS);
  const tag = value.get(META.INDEXED_TAG_NAME);
  const indexedTagName = tag !== undefined ? mangleName(String(tag), preserve) : '_v';
  const bcBools = metaList(value, META.BC_BOOLS);
  const type = value.get(META.TYPE);
  const indexSubelements = type !== undefined && type !== 'array';

  let content: PhpValue | undefined;
  const subelements = new Map<string, PhpValue>();
  const indexed: [number, PhpValue][] = [];
  for (const [k, v0] of value.entries) {
    if (isMetadataKey(k) && !preserve.includes(k as string)) continue;
    let v = v0;
    if (typeof v === 'boolean' && !bcBools.includes(String(k))) v = v ? 'true' : 'false';
    if (name !== null && k === contentKey) content = v;
    else if (typeof k === 'number') indexed.push([k, v]);
    else if (v instanceof PhpArray) subelements.set(mangleName(k, preserve), v);
    else if (subelementKeys.includes(k) || name === null) subelements.set(mangleName(k, preserve), contentWrapper(v));
    else if (typeof v0 === 'boolean') {
      if (v0) attributes.set(mangleName(k, preserve), '');
    } else if (v !== null) attributes.set(mangleName(k, preserve), scalarString(v));
  }

  if (content !== undefined && content !== null) {
    if (subelements.size > 0 || indexed.length > 0) {
      subelements.set(mangleName(contentKey, preserve), contentWrapper(content));
      content = undefined;
    } else if (!(content instanceof PhpArray) && !attributes.has('xml:space')) {
      attributes.set('xml:space', 'preserve');
    }
  }

  if (content !== undefined && content !== null) {
    if (!(content instanceof PhpArray)) {
      out += indstr + xmlElement(name!, attributes, scalarString(content));
    } else {
      if (name !== null) out += indstr + xmlElement(name, attributes, null);
      out += recXmlPrint(null, content, ind);
      if (name !== null) out += `${indstr}</${name}>`;
    }
  } else if (indexed.length === 0 && subelements.size === 0) {
    if (name !== null) out += indstr + xmlElement(name, attributes);
  } else {
    if (name !== null) out += indstr + xmlElement(name, attributes, null);
    for (const [k, v] of subelements) out += recXmlPrint(k, v, ind);
    for (const [k, v] of indexed) {
      out += recXmlPrint(indexedTagName, v, ind, indexSubelements ? new Map([['_idx', String(k)]]) : new Map());
    }
    if (name !== null) out += `${indstr}</${name}>`;
  }
  return out;
}

/* ---------------------------------------------------------------- PHP */

/** PHP serialize(). */
export function phpSerialize(v: PhpValue): string {
  if (v === null) return 'N;';
  if (typeof v === 'boolean') return `b:${v ? 1 : 0};`;
  if (typeof v === 'number') return Number.isInteger(v) ? `i:${v};` : `d:${v};`;
  if (typeof v === 'string') return `s:${Buffer.byteLength(v, 'utf8')}:"${v}";`;
  const body = v.entries.map(([k, x]) => (typeof k === 'number' ? `i:${k};` : phpSerialize(k)) + phpSerialize(x)).join('');
  return `a:${v.entries.length}:{${body}}`;
}

/* ---------------------------------------------------------------- HTML (…fm) */

function nonHtmlUrl(req: PrintRequest, format: string): string {
  const pairs = req.query.some(([k]) => k === 'format') ? req.query.map(([k, v]): [string, string] => [k, k === 'format' ? format : v]) : [...req.query, ['format', format] as [string, string]];
  const enc = (s: string) =>
    encodeURIComponent(s)
      .replace(/%20/g, '+')
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${req.scriptUrl}?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
}

/** The HTML page of the …fm formats (ApiFormatBase::closePrinter), with the printed text in a <pre>. */
function htmlPage(req: PrintRequest, formatUpper: string, nonHtmlFormat: string | null, text: string): string {
  const helpLink = `<p>See the <a href="https://www.mediawiki.org/wiki/API" class="extiw" title="mw:API">complete documentation</a>, or the <a href="${escapeHtml(req.scriptUrl)}?action=help&amp;modules=main">API help</a> for more information.\n</p>`;
  let header: string;
  if (nonHtmlFormat) {
    const set = req.posted
      ? `<kbd>format=${nonHtmlFormat}</kbd>`
      : `<a rel="nofollow" class="external text" href="${escapeHtml(nonHtmlUrl(req, nonHtmlFormat))}"><kbd>format=${nonHtmlFormat}</kbd></a>`;
    header =
      `<p>This is the HTML representation of the ${formatUpper} format. HTML is good for debugging, but is unsuitable for application use.\n</p>` +
      `<p>Specify the <var>format</var> parameter to change the output format. To see the non-HTML representation of the ${formatUpper} format, set ${set}.\n</p>` +
      helpLink;
  } else {
    header = `<p>This is an HTML representation intended for debugging, and is unsuitable for application use.\n</p>${helpLink}`;
  }
  const status =
    req.httpStatus !== 200
      ? `<div class="api-pretty-header api-pretty-status"><p>This response would be returned with HTTP status ${req.httpStatus} ${STATUS_CODES[req.httpStatus] ?? ''}.\n</p></div>`
      : '';
  // Html::element escapes & and < only.
  const pre = `<pre class="api-pretty-content">${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre>`;
  return (
    '<!DOCTYPE html>\n<html lang="en" dir="ltr">\n<head>\n<meta charset="UTF-8"/>\n' +
    `<title>MediaWiki API result - ${escapeHtml(req.sitename)}</title>\n<meta name="robots" content="noindex,nofollow"/>\n</head>\n` +
    '<body class="mediawiki ltr sitedir-ltr ns--1 ns-special mw-special-ApiHelp page-Special_ApiHelp skin-apioutput action-view"><div class="mw-body" role="main">\n' +
    '\t<h1 id="firstHeading">MediaWiki API result</h1>\n' +
    `\t<div class="mw-body-content"><div class="api-pretty-header">${header}</div>${status}${pre}\n</div>\n</div>\n</body>\n</html>`
  );
}

function printHtml(req: PrintRequest, formatUpper: string, nonHtmlFormat: string | null, text: string): Printed {
  const page = htmlPage(req, formatUpper, nonHtmlFormat, text);
  if (req.params.wrappedhtml) {
    // ApiSandbox's mode: the page and its status as JSON.
    const wrapped = toPhpObject({ status: req.httpStatus, statustext: STATUS_CODES[req.httpStatus] ?? '', html: page, modules: [], time: 0 });
    return {
      contentType: 'text/mediawiki-api-prettyprint-wrapped',
      filename: 'api-result-wrapped.json',
      body: encodeJson(wrapped, { pretty: false, asciiOnly: false }),
      httpStatus: 200,
    };
  }
  return { contentType: 'text/html', filename: 'api-result.html', body: page, httpStatus: 200 };
}

function toPhpObject(v: Record<string, unknown>): PhpValue {
  return transformResult(v, { types: { assocAsObject: true }, strip: 'all' });
}

/* ---------------------------------------------------------------- declarations */

const noExecute = async () => {
  // Format modules print results; the pipeline never runs them as actions.
};

function formatExample(name: string, upper: string): Record<string, string> {
  return { [`action=query&meta=siteinfo&siprop=namespaces&format=${name}`]: `Return the query result in the ${upper} format.` };
}

function jsonTransforms(params: Params): Transforms {
  return fvOf(params) === 2 ? { types: { assocAsObject: true }, strip: 'all' } : { bc: {}, types: { assocAsObject: true }, strip: 'all' };
}

function jsonText(req: PrintRequest, pretty: boolean): string {
  const fv = fvOf(req.params);
  const asciiOnly = fv === 1 ? !req.params.utf8 : !!req.params.ascii;
  return encodeJson(transformResult(req.result, jsonTransforms(req.params)), { pretty, asciiOnly });
}

function jsonFormat(name: 'json' | 'jsonfm'): FormatModuleDecl {
  const isHtml = name === 'jsonfm';
  return {
    name,
    group: 'format',
    prefix: '',
    summary: isHtml ? 'Output data in JSON format (pretty-print in HTML).' : 'Output data in JSON format.',
    params: isHtml ? { wrappedhtml: WRAPPEDHTML, ...JSON_PARAMS } : JSON_PARAMS,
    flags: {},
    examples: formatExample(name, 'JSON'),
    execute: noExecute,
    formatVersion: fvOf,
    warnings: () => [],
    print(req) {
      if (isHtml) return printHtml(req, 'JSON', 'json', jsonText(req, true));
      const json = jsonText(req, false);
      if (typeof req.params.callback === 'string') {
        const callback = req.params.callback.replace(/[^\][.\\'"_A-Za-z0-9]/g, '');
        // The comment defeats content sniffers (T70187).
        return { contentType: 'text/javascript', filename: 'api-result.js', body: `/**/${callback}(${json})`, httpStatus: req.httpStatus };
      }
      return { contentType: 'application/json', filename: 'api-result.json', body: json, httpStatus: req.httpStatus };
    },
  };
}

const rawfm: FormatModuleDecl = {
  name: 'rawfm',
  group: 'format',
  prefix: '',
  summary: 'Output data, including debugging elements, in JSON format (pretty-print in HTML).',
  params: { wrappedhtml: WRAPPEDHTML },
  flags: {},
  examples: formatExample('rawfm', 'RAW'),
  execute: noExecute,
  formatVersion: () => 1,
  warnings: () => [],
  print(req) {
    // No transformations: the metadata keys stay visible.
    const raw = transformResult(req.result, { strip: 'none' });
    return printHtml(req, 'RAW', null, encodeJson(raw, { pretty: true, asciiOnly: false }));
  },
};

/** format=xml and xmlfm (ApiFormatXml; the HTML form is indented, as recXmlPrint with indent -2). */
function xmlFormat(name: 'xml' | 'xmlfm'): FormatModuleDecl {
  const isHtml = name === 'xmlfm';
  const params: Record<string, ParamDecl> = {
    xslt: {
      type: 'string',
      help: 'If specified, adds the named page as an XSL stylesheet. The value must be a title in the MediaWiki namespace ending in .xsl.',
    },
    includexmlnamespace: { type: 'boolean', help: 'If specified, adds an XML namespace.' },
  };
  return {
    name,
    group: 'format',
    prefix: '',
    summary: isHtml ? 'Output data in XML format (pretty-print in HTML).' : 'Output data in XML format.',
    params: isHtml ? { wrappedhtml: WRAPPEDHTML, ...params } : params,
    flags: {},
    examples: formatExample(name, 'XML'),
    execute: noExecute,
    formatVersion: () => 1,
    // Like MediaWiki without $wgEnableUnsafeXsltOption.
    warnings: (p) => (p.xslt !== undefined ? [message('xslt-disabled', 'apiwarn-xslt-disabled')] : []),
    print(req) {
      let result = req.result;
      if (req.params.includexmlnamespace) result = { ...(result as Record<string, unknown>), xmlns: 'http://www.mediawiki.org/xml/api/' };
      const data = transformResult(result, {
        // BCassoc is printed as assoc so that _idx attributes are output.
        custom: (_data, metadata) => {
          if (metadata.get(META.TYPE) === 'BCassoc') metadata.set(META.TYPE, 'assoc');
        },
        bc: { nobool: true, noStar: true, nosub: true },
        types: { armorKVP: '_name' },
        strip: 'none',
      });
      const text = `<?xml version="1.0"?>${recXmlPrint('api', data, isHtml ? -2 : null)}`;
      if (isHtml) return printHtml(req, 'XML', 'xml', text);
      return { contentType: 'text/xml', filename: 'api-result.xml', body: text, httpStatus: req.httpStatus };
    },
  };
}

/** format=php and phpfm (ApiFormatPhp: PHP's serialize of the result, or that text in the HTML page). */
function phpFormat(name: 'php' | 'phpfm'): FormatModuleDecl {
  const isHtml = name === 'phpfm';
  return {
    name,
    group: 'format',
    prefix: '',
    summary: isHtml ? 'Output data in serialized PHP format (pretty-print in HTML).' : 'Output data in serialized PHP format.',
    params: isHtml ? { wrappedhtml: WRAPPEDHTML, formatversion: FORMATVERSION } : { formatversion: FORMATVERSION },
    flags: {},
    examples: formatExample(name, 'PHP'),
    execute: noExecute,
    formatVersion: fvOf,
    warnings: () => [],
    print(req) {
      const t: Transforms = fvOf(req.params) === 2 ? { types: {}, strip: 'all' } : { bc: {}, types: {}, strip: 'all' };
      const text = phpSerialize(transformResult(req.result, t));
      if (isHtml) return printHtml(req, 'PHP', 'php', text);
      return { contentType: 'application/vnd.php.serialized', filename: 'api-result.php', body: text, httpStatus: req.httpStatus };
    },
  };
}

const none: FormatModuleDecl = {
  name: 'none',
  group: 'format',
  prefix: '',
  summary: 'Output nothing.',
  params: {},
  flags: {},
  examples: formatExample('none', 'NONE'),
  execute: noExecute,
  formatVersion: () => 1,
  warnings: () => [],
  print: (req) => ({ contentType: 'text/plain', filename: 'api-result.txt', body: '', httpStatus: req.httpStatus }),
};

export const formatModules: readonly FormatModuleDecl[] = [jsonFormat('json'), jsonFormat('jsonfm'), none, phpFormat('php'), phpFormat('phpfm'), rawfm, xmlFormat('xml'), xmlFormat('xmlfm')];

export const DEFAULT_FORMAT = 'jsonfm';
