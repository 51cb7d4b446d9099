/*
 * Reads that answer what MediaWiki 1.39 answers on the same data (found by the
 * differential check of conformance/differential.mjs). Each expectation is the reference wiki's
 * answer to the same writes: list=logevents's leprefix and its exclusive filters, the order of
 * the groups in list=users and meta=userinfo, and the watchers a move carries to the new title.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';
import { png, upload } from './files-helpers.js';

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
  return { client, post, get, token };
}

/** Waits until the wiki's job queue is empty (link tables and page properties are written by jobs). */
async function settled(get: (params: Record<string, string>) => Promise<any>) {
  for (let i = 0; i < 100; i++) {
    if ((await get({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).query.statistics.jobs === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
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

    test('an account with the bot right makes bot log entries (RecentChange::newLogEntry); others do not', async () => {
      const bot = await login(wiki, 'Diffbot', 'diffbotpass12345', 'sysop,bot');
      await bot.post({ action: 'edit', title: 'Pfx Botted', text: 'b', summary: 'bot page' });
      await bot.post({ action: 'protect', title: 'Pfx Botted', protections: 'edit=sysop', expiry: 'infinite', reason: 'by a bot' });
      const rc = await admin.get({ action: 'query', list: 'recentchanges', rctype: 'log', rcprop: 'title|flags|loginfo', rclimit: '50' });
      const flags = rc.query.recentchanges.filter((c: any) => c.logtype === 'protect').map((c: any) => [c.title, c.bot]);
      assert.deepEqual(flags, [
        ['Pfx Botted', true],
        ['Unmade page', false],
        ['Pfx Alpha', false],
      ]);
      const edits = await admin.get({ action: 'query', list: 'recentchanges', rctitle: 'Pfx Botted', rctype: 'new', rcprop: 'flags' });
      assert.equal(edits.query.recentchanges[0].bot, false, 'an edit is a bot edit only when it asks to be');
    });

    test('an upload: its new description page has a page creation entry after the upload entry; img_timestamp in ISO 8601', async () => {
      const r = await upload(
        Object.assign(admin.client, { csrf: admin.token }),
        { filename: 'Pfx upload.png', comment: 'an upload', text: 'described', ignorewarnings: '1' },
        png(4, 3, 11),
        'image/png',
      );
      assert.equal(r.upload?.result, 'Success', JSON.stringify(r));
      const j = await admin.get({ action: 'query', list: 'logevents', letitle: 'File:Pfx upload.png', ledir: 'newer', leprop: 'type|details|comment' });
      assert.deepEqual(
        j.query.logevents.map((e: any) => [`${e.type}/${e.action}`, e.comment]),
        [
          ['upload/upload', 'an upload'],
          ['create/create', 'an upload'],
        ],
      );
      assert.match(j.query.logevents[0].params.img_timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    test('prefix search keeps the case after the first letter (list=prefixsearch, opensearch, REST search/title)', async () => {
      const ps = async (q: string) => (await admin.get({ action: 'query', list: 'prefixsearch', pssearch: q })).query.prefixsearch.map((x: any) => x.title);
      assert.deepEqual(await ps('pfx A'), ['Pfx Alpha']);
      assert.deepEqual(await ps('pFx'), []);
      assert.deepEqual((await admin.get({ action: 'opensearch', search: 'pfx al' }))[1], []);
      assert.deepEqual((await admin.get({ action: 'opensearch', search: 'pfx Al' }))[1], ['Pfx Alpha']);
      const rest = (await admin.client.get('/w/rest.php/v1/search/title?q=pFX&limit=10')).json<any>();
      assert.deepEqual(rest.pages, []);
    });

    test('meta=userinfo: the options hold every default, a searchNs for each namespace', async () => {
      const j = await admin.get({ action: 'query', meta: 'userinfo', uiprop: 'options' });
      assert.equal(j.query.userinfo.options.searchNs0, 1);
      assert.equal(j.query.userinfo.options.searchNs1, 0);
      assert.equal(j.query.userinfo.options.searchNs14, 0);
    });

    test('action=parse: categorieshtml lists a hidden category as hidden; showtoc is told without a table of contents', async () => {
      await admin.post({ action: 'edit', title: 'Category:Pfx maintenance', text: 'A maintenance category.__HIDDENCAT__' });
      await admin.post({ action: 'edit', title: 'Pfx Categorised', text: 'c [[Category:Pfx maintenance]][[Category:Pfx red]]' });
      await settled(admin.get);
      // The category's __HIDDENCAT__ is a page property its links update job writes.
      for (let i = 0; i < 50; i++) {
        const info = await admin.get({ action: 'query', prop: 'categoryinfo', titles: 'Category:Pfx maintenance' });
        if (info.query.pages[0].categoryinfo?.hidden) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const j = await admin.get({ action: 'parse', page: 'Pfx Categorised', prop: 'categorieshtml|sections|subtitle' });
      assert.equal(
        j.parse.categorieshtml,
        '<div id="catlinks" class="catlinks" data-mw="interface"><div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="/wiki/Special:Categories" title="Special:Categories">Category</a>: <ul>' +
          '<li><a href="/w/index.php?title=Category:Pfx_red&amp;action=edit&amp;redlink=1" class="new" title="Category:Pfx red (page does not exist)">Pfx red</a></li></ul></div>' +
          '<div id="mw-hidden-catlinks" class="mw-hidden-catlinks mw-hidden-cats-hidden">Hidden category: <ul><li><a href="/wiki/Category:Pfx_maintenance" title="Category:Pfx maintenance">Pfx maintenance</a></li></ul></div></div>',
      );
      assert.equal(j.parse.showtoc, false);
      assert.equal(j.parse.subtitle, '');
    });

    test('list=watchlist with loginfo: a log entry gives its parameters and its action text', async () => {
      const j = await admin.get({ action: 'query', list: 'watchlist', wltype: 'log', wlprop: 'title|loginfo' });
      const entry = j.query.watchlist.find((w: any) => w.title === 'Pfx Alpha' && w.logtype === 'protect');
      assert.ok(entry, JSON.stringify(j));
      assert.deepEqual(entry.logparams.details, [{ type: 'edit', level: 'sysop', expiry: 'infinite', cascade: false }]);
      assert.equal(
        entry.logdisplay,
        '<a href="/w/index.php?title=User:Diffadmin&amp;action=edit&amp;redlink=1" class="new mw-userlink" title="User:Diffadmin (page does not exist)"><bdi>Diffadmin</bdi></a> protected <a href="/wiki/Pfx_Alpha" title="Pfx Alpha">Pfx Alpha</a> [Edit=Allow only administrators] (indefinite)',
      );
    });

    test("a log entry on a watched page marks it changed for its other watchers (list=watchlistraw's changed)", async () => {
      const watcher = await login(wiki, 'Diffwatcher', 'diffwatcherpass1', 'bot');
      const wt = (await watcher.get({ action: 'query', meta: 'tokens', type: 'watch' })).query.tokens.watchtoken;
      const w = (await watcher.client.post(API, { format: 'json', formatversion: '2', action: 'watch', titles: 'User:Diffwatcher', token: wt })).json<any>();
      assert.equal(w.error, undefined, JSON.stringify(w));
      const before = await watcher.get({ action: 'query', list: 'watchlistraw', wrprop: 'changed' });
      assert.equal(before.watchlistraw.find((x: any) => x.title === 'User:Diffwatcher').changed, undefined);
      const ut = (await admin.get({ action: 'query', meta: 'tokens', type: 'userrights' })).query.tokens.userrightstoken;
      const ur = (await admin.client.post(API, { format: 'json', formatversion: '2', action: 'userrights', user: 'Diffwatcher', add: 'sysop', reason: 'a log entry', token: ut })).json<any>();
      assert.equal(ur.error, undefined, JSON.stringify(ur));
      const after = await watcher.get({ action: 'query', list: 'watchlistraw', wrprop: 'changed' });
      assert.match(after.watchlistraw.find((x: any) => x.title === 'User:Diffwatcher').changed, /^\d{4}-\d\d-\d\dT/);
    });

    test("summaries MediaWiki writes itself come from the wiki's messages: an edited MediaWiki: page changes them", async () => {
      await admin.post({ action: 'edit', title: 'MediaWiki:Autoredircomment', text: 'Now points at [[$1]]' });
      await admin.post({ action: 'edit', title: 'MediaWiki:Protectedarticle-comment', text: '$2 locked "[[$1]]"' });
      await admin.post({ action: 'edit', title: 'MediaWiki:Logentry-move-move', text: '$1 renamed $3 as $4' });
      await admin.post({ action: 'edit', title: 'Pfx Pointer', text: '#REDIRECT [[Pfx Alpha]]' });
      await admin.post({ action: 'edit', title: 'Pfx Locked', text: 'x', summary: 'made' });
      await admin.post({ action: 'protect', title: 'Pfx Locked', protections: 'edit=sysop', expiry: 'infinite', reason: 'why' });
      await admin.post({ action: 'move', from: 'Pfx Locked', to: 'Pfx Locked moved', reason: 'because' });
      const comments = async (title: string) =>
        (await admin.get({ action: 'query', prop: 'revisions', titles: title, rvprop: 'comment', rvlimit: '5' })).query.pages[0].revisions.map((r: any) => r.comment);
      assert.deepEqual(await comments('Pfx Pointer'), ['Now points at [[Pfx Alpha]]']);
      assert.deepEqual(await comments('Pfx Locked moved'), [
        'Diffadmin renamed [[Pfx Locked]] as [[Pfx Locked moved]]: because',
        'Diffadmin locked "[[Pfx Locked]]": why ([Edit=Allow only administrators] (indefinite))',
        'made',
      ]);
    });

    test('a move: whoever watched the old title watches the new one and its talk page (list=watchlistraw)', async () => {
      const raw = await admin.get({ action: 'query', list: 'watchlistraw', wrlimit: 'max' });
      const titles = raw.watchlistraw.map((w: any) => w.title);
      for (const t of ['Pfx Gamma', 'Pfx Delta', 'Talk:Pfx Gamma', 'Talk:Pfx Delta']) assert.ok(titles.includes(t), `${t} in ${JSON.stringify(titles)}`);
    });
  });
}
