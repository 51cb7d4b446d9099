/*
 * A fuzzer over both APIs. Requests are drawn with fast-check from hostile alphabets
 * (invalid UTF-8 and percent-encoded junk, lone surrogates, control characters, RTL marks, huge
 * values, deep nesting of templates, links and tables) for every action module and query
 * submodule of the module registry and every route of the REST route table, so new modules and
 * routes are fuzzed without touching this file. Each request is checked against the properties
 * of `checkResponse`: no 5xx (except 503 with Retry-After, the documented overload answer), no
 * internal_api_error, errors in the API's own shape, and an answer within 5 s. Texts include the
 * shapes that once made one render quadratic (`[[`, `{{`, `<ref>`… repeated up to 100,000 times),
 * ids far past any integer type, and gzip bodies that inflate a thousandfold; and while the run
 * goes on, a probe (a small uncached parse) checks that no request slows another by more than
 * a second (PROBE_MAX_MS).
 *
 * Request i of a run with seed S is drawn from seed `requestSeed(S, i)`, so any failure is
 * replayed alone with `npm run fuzz -- --seed S --replay i`.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { createDefaultRegistry } from '@quire/gateway/action/registry';
import { coreRoutes } from '@quire/gateway/rest/routes/index';
import type { ModuleDecl, ParamDecl } from '@quire/gateway/action/types';
import type { BodyFieldDecl, RouteDecl } from '@quire/gateway/rest/types';

export const MAX_LATENCY_MS = 5000;
/** The probe's bound: a small parse answered within this while any fuzz request runs. */
export const PROBE_MAX_MS = 1000;

/** Token types a request may need; the run fetches each one for the logged-in identity. */
export const TOKEN_TYPES = ['csrf', 'watch', 'patrol', 'rollback', 'userrights', 'createaccount', 'login'] as const;
type TokenType = (typeof TOKEN_TYPES)[number];

/** A parameter value: text, raw bytes (sent as they are, e.g. invalid UTF-8), or the identity's token. */
type Value = string | { bytes: number[] } | { token: TokenType };

export interface FuzzRequest {
  api: 'action' | 'rest' | 'page';
  method: string;
  /** Path and query, already percent-encoded (junk escapes included on purpose). */
  path: string;
  headers: Record<string, string>;
  body?:
    | { kind: 'form'; params: [string, Value][] }
    | { kind: 'multipart'; params: [string, Value][]; file?: { field: string; name: string; bytes: number[] } }
    | { kind: 'raw'; contentType: string; text: string }
    /** The text gzip-compressed, sent with Content-Encoding: gzip (a bomb when the text is huge and repetitive). */
    | { kind: 'gzip'; contentType: string; text: string };
  /** Sent with the logged-in sysop's session cookie, or anonymously. */
  as: 'anon' | 'user';
  /** The module or route, for the per-target figures. */
  target: string;
}

// ---------------------------------------------------------------------------------------------
// Hostile alphabets

/** Pieces that break parsers: markup openers, separators, escapes, direction marks, odd letters. */
const HOSTILE_TOKENS = [
  '{{',
  '}}',
  '{{{',
  '}}}',
  '[[',
  ']]',
  '[',
  ']',
  '{|',
  '|}',
  '|-',
  '|',
  '||',
  '!',
  '=',
  '==',
  '<',
  '>',
  '</',
  '/>',
  '&',
  '&amp;',
  '&#0;',
  '&#xD800;',
  '#',
  '?',
  ':',
  ';',
  '*',
  '~~~~',
  '__TOC__',
  '__NOINDEX__',
  '<nowiki>',
  '</nowiki>',
  '<ref>',
  '<ref name=a/>',
  '<references/>',
  '<pre>',
  '<math>',
  '<gallery>',
  '<!--',
  '-->',
  '{{#if:',
  '{{#switch:',
  '{{#expr:',
  '{{#invoke:',
  '{{subst:',
  '{{msgnw:',
  '{{PAGENAME}}',
  '{{int:',
  '{{#tag:',
  '{{DISPLAYTITLE:',
  '{{DEFAULTSORT:',
  '[[File:',
  '[[Category:',
  '[[Special:',
  'Special:',
  'File:',
  'Talk:',
  'User:',
  'Template:',
  'MediaWiki:',
  'Media:',
  'w:',
  'en:',
  ':',
  '..',
  '/',
  '\\',
  '%',
  '%%',
  '%2F',
  '%00',
  '%C3%28',
  '%FF',
  '%uD800',
  '+',
  'https://',
  '//',
  'mailto:',
  'javascript:',
  '\r\n',
  '\n',
  '\r',
  '\t',
  ' ',
  '_',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u00ad',
  '\u200b',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2028',
  '\u2066',
  '\ufeff',
  '\ufffd',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udfff',
  '\ud83d',
  '\ude00',
  '😀',
  '𝔘',
  'İ',
  'ı',
  'ß',
  'ǅ',
  'ﬀ',
  'Ω',
  'ア',
  '中',
  'ب',
  'ע',
  'x',
  'Main Page',
  'Main_Page',
  '0',
  '-1',
  '9999999999999999999999',
  '1e308',
  'NaN',
  'null',
  'true',
] as const;

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const controlChar = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));

/** Short hostile text: tokens, any code points, lone surrogates and control characters mixed. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TOKENS) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 1, arbitrary: loneSurrogate },
      { weight: 1, arbitrary: controlChar },
      { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** Deeply nested markup: templates, parameters, links, tables, parser functions, tags. */
export const nestedMarkup: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(['{{', '}}'], ['{{{', '}}}'], ['[[', ']]'], ['{|\n|', '\n|}'], ['{{#if:x|', '}}'], ['<div>', '</div>'], ['<ref>', '</ref>'], ['[', ']'], ["''", "''"], ['-{', '}-'], ['{{:', '}}']),
    fc.integer({ min: 1, max: 2000 }),
    fc.boolean(),
  )
  .map(([[open, close], depth, closed]) => `${open.repeat(depth)}x${closed ? close.repeat(depth) : ''}`);

