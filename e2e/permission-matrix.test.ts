/*
 * Who may do what, on every write path: each write module of the action API and each write route
 * of the REST API × the kinds of caller a wiki has. What each caller may do is computed from the
 * rights tables (the groups' rights, MediaWiki's $wgGroupPermissions) and the grants tables (a bot
 * password's or an OAuth consumer's grants, $wgGrantPermissions): a caller with the rights a
 * module needs must not be refused for want of permission, one without them must be refused with
 * one of MediaWiki's permission errors, and a blocked caller with one of its block errors. The
 * table of what each module needs is the only hand-written part, and a module or route that is
 * not in it fails the test.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_GROUP_PERMISSIONS, rightsOf } from '@quire/auth/rights';
import { grantRights } from '@quire/auth/grants';
import { createDefaultRegistry } from '../gateway/src/action/registry.js';
import { coreRoutes } from '../gateway/src/rest/routes/index.js';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, WikiClient, type TestWiki } from './harness.js';
import { png } from './files-helpers.js';

type CallerKind = 'anonymous' | 'user' | 'botBasic' | 'oauthIdentify' | 'sysop' | 'blocked' | 'partiallyBlocked';

interface Caller {
  kind: CallerKind;
  /** What the tables say this caller may do. */
  rights: Set<string>;
  block?: 'sitewide' | 'partial';
  client: WikiClient;
  headers: Record<string, string>;
  token(type: string): Promise<string>;
}

/** The pages and things a module is tried on; fresh per caller so one caller's success does not change the next one's case. */
interface Fixture {
  /** A page that exists, made by the sysop. */
  page: string;
  /** A page made after it (a valid history merge target). */
  laterPage: string;
  /** An older version of File:Matrix file.png. */
  archiveName: string;
  /** Its latest revision. */
  revid: number;
  /** The page the partially blocked user is blocked from. */
  blockedPage: string;
  caller: Caller;
  n: number;
}

interface ModuleCase {
  /** Rights the module needs, all of them (MediaWiki's checks for it). */
  rights: string[];
  /** Only for registered users (ApiWatch, ApiOptions: `notloggedin` for anonymous callers, whatever their rights). */
  registered?: boolean;
  /** Whether it writes the fixture's page, so that a partial block of that page applies (false: another page, a file, a user, a tag). */
  onPage?: boolean;
  /** Sent as multipart/form-data with this file (uploads). */
  file?: (f: Fixture) => { name: string; data: Buffer; type: string };
  /** Whether a block stops it (MediaWiki's isBlockedFrom / the module's own block check). */
  blockable: boolean;
  /** The request's parameters (token added when the module needs one). */
  params(f: Fixture): Record<string, string>;
  /** Why the expectation is narrower than the tables say, when it is. */
  note?: string;
}

/** MediaWiki's error codes for a caller that may not do something. */
const PERMISSION_ERRORS = new Set([
  'permissiondenied',
  'badaccess-groups',
  'mustbeloggedin',
  'notloggedin',
  'readapidenied',
  'writeapidenied',
  'noedit',
  'noedit-anon',
  'cantedit',
  'cantcreate',
  'cantcreate-anon',
  'nocreate',
  'cantmove',
  'cantmove-anon',
  'cantimport',
  'cantimport-upload',
  'cantblock',
  'cantunblock',
  'cantpatrol',
  'nopatrolrights',
  'badtoken',
  'customjsprotected',
  'customcssprotected',
  'customjsonprotected',
  'sitejsprotected',
  'sitecssprotected',
  'sitejsonprotected',
  'protectednamespace-interface',
  'protectedpage',
  'cascadeprotected',
  'mwoauth-invalid-authorization',
  'mwoauth-not-api',
  'tags-apply-no-permission',
  'tags-manage-no-permission',
  'nochangegroups',
  'cantchangecontentmodel',
  'mergehistory-fail-permission',
  'cannotsetlanguage',
  'noimageredirect',
  'cantupload',
  'cantrollback',
  'hookaborted',
  'blocked',
  'autoblocked',
  'blockedfrommail',
]);
const BLOCK_ERRORS = new Set(['blocked', 'autoblocked']);

