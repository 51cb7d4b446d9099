import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import express from 'express';
import { createLogger, GrpcStatus, ServiceError } from '@quire/kit';
import type { BlockInfo, CheckTokenResponse, ResolveSessionResponse, GetReplicationLagResponse, GetStatisticsResponse, ListNamespacesResponse } from '../clients/types.js';
import { AuthClient, ContentClient, type Clients } from '../clients/index.js';
import { SiteCache } from '../site.js';
import type { Caller, GatewayDeps } from '../context.js';
import type { GatewayConfig } from '../config.js';
import { createActionApiHandler } from './main.js';
import { blockDetails, blockedError } from './blockinfo.js';
import { paramInfo } from './paraminfo.js';
import { queryModule } from './query/index.js';
import { createDefaultRegistry } from './registry.js';
import { setArrayType, setBCBools, setContentValue, setIndexedTagName, type CacheMode, type ModuleDecl } from './types.js';

/* The auth boundary and the two service calls the pipeline makes are the only injected parts. */
const GOOD_TOKEN = 'abc123+\\';

class TestAuthClient extends AuthClient {
  constructor() {
    super(null as never);
  }
  override async checkToken(sessionId: string, _type: string, token: string): Promise<CheckTokenResponse> {
    return { valid: sessionId === 'sess1' && token === GOOD_TOKEN, generated: 0 };
  }
  /** The anonymous user (asked by the cache rules: may anonymous users read?). */
  override async resolveSession(): Promise<ResolveSessionResponse> {
    return { user: ANON.user, sessionValid: false } as ResolveSessionResponse;
  }
}

class TestContentClient extends ContentClient {
  constructor(
    private readonly lag: GetReplicationLagResponse,
    private readonly jobs = 0,
  ) {
    super(null as never);
  }
  override async getReplicationLag(): Promise<GetReplicationLagResponse> {
    return this.lag;
  }
  override async getStatistics(): Promise<GetStatisticsResponse> {
    return { pages: 1, articles: 1, edits: 1, images: 0, jobs: this.jobs };
  }
  override async listNamespaces(): Promise<ListNamespacesResponse> {
    const ns = (id: number, name: string, canonical: string) => ({ id, name, canonical });
    return { namespaces: [ns(0, '', ''), ns(1, 'Talk', 'Talk'), ns(2, 'User', 'User'), ns(4, 'Quire', 'Project')], aliases: [{ id: 6, alias: 'Image' }] } as unknown as ListNamespacesResponse;
  }
}

const ANON: Caller = { user: { id: 0, name: '127.0.0.1', anonymous: true, groups: ['*'], rights: ['read', 'writeapi'] }, sessionId: '', sessionLost: false, ip: '127.0.0.1' };
const USER: Caller = { user: { id: 5, name: 'Alice', anonymous: false, groups: ['user'], rights: ['read', 'edit', 'writeapi'] }, sessionId: 'sess1', sessionLost: false, ip: '127.0.0.1' };
const BOT: Caller = {
  user: { id: 6, name: 'Botty', anonymous: false, groups: ['bot'], rights: ['read', 'writeapi', 'bot', 'apihighlimits'] },
  sessionId: 'sess1',
  sessionLost: false,
  ip: '127.0.0.1',
};

const fixture: ModuleDecl = {
  name: 'fixture',
  group: 'action',
  prefix: '',
  summary: 'Returns a fixed result.',
  params: {
    req: { type: 'string', help: 'A string.' },
    lim: { type: 'limit', min: 1, max: 10, highMax: 20, default: 5, help: 'A limit.' },
    mode: { type: ['a', 'b'], default: 'a', help: 'An enum.' },
    props: { type: ['x', 'y', 'z'], multi: true, allowAll: true, help: 'A multi enum.' },
    n: { type: 'integer', min: 1, max: 100, enforceRange: true, help: 'An integer in range.' },
    when: { type: 'timestamp', help: 'A timestamp.' },
  },
  flags: {},
  examples: { 'action=fixture&mode=b': 'Mode b.' },
  async execute(ctx) {
    ctx.result.fixture = {
      s: 'str é',
      n: 5,
      t: true,
      f: false,
      list: setIndexedTagName([{ id: 1 }, { id: 2 }], 'item'),
      c: setContentValue({ a: 1 }, 'text', 'body'),
      byid: setArrayType(
        new Map([
          [7, { x: 1 }],
          [3, { x: 2 }],
        ]),
        'BCarray',
      ),
      kept: setBCBools({ keep: false }, 'keep'),
    };
    ctx.result.echo = { lim: ctx.params.lim, mode: ctx.params.mode, props: ctx.params.props, when: ctx.params.when, n: ctx.params.n, req: ctx.params.req };
  },
};

const fixtureWrite: ModuleDecl = {
  name: 'fixturewrite',
  group: 'action',
  prefix: '',
  summary: 'A write needing a CSRF token.',
  params: { text: { type: 'string', required: true, help: 'Text.' } },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  async execute(ctx) {
    ctx.result.fixturewrite = { result: 'Success', text: ctx.params.text, files: [...ctx.files.keys()] };
  },
};

const fixturePost: ModuleDecl = {
  name: 'fixturepost',
  group: 'action',
  prefix: '',
  summary: 'POST only.',
  params: {},
  flags: { mustBePosted: true },
  async execute(ctx) {
    ctx.result.fixturepost = {};
  },
};

/** Writes nothing: the top-level result stays empty. */
const fixtureEmpty: ModuleDecl = {
  name: 'fixtureempty',
  group: 'action',
  prefix: '',
  summary: 'Returns nothing.',
  params: {},
  flags: {},
  async execute() {},
};

