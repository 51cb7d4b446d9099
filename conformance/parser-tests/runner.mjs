/*
 * MediaWiki 1.39's parser tests against a running Quire, through its action API: what
 * tests/parser/ParserTestRunner.php does in its legacy (non-Parsoid) mode, as far as a wiki
 * operator's API can express it. See conformance/README.md ("Parser tests") for the scope.
 *
 * Per file: its `!! article`s are saved (as the sysop), then each test is parsed with
 * `action=parse` (or the API call matching its mode option: pst, msg, section, replace, comment)
 * and compared with its `!! html/php` (else `!! html`) after ParserTestResultNormalizer's
 * normalization (normalize.mjs). Tests MediaWiki's runner skips are skipped here too: `disabled`,
 * Parsoid-only (no legacy html section), `preprocessor=` other than Preprocessor_Hash.
 */
import fs from 'node:fs';
import path from 'node:path';
import { firstDifference, normalizeHtml } from './normalize.mjs';
import { readTestFile } from './reader.mjs';

/** The in-scope files: [id used in output and the ratchet, path inside the MediaWiki tree]. */
export function parserTestFiles(mwDir) {
  const files = ['parserTests.txt', 'mediaParserTests.txt', 'legacyMediaParserTests.txt', 'extraParserTests.txt', 'badCharacters.txt', 'pfeqParserTests.txt'].map((f) => [
    f,
    path.join('tests', 'parser', f),
  ]);
  for (const ext of ['Cite', 'ParserFunctions']) {
    const dir = path.join(mwDir, 'extensions', ext, 'tests', 'parser');
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) if (f.endsWith('.txt')) files.push([`${ext}/${f}`, path.join('extensions', ext, 'tests', 'parser', f)]);
  }
  return files;
}

/**
 * The files ParserTestRunner::setupUploads registers, from tests/phpunit/data/parser (the
 * runner's own copies), under the names the tests use. Foobar.svg is the 240×180 SVG it writes
 * itself. Video.ogv and Audio.oga it registers without a file; Video.ogv gets the suite's
 * 320×240 video here, Audio.oga nothing (there is no file to upload).
 */
function testUploads(mwDir) {
  const data = (f) => fs.readFileSync(path.join(mwDir, 'tests', 'phpunit', 'data', 'parser', f));
  const svg = Buffer.from('<?xml version="1.0" encoding="utf-8"?><svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="240" height="180"/>');
  return [
    ['Foobar.jpg', data('headbg.jpg'), 'image/jpeg'],
    ['Thumb.png', data('wiki.png'), 'image/png'],
    ['Foobar.svg', svg, 'image/svg+xml'],
    ['Bad.jpg', jpegSized(data('headbg.jpg'), 320, 240), 'image/jpeg'],
    ['Video.ogv', data('320x240.ogv'), 'application/ogg'],
    ['LoremIpsum.djvu', data('LoremIpsum.djvu'), 'image/vnd.djvu'],
  ];
}

/**
 * A JPEG whose frame header says width × height: ParserTestRunner records Bad.jpg as 320×240
 * (recordUpload3's metadata) over a copy of headbg.jpg, and a wiki reads a JPEG's size from its
 * SOFn segment.
 */
export function jpegSized(jpeg, width, height) {
  const out = Buffer.from(jpeg);
  for (let i = 2; i + 9 < out.length; ) {
    if (out[i] !== 0xff) break;
    const marker = out[i + 1];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
    i += 2 + out.readUInt16BE(i + 2);
  }
  return out;
}

/**
 * The interwiki table ParserTestRunner::appendInterwikiSetup installs, read from the runner's
 * own source (its `iw_prefix` / `iw_url` pairs), in the shape of Quire's INTERWIKI_TABLE. A prefix
 * that names a language (an autonym other than the code itself, as LanguageNameUtils knows it;
 * `mul` is $wgExtraInterlanguageLinkPrefixes) is interlanguage.
 */