/**
 * Hostile shapes at up to 100,000 units (texts of up to a megabyte): openers that never close,
 * constructs nested thousands deep, and mixes: each once took one render quadratic time.
 */
export const hostileShape: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(
      '[[',
      '[[:',
      '[[#',
      '[http://x ',
      '[[File:',
      '[[a|',
      '[',
      '{{',
      '{{{',
      '{{a|{{x}}',
      "''",
      "'''''x",
      '<ref>',
      '<ref>x</ref>',
      '<nowiki>',
      '<pre>',
      '<gallery>',
      '<!---->',
      '<div>',
      '</b>',
      '{|',
      '{|\n|\n',
      '*',
      ':',
      '#',
      '*#:;',
      '=',
      '=x=\n',
      '-{',
      '__TOC__',
      '&amp;',
      '&',
      '[[Category:A]] ',
      '[[en:A]] ',
      'http://x,',
      'x',
      // The pre-save transform's: one substitution after another, and a link target full of parentheses.
      '{{subst:x}}',
      ' (y), (',
    ),
    fc.constantFrom(2_000, 20_000, 100_000),
    fc.constantFrom('', ']]', '}}', '</ref>', '\n'),
  )
  .map(([unit, n, closer]) => {
    // Shapes whose output is many times their size (a table of contents line per heading) stay smaller.
    const units = unit.includes('\n') || unit.includes('</') || unit.includes('{{x') ? Math.min(n, 20_000) : n;
    // Each substitution is a render of its own (MediaWiki takes 0.5 s for 5,000).
    if (unit === '{{subst:x}}') return unit.repeat(Math.min(n, 5_000));
    // One long pipe-trick target: `[[x (y), (y), …|]]`.
    if (unit === ' (y), (') return `[[x${unit.repeat(units)}|]]`;
    return unit.repeat(units) + closer.repeat(closer === '\n' ? 1 : units);
  });

/** Two hostile shapes side by side. */
const hostileMix: fc.Arbitrary<string> = fc.tuple(hostileShape, hostileShape).map(([a, b]) => a.slice(0, 200_000) + b.slice(0, 200_000));

/** Values far larger than any field expects. */
export const hugeText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('x', 'é', '😀', '{{a}}', '[[a]]', '|', '\u202e', '%', '=\n'), fc.constantFrom(300, 5_000, 70_000, 400_000))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

/** Wikitext: hostile text, nesting, or realistic-looking markup with hostile parts. */
export const wikitext: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 2, arbitrary: nestedMarkup },
  { weight: 1, arbitrary: hugeText },
  { weight: 2, arbitrary: hostileShape },
  { weight: 1, arbitrary: hostileMix },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(
          hostileText,
          fc.constantFrom(
            '{{Main Page}}',
            '{{PAGENAME}}',
            '[[Main Page|x]]',
            "'''b'''",
            '== h ==\n',
            '{|\n|a||b\n|-\n|c\n|}',
            '<ref>r</ref>\n<references/>',
            '[[Category:C]]',
            '{{#expr: 1/0}}',
            '{{#time:Y|x}}',
            '#REDIRECT [[Main Page]]',
            '<pre>\n</pre>',
            '{{Template:X|a=1|2}}',
            '{{#invoke:M|f}}',
            '[https://x y]',
            '~~~',
            '<gallery>\nFile:a.png\n</gallery>',
            '__NOTOC__',
          ),
        ),
        { maxLength: 20 },
      )
      .map((p) => p.join('\n')),
  },
);

/** Titles: plain, namespaced, hostile, huge. */
export const title: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'Main Page',
      'Main_Page',
      'Fuzz page',
      'Talk:Fuzz page',
      'User:Fuzzer',
      'Template:Fuzz',
      'File:Fuzz.png',
      'Category:Fuzz',
      'Special:Version',
      'MediaWiki:Common.css',
      'Module:X',
      'w:Foo',
      ':Main Page',
      '',
    ),
  },
  { weight: 4, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', 'Talk:', 'User:', 'File:', 'Project:', 'Help talk:'), hostileText).map(([ns, t]) => ns + t) },
  { weight: 1, arbitrary: hugeText },
);

/** Raw bytes for values that must not be valid UTF-8 (sent percent-encoded byte by byte). */
const invalidUtf8: fc.Arbitrary<{ bytes: number[] }> = fc
  .array(fc.oneof(fc.constantFrom(0xc3, 0x28, 0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0xe2, 0x82, 0xf4, 0x90, 0x00, 0x25), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 24 })
  .map((bytes) => ({ bytes }));

/** Ids and numbers of every size: past 32 and 64 bits, past a double's integers, hundreds of digits. */
const hugeId = fc.constantFrom(
  '2147483648',
  '4294967296',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '1e999',
  '0x7fffffffffffffff',
  `1${'0'.repeat(400)}`,
  '9'.repeat(5000),
);
const integerish = fc.oneof(
  { weight: 4, arbitrary: fc.integer().map(String) },
  { weight: 4, arbitrary: fc.constantFrom('0', '-1', '1', 'max', '99999999999999999999', '1e3', '0x10', ' 5', '5 ', '+5', '', '1.5', 'NaN', '-0', '２') },
  { weight: 2, arbitrary: hugeId },
);
const timestamp = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('now', '0', '20010115000000', '1970-01-01T00:00:00Z', '99999999999999', '-1', 'infinity', '2038-01-19T03:14:08Z', '0000-00-00T00:00:00Z'),
);
const userName = fc.oneof(
  fc.constantFrom('Fuzzer', 'Admin', '127.0.0.1', '::1', '10.0.0.0/8', '2001:db8::/32', '203.0.113.9', 'Nobody here', 'MediaWiki default', 'imported>X', '#1', 'Fuzz@bot'),
  hostileText,
);
const expiry = fc.constantFrom('infinite', 'indefinite', 'never', '1 week', '2 hours', 'tomorrow', '20300101000000', '1970-01-01T00:00:00Z', 'yesterday', 'junk');