/** Like action=login: declared parameters that must be posted, plus a field read outside the declarations. */
const fixtureLogin: ModuleDecl = {
  name: 'fixturelogin',
  group: 'action',
  prefix: 'fl',
  summary: 'Posted secrets.',
  params: {
    name: { type: 'string', help: 'Name.' },
    password: { type: 'password', sensitive: true, mustBePosted: true, help: 'Password.' },
    token: { type: 'string', sensitive: true, mustBePosted: true, help: 'Token.' },
  },
  flags: { mustBePosted: true, readRights: false },
  async execute(ctx) {
    ctx.markUsed('retype');
    ctx.requirePostedParameters(['retype']);
    ctx.result.fixturelogin = { name: ctx.params.name };
  },
};

/** A token module with a prefix: its token parameter is `fptoken`. */
const fixturePrefixed: ModuleDecl = {
  name: 'fixtureprefixed',
  group: 'action',
  prefix: 'fp',
  summary: 'Prefixed token.',
  params: {},
  flags: { mustBePosted: true, needsToken: 'csrf' },
  async execute(ctx) {
    ctx.result.fixtureprefixed = { ok: 'yes' };
  },
};

/** Asks for a cache mode and max-age (like action=opensearch), or fails after asking. */
const fixtureCache: ModuleDecl = {
  name: 'fixturecache',
  group: 'action',
  prefix: '',
  summary: 'Cacheable.',
  params: {
    mode: { type: ['private', 'public', 'anon-public-user-private'], required: true, help: 'Cache mode.' },
    age: { type: 'integer', help: 'setCacheMaxAge.' },
    fail: { type: 'boolean', help: 'Fail after setting the mode.' },
  },
  flags: { readRights: false },
  async execute(ctx) {
    ctx.setCacheMode(ctx.params.mode as CacheMode);
    if (typeof ctx.params.age === 'number') ctx.setCacheMaxAge(ctx.params.age);
    if (ctx.params.fail) throw new ServiceError(GrpcStatus.INVALID_ARGUMENT, 'fixturefailed', 'Failed on purpose.');
    ctx.result.fixturecache = { ok: true };
  },
};

/** Echoes `user` parameters: any kind, and names only. */
const fixtureUser: ModuleDecl = {
  name: 'fixtureuser',
  group: 'action',
  prefix: '',
  summary: 'User parameters.',
  params: {
    who: { type: 'user', help: 'Any user.' },
    named: { type: 'user', userTypes: ['name'], help: 'A user name.' },
  },
  flags: {},
  async execute(ctx) {
    ctx.result.fixtureuser = { who: ctx.params.who, named: ctx.params.named };
  },
};

const BLOCK: BlockInfo = {
  id: 3,
  by: 'Admin',
  byId: 1,
  reason: 'spam',
  timestamp: '2026-01-02T03:04:05Z',
  expiry: '2026-02-01T00:00:00Z',
  partial: false,
  nocreate: true,
  anononly: false,
  noemail: false,
  allowusertalk: true,
  pages: [],
  namespaces: [],
};

/** Fails with a service error whose data is partly for clients (`data.api`), or with a block. */
const fixtureServiceError: ModuleDecl = {
  name: 'fixtureserviceerror',
  group: 'action',
  prefix: '',
  summary: 'Service errors.',
  params: { blocked: { type: 'boolean', help: 'Fail with a block.' } },
  flags: {},
  async execute(ctx) {
    if (ctx.params.blocked) throw blockedError(BLOCK);
    throw new ServiceError(GrpcStatus.INVALID_ARGUMENT, 'edit-invalidredirect', 'Bad redirect.', { retryAfter: 5, side: 'from', api: { redirects: { from: 'A', to: 'Special:B' } } });
  },
};

class FixtureCrash extends Error {}
const fixtureFail: ModuleDecl = {
  name: 'fixturefail',
  group: 'action',
  prefix: '',
  summary: 'Crashes.',
  params: {},
  flags: {},
  async execute() {
    throw new FixtureCrash('secret internals');
  },
};

const CONFIG = {
  server: 'http://wiki.test',
  sitename: 'Quire',
  servedBy: 'qhost',
  lang: 'en',
  wikiId: 'quire',
  corsOriginList: ['https://ok.example'],
} as GatewayConfig;

const servers: http.Server[] = [];
after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

const registry = createDefaultRegistry().with(fixture, fixtureWrite, fixturePost, fixtureFail, fixtureEmpty, fixtureLogin, fixturePrefixed, fixtureCache, fixtureUser, fixtureServiceError);