export function parserTestInterwikis(mwDir) {
  const php = fs.readFileSync(path.join(mwDir, 'tests', 'parser', 'ParserTestRunner.php'), 'utf8');
  const block = php.slice(php.indexOf('function appendInterwikiSetup'));
  const table = {};
  for (const m of block.matchAll(/'iw_prefix'\s*=>\s*'([^']+)'[\s\S]*?'iw_url'\s*=>\s*'([^']*)'/g)) {
    if (table[m[1]]) break;
    table[m[1]] = { url: m[2] };
    let name = '';
    try {
      name = new Intl.DisplayNames([m[1]], { type: 'language' }).of(m[1]) ?? '';
    } catch {}
    if (name && name !== m[1]) table[m[1]].language = name;
  }
  return table;
}

/** A small action API client with a cookie jar. */
class Api {
  constructor(url) {
    this.endpoint = `${url}/w/api.php`;
    this.cookies = new Map();
  }
  async call(params, { body } = {}) {
    const headers = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    let payload;
    if (body) {
      payload = new FormData();
      for (const [k, v] of Object.entries({ format: 'json', formatversion: '2', ...params })) payload.append(k, v);
      payload.append(body.field, new Blob([body.data], { type: body.type }), body.name);
    } else {
      payload = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(this.endpoint, { method: 'POST', headers, body: payload });
        for (const c of res.headers.getSetCookie?.() ?? []) {
          const m = /^([^=]+)=([^;]*)/.exec(c);
          if (m) this.cookies.set(m[1], m[2]);
        }
        const text = await res.text();
        try {
          return JSON.parse(text);
        } catch {
          return { error: { code: `http-${res.status}`, info: text.slice(0, 200) } };
        }
      } catch (e) {
        if (attempt >= 2) return { error: { code: 'fetch-failed', info: String(e?.cause?.message ?? e) } };
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      }
    }
  }
  async login(user, password) {
    const t = await this.call({ action: 'query', meta: 'tokens', type: 'login' });
    const r = await this.call({ action: 'clientlogin', username: user, password, logintoken: t.query.tokens.logintoken, loginreturnurl: 'http://example.org/' });
    if (r.clientlogin?.status !== 'PASS') throw new Error(`parser tests: clientlogin failed: ${JSON.stringify(r)}`);
    this.csrf = (await this.call({ action: 'query', meta: 'tokens' })).query.tokens.csrftoken;
  }
}

/** Options whose setting has no API equivalent: listed in a failing test's reason. */
const UNEXPRESSIBLE = [
  'subpage',
  'thumbsize',
  'language',
  'variant',
  'showflags',
  'extension',
  'local',
  'preload',
  'lastsavedrevision',
  'maxincludesize',
  'maxtemplatedepth',
  'styletag',
  'wgrawhtml',
  'wgmaxtoclevel',
  'wgallowexternalimages',
  'wgenableuploads',
  'wglinkholderbatchsize',
  'wgenablemagiclinks',
  'wginterwikimagic',
  'wgnonincludablenamespaces',
];

/**
 * The `!! config` settings and `!! options` a Quire setting expresses: name → (value → the Quire
 * environment that gives it, or undefined when the value has none). A test naming one of them
 * runs against a Quire started with it (one per distinct set, see settingsOf).
 */
export const CONFIG_SETTINGS = {
  wgParserEnableLegacyMediaDOM: (v) => (typeof v === 'boolean' ? { WIKI_LEGACY_MEDIA_DOM: v ? '1' : '0' } : undefined),
  wgExternalLinkTarget: (v) => (typeof v === 'string' ? { WIKI_EXTERNAL_LINK_TARGET: v } : undefined),
  wgNoFollowLinks: (v) => (typeof v === 'boolean' ? { WIKI_NOFOLLOW_LINKS: v ? '1' : '0' } : undefined),
  wgNoFollowDomainExceptions: (v) => (typeof v === 'string' || Array.isArray(v) ? { WIKI_NOFOLLOW_DOMAIN_EXCEPTIONS: [v].flat().join(',') } : undefined),
  wgFragmentMode: (v) => (Array.isArray(v) && v.length >= 1 && v.length <= 2 && v.every((m) => m === 'html5' || m === 'legacy') ? { WIKI_FRAGMENT_MODE: v.join(',') } : undefined),
};

