/*
 * Same data, same answers: the differential check of `npm run conformance`.
 *
 * The same writes go to Quire and to the reference MediaWiki 1.39 (conformance/reference/setup.sh)
 * through their action APIs: a user of this run, pages with templates, sections, links, categories,
 * edits, a move, a protection, a deletion and an upload, all under one title prefix that is new in
 * each run (so a reference wiki that already holds other data answers only about these). Then the
 * same read requests go to both: every query module of the reference's paraminfo (each multi-valued
 * `prop` parameter with all its values), generators, parse, expandtemplates, compare and the REST
 * routes. Ids, timestamps and tokens are normalized (ids to the name of the write that made them),
 * and the answers are compared: their shape (the keys and types) and their values.
 *
 * A request that differs is listed in differential-ratchet.txt with the first difference and why it
 * still differs; a new difference fails the run, and so does a listed request that now answers the same.
 *
 *   node conformance/differential.mjs --quire URL --quire-user NAME --quire-password PW
 *        [--reference URL] [--write-ratchet] [--verbose] [--dump DIR]
 *
 * --dump DIR writes both answers of each differing request to DIR (one JSON file each).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const here = path.dirname(new URL(import.meta.url).pathname);
const RATCHET = path.join(here, 'differential-ratchet.txt');
const log = (...a) => console.log('[differential]', ...a);

/** A cookie-keeping client of one wiki's action API and REST API. */
class Wiki {
  cookies = new Map();
  /** Ids of what this run wrote, by the name of the write: `rev:Alpha#1`, `page:Alpha`, `log:move`… */
  ids = new Map();
  constructor(name, base) {
    this.name = name;
    this.base = base.replace(/\/$/, '');
  }
  async fetch(url, init = {}) {
    const r = await fetch(url, {
      ...init,
      headers: { ...init.headers, cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'user-agent': 'quire-differential' },
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    for (const c of r.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const i = kv.indexOf('=');
      this.cookies.set(kv.slice(0, i).trim(), kv.slice(i + 1).trim());
    }
    return r;
  }
  async api(params, { post = false, form } = {}) {
    const body = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
    const r = form
      ? await this.fetch(`${this.base}/w/api.php`, { method: 'POST', body: form })
      : await this.fetch(`${this.base}/w/api.php${post ? '' : `?${body}`}`, post ? { method: 'POST', body } : {});
    const text = await r.text();
    try {
      return { status: r.status, json: JSON.parse(text) };
    } catch {
      return { status: r.status, json: { nonjson: text.slice(0, 200) } };
    }
  }
  async rest(route) {
    const r = await this.fetch(`${this.base}/w/rest.php${route}`);
    const text = await r.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = { nonjson: text.length };
    }
    return { status: r.status, json };
  }
  async login(name, password) {
    this.cookies.clear();
    const t = (await this.api({ action: 'query', meta: 'tokens', type: 'login' })).json.query.tokens.logintoken;
    const r = (await this.api({ action: 'login', lgname: name, lgpassword: password, lgtoken: t }, { post: true })).json;
    if (r.login?.result !== 'Success') throw new Error(`${this.name}: login as ${name}: ${JSON.stringify(r)}`);
  }
  async token(type = 'csrf') {
    return (await this.api({ action: 'query', meta: 'tokens', type })).json.query.tokens[`${type}token`];
  }
  async write(params, tokenType = 'csrf') {
    const r = (await this.api({ ...params, token: await this.token(tokenType) }, { post: true })).json;
    if (r.error) throw new Error(`${this.name}: ${JSON.stringify(params).slice(0, 200)}: ${JSON.stringify(r.error).slice(0, 300)}`);
    return r;
  }
}

/** A small PNG (w×h, a pattern of its seed), made here. */
function png(w, h, seed) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(zlib.crc32(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) row.set([(x * seed) & 255, ((y * seed) >> 8) & 255, (seed >> ((x + y) % 24)) & 255], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * The run's data, written the same way to one wiki: `P` is the run's title prefix, `user` its
 * account (made by the wiki's bootstrap administrator, given sysop and bureaucrat).
 */
async function load(wiki, admin, P, user, password) {
  await wiki.login(admin.name, admin.password);
  await wiki.api({ action: 'createaccount', username: user, password, retype: password, createreturnurl: `${wiki.base}/`, createtoken: await wiki.token('createaccount') }, { post: true });
  // A bot too, as a wiki's maintenance accounts are: its log entries are bot changes (edits are only when asked).
  await wiki.write({ action: 'userrights', user, add: 'sysop|bureaucrat|bot', reason: 'differential' }, 'userrights');
  await wiki.login(user, password);
  const edit = async (key, title, text, extra = {}) => {
    const r = await wiki.write({ action: 'edit', title, text, ...extra });
    wiki.ids.set(`page:${key}`, r.edit.pageid);
    const n = [...wiki.ids.keys()].filter((k) => k.startsWith(`rev:${key}#`)).length + 1;
    if (r.edit.newrevid) wiki.ids.set(`rev:${key}#${n}`, r.edit.newrevid);
    return r;
  };
  await edit('Box', `Template:${P} box`, `<div class="box">{{{1|none}}}</div><includeonly>[[Category:${P} boxes]]</includeonly><noinclude>Documentation.</noinclude>`, { summary: 'template' });
  await edit('Boxes', `Category:${P} boxes`, 'Pages with a box.', { summary: 'category' });
  await edit('Hidden', `Category:${P} hidden`, 'A maintenance category.__HIDDENCAT__', { summary: 'hidden category' });
  await edit(
    'Alpha',
    `${P} Alpha`,
    `Intro of '''Alpha''' with a [[${P} Beta|link]], a [[${P} Missing]] red link and [https://${P.toLowerCase()}.example.org/x an external link].\n\n== One ==\n{{${P} box|inside}}\n\n=== One point one ===\nText.<ref>A note.</ref>\n\n== Two ==\n* a\n* b\n\n{| class="wikitable"\n! h\n|-\n| c\n|}\n\n<references />\n{{DEFAULTSORT:Zed}}[[Category:${P} plain]][[Category:${P} hidden]]`,
    { summary: 'first' },
  );
  await edit('Beta', `${P} Beta`, `Beta links to [[${P} Alpha]] and [[${P} Alpha#One]].`, { summary: 'beta one' });
  await edit('Beta', `${P} Beta`, `Beta links to [[${P} Alpha]] and [[${P} Alpha#One]], again.`, { summary: 'beta two', minor: '1' });
  await edit('Gamma', `${P} Gamma`, 'Gamma before its move.', { summary: 'gamma' });
  await wiki.write({ action: 'move', from: `${P} Gamma`, to: `${P} Delta`, reason: 'renamed' });
  await wiki.write({ action: 'protect', title: `${P} Alpha`, protections: 'edit=sysop|move=sysop', expiry: 'infinite', reason: 'protected' });
  await edit('Doomed', `${P} Doomed`, 'To be deleted.', { summary: 'doomed' });
  await wiki.write({ action: 'delete', title: `${P} Doomed`, reason: 'deleted' });
  await edit('Talk', `Talk:${P} Alpha`, 'A question. ~~~~', { summary: 'talk' });
  const form = new FormData();
  for (const [k, v] of Object.entries({
    action: 'upload',
    filename: `${P}.png`,
    comment: 'upload',
    text: 'An image.',
    ignorewarnings: '1',
    format: 'json',
    formatversion: '2',
    token: await wiki.token(),
  }))
    form.append(k, v);
  // Its pixels from the run's id: a file of its own (no duplicate of an earlier run's upload).
  form.append('file', new Blob([png(40, 30, parseInt(P.slice(-8), 16) | 1)], { type: 'image/png' }), `${P}.png`);
  const up = (await wiki.api({}, { form })).json;
  if (up.upload?.result !== 'Success') throw new Error(`${wiki.name}: upload: ${JSON.stringify(up).slice(0, 300)}`);
  await edit('Gallery', `${P} Gallery`, `[[File:${P}.png|thumb|A caption]]`, { summary: 'image' });
  const logs = (await wiki.api({ action: 'query', list: 'logevents', leprefix: P, lelimit: '50', ledir: 'newer' })).json.query.logevents;
  for (const [i, l] of logs.entries()) wiki.ids.set(`log:${i}:${l.type}/${l.action}`, l.logid);
  const user_ = (await wiki.api({ action: 'query', list: 'users', ususers: user })).json.query.users[0];
  wiki.ids.set('user:run', user_.userid);
}

/** Waits (at most 60 s) until the wiki's job queue is empty (siteinfo statistics `jobs`), asking twice in a row. */
async function settle(wiki) {
  let empty = 0;
  for (let i = 0; i < 120 && empty < 2; i++) {
    const jobs = (await wiki.api({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).json.query?.statistics?.jobs;
    empty = jobs === 0 ? empty + 1 : 0;
    if (empty < 2) await new Promise((r) => setTimeout(r, 500));
  }
}

/** The read requests, from the reference's paraminfo: [family, params or REST route]. */
async function requestsFrom(reference, P, user) {
  const modules = (await reference.api({ action: 'paraminfo', modules: 'query+*' })).json.paraminfo.modules;
  const titles = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Doomed', 'Gallery']
    .map((t) => `${P} ${t}`)
    .concat([`Template:${P} box`, `Category:${P} boxes`, `File:${P}.png`, `Talk:${P} Alpha`])
    .join('|');
  // How each list module is kept to this run's data: the parameters that name it.
  const scope = {
    prefix: P,
    user,
    users: user,
    search: P,
    title: `${P} Alpha`,
    userprefix: user,
  };
  const titleOf = {
    backlinks: `${P} Alpha`,
    embeddedin: `Template:${P} box`,
    imageusage: `File:${P}.png`,
    categorymembers: `Category:${P} boxes`,
    recentchanges: `${P} Beta`,
    logevents: `${P} Alpha`,
  };
  // Lists over the whole wiki with no parameter to keep them to this run's data, and metadata that
  // is the wiki's configuration (siteinfo, messages): not the same data on both sides.
  const unscoped = new Set([
    'random',
    'querypage',
    'tags',
    'pagepropnames',
    'pageswithprop',
    'protectedtitles',
    'blocks',
    'langbacklinks',
    'iwbacklinks',
    'allfileusages',
    'allredirects',
    'alltransclusions',
    'siteinfo',
    'allmessages',
    'languageinfo',
    'filerepoinfo',
    'authmanagerinfo',
    'tokens',
    'oath',
    'mystashedfiles',
    'stashimageinfo',
    'exturlusage',
  ]);
  const out = [];
  for (const m of modules) {
    if (unscoped.has(m.name)) continue;
    const p = { action: 'query', [m.group]: m.name };
    let scoped = m.group === 'prop';
    if (m.group === 'prop') p.titles = titles;
    for (const param of m.parameters) {
      const key = `${m.prefix}${param.name}`;
      if (m.group !== 'prop' && param.name === 'title' && titleOf[m.name]) {
        p[key] = titleOf[m.name];
        scoped = true;
      } else if (m.group !== 'prop' && scope[param.name] !== undefined && param.name !== 'title') {
        p[key] = scope[param.name];
        scoped = true;
      }
    }
    if (m.group === 'meta' && ['userinfo'].includes(m.name)) scoped = true;
    if (['watchlist', 'watchlistraw', 'usercontribs', 'allrevisions', 'alldeletedrevisions'].includes(m.name)) scoped = true;
    if (!scoped) continue;
    out.push([`${m.group}=${m.name}`, { ...p }]);
    if (m.group === 'prop') {
      // Titles that name no page of this wiki: an interwiki title, a special page, a Media: title.
      out.push([`${m.group}=${m.name}`, { ...p, titles: `fr:${P}|Special:${P}|Special:RecentChanges|Media:${P}.png` }]);
      // Each of its switches, each other value of a choice of few, and each size that is off by
      // default, with all its properties.
      const propParam = m.parameters.find((x) => x.name === 'prop' && x.multi && Array.isArray(x.type));
      const withAll = propParam ? { ...p, [`${m.prefix}prop`]: propParam.type.filter((v) => !(propParam.deprecatedvalues ?? []).includes(v)).join('|') } : p;
      for (const param of m.parameters) {
        if (param.deprecated || param.name === 'prop') continue;
        const key = `${m.prefix}${param.name}`;
        if (param.type === 'boolean') out.push([`${m.group}=${m.name}`, { ...withAll, [key]: '1' }]);
        else if (Array.isArray(param.type) && !param.multi && param.type.length <= 4) {
          for (const v of param.type) if (v !== param.default) out.push([`${m.group}=${m.name}`, { ...withAll, [key]: v }]);
        } else if (param.type === 'integer' && param.default === -1) out.push([`${m.group}=${m.name}`, { ...withAll, [key]: '20' }]);
      }
    }
    // Each multi-valued prop parameter with all its values.
    for (const param of m.parameters) {
      if (param.name !== 'prop' || !param.multi || !Array.isArray(param.type)) continue;
      const values = param.type.filter((v) => !(param.deprecatedvalues ?? []).includes(v));
      out.push([`${m.group}=${m.name}`, { ...p, [`${m.prefix}prop`]: values.join('|') }]);
    }
  }
  // list=logevents takes one of letitle and leprefix: the run's log by its prefix alone too
  // (the request above, with both, is an error on MediaWiki), each property.
  const logevents = modules.find((m) => m.name === 'logevents');
  const leprop = logevents?.parameters.find((x) => x.name === 'prop');
  if (logevents && leprop) {
    out.push(['list=logevents', { action: 'query', list: 'logevents', leprefix: P, ledir: 'newer', lelimit: '50', leprop: leprop.type.join('|') }]);
  }
  // Generators: the run's pages through a generator, with page info.
  out.push(['generator', { action: 'query', generator: 'allpages', gapprefix: P, prop: 'info|categories|links|templates', inprop: 'protection|url|displaytitle' }]);
  out.push(['generator', { action: 'query', generator: 'links', titles: `${P} Beta`, prop: 'info' }]);
  out.push(['generator', { action: 'query', generator: 'search', gsrsearch: P, prop: 'info' }]);
  out.push(['generator', { action: 'query', generator: 'prefixsearch', gpssearch: P, prop: 'info' }]);
  // Completion as a reader types it: the run's prefix in lower case too (only its first letter is folded).
  for (const q of [P, P.toLowerCase(), `${P.toLowerCase()} a`]) {
    out.push(['list=prefixsearch', { action: 'query', list: 'prefixsearch', pssearch: q }]);
    out.push(['opensearch', { action: 'opensearch', search: q }]);
  }
  out.push(['generator', { action: 'query', titles: `${P} Gamma`, redirects: '1', prop: 'revisions', rvprop: 'content|comment|user', rvslots: 'main' }]);
  // parse, expandtemplates, compare: each prop value list in full.
  const actions = (await reference.api({ action: 'paraminfo', modules: 'parse|expandtemplates|compare' })).json.paraminfo.modules;
  const allProps = (name, exclude = []) => {
    const param = actions.find((m) => m.name === name)?.parameters.find((x) => x.name === 'prop');
    return (param?.type ?? []).filter((v) => !(param.deprecatedvalues ?? []).includes(v) && !exclude.includes(v)).join('|');
  };
  out.push(['parse', { action: 'parse', page: `${P} Alpha` }]);
  out.push(['parse', { action: 'parse', page: `${P} Alpha`, prop: allProps('parse', ['headhtml']) }]);
  out.push(['parse', { action: 'parse', page: `${P} Gallery`, prop: 'text|images|links' }]);
  out.push(['parse', { action: 'parse', title: `${P} Scratch`, text: `{{${P} box|x}} [[${P} Beta]] {{PAGENAME}} {{#if:a|b|c}}`, contentmodel: 'wikitext', prop: 'text|templates|links|categories' }]);
  out.push(['expandtemplates', { action: 'expandtemplates', title: `${P} Scratch`, text: `{{${P} box|x}} <!-- c --> {{PAGENAME}}`, prop: allProps('expandtemplates') }]);
  out.push(['compare', { action: 'compare', fromtitle: `${P} Alpha`, totitle: `${P} Beta` }]);
  out.push(['compare', { action: 'compare', fromtitle: `${P} Beta`, torelative: 'prev', prop: allProps('compare') }]);
  // REST.
  const enc = (t) => encodeURIComponent(t.replaceAll(' ', '_'));
  for (const route of [
    `/v1/page/${enc(`${P} Alpha`)}`,
    `/v1/page/${enc(`${P} Alpha`)}/bare`,
    `/v1/page/${enc(`${P} Beta`)}/history`,
    `/v1/page/${enc(`${P} Beta`)}/history/counts/edits`,
    `/v1/page/${enc(`${P} Alpha`)}/links/language`,
    `/v1/page/${enc(`${P} Gallery`)}/links/media`,
    `/v1/page/${enc(`${P} Doomed`)}`,
    `/v1/file/${enc(`File:${P}.png`)}`,
    `/v1/search/page?q=${encodeURIComponent(P)}&limit=10`,
    `/v1/search/title?q=${encodeURIComponent(P)}&limit=10`,
    `/v1/search/title?q=${encodeURIComponent(P.toLowerCase())}&limit=10`,
    '/v1/revision/{rev:Beta#2}/bare',
    '/v1/revision/{rev:Beta#1}/compare/{rev:Beta#2}',
  ]) {
    out.push(['rest', route]);
  }
  return out;
}

/** What an id names, by its key (and, for REST's `id`, the object it is in). */
const REV_KEYS = new Set(['revid', 'parentid', 'old_revid', 'newrevid', 'oldrevid', 'lastrevid', 'fromrevid', 'torevid', 'oldid', 'diff']);
const PAGE_KEYS = new Set(['pageid', 'fromid', 'toid', 'curid', 'logpage']);
function idKind(key, parent) {
  if (REV_KEYS.has(key)) return 'rev';
  if (PAGE_KEYS.has(key)) return 'page';
  if (key === 'logid') return 'log';
  if (key === 'talkid' || key === 'subjectid') return 'page';
  if (key.endsWith('userid') || key === 'user_id' || (parent === 'centralids' && key === 'local')) return 'user';
  if (key === 'rcid') return 'rc';
  if (key === 'id') {
    if (['latest', 'revisions', 'from', 'to', 'revision'].includes(parent)) return 'rev';
    if (parent === 'user' || parent === 'userinfo') return 'user';
    return 'page';
  }
  return undefined;
}
const TIMINGS = new Set(['limitreport-cputime', 'limitreport-walltime', 'limitreport-timingprofile']);
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$|^\d{14}$/;

/** Ids as the write that made them, timestamps and tokens as placeholders; the run's prefix as $P. */
function normalize(value, wiki, P, key = '', parent = '') {
  if (Array.isArray(value)) return value.map((v) => normalize(v, wiki, P, key, parent));
  if (value && typeof value === 'object') {
    // A limit report's timings are the machine's, not the wiki's.
    if (TIMINGS.has(value.name)) return { name: value.name, values: '<timing>' };
    const out = {};
    for (const k of Object.keys(value).sort()) {
      if (['servedby', 'curtimestamp', 'requestid', 'docref'].includes(k)) continue;
      out[k] = /continue$/.test(k) && typeof value[k] === 'string' ? '<continue>' : normalize(value[k], wiki, P, k, key);
    }
    return out;
  }
  const kind = typeof value === 'number' ? idKind(key, parent) : undefined;
  if (kind) {
    for (const [name, id] of wiki.ids) if (id === value && name.startsWith(`${kind}:`)) return `<${name}>`;
    return value === 0 ? 0 : `<${kind}>`;
  }
  if (typeof value === 'string') {
    if (TS.test(value)) return '<ts>';
    if (/token$/.test(key) || /^[0-9a-f]{32,}\+\\$/.test(value)) return '<token>';
    let s = value.replaceAll(P, '$P').replaceAll(P.toLowerCase(), '$p').replaceAll(wiki.base, '$SERVER');
    // Ids inside links and parser-cache comments; timestamps in signatures.
    s = s.replace(/<!--[\s\S]*?-->/g, '');
    s = s.replace(/\d\d:\d\d, \d{1,2} [A-Z][a-z]+ \d{4} \(UTC\)/g, '<sigtime>');
    s = s.replace(/\b\d+\.\d{3} seconds?\b/g, '<seconds>');
    s = s.replace(/\b(oldid|diff|curid)=\d+/g, '$1=<id>').replace(/\/revision\/\d+/g, '/revision/<id>');
    return s;
  }
  return value;
}

/** The keys and types of a value: what "same shape" compares. */
function shape(value) {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).map((k) => [k, shape(value[k])]));
  return typeof value;
}

/** The first place two values differ, as `path: expected … got …` (MediaWiki's first). */
function firstDifference(a, b, at = '') {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = Array.isArray(a) ? [...Array(Math.max(a.length, b.length)).keys()] : [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      if (!(k in a)) return `${at}.${k}: only in Quire`;
      if (!(k in b)) return `${at}.${k}: missing`;
      const d = firstDifference(a[k], b[k], `${at}.${k}`);
      if (d) return d;
    }
  }
  const show = (v) => JSON.stringify(v)?.slice(0, 60);
  return `${at || '.'}: ${show(a)} vs ${show(b)}`;
}

/** A request as the ratchet names it: its parameters (or REST route), the run's prefix as $P. */
function requestKey(req, P) {
  const key =
    typeof req === 'string'
      ? `REST ${req}`
      : Object.entries(req)
          .map(([k, v]) => `${k}=${v}`)
          .join('&');
  return key.replaceAll(P, '$P').replaceAll(encodeURIComponent(P), '$P').replaceAll(P.toLowerCase(), '$p');
}

function readRatchet() {
  const listed = new Map();
  if (!fs.existsSync(RATCHET)) return listed;
  for (const line of fs.readFileSync(RATCHET, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    // `<request> :: <first difference> :: <why it still differs>` (the reason is kept on rewrite).
    const [request, difference = '', ...why] = line.split(' :: ');
    listed.set(request, { difference, reason: why.join(' :: ') });
  }
  return listed;
}

/**
 * Runs the check; returns true when it holds (no unlisted difference, no listed one gone).
 * `quire.admin` and `reference.admin` are each wiki's bootstrap administrator.
 */
export async function runDifferential({ quire, reference, writeRatchet = false, verbose = false, dump }) {
  const started = Date.now();
  const runId = crypto.randomBytes(4).toString('hex');
  const P = `Qdiff${runId}`;
  const user = `${P} runner`;
  const password = `pw-${crypto.randomBytes(12).toString('hex')}`;
  const wikis = { reference: new Wiki('reference', reference.url), quire: new Wiki('quire', quire.url) };
  await Promise.all([load(wikis.reference, reference.admin, P, user, password), load(wikis.quire, quire.admin, P, user, password)]);
  // Link tables are written by jobs after the edits (both wikis): the reads wait for them.
  await Promise.all(Object.values(wikis).map((w) => settle(w)));
  const requests = await requestsFrom(wikis.reference, P, user);
  const families = new Map();
  const differing = new Map();
  for (const [family, req] of requests) {
    const answers = {};
    for (const side of ['reference', 'quire']) {
      const w = wikis[side];
      if (typeof req === 'string') {
        const route = req.replace(/\{([^}]+)\}/g, (_m, name) => String(w.ids.get(name)));
        const r = await w.rest(route);
        // A revision route's own `id` is a revision's, a page route's a page's.
        answers[side] = { status: r.status, body: normalize(r.json, w, P, route.startsWith('/v1/revision/') ? 'revision' : 'page') };
      } else {
        const r = await w.api(req);
        answers[side] = normalize(r.json, w, P);
      }
    }
    const key = requestKey(req, P);
    const f = families.get(family) ?? { total: 0, same: 0, sameShape: 0 };
    f.total++;
    const diff = firstDifference(answers.reference, answers.quire);
    if (!diff) f.same++;
    else differing.set(key, diff.replaceAll('\n', '\\n'));
    if (JSON.stringify(shape(answers.reference)) === JSON.stringify(shape(answers.quire))) f.sameShape++;
    families.set(family, f);
    if (verbose && diff) log(`${key}\n    ${diff}`);
    // Both answers of a differing request, whole, for reading the difference beyond its first place.
    if (dump && diff) {
      fs.mkdirSync(dump, { recursive: true });
      fs.writeFileSync(path.join(dump, `${String(differing.size).padStart(3, '0')}.json`), JSON.stringify({ request: key, difference: diff, ...answers }, null, 1));
    }
  }
  const total = [...families.values()].reduce((a, f) => a + f.total, 0);
  const same = [...families.values()].reduce((a, f) => a + f.same, 0);
  console.log(`\ndifferential check: the same data in Quire and MediaWiki 1.39, ${total} read requests, ${Math.round((Date.now() - started) / 1000)} s`);
  console.log('per module: same values/total (same shape)');
  const width = Math.max(...[...families.keys()].map((k) => k.length));
  for (const [k, f] of [...families].sort()) console.log(`  ${k.padEnd(width)}  ${`${f.same}/${f.total}`.padEnd(7)} (${f.sameShape})`);
  console.log(`total: ${same}/${total} (${((100 * same) / total).toFixed(1)} %) answer the same`);

  const listed = readRatchet();
  if (writeRatchet) {
    const header = [
      '# Read requests whose answers still differ between Quire and MediaWiki 1.39 on the same data',
      '# (conformance/differential.mjs), one per line: `<request> :: <first difference, MediaWiki first> :: <why>`.',
      '# The reason is written by hand; a rewrite keeps it.',
      '# `npm run conformance` fails on a difference not listed here and on a listed request that answers the same.',
      '# Regenerate with: node conformance/run.mjs --only-differential --write-differential-ratchet',
    ];
    const line = ([k, d]) => {
      const why = listed.get(k)?.reason;
      return why ? `${k} :: ${d} :: ${why}` : `${k} :: ${d}`;
    };
    fs.writeFileSync(RATCHET, `${[...header, ...[...differing].sort().map(line)].join('\n')}\n`);
    log(`wrote ${differing.size} entries to ${path.relative(process.cwd(), RATCHET)}`);
    return true;
  }
  const unexpected = [...differing].filter(([k]) => !listed.has(k));
  const fixed = [...listed.keys()].filter((k) => !differing.has(k) && requests.some(([, r]) => requestKey(r, P) === k));
  for (const [k, d] of unexpected) console.log(`  NEW DIFFERENCE: ${k}\n    ${d}`);
  for (const k of fixed) console.log(`  NOW THE SAME (remove from differential-ratchet.txt): ${k}`);
  return unexpected.length === 0 && fixed.length === 0;
}

// As a command: against a running Quire and reference.
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (n, d) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
  const ok = await runDifferential({
    quire: { url: value('--quire', 'http://127.0.0.1:8199'), admin: { name: value('--quire-user', 'Root'), password: value('--quire-password', '') } },
    reference: { url: value('--reference', 'http://127.0.0.1:8080'), admin: { name: value('--reference-user', 'Admin'), password: value('--reference-password', 'adminpass123456') } },
    writeRatchet: args.includes('--write-ratchet'),
    verbose: args.includes('--verbose'),
    dump: value('--dump'),
  });
  process.exit(ok ? 0 : 1);
}