/** What each write module needs. Every module the registry has that writes must be here. */
const MODULES: Record<string, ModuleCase | { skip: string }> = {
  edit: { rights: ['edit'], blockable: true, params: (f) => ({ title: f.page, appendtext: ` ${f.caller.kind}`, summary: 'matrix' }) },
  move: { rights: ['move'], blockable: true, params: (f) => ({ from: f.page, to: `${f.page} moved`, reason: 'matrix', noredirect: '1' }) },
  delete: { rights: ['delete'], blockable: true, params: (f) => ({ title: f.page, reason: 'matrix' }) },
  undelete: { rights: ['undelete'], blockable: true, params: (f) => ({ title: `${f.page} (deleted)`, reason: 'matrix' }), note: 'a title with nothing deleted: missing rights answer first' },
  protect: { rights: ['protect'], blockable: true, params: (f) => ({ title: f.page, protections: 'edit=sysop', expiry: 'infinite', reason: 'matrix' }) },
  rollback: { rights: ['rollback'], blockable: true, params: (f) => ({ title: f.page, user: 'Matrix editor' }) },
  changecontentmodel: { rights: ['editcontentmodel', 'edit'], blockable: true, params: (f) => ({ title: f.page, model: 'text', summary: 'matrix' }) },
  revisiondelete: { rights: ['deleterevision'], blockable: true, params: (f) => ({ type: 'revision', target: f.page, ids: String(f.revid), hide: 'comment' }) },
  mergehistory: { rights: ['mergehistory'], blockable: true, params: (f) => ({ from: f.page, to: f.laterPage, reason: 'matrix' }), note: 'a valid merge: MergeHistory::merge checks validity first' },
  setpagelanguage: { skip: '$wgPageLanguageUseDB is off by default: pagelang-disabled for everyone, before any right is checked (ApiSetPageLanguage)' },
  import: { rights: ['importupload'], blockable: true, onPage: false, params: () => ({ interwikiprefix: 'x' }), note: 'no file: the rights are checked first' },
  upload: {
    rights: ['upload'],
    blockable: true,
    onPage: false,
    params: (f) => ({ filename: `Matrix ${f.caller.kind} ${f.n}.png`, ignorewarnings: '1' }),
    file: (f) => ({ name: `Matrix ${f.caller.kind} ${f.n}.png`, data: png(2 + (f.n % 50), 3, f.n), type: 'image/png' }),
  },
  filerevert: { rights: ['edit', 'upload'], blockable: true, onPage: false, params: (f) => ({ filename: 'Matrix file.png', archivename: f.archiveName, comment: 'matrix' }) },
  imagerotate: { skip: 'no image scaler that can rotate is configured: every file answers "File type cannot be rotated" before its rights are checked (ApiImageRotate)' },
  block: { rights: ['block'], blockable: true, onPage: false, params: () => ({ user: 'Matrix target user', expiry: '1 hour', reason: 'matrix' }) },
  unblock: { rights: ['block'], blockable: true, onPage: false, params: () => ({ user: 'Matrix target user', reason: 'matrix' }) },
  userrights: { rights: ['userrights'], blockable: true, onPage: false, params: () => ({ user: 'Matrix target user', add: 'bot' }) },
  patrol: { rights: ['patrol'], blockable: true, params: (f) => ({ revid: String(f.revid) }) },
  tag: { rights: ['changetags'], blockable: true, onPage: false, params: (f) => ({ revid: String(f.revid), add: 'matrix-tag' }) },
  managetags: { rights: ['managechangetags'], blockable: true, onPage: false, params: (f) => ({ operation: 'create', tag: `matrix-${f.caller.kind}-${f.n}`, reason: 'matrix' }) },
  watch: { rights: ['editmywatchlist'], registered: true, blockable: false, params: (f) => ({ titles: f.page }) },
  setnotificationtimestamp: { rights: ['editmywatchlist'], registered: true, blockable: false, params: (f) => ({ titles: f.page }) },
  options: { rights: ['editmyoptions'], registered: true, blockable: false, params: () => ({ change: 'gender=unknown' }) },
  purge: { rights: [], blockable: false, params: (f) => ({ titles: f.page }) },
  stashedit: { rights: ['edit'], blockable: true, params: (f) => ({ title: f.page, text: 'x', contentmodel: 'wikitext', contentformat: 'text/x-wiki', baserevid: String(f.revid) }) },
  emailuser: { skip: 'no user has an email address here: the target is refused (noemail) before the sender is checked (ApiEmailUser)' },
  // Account and session modules: they act on the caller's own account, as anyone may.
  login: { skip: 'logs in: no right needed, tested by the auth suites' },
  clientlogin: { skip: 'logs in: no right needed, tested by the auth suites' },
  createaccount: { skip: 'account creation: tested by the auth suites (throttles, blocks with nocreate)' },
  validatepassword: { skip: 'reads only: no right needed' },
  logout: { skip: "ends the caller's own session" },
  linkaccount: { skip: 'no linkable provider is configured' },
  unlinkaccount: { skip: 'no linkable provider is configured' },
  removeauthenticationdata: { skip: "the caller's own second factor: tested by the two-factor suites" },
  changeauthenticationdata: { skip: "the caller's own password: tested by the auth suites" },
  resetpassword: { skip: 'no mail is sent here' },
  oathvalidate: { skip: "checks the caller's own second factor" },
  clearhasmsg: { skip: "clears the caller's own new-message flag" },
  cspreport: { skip: 'a browser report, no right needed' },
};