/**
 * The settings ParserTestRunner gives every test that Quire has a setting for (besides the
 * interwiki table, a file run.mjs writes): $wgSitename, $wgMetaNamespace, $wgServer, the 180px
 * default thumb ($wgThumbLimits), $wgFragmentMode ['legacy'] ("test with legacy encoding by
 * default"), $wgNoFollowDomainExceptions ['no-nofollow.org'], and MediaWiki's own default media DOM.
 */
export const SITE_SETTINGS = {
  WIKI_NAME: 'MediaWiki',
  WIKI_META_NAMESPACE: 'TestWiki',
  WIKI_SERVER: 'http://example.org',
  WIKI_THUMB_WIDTH: '180',
  WIKI_FRAGMENT_MODE: 'legacy',
  WIKI_LEGACY_MEDIA_DOM: '1',
  WIKI_NOFOLLOW_DOMAIN_EXCEPTIONS: 'no-nofollow.org',
};
export const OPTION_SETTINGS = {
  // ParserTestRunner's $wgThumbLimits has the option's width at the default 'thumbsize'.
  thumbsize: (v) => (/^\d+$/.test(String(v)) ? { WIKI_THUMB_WIDTH: String(v) } : undefined),
};

/**
 * The Quire environment a test's config and options ask for beyond the parser-test site's
 * ({ env, applied: names that got a setting }); the config and options not in `applied` are
 * listed in a failing test's reason.
 */
export function settingsOf(test) {
  const env = {};
  const applied = new Set();
  for (const [name, value] of Object.entries(test.config)) {
    const e = Object.hasOwn(CONFIG_SETTINGS, name) ? CONFIG_SETTINGS[name](value) : undefined;
    if (!e) continue;
    Object.assign(env, e);
    applied.add(name);
  }
  for (const [name, value] of Object.entries(test.options)) {
    const e = Object.hasOwn(OPTION_SETTINGS, name) ? OPTION_SETTINGS[name](value) : undefined;
    if (!e) continue;
    Object.assign(env, e);
    applied.add(name);
  }
  // A value the site already has needs no Quire of its own.
  for (const k of Object.keys(env)) if (SITE_SETTINGS[k] === env[k]) delete env[k];
  return { env, applied };
}

/** A group's key: its settings, sorted ('' for the site's own). */
export const settingsKey = (env) =>
  Object.keys(env)
    .sort()
    .map((k) => `${k}=${env[k]}`)
    .join(' ');

/** Why MediaWiki's runner would skip a test (getTestSkipMessage, runLegacyTest), or null. */
function skipReason(test) {
  if ('disabled' in test.options) return 'disabled';
  if (test.wikitext === null) return 'no wikitext section';
  if (test.legacyHtml === null) return test.parsoidOnly ? 'Parsoid-only' : 'no html section';
  const pre = test.options.preprocessor;
  if (pre !== undefined && pre !== 'Preprocessor_Hash') return `preprocessor=${pre}`;
  return null;
}

/**
 * The expected output in this wiki's fixed paths: MediaWiki's runner sets $wgScriptPath = ''
 * ($wgScript '/index.php') and its file repository's URL to http://example.com/images; Quire's
 * script path is MediaWiki's install default '/w' and its upload path the default
 * "$wgScriptPath/images", with no setting to change either, so `/index.php` links are expected
 * as `/w/index.php` and file URLs under `/w/images/`.
 */