/** A value for a declared action API parameter, usually of its type, sometimes anything. */
function actionValue(decl: ParamDecl): fc.Arbitrary<Value> {
  const t = decl.type;
  let typed: fc.Arbitrary<string>;
  if (Array.isArray(t)) {
    const values = t as readonly string[];
    typed = values.length === 0 ? hostileText : decl.multi ? fc.subarray([...values, ...(decl.allowAll ? ['*'] : [])], { minLength: 1 }).map((v) => v.join('|')) : fc.constantFrom(...values);
  } else {
    switch (t) {
      case 'integer':
      case 'limit':
      case 'namespace':
        typed = decl.multi ? fc.array(integerish, { maxLength: 60 }).map((v) => v.join('|')) : integerish;
        break;
      case 'boolean':
        typed = fc.constantFrom('', '1', 'true', '0');
        break;
      case 'timestamp':
        typed = timestamp;
        break;
      case 'title':
        typed = decl.multi ? fc.array(title, { maxLength: 60 }).map((v) => v.join('|')) : title;
        break;
      case 'user':
        typed = decl.multi ? fc.array(userName, { maxLength: 10 }).map((v) => v.join('|')) : userName;
        break;
      case 'expiry':
        typed = expiry;
        break;
      case 'text':
        typed = wikitext;
        break;
      default:
        typed = decl.multi ? fc.array(hostileText, { maxLength: 60 }).map((v) => (v.some((x) => x.includes('|')) ? `\x1f${v.join('\x1f')}` : v.join('|'))) : hostileText;
    }
  }
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 2, arbitrary: hostileText }, { weight: 1, arbitrary: invalidUtf8 }, { weight: 1, arbitrary: hugeText });
}

// ---------------------------------------------------------------------------------------------
// Targets from the registries

export interface Targets {
  actions: readonly ModuleDecl[];
  submodules: Record<'prop' | 'list' | 'meta', readonly ModuleDecl[]>;
  formats: readonly string[];
  routes: readonly RouteDecl[];
}

/** Every action module, query submodule, format and REST route the gateway serves. */
export function registryTargets(): Targets {
  const registry = createDefaultRegistry();
  return {
    actions: registry.modules('action'),
    submodules: { prop: registry.modules('prop'), list: registry.modules('list'), meta: registry.modules('meta') },
    formats: registry.modules('format').map((m) => m.name),
    routes: coreRoutes,
  };
}

/** Some of a module's declared parameters (prefixed), plus now and then an undeclared one. */
function moduleParams(decl: ModuleDecl, wantToken: boolean): fc.Arbitrary<[string, Value][]> {
  const names = Object.keys(decl.params);
  const declared =
    names.length === 0
      ? fc.constant<[string, Value][]>([])
      : fc
          .subarray(names, { maxLength: Math.min(names.length, 8) })
          .chain((chosen) => fc.tuple(...chosen.map((n) => actionValue(decl.params[n]!).map((v): [string, Value] => [decl.prefix + n, v]))).map((pairs) => [...pairs]));
  const stray = fc.array(
    fc.tuple(
      fc.oneof(
        hostileText,
        fc.constantFrom(
          'callback',
          'utf8',
          'ascii',
          'continue',
          'requestid',
          'uselang',
          'variant',
          'assert',
          'assertuser',
          'maxlag',
          'curtimestamp',
          'centralauthtoken',
          'smaxage',
          'origin',
          'errorformat',
          'errorlang',
        ),
      ),
      hostileText,
    ),
    { maxLength: 2 },
  );
  const tokenType = decl.flags.needsToken as TokenType | undefined;
  return fc.tuple(declared, stray, fc.boolean()).map(([d, s, withToken]) => {
    const out = [...d.filter(([n]) => n !== 'token'), ...s] as [string, Value][];
    if (tokenType && (wantToken || withToken)) out.push(['token', { token: TOKEN_TYPES.includes(tokenType) ? tokenType : 'csrf' }]);
    return out;
  });
}

const PERCENT_JUNK = ['%', '%%', '%G0', '%C3%28', '%FF%FE', '%ED%A0%80', '%C0%AF', '%E2%82', '%00', '%0A', '%0D%0A', '%2e%2e%2f', '%F4%90%80%80', '%uD800'];

/** Percent-encodes a value for a URL or form body; raw bytes stay raw (invalid UTF-8 on purpose). */
export function encodeValue(v: string | { bytes: number[] }): string {
  if (typeof v !== 'string') return v.bytes.map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
  // encodeURIComponent refuses lone surrogates: encode those as the UTF-8 of the code unit (CESU junk).
  let out = '';
  for (const ch of v) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) out += Buffer.from([0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]).reduce((s, b) => `${s}%${b.toString(16).toUpperCase()}`, '');
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** A path segment: a title encoded properly, or with junk escapes spliced in. */
const pathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: title.map((t) => encodeValue(t)) },
  {
    weight: 2,
    arbitrary: fc.tuple(title, fc.constantFrom(...PERCENT_JUNK), fc.nat(40)).map(([t, junk, at]) => {
      const e = encodeValue(t);
      const i = Math.min(at, e.length);
      return e.slice(0, i) + junk + e.slice(i);
    }),
  },
  { weight: 1, arbitrary: invalidUtf8.map((b) => encodeValue(b)) },
  { weight: 1, arbitrary: integerish.map((v) => encodeValue(v)) },
);