/** REST write routes: what they need (the page routes run action=edit). */
const REST_ROUTES: Record<string, { rights: string[]; blockable: boolean } | { skip: string }> = {
  'POST /v1/page': { rights: ['edit', 'createpage'], blockable: true },
  'PUT /v1/page/{title}': { rights: ['edit'], blockable: true },
  'POST /v1/transform/wikitext/to/html/{title}': { skip: 'renders only: no right needed' },
  'POST /v1/transform/html/to/wikitext/{title}': { skip: 'renders only: no right needed' },
  'POST /v1/transform/wikitext/to/html': { skip: 'renders only: no right needed' },
  'POST /v1/transform/html/to/wikitext': { skip: 'renders only: no right needed' },
};

const REGISTRY = createDefaultRegistry();

/** The action modules that write or need a token. */
function writeModules(): string[] {
  return REGISTRY.modules('action')
    .filter((m) => m.flags.writeMode === true || m.flags.needsToken !== undefined)
    .map((m) => m.name);
}

function writeRoutes(): string[] {
  return coreRoutes.filter((r) => r.writes).map((r) => `${r.method} ${r.path}`);
}

/** The effective rights of a caller in the given groups, limited by grants when it is a bot password or an OAuth consumer. */
function tableRights(groups: string[], grants?: string[]): Set<string> {
  const own = new Set(rightsOf(DEFAULT_GROUP_PERMISSIONS, ['*', ...groups]));
  if (!grants) return own;
  const allowed = grants.some((g) => g.startsWith('mwoauth-authonly')) ? new Set<string>() : grantRights(grants);
  return new Set([...own].filter((r) => allowed.has(r)));
}