export function adaptExpected(html) {
  return html.replaceAll('http://example.com/images/', '/w/images/').replace(/(^|[^\w/.-])((?:https?:)?\/\/example\.org)?\/index\.php(?=[?"'\s<]|$)/g, '$1$2/w/index.php');
}

const rtrim = (s) => s.replace(/\s+$/, '');

/**
 * Runs one test: { output, html (compare as HTML), error }. `anon` parses as the runner's
 * context user (anonymous, 127.0.0.1: signatures in pst); `api` is the sysop's session for edits.
 */
async function execute(anon, api, test, n) {
  const o = test.options;
  const title = typeof o.title === 'string' && o.title ? o.title : 'Parser test';
  const base = { title, contentmodel: 'wikitext' };
  if ('pst' in o) {
    const r = await anon.call({ action: 'parse', ...base, text: test.wikitext, pst: '1', onlypst: '1' });
    return r.error ? { error: r.error } : { output: r.parse.text, html: false };
  }
  if ('msg' in o) {
    // Parser::transformMsg is preprocess(): templates expanded, no HTML.
    const r = await anon.call({ action: 'expandtemplates', title, text: test.wikitext, prop: 'wikitext' });
    return r.error ? { error: r.error } : { output: r.expandtemplates.wikitext, html: false };
  }
  if ('section' in o) {
    const r = await anon.call({ action: 'parse', ...base, text: test.wikitext, section: String(o.section), prop: 'wikitext' });
    // Parser::getSection gives '' for a section that is not there; the API refuses instead.
    if (r.error?.code === 'nosuchsection') return { output: '', html: false };
    return r.error ? { error: r.error } : { output: r.parse.wikitext, html: false };
  }
  if ('replace' in o) {
    // Parser::replaceSection through what an editor uses: save, edit the section, read back.
    const [section, replacement] = Array.isArray(o.replace) ? o.replace : [o.replace, ''];
    const page = `Parser test replace ${n}`;
    const saved = await api.call({ action: 'edit', title: page, text: test.wikitext, token: api.csrf, summary: 'parser test' });
    if (saved.error) return { error: saved.error };
    const edited = await api.call({ action: 'edit', title: page, section: String(section), text: String(replacement), token: api.csrf, summary: 'parser test' });
    if (edited.error) return { error: edited.error };
    const r = await api.call({ action: 'query', prop: 'revisions', titles: page, rvprop: 'content', rvslots: 'main' });
    const content = r.query?.pages?.[0]?.revisions?.[0]?.slots?.main?.content;
    return content === undefined ? { error: { code: 'no-content', info: JSON.stringify(r).slice(0, 200) } } : { output: content, html: false };
  }
  if ('comment' in o) {
    const r = await anon.call({ action: 'parse', title, summary: test.wikitext, prop: '' });
    if (r.error) return { error: r.error };
    // Linker::formatComment's HTML, as ApiParse gives it.
    return { output: r.parse.parsedsummary ?? '', html: true };
  }
  if ('preload' in o) return { error: { code: 'unsupported', info: 'Parser::getPreloadText has no API' } };
  const props = ['text'];
  if ('showtitle' in o) props.push('displaytitle');
  if ('showindicators' in o) props.push('indicators');
  if ('ill' in o) props.push('langlinks');
  if ('cat' in o) props.push('categories');
  if ('property' in o) props.push('properties');
  const params = { action: 'parse', ...base, text: test.wikitext, prop: props.join('|'), disablelimitreport: '1' };
  if (!('wrap' in o)) params.wrapoutputclass = '';
  if ('notoc' in o) params.disabletoc = '1';
  // The content language cannot be chosen per request; the user language is the closest.
  if (typeof o.language === 'string') params.uselang = o.language;
  if (typeof o.variant === 'string') params.variant = o.variant;
  const r = await anon.call(params);
  if (r.error) return { error: r.error };
  const p = r.parse;
  let out = rtrim(p.text ?? '');
  if ('showtitle' in o) out = `${p.displaytitle ?? title}\n${out}`;
  if ('showindicators' in o)
    out =
      Object.entries(p.indicators ?? {})
        .map(([id, content]) => `${id}=${content}\n`)
        .join('') + out;
  let html = true;
  if ('ill' in o) {
    out = (p.langlinks ?? []).map((l) => `${l.lang}:${l.title}`).join(' ');
    html = false;
  } else if ('cat' in o) {
    out = (p.categories ?? []).map((c) => `cat=${c.category} sort=${c.sortkey ?? ''}`).join('\n');
    html = false;
  }
  if (typeof o.property === 'string') {
    const propsMap = Object.fromEntries(Array.isArray(p.properties) ? p.properties.map((x) => [x.name, x['*'] ?? x.value ?? '']) : Object.entries(p.properties ?? {}));
    for (const name of o.property.split(',')) out += `${out ? '\n' : ''}property[${name}]=${propsMap[name] ?? ''}`;
  }
  if ('showflags' in o || 'extension' in o) return { error: { code: 'unsupported', info: `${'showflags' in o ? 'showflags' : 'extension='}: ParserOutput flags and extension data have no API` } };
  return { output: out, html };
}

/** Compares one test's output with its expectation: { status, reason, exact }. */
function judge(test, result) {
  const { applied } = settingsOf(test);
  const needs = [...UNEXPRESSIBLE.filter((k) => k in test.options), ...Object.keys(test.config)].filter((k) => !applied.has(k));
  const prefix = needs.length ? `[needs ${needs.join(',')}] ` : '';
  if (result.error)
    return { status: 'failed', reason: `${prefix}API error ${result.error.code}: ${String(result.error.info ?? '').slice(0, 80)}`.replace(/\s+/g, ' ').replace(/ :: /g, ' : '), exact: false };
  const expected = adaptExpected(test.legacyHtml);
  const exact = rtrim(expected) === rtrim(result.output);
  let e;
  let a;
  if (result.html) {
    e = normalizeHtml(expected);
    a = normalizeHtml(result.output);
  } else {
    e = rtrim(expected);
    a = rtrim(result.output);
  }
  if (e === a) return { status: 'passed', reason: '', exact };
  return { status: 'failed', reason: prefix + firstDifference(e, a, 150 - prefix.length), exact };
}

/** Runs async jobs with at most `limit` at once. */
async function pool(items, limit, fn) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  });
  await Promise.all(workers);
}