/** Request headers a client may send, hostile or not. Values are Latin-1 (bytes ≥ 0x80 = invalid UTF-8). */
const headerValue = fc.oneof(
  hostileText.map((s) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')),
  // Bytes node's client lets through (it refuses CR, LF, NUL and DEL in header values).
  fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 40 }).map((cs) => String.fromCharCode(...cs)),
);
const headers: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.oneof(
      fc.tuple(
        fc.constantFrom(
          'if-none-match',
          'if-match',
          'if-modified-since',
          'if-unmodified-since',
          'origin',
          'accept-language',
          'accept',
          'authorization',
          'x-forwarded-for',
          'x-forwarded-proto',
          'api-user-agent',
          'user-agent',
          'cookie',
          'referer',
          'range',
          'accept-encoding',
          'x-request-id',
        ),
        headerValue,
      ),
      fc.tuple(fc.constantFrom('if-none-match'), fc.constantFrom('*', '"x"', 'W/"1"', '"', '', 'W/')),
      fc.tuple(fc.constantFrom('origin'), fc.constantFrom('null', 'http://evil.example', 'http://localhost', '*', '')),
      fc.tuple(fc.constantFrom('cookie'), fc.constantFrom('quire_session=', 'quire_session=%', 'quire_session=%FF', `quire_session=${'a'.repeat(4000)}`, 'a=b; ;;; =', 'quire_session="x"')),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => Object.fromEntries(pairs));

// ---------------------------------------------------------------------------------------------
// Requests

/** What a gzip body adds to its form: nothing, or megabytes of one letter (a few KB compressed). */
const gzipPadding = fc.constantFrom('', '', `&pad=${'a'.repeat(8_000_000)}`, `&text=${'%5B%5B'.repeat(1_000_000)}`);

/** A MediaWiki XML dump of one page (Special:Export's shape) with the given ids and text. */
function dumpXml(id: string, text: string): string {
  return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en"><page><title>Fuzz import ${id.slice(0, 8)}</title><ns>0</ns><id>${id}</id><revision><id>${id}</id><timestamp>2020-01-01T00:00:00Z</timestamp><contributor><username>Fuzz</username><id>${id}</id></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${text}</text></revision></page></mediawiki>`;
}

let dumps: number[][] | undefined;

/**
 * Hostile dumps for action=import's `xml` file: ids past any integer type, and gzip bombs (a few KB
 * inflating to a page of megabytes, over $wgMaxArticleSize).
 */
function hostileDumps(): number[][] {
  // Made on first use: compressing megabytes is no cost for every importer of this module.
  dumps ??= [
    [...Buffer.from(dumpXml('9007199254740989', 'huge ids'))],
    [...Buffer.from(dumpXml(`1${'0'.repeat(40)}`, 'huger ids'))],
    [...zlib.gzipSync(dumpXml('7', 'a'.repeat(3 * 1024 * 1024)))],
    [...zlib.gzipSync(dumpXml('8', '[['.repeat(4_000_000)))],
  ];
  return dumps;
}

function actionRequest(t: Targets): fc.Arbitrary<FuzzRequest> {
  const query = t.actions.find((m) => m.name === 'query');
  const moduleChoice = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...t.actions).map((m) => ({ target: `action=${m.name}`, modules: [m], fixed: [['action', m.name]] as [string, Value][] })) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom('prop', 'list', 'meta') as fc.Arbitrary<'prop' | 'list' | 'meta'>, fc.boolean()).chain(([group, generator]) =>
        fc.constantFrom(...t.submodules[group]).map((m) => ({
          target: `query+${m.name}`,
          modules: query ? [query, m] : [m],
          fixed: [['action', 'query'], generator && group !== 'meta' ? ['generator', m.name] : [group, m.name]] as [string, Value][],
        })),
      ),
    },
  );
  return fc
    .tuple(
      moduleChoice,
      fc.constantFrom('anon', 'user') as fc.Arbitrary<'anon' | 'user'>,
      fc.oneof({ weight: 8, arbitrary: fc.constant('json') }, { weight: 1, arbitrary: fc.constantFrom(...t.formats) }),
      fc.constantFrom('1', '2'),
      fc.constantFrom('GET', 'POST-form', 'POST-multipart', 'POST-form', 'POST-multipart', 'PUT', 'DELETE', 'POST-gzip'),
      fc.boolean(),
      headers,
      fc.option(
        fc.record({
          field: fc.constantFrom<string>('file', 'chunk', 'text', 'xml'),
          name: title,
          bytes: fc.oneof(
            fc.uint8Array({ maxLength: 2048 }).map((a) => [...a]),
            fc.constantFrom(...hostileDumps()),
            fc.constantFrom<number[]>([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], [0x3c, 0x73, 0x76, 0x67, 0x3e], []),
          ),
        }),
        { nil: undefined },
      ),
    )
    .chain(([choice, as, format, fv, method, wantToken, hdrs, file]) =>
      fc.tuple(fc.tuple(...choice.modules.map((m) => moduleParams(m, wantToken))), gzipPadding).map(([paramLists, padding]): FuzzRequest => {
        const params: [string, Value][] = [...choice.fixed, ['format', format], ['formatversion', fv], ...paramLists.flat()];
        if (method === 'POST-gzip') {
          // A form compressed, and now and then padded to inflate a thousandfold (a gzip bomb).
          const text = params.map(([k, v]) => `${encodeValue(k)}=${typeof v === 'object' && 'token' in v ? `{{token:${v.token}}}` : encodeValue(v)}`).join('&') + padding;
          return { api: 'action', method: 'POST', path: '/w/api.php', headers: hdrs, body: { kind: 'gzip', contentType: 'application/x-www-form-urlencoded', text }, as, target: choice.target };
        }
        if (method === 'GET' || method === 'PUT' || method === 'DELETE') {
          const qs = params.map(([k, v]) => `${encodeValue(k)}=${typeof v === 'object' && 'token' in v ? `{{token:${v.token}}}` : encodeValue(v)}`).join('&');
          return { api: 'action', method, path: `/w/api.php?${qs}`, headers: hdrs, as, target: choice.target };
        }
        const body = method === 'POST-form' ? { kind: 'form' as const, params } : { kind: 'multipart' as const, params, ...(file ? { file } : {}) };
        return { api: 'action', method: 'POST', path: '/w/api.php', headers: hdrs, body, as, target: choice.target };
      }),
    );
}

