/*
 * Reads that answer what MediaWiki 1.39 answers on the same data (issue 38, found by the
 * differential check of conformance/differential.mjs). Each expectation is the reference wiki's
 * answer to the same writes: list=logevents's leprefix and its exclusive filters, the order of
 * the groups in list=users and meta=userinfo, and the watchers a move carries to the new title.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

const API = '/w/api.php';

async function login(wiki: TestWiki, name: string, password: string, groups: string) {
  const client = new WikiClient(wiki.baseUrl);
  await runAdmin(['createAndPromote', name, password, '--groups', groups], wiki.testEnv.env, () => undefined);
  const lt = (await client.api({ action: 'query', meta: 'tokens', type: 'login' })).json<any>().query.tokens.logintoken;
  const r = (await client.post(API, { format: 'json', action: 'login', lgname: name, lgpassword: password, lgtoken: lt })).json<any>();
  assert.equal(r.login?.result, 'Success', JSON.stringify(r));
  const token = (await client.api({ action: 'query', meta: 'tokens' })).json<any>().query.tokens.csrftoken as string;
  const post = async (params: Record<string, string>) => {
    const j = (await client.post(API, { format: 'json', formatversion: '2', token, ...params })).json<any>();
    assert.equal(j.error, undefined, JSON.stringify(j));
    return j;
  };
  const get = async (params: Record<string, string>) => (await client.api({ formatversion: '2', ...params })).json<any>();
  return { client, post, get };
}

for (const backend of testBackends()) {
  describe(`reads as MediaWiki answers them (${backend})`, () => {
    let wiki: TestWiki;
    let admin: Awaited<ReturnType<typeof login>>;

    before(async () => {
      wiki = await startWiki(backend);
      admin = await login(wiki, 'Diffadmin', 'diffadminpass123', 'sysop,bureaucrat');
      await admin.post({ action: 'edit', title: 'Pfx Alpha', text: 'a', summary: 'first' });
      await admin.post({ action: 'edit', title: 'Pfx Gamma', text: 'g', summary: 'gamma' });
      await admin.post({ action: 'edit', title: 'Other page', text: 'o', summary: 'other' });
      await admin.post({ action: 'edit', title: 'Talk:Pfx Alpha', text: 't', summary: 'talk' });
      await admin.post({ action: 'move', from: 'Pfx Gamma', to: 'Pfx Delta', reason: 'renamed' });
      await admin.post({ action: 'protect', title: 'Pfx Alpha', protections: 'edit=sysop', expiry: 'infinite', reason: 'protected' });
      await admin.post({ action: 'protect', title: 'Unmade page', protections: 'create=sysop', expiry: 'infinite', reason: 'salted' });
    });
    after(() => wiki?.close());

    test('list=logevents: leprefix keeps the entries of titles starting with it, in its namespace; letitle, leprefix and lenamespace exclude each other', async () => {
      const j = await admin.get({ action: 'query', list: 'logevents', leprefix: 'Pfx', ledir: 'newer', leprop: 'title|type' });
      assert.deepEqual(
        j.query.logevents.map((e: any) => `${e.type}/${e.action} ${e.title}`),
        ['create/create Pfx Alpha', 'create/create Pfx Gamma', 'move/move Pfx Gamma', 'protect/protect Pfx Alpha'],
      );
      const talk = await admin.get({ action: 'query', list: 'logevents', leprefix: 'Talk:Pfx', leprop: 'title' });
      assert.deepEqual(
        talk.query.logevents.map((e: any) => e.title),
        ['Talk:Pfx Alpha'],
      );
      const mix = (await admin.get({ action: 'query', list: 'logevents', letitle: 'Pfx Alpha', leprefix: 'Pfx' })).error;
      assert.deepEqual([mix.code, mix.info], ['invalidparammix', 'The parameters "letitle" and "leprefix" can not be used together.']);
      const three = (await admin.get({ action: 'query', list: 'logevents', letitle: 'Pfx Alpha', leprefix: 'Pfx', lenamespace: '0' })).error;
      assert.equal(three.info, 'The parameters "letitle", "lenamespace" and "leprefix" can not be used together.');
    });

    test('log parameters as the API shows them: no associated_rev_id, protection details with "infinite", a create protection without cascade', async () => {
      const created = await admin.get({ action: 'query', list: 'logevents', letype: 'create', letitle: 'Pfx Alpha', leprop: 'details' });
      assert.deepEqual(created.query.logevents[0].params, {});
      const protect = {
        description: '\u200e[edit=sysop] (indefinite)',
        cascade: false,
        details: [{ type: 'edit', level: 'sysop', expiry: 'infinite', cascade: false }],
      };
      const prot = await admin.get({ action: 'query', list: 'logevents', letype: 'protect', letitle: 'Pfx Alpha', leprop: 'details' });
      assert.deepEqual(prot.query.logevents[0].params, protect);
      assert.deepEqual(Object.keys(prot.query.logevents[0].params), ['description', 'cascade', 'details']);
      const rc = await admin.get({ action: 'query', list: 'recentchanges', rctype: 'log', rctitle: 'Pfx Alpha', rcprop: 'loginfo' });
      assert.deepEqual(rc.query.recentchanges[0].logparams, protect);
      const salted = await admin.get({ action: 'query', list: 'logevents', letype: 'protect', letitle: 'Unmade page', leprop: 'details' });
      assert.deepEqual(salted.query.logevents[0].params, {
        description: '\u200e[create=sysop] (indefinite)',
        cascade: false,
        details: [{ type: 'create', level: 'sysop', expiry: 'infinite' }],
      });
    });

    test('list=users and meta=userinfo: the explicit groups first, then the implicit ones (list=allusers: implicit first)', async () => {
      const users = await admin.get({ action: 'query', list: 'users', ususers: 'Diffadmin', usprop: 'groups|implicitgroups' });
      assert.deepEqual(users.query.users[0].groups, ['bureaucrat', 'sysop', '*', 'user', 'autoconfirmed']);
      assert.deepEqual(users.query.users[0].implicitgroups, ['*', 'user', 'autoconfirmed']);
      const me = await admin.get({ action: 'query', meta: 'userinfo', uiprop: 'groups' });
      assert.deepEqual(me.query.userinfo.groups, ['bureaucrat', 'sysop', '*', 'user', 'autoconfirmed']);
      const all = await admin.get({ action: 'query', list: 'allusers', auprefix: 'Diffadmin', auprop: 'groups' });
      assert.deepEqual(all.query.allusers[0].groups, ['*', 'user', 'autoconfirmed', 'bureaucrat', 'sysop']);
    });

    test('search profiles: none offered by the default search engine (prefixsearch, search, opensearch), so psprofile is an unrecognized parameter', async () => {
      const info = await admin.get({ action: 'paraminfo', modules: 'query+prefixsearch|query+search|opensearch' });
      assert.deepEqual(
        info.paraminfo.modules.map((m: any) => [m.name, m.parameters.map((x: any) => x.name)]),
        [
          ['prefixsearch', ['search', 'namespace', 'limit', 'offset']],
          ['search', ['search', 'namespace', 'limit', 'offset', 'what', 'info', 'prop', 'interwiki', 'enablerewrites', 'sort']],
          ['opensearch', ['search', 'namespace', 'limit', 'suggest', 'redirects', 'format', 'warningsaserror']],
        ],
      );
      const j = await admin.get({ action: 'query', list: 'prefixsearch', pssearch: 'Pfx', psprofile: 'nonsense', pslimit: '1' });
      assert.equal(j.warnings.main.warnings, 'Unrecognized parameter: psprofile.');
      assert.equal(j.query.prefixsearch.length, 1);
    });

    test('a move: whoever watched the old title watches the new one and its talk page (list=watchlistraw)', async () => {
      const raw = await admin.get({ action: 'query', list: 'watchlistraw', wrlimit: 'max' });
      const titles = raw.watchlistraw.map((w: any) => w.title);
      for (const t of ['Pfx Gamma', 'Pfx Delta', 'Talk:Pfx Gamma', 'Talk:Pfx Delta']) assert.ok(titles.includes(t), `${t} in ${JSON.stringify(titles)}`);
    });
  });
}