/**
 * Runs the parser tests. `mwDir`: the unpacked MediaWiki tree (tests/parser, extensions/…,
 * tests/phpunit/data/parser). `fileFilter` / `testFilter`: substrings of a file id / test name.
 * `startWiki(env)`: starts a Quire with the parser-test site's settings plus `env` (a test's own,
 * settingsOf) and resolves to { url, user, password, seeded, stop }; the tests are grouped by
 * their settings and each group runs against its own Quire, which gets the uploads and the
 * articles of the files it runs tests of unless it was `seeded` with them (started on a copy of
 * the first group's data).
 * Returns { results: [{ file, name, section, status, reason, exact }], skipped, seconds, warnings, groups }.
 */
export async function runParserTests({ startWiki, mwDir, fileFilter, testFilter, concurrency = 4, log = console.log }) {
  const started = Date.now();
  const warnings = [];
  const skipped = [];
  const files = [];
  const groups = new Map([['', { env: {}, byFile: new Map() }]]);
  for (const [id, rel] of parserTestFiles(mwDir)) {
    if (fileFilter && !id.includes(fileFilter)) continue;
    const file = readTestFile(fs.readFileSync(path.join(mwDir, rel), 'utf8'));
    const fileIndex = files.push({ id, file, results: [] }) - 1;
    for (const t of file.tests) {
      if (testFilter && !t.name.includes(testFilter)) continue;
      const why = skipReason(t);
      if (why) {
        skipped.push({ file: id, name: t.name, reason: why });
        continue;
      }
      const { env } = settingsOf(t);
      const key = settingsKey(env);
      if (!groups.has(key)) groups.set(key, { env, byFile: new Map() });
      const byFile = groups.get(key).byFile;
      if (!byFile.has(fileIndex)) byFile.set(fileIndex, []);
      byFile.get(fileIndex).push({ test: t, order: files[fileIndex].results.length });
      files[fileIndex].results.push(undefined);
    }
  }
  let n = 0;
  const timings = [];
  for (const [key, group] of groups) {
    if (key && !group.byFile.size) continue;
    const groupStarted = Date.now();
    const wiki = await startWiki(group.env);
    try {
      const api = new Api(wiki.url);
      await api.login(wiki.user, wiki.password);
      const anon = new Api(wiki.url);
      // A wiki started on a copy of the first one's data has its uploads and articles.
      for (const [name, data, type] of wiki.seeded ? [] : testUploads(mwDir)) {
        const r = await api.call({ action: 'upload', filename: name, ignorewarnings: '1', comment: 'parser test upload', text: '', token: api.csrf }, { body: { field: 'file', name, data, type } });
        if (r.error || r.upload?.result !== 'Success') warnings.push(`${key || 'site settings'}: upload ${name}: ${r.error ? `${r.error.code}: ${r.error.info}` : JSON.stringify(r.upload)}`);
      }
      // The site's own settings create every file's articles, as before; another group those of the files it runs.
      for (const [fileIndex, { id, file }] of files.entries()) {
        const tests = group.byFile.get(fileIndex);
        if (key && !tests) continue;
        for (const a of wiki.seeded ? [] : file.articles) {
          const r = await api.call({ action: 'edit', title: a.title, text: a.text, token: api.csrf, summary: 'parser test article', bot: '1' });
          if (r.error) warnings.push(`${id}: article ${a.title}: ${r.error.code}: ${r.error.info}`);
        }
        if (!tests) continue;
        await pool(tests, concurrency, async ({ test: t, order }) => {
          const out = await execute(anon, api, t, ++n);
          files[fileIndex].results[order] = { file: id, name: t.name.replace(/\s+/g, ' ').trim(), section: t.section || id, ...judge(t, out) };
        });
      }
    } finally {
      await wiki.stop();
    }
    const tests = [...group.byFile.values()].reduce((a, ts) => a + ts.length, 0);
    timings.push({ settings: key || '(site settings)', tests, seconds: Math.round((Date.now() - groupStarted) / 1000) });
    log(`parser tests: ${tests} tests with ${key || 'the site settings'} in ${Math.round((Date.now() - groupStarted) / 1000)} s`);
  }
  const results = [];
  for (const f of files) {
    const rs = f.results.filter(Boolean);
    results.push(...rs);
    log(`parser tests: ${f.id}: ${rs.filter((r) => r.status === 'passed').length}/${rs.length}`);
  }
  return { results, skipped, warnings, groups: timings, seconds: Math.round((Date.now() - started) / 1000) };
}