function bodyFieldValue(decl: BodyFieldDecl): fc.Arbitrary<unknown> {
  const typed: fc.Arbitrary<unknown> =
    decl.type === 'string'
      ? wikitext
      : decl.type === 'integer' || decl.type === 'number'
        ? fc.oneof(fc.integer(), fc.double())
        : decl.type === 'boolean'
          ? fc.boolean()
          : decl.type === 'array'
            ? fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 })
            : fc.dictionary(hostileText, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
  return fc.oneof({ weight: 5, arbitrary: typed }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 1, arbitrary: fc.constant(null) });
}

/** A JSON body for a route: its declared fields (some), wrong types, junk keys, or text that is not JSON at all. */
function restBody(route: RouteDecl): fc.Arbitrary<FuzzRequest['body']> {
  const fields = Object.entries(route.body?.fields ?? {});
  const declared = fc.subarray(fields).chain((chosen) => fc.tuple(...chosen.map(([k, d]) => bodyFieldValue(d).map((v) => [k, v] as const))));
  const json = fc.tuple(declared, fc.boolean(), fc.dictionary(hostileText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 })).map(([pairs, token, extra]) => {
    const obj: Record<string, unknown> = { ...extra, ...Object.fromEntries(pairs) };
    if (token) obj.token = '{{token:csrf}}';
    return JSON.stringify(obj);
  });
  return fc.oneof(
    { weight: 6, arbitrary: json.map((text) => ({ kind: 'raw' as const, contentType: 'application/json', text })) },
    {
      weight: 1,
      arbitrary: fc.tuple(json, gzipPadding).map(([text, padding]) => ({ kind: 'gzip' as const, contentType: 'application/json', text: padding ? `${text.slice(0, -1)},"pad":"${padding}"}` : text })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('application/json', 'application/json; charset=iso-8859-1', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '', 'application/json; boundary=x'),
          fc.oneof(
            hostileText,
            nestedMarkup.map((s) => s.replace(/./g, (c) => ({ '{': '{"a":', '[': '[', '<': '{', '}': '}', ']': ']' })[c] ?? c)),
            fc.constantFrom('{', '[]', 'null', '"x"', '{"source":1e999}', '{"__proto__":{"x":1}}', `{"a":${'['.repeat(5000)}`),
          ),
        )
        .map(([contentType, text]) => ({ kind: 'raw' as const, contentType, text })),
    },
  );
}

function restRequest(t: Targets): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...t.routes).chain((route) => {
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const queryDecls = Object.entries(route.params).filter(([, d]) => d.source === 'query');
    return fc
      .tuple(
        fc.tuple(...pathParams.map(() => pathSegment)),
        fc
          .subarray(queryDecls)
          .chain((chosen) =>
            fc.tuple(
              ...chosen.map(([k, d]) =>
                fc
                  .oneof(
                    d.type === 'enum' ? fc.constantFrom(...d.values) : d.type === 'integer' ? integerish : d.type === 'boolean' ? fc.constantFrom('true', 'false', '1', '0', '') : title,
                    hostileText,
                    invalidUtf8,
                  )
                  .map((v) => `${k}=${encodeValue(v)}`),
              ),
            ),
          ),
        fc.oneof({ weight: 8, arbitrary: fc.constant(route.method as string) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS') }),
        fc.constantFrom('anon', 'user') as fc.Arbitrary<'anon' | 'user'>,
        headers,
        route.body ? restBody(route) : fc.constant(undefined),
      )
      .map(([segments, query, method, as, hdrs, body]): FuzzRequest => {
        let i = 0;
        const p = route.path.replace(/\{\w+\}/g, () => segments[i++]!);
        const qs = query.length ? `?${query.join('&')}` : '';
        return { api: 'rest', method, path: `/w/rest.php${p}${qs}`, headers: hdrs, as, target: `${route.method} ${route.path}`, ...(body && method !== 'GET' && method !== 'HEAD' ? { body } : {}) };
      });
  });
}

/** Paths no route declares: junk under both entry points, special pages, raw percent junk. */
function strayRequest(): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.oneof(
        fc
          .tuple(
            fc.constantFrom('/w/rest.php/', '/w/rest.php/v1/', '/w/rest.php/v1/page/', '/w/api.php/', '/wiki/', '/w/index.php?title=', '/w/images/', '/wiki/Special:', '/w/index.php?title=Special:'),
            pathSegment,
          )
          .map(([a, b]) => a + b),
        fc.constantFrom(
          '/w/rest.php',
          '/w/rest.php/v1',
          '/w/rest.php/v1/page',
          '/w/api.php?action=query&titles=%',
          '/w/api.php?%=1',
          '/w/api.php?a[]=1&a[b]=2',
          '/wiki/Special:UserLogin?returnto=%FF',
          '/w/index.php?title=Special:RunJobs&signature=x',
          '/w/images/a/ab/%00.png',
          '/healthz',
          '/readyz',
          '/',
        ),
      ),
      fc.constantFrom('GET', 'POST', 'PUT', 'HEAD', 'OPTIONS'),
      headers,
    )
    .map(
      ([path, method, hdrs]): FuzzRequest => ({
        api: path.startsWith('/w/rest.php') ? 'rest' : path.startsWith('/w/api.php') ? 'action' : 'page',
        method,
        path,
        headers: hdrs,
        as: 'anon',
        target: `stray ${method}`,
        ...(method === 'POST' ? { body: { kind: 'raw' as const, contentType: 'application/x-www-form-urlencoded', text: 'wpName=%FF&wpPassword=x&wpEditToken=%2B%5C&title=Special:UserLogin' } } : {}),
      }),
    );
}

/** The arbitrary of one fuzz request: action API, REST API or elsewhere. */
export function fuzzRequestArbitrary(t: Targets = registryTargets()): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({ weight: 5, arbitrary: actionRequest(t) }, { weight: 4, arbitrary: restRequest(t) }, { weight: 1, arbitrary: strayRequest() });
}

/** The seed of request `index` of a run seeded `seed` (each request replays alone). */
export function requestSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) | 0;
}