describe('permission matrix: every write × every kind of caller', () => {
  let wiki: TestWiki;
  const callers = new Map<CallerKind, Caller>();
  let archiveName = '';
  const quiet = () => undefined;

  async function sessionCaller(kind: CallerKind, rights: Set<string>, login?: { name: string; password: string }, block?: Caller['block']): Promise<Caller> {
    const client = new WikiClient(wiki.baseUrl);
    if (login) {
      const lt = (await client.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
      const r = (await client.post('/w/api.php', { action: 'login', lgname: login.name, lgpassword: login.password, lgtoken: lt, format: 'json' })).json();
      assert.equal(r.login.result, 'Success', `${kind}: ${JSON.stringify(r)}`);
    }
    return {
      kind,
      rights,
      block,
      client,
      headers: {},
      async token(type) {
        return (await client.api({ action: 'query', meta: 'tokens', type })).json().query.tokens[`${type}token`] as string;
      },
    };
  }

  before(async () => {
    wiki = await startWiki('embedded');
    const make = async (name: string, groups: string[] = []) =>
      runAdmin(['createAndPromote', name, `${name.toLowerCase().replace(/\s/g, '')}pass12345`, ...(groups.length ? ['--groups', groups.join(',')] : [])], wiki.testEnv.env, quiet);
    await make('Matrix sysop', ['sysop']);
    await make('Matrix user');
    await make('Matrix blocked');
    await make('Matrix partial');
    await make('Matrix target user');
    await make('Matrix editor');
    const pw = (name: string) => `${name.toLowerCase().replace(/\s/g, '')}pass12345`;
    const sysop = await sessionCaller('sysop', tableRights(['user', 'autoconfirmed', 'sysop']), { name: 'Matrix sysop', password: pw('Matrix sysop') });
    const csrf = await sysop.token('csrf');
    const post = (params: Record<string, string>) => sysop.client.post('/w/api.php', { format: 'json', token: csrf, ...params }).then((r) => r.json());
    await post({ action: 'edit', title: 'Matrix blocked page', text: 'x' });
    const blocks: Record<string, string>[] = [
      { user: 'Matrix blocked', expiry: 'infinite', reason: 'matrix' },
      { user: 'Matrix partial', expiry: 'infinite', reason: 'matrix', partial: '1', allowusertalk: '1', pagerestrictions: 'Matrix blocked page' },
    ];
    for (const block of blocks) {
      const b = await post({ action: 'block', ...block });
      assert.ok(b.block, JSON.stringify(b));
    }
    assert.ok((await post({ action: 'managetags', operation: 'create', tag: 'matrix-tag', reason: 'matrix' })).managetags, 'tag created');
    // A file with an older version (filerevert's target).
    for (const seed of [1, 2]) {
      const file = new File([new Uint8Array(png(4, 4, seed))], 'Matrix file.png', { type: 'image/png' });
      const up = await sysop.client.postMultipart('/w/api.php', { action: 'upload', format: 'json', filename: 'Matrix file.png', ignorewarnings: '1', token: csrf, file });
      assert.equal(up.json().upload?.result, 'Success', up.text);
    }
    const versions = (await sysop.client.api({ action: 'query', titles: 'File:Matrix file.png', prop: 'imageinfo', iiprop: 'archivename', iilimit: '2', formatversion: '2' })).json();
    archiveName = versions.query.pages[0].imageinfo[1]?.archivename;
    assert.ok(archiveName, JSON.stringify(versions));
    // A bot password with only `basic`, of an administrator: its grants, not its owner, limit it.
    const lines: string[] = [];
    await runAdmin(['createBotPassword', 'Matrix sysop', 'basiconly', '--grants', 'basic'], wiki.testEnv.env, (l) => lines.push(l));
    const botPassword = lines.at(-1)!;
    // An identify-only OAuth 2.0 consumer of the administrator, owner-only: its access token.
    const oauthLines: string[] = [];
    await runAdmin(
      [
        'createOAuthConsumer',
        '--user',
        'Matrix sysop',
        '--name',
        'Matrix identify',
        '--version',
        '1',
        '--description',
        'identify only',
        '--grants',
        'mwoauth-authonly',
        '--oauthVersion',
        '2',
        '--ownerOnly',
        '--approve',
      ],
      wiki.testEnv.env,
      (l) => oauthLines.push(l),
    );
    const accessToken = oauthLines.find((l) => l.startsWith('access token: '))?.slice('access token: '.length);
    assert.ok(accessToken, oauthLines.join('\n'));

    callers.set('anonymous', await sessionCaller('anonymous', tableRights([])));
    callers.set('user', await sessionCaller('user', tableRights(['user', 'autoconfirmed']), { name: 'Matrix user', password: pw('Matrix user') }));
    callers.set('botBasic', await sessionCaller('botBasic', tableRights(['user', 'autoconfirmed', 'sysop'], ['basic']), { name: 'Matrix sysop@basiconly', password: botPassword }));
    const oauthClient = new WikiClient(wiki.baseUrl);
    const bearer = { authorization: `Bearer ${accessToken}` };
    callers.set('oauthIdentify', {
      kind: 'oauthIdentify',
      rights: tableRights(['user', 'autoconfirmed', 'sysop'], ['mwoauth-authonly']),
      client: oauthClient,
      headers: bearer,
      async token(type) {
        return ((await oauthClient.api({ action: 'query', meta: 'tokens', type }, { headers: bearer, cookies: false })).json().query?.tokens?.[`${type}token`] as string) ?? '';
      },
    });
    callers.set('sysop', sysop);
    callers.set('blocked', await sessionCaller('blocked', tableRights(['user', 'autoconfirmed']), { name: 'Matrix blocked', password: pw('Matrix blocked') }, 'sitewide'));
    callers.set('partiallyBlocked', await sessionCaller('partiallyBlocked', tableRights(['user', 'autoconfirmed']), { name: 'Matrix partial', password: pw('Matrix partial') }, 'partial'));
  });
  after(async () => wiki?.close());

  test('every write module and REST write route has an entry', () => {
    const modules = writeModules();
    assert.ok(modules.length >= 30, `found ${modules.length} write modules`);
    assert.deepEqual(
      modules.filter((m) => !(m in MODULES)),
      [],
      'write modules without an entry in the matrix',
    );
    assert.deepEqual(
      writeRoutes().filter((r) => !(r in REST_ROUTES)),
      [],
      'REST write routes without an entry in the matrix',
    );
  });

  let n = 0;
  for (const [name, entry] of Object.entries(MODULES)) {
    if ('skip' in entry) continue;
    test(`action=${name}`, async () => {
      const problems: string[] = [];
      for (const caller of callers.values()) {
        n++;
        const sysop = callers.get('sysop')!;
        const page = `Matrix ${name} ${caller.kind} ${n}`;
        const sysopToken = await sysop.token('csrf');
        // The partially blocked caller writes the page its block names, unless the module writes no page.
        const target = caller.block === 'partial' && entry.onPage !== false ? 'Matrix blocked page' : page;
        const made = (await sysop.client.post('/w/api.php', { format: 'json', action: 'edit', title: target, appendtext: ` ${n}`, token: sysopToken })).json();
        const laterPage = `${page} later`;
        await sysop.client.post('/w/api.php', { format: 'json', action: 'edit', title: laterPage, text: 'later', token: sysopToken });
        const f: Fixture = { page: target, laterPage, archiveName, revid: made.edit.newrevid, blockedPage: 'Matrix blocked page', caller, n };
        const module = REGISTRY.get('action', name)!;
        const tokenType = module.flags.needsToken;
        const params: Record<string, string> = { action: name, format: 'json', formatversion: '2', errorformat: 'plaintext', ...entry.params(f) };
        if (tokenType) params.token = await caller.token(tokenType);
        const opts = { headers: caller.headers, cookies: caller.kind !== 'oauthIdentify' };
        const file = entry.file?.(f);
        const r = file
          ? await caller.client.postMultipart('/w/api.php', { ...params, file: new File([new Uint8Array(file.data)], file.name, { type: file.type }) }, opts)
          : await caller.client.post('/w/api.php', params, opts);
        if (r.status >= 500) {
          problems.push(`${caller.kind}: HTTP ${r.status}`);
          continue;
        }
        const body = r.json();
        const code: string | undefined = body.errors?.[0]?.code ?? body.error?.code;
        const missing = entry.rights.filter((x) => !caller.rights.has(x));
        const mayWrite = caller.rights.has('writeapi') || caller.kind === 'anonymous';
        const expectDenied = missing.length > 0 || !caller.rights.has('read') || !mayWrite || (entry.registered === true && caller.kind === 'anonymous');
        const expectBlocked = !expectDenied && entry.blockable && (caller.block === 'sitewide' || (caller.block === 'partial' && entry.onPage !== false));
        const what = `${caller.kind} (${missing.length ? `lacks ${missing.join(', ')}` : 'has the rights'}${caller.block ? `, ${caller.block} block` : ''}) → ${code ?? 'ok'}`;
        if (expectDenied && !(code && PERMISSION_ERRORS.has(code))) problems.push(`${what}: expected a permission error`);
        else if (expectBlocked && !(code && BLOCK_ERRORS.has(code))) problems.push(`${what}: expected a block error`);
        else if (!expectDenied && !expectBlocked && code && PERMISSION_ERRORS.has(code))
          problems.push(`${what}: refused though the tables allow it (${JSON.stringify(body.errors?.[0]?.text ?? body.error?.info)})`);
      }
      assert.deepEqual(problems, [], entry.note);
    });
  }

  for (const [route, entry] of Object.entries(REST_ROUTES)) {
    if ('skip' in entry) continue;
    test(`REST ${route}`, async () => {
      const problems: string[] = [];
      for (const caller of callers.values()) {
        n++;
        // A new page is no page the partial block names: only an edit of the blocked page is refused.
        const title = caller.block === 'partial' && route.startsWith('PUT') ? 'Matrix blocked page' : `Matrix REST ${caller.kind} ${n}`;
        const sysop = callers.get('sysop')!;
        let latest = 0;
        if (route.startsWith('PUT')) {
          const made = (await sysop.client.post('/w/api.php', { format: 'json', action: 'edit', title, appendtext: ' x', token: await sysop.token('csrf') })).json();
          latest = made.edit?.newrevid ?? made.edit?.oldrevid ?? 0;
        }
        const token = caller.kind === 'oauthIdentify' ? undefined : await caller.token('csrf');
        const body = route.startsWith('POST')
          ? { title, source: 'matrix', comment: 'matrix', ...(token ? { token } : {}) }
          : { source: 'matrix edit', comment: 'matrix', latest: { id: latest }, ...(token ? { token } : {}) };
        const path = route.startsWith('POST') ? '/w/rest.php/v1/page' : `/w/rest.php/v1/page/${encodeURIComponent(title.replace(/ /g, '_'))}`;
        const r = await caller.client.request(route.split(' ')[0]!, path, JSON.stringify(body), {
          headers: { 'content-type': 'application/json', ...caller.headers },
          cookies: caller.kind !== 'oauthIdentify',
        });
        const missing = entry.rights.filter((x) => !caller.rights.has(x));
        const expectDenied = missing.length > 0 || !caller.rights.has('read');
        const expectBlocked = !expectDenied && entry.blockable && (caller.block === 'sitewide' || (caller.block === 'partial' && title === 'Matrix blocked page'));
        const what = `${caller.kind} (${missing.length ? `lacks ${missing.join(', ')}` : 'has the rights'}${caller.block ? `, ${caller.block} block` : ''}) → ${r.status} ${r.text.slice(0, 160)}`;
        // ActionModuleBasedHandler: the action module's error code travels as actionModuleErrorCode (a 400 unless mapped).
        let moduleCode: string | undefined;
        try {
          moduleCode = (JSON.parse(r.text) as { actionModuleErrorCode?: string }).actionModuleErrorCode;
        } catch {
          moduleCode = undefined;
        }
        const refused = r.status === 401 || r.status === 403 || (moduleCode !== undefined && PERMISSION_ERRORS.has(moduleCode));
        if (r.status >= 500) problems.push(`${what}: a 5xx`);
        else if (expectDenied && !refused) problems.push(`${what}: expected a refusal`);
        else if (expectBlocked && !(refused && (moduleCode === undefined || BLOCK_ERRORS.has(moduleCode)))) problems.push(`${what}: expected a block refusal`);
        else if (!expectDenied && !expectBlocked && refused) problems.push(`${what}: refused though the tables allow it`);
      }
      assert.deepEqual(problems, []);
    });
  }
});