async function startApi(opts: { caller?: Caller; lag?: number; jobs?: number; jobFactor?: number; searchLag?: number } = {}): Promise<string> {
  const content = new TestContentClient({ lagSeconds: opts.lag ?? -1, host: 'db2' }, opts.jobs);
  // Without searchLag the search service is unreachable: maxlag leaves it out.
  const search = opts.searchLag === undefined ? null : { getIndexStatus: async () => ({ engine: 'sql', indexedThrough: 1, lagSeconds: opts.searchLag, pendingChanges: 3, indexerActive: true }) };
  const deps: GatewayDeps = {
    clients: { content, auth: new TestAuthClient(), search } as unknown as Clients,
    config: { ...CONFIG, jobQueueMaxLagFactor: opts.jobFactor ?? 0 },
    log: createLogger('test', 'silent'),
    site: new SiteCache(content),
  };
  const app = express();
  app.all('/w/api.php', createActionApiHandler(deps, { registry, resolveCaller: async (_req, _deps, o) => (o.allowCredentials ? (opts.caller ?? ANON) : ANON) }));
  const server = app.listen(0);
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/w/api.php`;
}

const anonApi = startApi();
const DOCREF =
  'See http://wiki.test/w/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.';

async function get(query: string, init: RequestInit = {}, base?: string): Promise<{ status: number; headers: Headers; text: string; json: () => any }> {
  const url = (base ?? (await anonApi)) + (query ? `?${query}` : '');
  const r = await fetch(url, init);
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: () => JSON.parse(text) };
}

function post(fields: Record<string, string>, query = '', base?: string) {
  return get(query, { method: 'POST', body: new URLSearchParams(fields) }, base);
}

test('json formatversion 1: BC transformations', async () => {
  const r = await get('action=fixture&format=json');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(r.headers.get('content-disposition'), 'inline; filename=api-result.json');
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(r.headers.get('x-frame-options'), 'DENY');
  assert.equal(r.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
  assert.equal(r.headers.get('mediawiki-api-error'), null);
  assert.equal(
    r.text,
    '{"fixture":{"s":"str \\u00e9","n":5,"t":"","list":[{"id":1},{"id":2}],"c":{"a":1,"*":"body"},"byid":{"7":{"x":1},"3":{"x":2}},"kept":{"keep":false}},"echo":{"lim":5,"mode":"a"}}',
  );
});

test('json formatversion 2: real booleans, arrays, utf8', async () => {
  const r = await get('action=fixture&format=json&formatversion=2');
  assert.equal(
    r.text,
    '{"fixture":{"s":"str é","n":5,"t":true,"f":false,"list":[{"id":1},{"id":2}],"c":{"a":1,"text":"body"},"byid":[{"x":2},{"x":1}],"kept":{"keep":false}},"echo":{"lim":5,"mode":"a"}}',
  );
  const ascii = await get('action=fixture&format=json&formatversion=latest&ascii=1');
  assert.match(ascii.text, /"s":"str \\u00e9"/);
  const utf8 = await get('action=fixture&format=json&utf8=1');
  assert.match(utf8.text, /"s":"str é"/);
});

test('json callback gives JSONP without credentials', async () => {
  const r = await get('action=fixture&format=json&callback=cb<x>&_=123', {}, await startApi({ caller: USER }));
  assert.equal(r.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(r.headers.get('mediawiki-login-suppressed'), 'true');
  assert.ok(r.text.startsWith('/**/cbx({"fixture":'));
  assert.ok(!r.text.includes('warnings'), 'the JSONP cache buster "_" is not reported');
});

test('xml output (formatversion has no effect)', async () => {
  const r = await get('action=fixture&format=xml');
  assert.equal(r.headers.get('content-type'), 'text/xml; charset=utf-8');
  assert.equal(r.headers.get('content-disposition'), 'inline; filename=api-result.xml');
  const expected =
    '<?xml version="1.0"?><api><fixture s="str é" n="5" t=""><list><item id="1" /><item id="2" /></list><c a="1" xml:space="preserve">body</c>' +
    '<byid><_v _idx="7" x="1" /><_v _idx="3" x="2" /></byid><kept /></fixture><echo lim="5" mode="a" /></api>';
  assert.equal(r.text, expected);
  const fv2 = await get('action=fixture&format=xml&formatversion=2');
  assert.ok(fv2.text.includes('<warnings><main xml:space="preserve">Unrecognized parameter: formatversion.</main></warnings>'));
});

test('php serialization in both formatversions', async () => {
  const r1 = await get('action=fixture&format=php');
  assert.equal(r1.headers.get('content-type'), 'application/vnd.php.serialized; charset=utf-8');
  assert.equal(
    r1.text,
    'a:2:{s:7:"fixture";a:7:{s:1:"s";s:6:"str é";s:1:"n";i:5;s:1:"t";s:0:"";s:4:"list";a:2:{i:0;a:1:{s:2:"id";i:1;}i:1;a:1:{s:2:"id";i:2;}}' +
      's:1:"c";a:2:{s:1:"a";i:1;s:1:"*";s:4:"body";}s:4:"byid";a:2:{i:7;a:1:{s:1:"x";i:1;}i:3;a:1:{s:1:"x";i:2;}}s:4:"kept";a:1:{s:4:"keep";b:0;}}' +
      's:4:"echo";a:2:{s:3:"lim";i:5;s:4:"mode";s:1:"a";}}',
  );
  const r2 = await get('action=fixture&format=php&formatversion=2');
  assert.ok(r2.text.includes('s:1:"t";b:1;s:1:"f";b:0;'));
  assert.ok(r2.text.includes('s:4:"byid";a:2:{i:0;a:1:{s:1:"x";i:2;}i:1;a:1:{s:1:"x";i:1;}}'));
});

test('jsonfm, rawfm and none', async () => {
  const fm = await get('action=fixture&format=jsonfm&formatversion=2');
  assert.equal(fm.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(fm.headers.get('content-disposition'), 'inline; filename=api-result.html');
  assert.ok(fm.text.includes('<pre class="api-pretty-content">{\n    "fixture": {\n        "s": "str é",'));
  assert.ok(fm.text.includes('href="http://wiki.test/w/api.php?action=fixture&amp;format=json&amp;formatversion=2"'));
  const dflt = await get('action=fixture');
  assert.equal(dflt.headers.get('content-type'), 'text/html; charset=utf-8', 'jsonfm is the default format');
  const raw = await get('action=fixture&format=rawfm');
  assert.ok(raw.text.includes('&quot;') === false && raw.text.includes('"_element": "item"'), 'rawfm keeps the metadata');
  const errFm = await get('action=fixturepost&format=jsonfm');
  assert.equal(errFm.status, 200);
  assert.equal(errFm.headers.get('mediawiki-api-error'), 'mustbeposted');
  const none = await get('action=fixture&format=none');
  assert.equal(none.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.equal(none.text, '');
});

test('error shapes for every errorformat', async () => {
  const bc1 = await get('action=nope&format=json');
  assert.equal(bc1.headers.get('mediawiki-api-error'), 'badvalue');
  assert.deepEqual(bc1.json(), { error: { code: 'badvalue', info: 'Unrecognized value for parameter "action": nope.', '*': DOCREF } });
  const bc2 = await get('action=nope&format=json&formatversion=2');
  assert.deepEqual(
    bc2.json(),
    { error: { code: 'badvalue', info: 'Unrecognized value for parameter "action": nope.', docref: DOCREF } },
    'no servedby unless requested ($wgShowHostnames is off by default)',
  );
  const plain = await get('action=fixturepost&format=json&formatversion=2&errorformat=plaintext');
  assert.deepEqual(plain.json(), {
    errors: [{ code: 'mustbeposted', text: 'The "fixturepost" module requires a POST request.', module: 'main' }],
    docref: DOCREF,
  });
  const wiki1 = await get('action=fixturepost&format=json&errorformat=wikitext');
  assert.deepEqual(wiki1.json(), {
    errors: [{ code: 'mustbeposted', module: 'main', '*': 'The <kbd>fixturepost</kbd> module requires a POST request.' }],
    '*': DOCREF,
  });
  const html = await get('action=fixturepost&format=json&formatversion=2&errorformat=html');
  assert.deepEqual(html.json().errors, [{ code: 'mustbeposted', html: 'The <kbd>fixturepost</kbd> module requires a POST request.', module: 'main' }]);
  const raw = await get('action=fixturepost&format=json&formatversion=2&errorformat=raw');
  assert.deepEqual(raw.json().errors, [{ code: 'mustbeposted', key: 'apierror-mustbeposted', params: ['fixturepost'], module: 'main' }]);
  const none = await get('action=fixturepost&format=json&formatversion=2&errorformat=none');
  assert.deepEqual(none.json().errors, [{ code: 'mustbeposted', module: 'main' }]);
  const xml = await get('action=nope&format=xml');
  assert.equal(
    xml.text,
    `<?xml version="1.0"?><api><error code="badvalue" info="Unrecognized value for parameter &quot;action&quot;: nope." xml:space="preserve">${DOCREF.replace(/&/g, '&amp;')}</error></api>`,
  );
});

test('parameter validation errors and warnings', async () => {
  const missing = await post({ action: 'fixturewrite', format: 'json', token: GOOD_TOKEN });
  assert.equal(missing.json().error.code, 'missingparam');
  assert.equal(missing.json().error.info, 'The "text" parameter must be set.');
  const badEnum = await get('action=fixture&format=json&mode=c');
  assert.equal(badEnum.json().error.info, 'Unrecognized value for parameter "mode": c.');
  const badInt = await get('action=fixture&format=json&lim=5.5');
  assert.deepEqual([badInt.json().error.code, badInt.json().error.info], ['badinteger', 'Invalid value "5.5" for integer parameter "lim".']);
  const enforced = await get('action=fixture&format=json&n=500');
  assert.equal(enforced.json().error.code, 'outofrange');
  const clamped = await get('action=fixture&format=json&formatversion=2&errorformat=plaintext&lim=50');
  assert.equal(clamped.json().echo.lim, 10);
  assert.deepEqual(clamped.json().warnings, [
    { code: 'outofrange', text: 'The value "50" for parameter "lim" must be between 1 and 10.', data: { min: 1, curmax: 10, max: 10, highmax: 20 }, module: 'fixture' },
  ]);
  const max = await get('action=fixture&format=json&formatversion=2&lim=max');
  assert.deepEqual(max.json().limits, { fixture: 10 });
  const multi = await get('action=fixture&format=json&formatversion=2&props=x|q|y|x|w');
  assert.deepEqual(multi.json().echo.props, ['x', 'y']);
  assert.deepEqual(multi.json().warnings, { fixture: { warnings: 'Unrecognized values for parameter "props": q, w' } });
  const all = await get('action=fixture&format=json&formatversion=2&props=*');
  assert.deepEqual(all.json().echo.props, ['x', 'y', 'z']);
  const sep = await get(`action=fixture&format=json&formatversion=2&props=${encodeURIComponent('\x1fx\x1fz')}`);
  assert.deepEqual(sep.json().echo.props, ['x', 'z']);
  const notMulti = await get(`action=fixture&format=json&mode=${encodeURIComponent('\x1fa')}`);
  assert.equal(notMulti.json().error.code, 'badvalue');
  const tooMany = await get(`action=fixture&format=json&props=${Array(51).fill('x').join('|')}`);
  assert.equal(tooMany.json().error.code, 'toomanyvalues');
  const ts = await get('action=fixture&format=json&formatversion=2&when=2024-01-31T23:59:58Z');
  assert.equal(ts.json().echo.when, '20240131235958');
  const ts2 = await get('action=fixture&format=json&formatversion=2&when=1700000000');
  assert.equal(ts2.json().echo.when, '20231114221320');
  const badTs = await get('action=fixture&format=json&when=2024-01-31');
  assert.equal(badTs.json().error.code, 'badtimestamp');
});

test('unrecognized parameters are reported, one or several', async () => {
  const one = await get('action=fixture&format=json&foo=1');
  assert.deepEqual(one.json().warnings, { main: { '*': 'Unrecognized parameter: foo.' } });
  const two = await get('action=fixture&format=json&formatversion=2&errorformat=plaintext&foo=1&bar=2');
  assert.deepEqual(two.json().warnings, [{ code: 'unrecognizedparams', text: 'Unrecognized parameters: foo, bar.', module: 'main' }]);
  const arr = await get('action=fixture&format=json&req[]=1');
  assert.deepEqual(arr.json().warnings.main, { '*': 'Parameter "req" uses unsupported PHP array syntax.' });
});

test('mustbeposted, tokens and multipart bodies', async () => {
  const api = await startApi({ caller: USER });
  const viaGet = await get('action=fixturepost&format=json', {}, api);
  assert.equal(viaGet.json().error.info, 'The "fixturepost" module requires a POST request.');
  assert.deepEqual((await post({ action: 'fixturepost', format: 'json' }, '', api)).json(), { fixturepost: [] });
  const noToken = await post({ action: 'fixturewrite', format: 'json', text: 'x' }, '', api);
  assert.deepEqual([noToken.json().error.code, noToken.json().error.info], ['missingparam', 'The "token" parameter must be set.']);
  const badToken = await post({ action: 'fixturewrite', format: 'json', text: 'x', token: 'bogus' }, '', api);
  assert.deepEqual([badToken.json().error.code, badToken.json().error.info], ['badtoken', 'Invalid CSRF token.']);
  assert.equal(badToken.headers.get('mediawiki-api-error'), 'badtoken');
  const inQuery = await post({ action: 'fixturewrite', format: 'json', text: 'x' }, `token=${encodeURIComponent(GOOD_TOKEN)}`, api);
  assert.equal(inQuery.json().error.code, 'mustpostparams');
  const ok = await post({ action: 'fixturewrite', format: 'json', text: 'x', token: GOOD_TOKEN }, '', api);
  assert.deepEqual(ok.json(), { fixturewrite: { result: 'Success', text: 'x', files: [] } });
  const form = new FormData();
  form.set('action', 'fixturewrite');
  form.set('format', 'json');
  form.set('text', 'multi');
  form.set('token', GOOD_TOKEN);
  form.set('file', new Blob([Buffer.from('PNGDATA')], { type: 'image/png' }), 'a.png');
  const mp = await get('', { method: 'POST', body: form }, api);
  assert.deepEqual(mp.json(), { fixturewrite: { result: 'Success', text: 'multi', files: ['file'] } });
  // origin=* strips credentials: the token of the session no longer validates.
  const anonCors = await post({ action: 'fixturewrite', format: 'json', text: 'x', token: GOOD_TOKEN }, 'origin=*', api);
  assert.equal(anonCors.json().error.code, 'badtoken');
});

test('assert and assertuser', async () => {
  const anon = await get('action=fixture&format=json&assert=user');
  assert.deepEqual([anon.json().error.code, anon.json().error.info], ['assertuserfailed', 'You are no longer logged in, so the action could not be completed.']);
  assert.equal((await get('action=fixture&format=json&assert=anon')).json().error, undefined);
  const user = await startApi({ caller: USER });
  assert.equal((await get('action=fixture&format=json&assert=anon', {}, user)).json().error.code, 'assertanonfailed');
  const bot = await get('action=fixture&format=json&formatversion=2&errorformat=plaintext&assert=bot', {}, user);
  assert.equal(bot.json().errors[0].text, 'You do not have the "bot" right, so the action could not be completed.');
  assert.equal((await get('action=fixture&format=json&assert=bot&assertuser=Botty', {}, await startApi({ caller: BOT }))).json().error, undefined);
  const named = await get('action=fixture&format=json&assertuser=Bob', {}, user);
  assert.deepEqual([named.json().error.code, named.json().error.info], ['assertnameduserfailed', 'You are no longer logged in as "Bob", so the action could not be completed.']);
  assert.equal((await get('action=fixture&format=json&assertuser=alice', {}, user)).json().error, undefined);
});

test('bots get high limits', async () => {
  const r = await get('action=fixture&format=json&formatversion=2&lim=max', {}, await startApi({ caller: BOT }));
  assert.equal(r.json().echo.lim, 20);
});

test('maxlag fires above the lag and never without replicas', async () => {
  const lagged = await startApi({ lag: 7 });
  const r = await get('action=fixture&format=json&maxlag=5', {}, lagged);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('retry-after'), '5');
  assert.equal(r.headers.get('x-database-lag'), '7');
  assert.equal(r.headers.get('mediawiki-api-error'), 'maxlag');
  assert.deepEqual(r.json().error, { code: 'maxlag', info: 'Waiting for db2: 7 seconds lagged.', host: 'db2', lag: 7, type: 'db', '*': DOCREF });
  const fv2 = await get('action=fixture&format=json&formatversion=2&errorformat=plaintext&maxlag=5', {}, lagged);
  assert.deepEqual(fv2.json().errors[0].data, { host: 'db2', lag: 7, type: 'db' });
  assert.equal((await get('action=fixture&format=json&maxlag=10', {}, lagged)).json().error, undefined);
  assert.equal((await get('action=fixture&format=json&maxlag=0')).json().error, undefined, 'lag -1: no replica');
});

test('maxlag counts the job queue with a factor ($wgJobQueueIncludeInMaxLagFactor) and the search indexer, the largest lag winning', async () => {
  // 30 jobs at 10 a second: 3 s, more than the replicas' 1 s.
  const jobs = await get('action=fixture&format=json&maxlag=2', {}, await startApi({ lag: 1, jobs: 30, jobFactor: 10 }));
  assert.deepEqual(jobs.json().error, { code: 'maxlag', info: 'Waiting for qhost: 3 seconds lagged.', host: 'qhost', lag: 3, type: 'jobqueue', jobs: 30, '*': DOCREF });
  assert.equal(jobs.headers.get('x-database-lag'), '3');
  assert.equal((await get('action=fixture&format=json&maxlag=2', {}, await startApi({ lag: 1, jobs: 30 }))).json().error, undefined, 'no factor: the job queue is left out (MediaWiki default)');
  // The indexer's lag in whole seconds: 4.7 s → 4.
  const search = await get('action=fixture&format=json&formatversion=2&errorformat=plaintext&maxlag=0', {}, await startApi({ searchLag: 4.7, jobs: 30, jobFactor: 10 }));
  assert.deepEqual(search.json().errors[0].data, { host: 'qhost', lag: 4, type: 'search-indexer' });
  assert.equal((await get('action=fixture&format=json&maxlag=0', {}, await startApi({ searchLag: 0.6 }))).json().error, undefined, 'under a second behind: not lag');
});

test('requestid, curtimestamp, servedby, responselanginfo', async () => {
  const r = await get('action=fixture&format=json&requestid=r-42&curtimestamp=1&servedby=1&responselanginfo=1&uselang=de');
  const j = r.json();
  assert.deepEqual(Object.keys(j).slice(0, 5), ['requestid', 'servedby', 'curtimestamp', 'uselang', 'errorlang']);
  assert.equal(j.requestid, 'r-42');
  assert.equal(j.servedby, 'qhost');
  assert.match(j.curtimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual([j.uselang, j.errorlang], ['de', 'de']);
  const err = await get('action=nope&format=json&requestid=7');
  assert.equal(err.json().requestid, '7');
});

test('CORS: origin=*, configured origin, unknown origin, mismatch, preflight', async () => {
  const api = await startApi({ caller: USER });
  const star = await get('action=fixture&format=json&assert=anon&origin=*', { headers: { Origin: 'https://any.example' } }, api);
  assert.equal(star.headers.get('access-control-allow-origin'), '*');
  assert.equal(star.headers.get('access-control-allow-credentials'), 'false');
  assert.equal(star.json().error, undefined, 'origin=* makes the caller anonymous');
  const ok = await get('action=fixture&format=json&assert=user&origin=https://ok.example', { headers: { Origin: 'https://ok.example' } }, api);
  assert.equal(ok.headers.get('access-control-allow-origin'), 'https://ok.example');
  assert.equal(ok.headers.get('access-control-allow-credentials'), 'true');
  assert.equal(ok.json().error, undefined);
  const unknown = await get('action=fixture&format=json&origin=https://evil.example', { headers: { Origin: 'https://evil.example' } }, api);
  assert.equal(unknown.headers.get('access-control-allow-origin'), null);
  assert.equal(unknown.headers.get('mediawiki-cors-rejection'), 'Origin mismatch');
  const noParam = await get('action=fixture&format=json', { headers: { Origin: 'https://evil.example' } }, api);
  assert.equal(noParam.headers.get('access-control-allow-origin'), null);
  const mismatch = await get('action=fixture&format=json&origin=https://ok.example', { headers: { Origin: 'https://evil.example' } }, api);
  assert.equal(mismatch.status, 403);
  assert.equal(mismatch.text, "'origin' parameter does not match Origin header\n");
  const preflight = await get(
    'action=fixture&origin=https://ok.example',
    {
      method: 'OPTIONS',
      headers: { Origin: 'https://ok.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    },
    api,
  );
  assert.equal(preflight.status, 200);
  assert.equal(preflight.headers.get('access-control-allow-methods'), 'POST, GET, HEAD');
  assert.equal(preflight.headers.get('access-control-allow-headers'), 'content-type');
  assert.equal(preflight.text, '');
});

test('internal errors hide details', async () => {
  const r = await get('action=fixturefail&format=json&formatversion=2&errorformat=plaintext');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('mediawiki-api-error'), 'internal_api_error_FixtureCrash');
  const e = r.json().errors[0];
  assert.equal(e.code, 'internal_api_error_FixtureCrash');
  assert.match(e.text, /^\[[0-9a-f]{24}\] Caught exception of type FixtureCrash$/);
  assert.deepEqual(e.data, { errorclass: 'FixtureCrash' });
  assert.ok(!r.text.includes('secret internals'));
});

test('unsupported methods and bad format parameters', async () => {
  const put = await get('action=fixture&format=json', { method: 'PUT' });
  assert.equal(put.status, 405);
  assert.equal(put.json().error.code, 'invalidmethod');
  const fv = await get('action=fixture&format=json&formatversion=3');
  assert.deepEqual(fv.json().warnings, { json: { '*': 'Unrecognized value for parameter "formatversion": 3.' }, main: { '*': 'Error printer failed. Will retry without params.' } });
  assert.equal(fv.json().error.code, 'badvalue');
  const unknownFormat = await get('action=fixture&format=yaml');
  assert.equal(unknownFormat.headers.get('content-type'), 'text/html; charset=utf-8', 'errors fall back to jsonfm');
  assert.equal(unknownFormat.headers.get('mediawiki-api-error'), 'badvalue');
});

test('help: HTML page, wrap, recursive submodules', async () => {
  const main = await get('');
  assert.equal(main.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(main.headers.get('content-disposition'), 'inline; filename=api-help.html');
  assert.ok(main.text.includes('<title>MediaWiki API help - Quire</title>'));
  assert.ok(main.text.includes('id="main:action"'));
  const fixtureHelp = await get('action=help&modules=fixture');
  assert.ok(fixtureHelp.text.includes('One of the following values: <span dir="ltr" lang="en">a</span>, <span dir="ltr" lang="en">b</span>'));
  assert.ok(fixtureHelp.text.includes('api.php?action=fixture&amp;mode=b'));
  const wrapped = await get('action=help&modules=fixturewrite&wrap=1&format=json&formatversion=2');
  const help = wrapped.json().help;
  assert.equal(help.mime, 'text/html');
  assert.ok(help.help.includes('This module only accepts POST requests.'));
  assert.ok(help.help.includes('A &quot;csrf&quot; token retrieved from'));
  const all = await get('action=help&recursivesubmodules=1');
  for (const id of ['main', 'fixture', 'paraminfo', 'json', 'xml', 'query']) assert.ok(all.text.includes(`id="${id}"`), id);
  const bad = await get('action=help&modules=nope&wrap=1&format=json');
  assert.deepEqual(bad.json().warnings, { help: { '*': 'The module "main" does not have a submodule "nope".' } });
});

test('paraminfo', async () => {
  const r = await get('action=paraminfo&modules=fixture|fixturewrite|json|nope&format=json&formatversion=2');
  const j = r.json();
  assert.deepEqual(j.warnings, { paraminfo: { warnings: 'The module "main" does not have a submodule "nope".' } });
  const [fx, fw, json] = j.paraminfo.modules;
  assert.equal(j.paraminfo.helpformat, 'none');
  assert.deepEqual(
    { ...fx, parameters: undefined },
    {
      name: 'fixture',
      classname: 'ApiFixture',
      path: 'fixture',
      group: 'action',
      prefix: '',
      source: 'MediaWiki',
      sourcename: 'MediaWiki',
      licensetag: 'GPL-2.0-or-later',
      licenselink: 'http://wiki.test/wiki/Special:Version/License/MediaWiki',
      readrights: true,
      helpurls: [],
      templatedparameters: [],
      parameters: undefined,
    },
  );
  assert.deepEqual(fx.parameters[1], { index: 2, name: 'lim', type: 'limit', required: false, default: 5, multi: false, min: 1, max: 10, highmax: 20 });
  assert.deepEqual(fx.parameters[3], { index: 4, name: 'props', type: ['x', 'y', 'z'], required: false, multi: true, lowlimit: 50, highlimit: 500, limit: 50, allspecifier: '*' });
  assert.equal(fw.mustbeposted, true);
  assert.equal(fw.writerights, true);
  assert.deepEqual(fw.parameters[1], { index: 2, name: 'token', type: 'string', required: true, sensitive: true, multi: false, tokentype: 'csrf' });
  assert.deepEqual(json.parameters[3], { index: 4, name: 'formatversion', type: ['1', '2', 'latest'], required: false, default: '1', multi: false });
  const fv1 = await get('action=paraminfo&modules=fixture&format=json');
  assert.deepEqual(fv1.json().paraminfo.modules[0].parameters[0], { index: 1, name: 'req', type: 'string' });
  const main = await get('action=paraminfo&modules=main&helpformat=wikitext&format=json&formatversion=2');
  const action = main.json().paraminfo.modules[0].parameters[0];
  assert.deepEqual(action.submodules.fixture, 'fixture');
  assert.equal(action.description, 'Which action to perform.');
  const star = await get('action=paraminfo&modules=main%2B*&format=json&formatversion=2');
  assert.deepEqual(
    star.json().paraminfo.modules.map((m: { path: string }) => m.path),
    // main+* lists every action and format module, sorted by name as MediaWiki does.
    [...registry.modules('action'), ...registry.modules('format')].map((m) => m.name).sort(),
  );
  assert.ok(star.json().paraminfo.modules.some((m: { path: string }) => m.path === 'fixture'));
});

test('an empty result is an object at the top level, an empty value inside stays an array', async () => {
  for (const fv of ['1', '2']) {
    assert.equal((await get(`action=fixtureempty&format=json&formatversion=${fv}`)).text, '{}');
    // ApiResult::reset types only the top level; a module's empty array is still `[]` (MediaWiki: "setnotificationtimestamp":[]).
    assert.equal((await post({ action: 'fixturepost', format: 'json', formatversion: fv })).text, '{"fixturepost":[]}');
  }
  assert.equal((await get('action=fixtureempty&format=php')).text, 'a:0:{}');
  assert.equal((await get('action=fixtureempty&format=xml')).text, '<?xml version="1.0"?><api />');
});

test('parameters that must be posted: mustpostparams when they come in the query string', async () => {
  const api = await startApi({ caller: USER });
  const both = await post({ action: 'fixturelogin', format: 'json', flname: 'A' }, 'flpassword=x&fltoken=y', api);
  assert.deepEqual(both.json().error, {
    code: 'mustpostparams',
    info: 'The following parameters were found in the query string, but must be in the POST body: flpassword, fltoken.',
    '*': DOCREF,
  });
  assert.equal(both.headers.get('mediawiki-api-error'), 'mustpostparams');
  const one = await post({ action: 'fixturelogin', format: 'json', fltoken: 'y' }, 'flpassword=x', api);
  assert.equal(one.json().error.info, 'The following parameter was found in the query string, but must be in the POST body: flpassword.');
  // Also when the body has it too (PHP's $_GET has the key), and in array syntax.
  assert.equal((await post({ action: 'fixturelogin', format: 'json', flpassword: 'x' }, 'flpassword=x', api)).json().error.code, 'mustpostparams');
  assert.equal((await post({ action: 'fixturelogin', format: 'json' }, 'flpassword[]=x', api)).json().error.code, 'mustpostparams');
  // A GET is refused as such first (mustbeposted), as in MediaWiki.
  assert.equal((await get('action=fixturelogin&format=json&flpassword=x', {}, api)).json().error.code, 'mustbeposted');
  // Fields read outside the declarations are checked by the module (ctx.requirePostedParameters).
  const dynamic = await post({ action: 'fixturelogin', format: 'json', flpassword: 'x' }, 'retype=x', api);
  assert.equal(dynamic.json().error.info, 'The following parameter was found in the query string, but must be in the POST body: retype.');
  assert.deepEqual((await post({ action: 'fixturelogin', format: 'json', flname: 'A', flpassword: 'x', fltoken: 'y', retype: 'x' }, '', api)).json(), { fixturelogin: { name: 'A' } });
  // The token of a token module is checked before the token itself, under its prefixed name.
  const token = await post({ action: 'fixtureprefixed', format: 'json' }, `fptoken=${encodeURIComponent(GOOD_TOKEN)}`, api);
  assert.equal(token.json().error.info, 'The following parameter was found in the query string, but must be in the POST body: fptoken.');
  const badInQuery = await post({ action: 'fixtureprefixed', format: 'json' }, 'fptoken=bogus', api);
  assert.equal(badInQuery.json().error.code, 'mustpostparams');
  assert.deepEqual((await post({ action: 'fixtureprefixed', format: 'json', fptoken: GOOD_TOKEN }, '', api)).json(), { fixtureprefixed: { ok: 'yes' } });
});

test('user parameters: valid names with "@" and ":", IPs and ranges, interwiki names; titles and invalid names fail', async () => {
  const echo = async (q: string) => (await get(`action=fixtureuser&format=json&${q}`)).json();
  assert.deepEqual(await echo('who=Ad@min&named=Ad%3Amin'), { fixtureuser: { who: 'Ad@min', named: 'Ad:min' } });
  assert.deepEqual(await echo('who=User:alice_b&named=%20bob%20%20smith'), { fixtureuser: { who: 'Alice b', named: 'Bob smith' } });
  assert.deepEqual(await echo('who=1.2.3.4'), { fixtureuser: { who: '1.2.3.4' } });
  assert.deepEqual(await echo('who=1.2.3.0/24'), { fixtureuser: { who: '1.2.3.0/24' } });
  assert.deepEqual(await echo('who=2001:db8::1'), { fixtureuser: { who: '2001:DB8::1' } });
  assert.deepEqual(await echo('who=imported%3Ejoe'), { fixtureuser: { who: 'imported>joe' } });
  for (const [q, value] of [
    ['named=1.2.3.4', '1.2.3.4'],
    ['named=imported%3Ejoe', 'imported>joe'],
    ['who=Talk:Foo', 'Talk:Foo'],
    ['who=quire:Foo', 'quire:Foo'],
    ['who=Image:Foo.png', 'Image:Foo.png'],
    ['who=A/b', 'A/b'],
    ['who=A%7Cb', 'A|b'],
    ['who=%23123', '#123'],
    ['who=A~~~', 'A~~~'],
  ] as const) {
    const name = q.slice(0, q.indexOf('='));
    assert.deepEqual((await echo(q)).error, { code: 'baduser', info: `Invalid value "${value}" for user parameter "${name}".`, '*': DOCREF }, q);
  }
  const info = await get('action=paraminfo&modules=fixtureuser|main&format=json&formatversion=2');
  const [fu, main] = info.json().paraminfo.modules;
  assert.deepEqual(
    fu.parameters.map((p: { subtypes: string[] }) => p.subtypes),
    [['name', 'ip', 'cidr', 'interwiki'], ['name']],
  );
  assert.deepEqual(main.parameters.find((p: { name: string }) => p.name === 'assertuser').subtypes, ['name']);
});

test('cache modes and max-age set by modules (ApiMain::sendCacheHeaders)', async () => {
  const headers = async (q: string, base?: string) => {
    const r = await get(`action=fixturecache&format=json&${q}`, {}, base);
    return { cc: r.headers.get('cache-control'), expires: r.headers.get('expires'), vary: r.headers.get('vary') };
  };
  // public with uselang=user (the default) is anon-public-user-private: public for a caller without a session.
  const anon = await headers('mode=public&age=1200');
  assert.equal(anon.cc, 'max-age=1200, s-maxage=1200, public');
  assert.ok(anon.expires && Math.abs(Date.parse(anon.expires) - (Date.now() + 1200_000)) < 5000, String(anon.expires));
  assert.match(anon.vary ?? '', /Treat-as-Untrusted.*Cookie/);
  const user = await startApi({ caller: USER });
  assert.equal((await headers('mode=public&age=1200', user)).cc, 'private, must-revalidate, max-age=1200');
  assert.equal((await headers('mode=anon-public-user-private&age=60', user)).cc, 'private, must-revalidate, max-age=60');
  // With an explicit language the response is the same for everyone: public even for a user.
  assert.equal((await headers('mode=public&age=1200&uselang=en', user)).cc, 'max-age=1200, s-maxage=1200, public');
  // Without setCacheMaxAge the maxage/smaxage parameters decide; none means private.
  assert.equal((await headers('mode=public&uselang=en&maxage=30&smaxage=60')).cc, 's-maxage=60, max-age=30, public');
  assert.deepEqual(await headers('mode=public&uselang=en'), { cc: 'private, must-revalidate, max-age=0', expires: null, vary: 'Treat-as-Untrusted, Cookie' });
  assert.equal((await headers('mode=private&age=100')).cc, 'private, must-revalidate, max-age=100');
  // A wiki whose anonymous users cannot read is only ever cached privately.
  const closed = await startApi({ caller: { ...ANON, user: { ...ANON.user, rights: [] } } });
  assert.equal((await headers('mode=public&age=1200&uselang=en', closed)).cc, 'private, must-revalidate, max-age=1200');
  // Errors are private.
  assert.equal((await headers('mode=public&age=1200&uselang=en&fail=1')).cc, 'private, must-revalidate, max-age=1200');
  // Without a module asking, responses stay private as before.
  assert.equal((await get('action=fixture&format=json&maxage=30&smaxage=60')).headers.get('cache-control'), 'private, must-revalidate, max-age=30');
});

test("service errors show only their data.api; blocks are reported in MediaWiki's blockinfo shape", async () => {
  const r = await get('action=fixtureserviceerror&format=json&formatversion=2');
  assert.deepEqual(r.json().error, { code: 'edit-invalidredirect', info: 'Bad redirect.', redirects: { from: 'A', to: 'Special:B' }, docref: DOCREF });
  const blocked = await get('action=fixtureserviceerror&blocked=1&format=json&formatversion=2');
  assert.deepEqual(blocked.json().error.blockinfo, {
    blockid: 3,
    blockedby: 'Admin',
    blockedbyid: 1,
    blockreason: 'spam',
    blockedtimestamp: '2026-01-02T03:04:05Z',
    blockexpiry: '2026-02-01T00:00:00Z',
    blockpartial: false,
    blocknocreate: true,
    blockanononly: false,
    blockedtimestampformatted: '03:04, 2 January 2026',
    blockexpiryformatted: '00:00, 1 February 2026',
  });
  assert.equal(blocked.json().error.code, 'blocked');
  // formatversion 1 drops false booleans and shows true as "", as for any result.
  const fv1 = (await get('action=fixtureserviceerror&blocked=1&format=json')).json().error.blockinfo;
  assert.equal(fv1.blocknocreate, '');
  assert.equal('blockpartial' in fv1, false);
  assert.equal(blockDetails({ ...BLOCK, expiry: 'infinite' }).blockexpiryformatted, undefined);
});

test('paraminfo: generator names prop and list modules', () => {
  const generator = queryModule.params.generator!;
  assert.deepEqual(generator.submoduleGroup, ['prop', 'list']);
  const propGenerator: ModuleDecl = { name: 'fixturepropgen', group: 'prop', prefix: 'fpg', summary: 'A prop generator.', params: {}, flags: { generator: true }, async execute() {} };
  const withProp = registry.with(propGenerator);
  const info = paramInfo(queryModule, 'generator', { ...generator, type: ['allpages', 'fixturepropgen'] }, withProp);
  assert.deepEqual(info.submodules, { allpages: 'query+allpages', fixturepropgen: 'query+fixturepropgen' });
  assert.equal(info.submoduleparamprefix, 'g');
});