/** The per-file and per-section table, and the totals. */
export function printParserReport({ results, skipped, warnings, seconds, groups }, print = console.log) {
  const count = (rs) => ({ passed: rs.filter((r) => r.status === 'passed').length, total: rs.length, exact: rs.filter((r) => r.exact).length });
  const group = (key) => {
    const m = new Map();
    for (const r of results) {
      const k = key(r);
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(r);
    }
    return m;
  };
  const pct = (c) => (c.total ? ((100 * c.passed) / c.total).toFixed(1) : '100.0');
  print(`\nparser tests (MediaWiki 1.39 tests/parser, Cite, ParserFunctions) against Quire, ${seconds} s`);
  for (const g of groups ?? []) print(`  ${g.settings}: ${g.tests} tests, ${g.seconds} s (start, uploads, articles, tests)`);
  for (const w of warnings) print(`  warning: ${w}`);
  print('per file: passed/total (%), skipped as MediaWiki skips them');
  const files = group((r) => r.file);
  const width = Math.max(10, ...[...files.keys()].map((f) => f.length));
  for (const [f, rs] of files) {
    const c = count(rs);
    print(`  ${f.padEnd(width)}  ${`${c.passed}/${c.total}`.padEnd(10)} ${pct(c).padStart(5)} %  (${skipped.filter((s) => s.file === f).length} skipped)`);
  }
  print('per section (file › nearest preceding "### heading", or the file): passed/total (%)');
  const sections = group((r) => `${r.file} › ${r.section}`);
  const sw = Math.max(...[...sections.keys()].map((s) => s.length));
  for (const [s, rs] of sections) {
    const c = count(rs);
    print(`  ${s.padEnd(sw)}  ${`${c.passed}/${c.total}`.padEnd(10)} ${pct(c).padStart(5)} %`);
  }
  const all = count(results);
  print(`parser tests: ${all.passed}/${all.total} passed (${pct(all)} %), ${all.exact} byte-identical before normalization; ${skipped.length} skipped (${summarize(skipped.map((s) => s.reason))})`);
}