export function drawRequest(arb: fc.Arbitrary<FuzzRequest>, seed: number, index: number): FuzzRequest {
  return fc.sample(arb, { seed: requestSeed(seed, index), numRuns: 1 })[0]!;
}

// ---------------------------------------------------------------------------------------------
// Sending and checking

/** The logged-in identity's session cookie and tokens. */
export interface Identity {
  cookie: string;
  tokens: Record<TokenType, string>;
}

export interface FuzzResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  latencyMs: number;
}

function valueText(v: Value, id: Identity | undefined): string | { bytes: number[] } {
  if (typeof v === 'object' && 'token' in v) return id ? id.tokens[v.token] : '+\\';
  return v;
}

function multipartBody(params: [string, Value][], file: { field: string; name: string; bytes: number[] } | undefined, id: Identity | undefined): { type: string; data: Buffer } {
  const boundary = `----quirefuzz${Math.random().toString(36).slice(2)}`;
  const parts: Buffer[] = [];
  const bytesOf = (v: string | { bytes: number[] }) => (typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v.bytes));
  for (const [k, v] of params) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`), bytesOf(k.replace(/["\r\n]/g, '_')), Buffer.from('"\r\n\r\n'), bytesOf(valueText(v, id)), Buffer.from('\r\n'));
  }
  if (file) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="`),
      Buffer.from(file.name.replace(/["\r\n]/g, '_'), 'utf8'),
      Buffer.from('"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(parts) };
}

/** The request as bytes on the wire: path with tokens filled in, headers, body. */
export function materialize(req: FuzzRequest, id: Identity | undefined): { method: string; path: string; headers: Record<string, string>; body?: Buffer } {
  const path = req.path.replace(/\{\{token:(\w+)\}\}/g, (_, type: TokenType) => encodeValue(id ? id.tokens[type] : '+\\'));
  const headers: Record<string, string> = { ...req.headers };
  if (req.as === 'user' && id) headers.cookie = headers.cookie ? `${id.cookie}; ${headers.cookie}` : id.cookie;
  let body: Buffer | undefined;
  if (req.body?.kind === 'form') {
    body = Buffer.from(req.body.params.map(([k, v]) => `${encodeValue(k)}=${encodeValue(valueText(v, id))}`).join('&'));
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (req.body?.kind === 'multipart') {
    const mp = multipartBody(req.body.params, req.body.file, id);
    body = mp.data;
    headers['content-type'] = mp.type;
  } else if (req.body?.kind === 'raw') {
    body = Buffer.from(
      req.body.text.replace(/\{\{token:(\w+)\}\}/g, (_, type: TokenType) => (id ? id.tokens[type] : '+\\').replace(/\\/g, '\\\\')),
      'utf8',
    );
    if (req.body.contentType) headers['content-type'] = req.body.contentType;
  } else if (req.body?.kind === 'gzip') {
    body = zlib.gzipSync(req.body.text.replace(/\{\{token:(\w+)\}\}/g, (_, type: TokenType) => encodeValue(id ? id.tokens[type] : '+\\')));
    headers['content-type'] = req.body.contentType;
    headers['content-encoding'] = 'gzip';
  }
  return { method: req.method, path, headers, ...(body ? { body } : {}) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Sends one request with node's http client (which lets junk escapes and Latin-1 header bytes through). */
export function send(baseUrl: string, req: FuzzRequest, id: Identity | undefined, timeoutMs = 30_000): Promise<FuzzResponse> {
  const m = materialize(req, id);
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: url.hostname, port: url.port, method: m.method, path: m.path, headers: { ...m.headers, ...(m.body ? { 'content-length': String(m.body.length) } : {}) }, agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), latencyMs: performance.now() - started }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(m.body);
  });
}

/**
 * Node's HTTP server answers 431 (empty body) when a request's head exceeds its 16 KB limit,
 * before any API sees it, as Apache answers 414 past its 8 KB request line: a transport answer.
 */
const HEADERS_TOO_LARGE = 431;
const MAX_HEAD_BYTES = 16 * 1024;

/** Whether a request's head (request line and headers) is past what the HTTP server reads. */
export function headTooLarge(req: FuzzRequest): boolean {
  const m = materialize(req, undefined);
  return m.path.length + Object.entries(m.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0) > MAX_HEAD_BYTES - 512;
}

/** What is wrong with a response, or undefined when it keeps every property. */
export function checkResponse(req: FuzzRequest, res: FuzzResponse): string | undefined {
  if (res.latencyMs > MAX_LATENCY_MS) return `took ${Math.round(res.latencyMs)} ms (over ${MAX_LATENCY_MS})`;
  if (res.status >= 500 && !(res.status === 503 && res.headers['retry-after'] !== undefined)) return `status ${res.status}: ${res.body.toString('utf8', 0, 300)}`;
  const type = String(res.headers['content-type'] ?? '');
  const isJson = type.startsWith('application/json');
  if (req.api === 'action') {
    const code = res.headers['mediawiki-api-error'];
    if (typeof code === 'string' && code.startsWith('internal_api_error')) return `internal error ${code}: ${res.body.toString('utf8', 0, 300)}`;
    if (code !== undefined && isJson && res.body.length > 0) {
      let body: { error?: { code?: unknown }; errors?: { code?: unknown }[] };
      try {
        body = JSON.parse(res.body.toString('utf8')) as typeof body;
      } catch {
        return `MediaWiki-API-Error ${String(code)} with a body that is not JSON`;
      }
      const codes = [body.error?.code, ...(body.errors ?? []).map((e) => e.code)];
      if (!codes.includes(code)) return `MediaWiki-API-Error ${String(code)} but the body's error codes are ${JSON.stringify(codes)}`;
    }
  } else if (req.api === 'rest' && res.status >= 400 && req.method !== 'HEAD' && res.status !== HEADERS_TOO_LARGE) {
    if (!isJson) return `REST error ${res.status} is not JSON (${type})`;
    let body: { httpCode?: unknown; httpReason?: unknown; messageTranslations?: unknown; message?: unknown; error?: unknown };
    try {
      body = JSON.parse(res.body.toString('utf8')) as typeof body;
    } catch {
      return `REST error ${res.status} body is not JSON`;
    }
    if (body.httpCode !== res.status || typeof body.httpReason !== 'string') return `REST error ${res.status} has httpCode ${String(body.httpCode)}, httpReason ${String(body.httpReason)}`;
    // MediaWiki's three error bodies: LocalizedHttpException (messageTranslations), HttpException
    // (message) and ResponseFactory::createHttpError with data (e.g. the authorizer's `error`).
    const described = (typeof body.messageTranslations === 'object' && body.messageTranslations !== null) || typeof body.message === 'string' || typeof body.error === 'string';
    if (!described) return `REST error ${res.status} has neither messageTranslations, message nor error`;
  }
  return undefined;
}

/** One line that replays a request: what was sent, shortened. */
export function describeRequest(req: FuzzRequest, id?: Identity): string {
  const m = materialize(req, id);
  const body = m.body ? ` body(${m.body.length} B)=${JSON.stringify(m.body.toString('latin1').slice(0, 200))}` : '';
  return `${req.as} ${m.method} ${m.path.slice(0, 300)}${m.path.length > 300 ? '…' : ''} headers=${JSON.stringify(req.headers).slice(0, 200)}${body}`;
}

// ---------------------------------------------------------------------------------------------
// Runs

export interface FuzzFailure {
  index: number;
  target: string;
  problem: string;
  request: string;
}

export interface FuzzFigures {
  /** Probes sent (a small parse while the run goes on) and the slowest one. */
  probes: number;
  maxProbeMs: number;
  seed: number;
  requests: number;
  statuses: Record<string, number>;
  maxLatencyMs: number;
  maxLatencyTarget: string;
  failures: FuzzFailure[];
  /** Times the server was found dead (connection refused / process exited). */
  crashes: number;
  /** Requests over the latency bound in the run that answered in time when replayed alone (load, not input). */
  slowOnlyUnderLoad: number;
  /** Probes held up while a request ran, but not when that request runs alone. */
  probeSlowOnlyUnderLoad: number;
  elapsedMs: number;
}

export interface FuzzRunOptions {
  baseUrl: string;
  seed: number;
  requests: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Logs in the identity (again, e.g. after a fuzzed logout); called once at start. */
  login(): Promise<Identity>;
  /** Whether the server process is still alive; checked after every request. */
  alive(): boolean | Promise<boolean>;
  /** Only these request indexes (replay). */
  only?: readonly number[];
  /** Whether to probe with a small parse while the run goes on (default true). */
  probe?: boolean;
  onProgress?(f: FuzzFigures): void;
  /** Called as each request starts and ends (`npm run fuzz -- --trace FILE`): a stalled server shows which requests are in flight. */
  onRequest?(event: 'start' | 'end', index: number, target: string, status?: number | string): void;
}

/** Logs `name` in through the action API and fetches every token type, for the fuzz identity. */
export async function loginIdentity(baseUrl: string, name: string, password: string): Promise<Identity> {
  const jar = new Map<string, string>();
  const call = async (params: Record<string, string>, post: boolean) => {
    const body = new URLSearchParams({ format: 'json', ...params }).toString();
    const r = await fetch(`${baseUrl}/w/api.php${post ? '' : `?${body}`}`, {
      method: post ? 'POST' : 'GET',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(post ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(post ? { body } : {}),
    });
    for (const line of r.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return (await r.json()) as any;
  };
  const lt = (await call({ action: 'query', meta: 'tokens', type: 'login' }, false)).query.tokens.logintoken as string;
  const login = await call({ action: 'login', lgname: name, lgpassword: password, lgtoken: lt }, true);
  if (login.login?.result !== 'Success') throw new Error(`fuzz identity ${name} could not log in: ${JSON.stringify(login)}`);
  const t = (await call({ action: 'query', meta: 'tokens', type: TOKEN_TYPES.join('|') }, false)).query.tokens as Record<string, string>;
  const tokens = Object.fromEntries(TOKEN_TYPES.map((type) => [type, t[`${type}token`] ?? t.csrftoken ?? '+\\'])) as Record<TokenType, string>;
  return { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), tokens };
}

/** The probe: an anonymous action=parse of a short text seen for the first time (no cache has it). */
function probeRequest(n: number): FuzzRequest {
  return {
    api: 'action',
    method: 'GET',
    path: `/w/api.php?action=parse&format=json&contentmodel=wikitext&text=${encodeValue(`''probe ${n}'' [[Main Page]]`)}`,
    headers: {},
    as: 'anon',
    target: 'probe',
  };
}

/** Runs `requests` fuzz requests and returns the figures; failures are collected, not thrown. */
export async function runFuzz(o: FuzzRunOptions): Promise<FuzzFigures> {
  const arb = fuzzRequestArbitrary();
  const figures: FuzzFigures = {
    seed: o.seed,
    requests: 0,
    statuses: {},
    maxLatencyMs: 0,
    maxLatencyTarget: '',
    failures: [],
    crashes: 0,
    slowOnlyUnderLoad: 0,
    probeSlowOnlyUnderLoad: 0,
    elapsedMs: 0,
    probes: 0,
    maxProbeMs: 0,
  };
  const started = performance.now();
  let identity = await o.login();
  const indexes = o.only ?? Array.from({ length: o.requests }, (_, i) => i);
  let next = 0;
  let dead = false;
  let done = 0;
  /** The fuzz requests in flight, by index (what a slow probe waited behind). */
  const inFlight = new Map<number, FuzzRequest>();
  // The probe: a small parse no cache answers (its text is new each time), sent over and over
  // while the fuzz requests run. Over PROBE_MAX_MS twice in a row (once may be the machine), the
  // requests in flight held it: one request slowed another by more than a second.
  const probe = async () => {
    let slowBefore = false;
    while (!dead && done < indexes.length) {
      const p = await send(o.baseUrl, probeRequest(figures.probes), undefined).catch(() => undefined);
      figures.probes++;
      const ms = p?.latencyMs ?? Number.POSITIVE_INFINITY;
      figures.maxProbeMs = Math.max(figures.maxProbeMs, ms);
      const slow = ms > PROBE_MAX_MS || p?.status !== 200;
      if (slow && slowBefore && inFlight.size > 0) {
        const [index, req] = [...inFlight][0]!;
        figures.failures.push({ index, target: req.target, problem: `a small parse took ${Math.round(ms)} ms (over ${PROBE_MAX_MS}, twice) while this ran`, request: describeRequest(req, identity) });
        slowBefore = false;
      } else slowBefore = slow;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const worker = async () => {
    while (!dead && next < indexes.length) {
      const index = indexes[next++]!;
      const req = drawRequest(arb, o.seed, index);
      inFlight.set(index, req);
      let problem: string | undefined;
      o.onRequest?.('start', index, req.target);
      try {
        const res = await send(o.baseUrl, req, identity);
        o.onRequest?.('end', index, req.target, res.status);
        figures.statuses[res.status] = (figures.statuses[res.status] ?? 0) + 1;
        if (res.latencyMs > figures.maxLatencyMs) {
          figures.maxLatencyMs = res.latencyMs;
          figures.maxLatencyTarget = req.target;
        }
        problem = checkResponse(req, res);
        // A fuzzed logout or password change ends the identity's session: log in again.
        if (req.as === 'user' && /logout|changeauthenticationdata|resetpassword/.test(req.target)) identity = await o.login();
      } catch (e) {
        // The server may cut a connection whose head is too large while the client still sends it.
        const cut = headTooLarge(req) && /ECONNRESET|EPIPE|socket hang up/.test((e as Error).message);
        const key = cut ? 'reset (head over 16 KB)' : 'no answer';
        o.onRequest?.('end', index, req.target, key);
        figures.statuses[key] = (figures.statuses[key] ?? 0) + 1;
        if (!cut) problem = `no answer: ${(e as Error).message}`;
      }
      figures.requests++;
      if (!(await o.alive())) {
        figures.crashes++;
        problem = `the server process died${problem ? ` (${problem})` : ''}`;
        dead = true;
      }
      inFlight.delete(index);
      done++;
      if (problem) figures.failures.push({ index, target: req.target, problem, request: describeRequest(req, identity) });
      if (figures.requests % 500 === 0) o.onProgress?.({ ...figures, elapsedMs: performance.now() - started });
    }
  };
  await Promise.all([...Array.from({ length: o.concurrency ?? 2 }, worker), o.probe === false ? undefined : probe()]);
  /**
   * The request sent alone with the probe beside it, as in the run: the slower of the worst two
   * probes in a row while it was in flight (0 when it ended before a second probe).
   */
  const probeBeside = async (req: FuzzRequest): Promise<number> => {
    let settled = false;
    const running = send(o.baseUrl, req, identity)
      .catch(() => undefined)
      .finally(() => {
        settled = true;
      });
    let worst = 0;
    let previous: number | undefined;
    do {
      const p = await send(o.baseUrl, probeRequest(figures.probes++), undefined).catch(() => undefined);
      const ms = p?.status === 200 ? p.latencyMs : Number.POSITIVE_INFINITY;
      if (previous !== undefined) worst = Math.max(worst, Math.min(previous, ms));
      previous = ms;
    } while (!settled);
    await running;
    return worst;
  };
  // A shared machine under load can slow any request, and any probe: a request over the bound, or
  // one that held the probe up, counts only when it does so again when replayed alone.
  if (!dead) {
    const kept: FuzzFailure[] = [];
    for (const failure of figures.failures) {
      if (failure.problem.startsWith('a small parse took ')) {
        const held = await probeBeside(drawRequest(arb, o.seed, failure.index));
        if (held <= PROBE_MAX_MS) figures.probeSlowOnlyUnderLoad++;
        else kept.push({ ...failure, problem: `${failure.problem}; alone: the probe took ${Math.round(held)} ms` });
        continue;
      }
      if (!failure.problem.startsWith('took ')) {
        kept.push(failure);
        continue;
      }
      const req = drawRequest(arb, o.seed, failure.index);
      const again = await send(o.baseUrl, req, identity).catch(() => undefined);
      if (again && again.latencyMs <= MAX_LATENCY_MS) figures.slowOnlyUnderLoad++;
      else kept.push({ ...failure, problem: `${failure.problem}; alone: ${again ? `${Math.round(again.latencyMs)} ms` : 'no answer'}` });
    }
    figures.failures = kept;
  }
  figures.elapsedMs = performance.now() - started;
  return figures;
}

/** The figures as a report. */
export function formatFigures(f: FuzzFigures): string {
  const statuses = Object.entries(f.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  const fivexx = Object.entries(f.statuses)
    .filter(([s]) => /^5/.test(s))
    .reduce((n, [, c]) => n + c, 0);
  const lines = [
    `seed ${f.seed}: ${f.requests} requests in ${(f.elapsedMs / 1000).toFixed(1)} s (${(f.requests / (f.elapsedMs / 1000)).toFixed(0)}/s)`,
    `statuses: ${statuses}`,
    `5xx: ${fivexx}, crashes: ${f.crashes}, max latency ${Math.round(f.maxLatencyMs)} ms (${f.maxLatencyTarget}); over ${MAX_LATENCY_MS} ms only under load (in time when replayed alone): ${f.slowOnlyUnderLoad}`,
    `probes (a small parse while the run goes on): ${f.probes}, slowest ${Math.round(f.maxProbeMs)} ms (bound ${PROBE_MAX_MS} ms); held up only under load (in time when the request is replayed alone): ${f.probeSlowOnlyUnderLoad}`,
    `failures: ${f.failures.length}`,
    ...f.failures.slice(0, 50).map((x) => `  #${x.index} [${x.target}] ${x.problem}\n    replay: npm run fuzz -- --seed ${f.seed} --replay ${x.index}\n    ${x.request}`),
  ];
  return lines.join('\n');
}