function summarize(reasons) {
  const m = new Map();
  for (const r of reasons) m.set(r, (m.get(r) ?? 0) + 1);
  return [...m].map(([r, c]) => `${c} ${r}`).join(', ');
}

/** conformance/parser-ratchet.txt: `file :: test name :: reason` per listed failure. */
export function readParserRatchet(file) {
  const listed = new Map();
  if (!fs.existsSync(file)) return listed;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const first = line.indexOf(' :: ');
    const last = line.lastIndexOf(' :: ');
    if (first < 0) continue;
    const key = last > first ? line.slice(0, last) : line;
    listed.set(key, last > first ? line.slice(last + 4) : '');
  }
  return listed;
}

/**
 * The ratchet's rule: a failure not listed fails the run, and so does a listed test that passes.
 * With a file or test filter only the tests that ran are judged.
 */
export function checkParserRatchet(results, ratchetFile, print = console.log) {
  const listed = readParserRatchet(ratchetFile);
  const unexpected = [];
  const fixed = [];
  for (const r of results) {
    const k = `${r.file} :: ${r.name}`;
    if (r.status === 'failed' && !listed.has(k)) unexpected.push(`${k} :: ${r.reason}`);
    if (r.status === 'passed' && listed.has(k)) fixed.push(k);
  }
  if (unexpected.length) {
    print(`\nparser test failures not in conformance/parser-ratchet.txt (${unexpected.length}):`);
    for (const u of unexpected) print(`  ${u}`);
  }
  if (fixed.length) {
    print(`\nlisted in conformance/parser-ratchet.txt but passing now; remove them (${fixed.length}):`);
    for (const u of fixed) print(`  ${u}`);
  }
  return { ok: !unexpected.length && !fixed.length, unexpected, fixed };
}

/**
 * --write-parser-ratchet: today's failures, with freshly generated reasons. Listed tests that
 * did not run (a file or test filter) keep their lines.
 */
export function writeParserRatchet(results, ratchetFile) {
  const ran = new Set(results.map((r) => `${r.file} :: ${r.name}`));
  const kept = [...readParserRatchet(ratchetFile)].filter(([k]) => !ran.has(k)).map(([k, why]) => `${k} :: ${why}`);
  const lines = [
    '# Parser tests (MediaWiki 1.39 tests/parser, Cite, ParserFunctions) that fail against Quire, one per',
    '# line: file :: test name :: first difference after normalization (or the API error).',
    '# npm run conformance fails on a failure not listed here and on a listed test that passes.',
    '# Regenerate: node conformance/run.mjs --only-parser --write-parser-ratchet',
    ...kept,
  ];
  for (const r of results) if (r.status === 'failed') lines.push(`${r.file} :: ${r.name} :: ${r.reason}`);
  fs.writeFileSync(ratchetFile, `${lines.join('\n')}\n`);
}
