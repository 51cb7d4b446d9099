/*
 * Watchlists, preferences, change tags and talk-page notifications on the whole wiki:
 * action=watch with expiries, edit's watchlist parameter, list=watchlist and
 * list=watchlistraw, action=options with uiprop=options, action=tag and list=tags, and hasmsg.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';
import { loggedIn } from './files-helpers.js';

const quiet = () => undefined;
type Client = Awaited<ReturnType<typeof loggedIn>>;

const post = async (c: Client, form: Record<string, string>) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', ...form })).json();
const edit = (c: Client, form: Record<string, string>) => post(c, { action: 'edit', token: c.csrf, ...form });
const watch = (c: Client, form: Record<string, string>) => post(c, { action: 'watch', token: c.watchToken, ...form });

for (const backend of testBackends()) {
  describe(`watchlist, options, tags, notifications (${backend})`, () => {
    let wiki: TestWiki;
    let alice: Client;
    let bob: Client;

    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, quiet);
      await runAdmin(['createAndPromote', 'Bob', 'bobpass1234567'], wiki.testEnv.env, quiet);
      alice = await loggedIn(wiki, 'Alice', 'alicepass123456');
      bob = await loggedIn(wiki, 'Bob', 'bobpass1234567');
    });
    after(() => wiki?.close());

    test('action=watch: titles, missing and invalid ones, expiry, unwatch; watchlistraw', async () => {
      await edit(bob, { title: 'Existing page', text: 'x' });
      const r = await watch(alice, { titles: 'Existing page|Nope page|Special:Foo|<bad>', expiry: '1 week' });
      assert.deepEqual(
        r.watch.map((w: Record<string, unknown>) => [w.title, w.watched ?? false, w.missing ?? false, w.invalid ?? false, w.special ?? false]),
        [
          ['<bad>', false, false, true, false],
          ['Special:Foo', false, true, false, true],
          ['Nope page', true, true, false, false],
          ['Existing page', true, false, false, false],
        ],
      );
      const expiry = r.watch[3].watchlistexpiry;
      const inAWeek = Date.now() + 7 * 86400_000;
      assert.ok(Math.abs(Date.parse(expiry) - inAWeek) < 60_000, expiry);
      const raw = (await alice.api({ action: 'query', list: 'watchlistraw', formatversion: '2' })).json();
      assert.deepEqual(
        raw.watchlistraw.map((w: { title: string }) => w.title),
        ['Existing page', 'Nope page', 'Talk:Existing page', 'Talk:Nope page'],
        'a page and its talk page are watched together',
      );
      const un = await watch(alice, { titles: 'Nope page', unwatch: '1' });
      assert.deepEqual(un.watch, [{ title: 'Nope page', ns: 0, unwatched: true, missing: true }]);
      const after = (await alice.api({ action: 'query', list: 'watchlistraw', wrlimit: '1', formatversion: '2' })).json();
      assert.deepEqual(
        after.watchlistraw.map((w: { title: string }) => w.title),
        ['Existing page'],
      );
      const next = (await alice.api({ action: 'query', list: 'watchlistraw', wrlimit: '5', wrcontinue: after.continue.wrcontinue, formatversion: '2' })).json();
      assert.deepEqual(
        next.watchlistraw.map((w: { title: string }) => w.title),
        ['Talk:Existing page'],
      );

      // ExpiryDef: a past or unreadable expiry fails validation; one past $wgWatchlistExpiryMaxDuration
      // (1 year) is cut to it with a warning. An expired watch is no watch.
      assert.equal((await watch(alice, { titles: 'Existing page', expiry: '2001-01-01T00:00:00Z' })).error.code, 'badexpiry-past');
      assert.equal((await watch(alice, { titles: 'Existing page', expiry: 'whenever' })).error.code, 'badexpiry');
      const long = await watch(alice, { titles: 'Long watch', expiry: '2 years' });
      assert.equal(long.warnings.watch.warnings, 'Given value "2 years" for parameter "expiry" exceeds the maximum of "1 year". Using maximum instead.');
      const cut = Date.parse(long.watch[0].watchlistexpiry) - Date.now();
      assert.ok(cut > 364 * 86_400_000 && cut <= 366 * 86_400_000, long.watch[0].watchlistexpiry);
      assert.equal((await edit(alice, { title: 'Existing page', appendtext: 'y', watchlist: 'watch', watchlistexpiry: 'soon' })).error.code, 'badexpiry');
      await watch(alice, { titles: 'Short watch', expiry: '1 second' });
      await new Promise((res) => setTimeout(res, 1500));
      const raw2 = (await alice.api({ action: 'query', list: 'watchlistraw', formatversion: '2' })).json();
      assert.ok(!raw2.watchlistraw.some((w: { title: string }) => w.title === 'Short watch'));

      const anon = new WikiClient(wiki.baseUrl);
      const anonWatch = (await anon.post('/w/api.php', { action: 'watch', titles: 'X', token: '+\\', format: 'json' })).json();
      assert.equal(anonWatch.error.code, 'notloggedin');
      assert.equal((await anon.api({ action: 'query', list: 'watchlist' })).json().error.code, 'notloggedin');
      assert.equal((await alice.post('/w/api.php', { action: 'watch', titles: 'X', token: alice.csrf, format: 'json' })).json().error.code, 'badtoken', 'the watch token is needed');
    });

    test("edit's watchlist parameter and the watched result; list=watchlist shows others' changes", async () => {
      const created = await edit(alice, { title: 'Alice page', text: 'one' });
      assert.equal(created.edit.watched, true, 'watchdefault: a user watches what they edit');
      const raw = (await alice.api({ action: 'query', list: 'watchlistraw', formatversion: '2' })).json();
      assert.ok(raw.watchlistraw.some((w: { title: string }) => w.title === 'Alice page'));
      const unwatched = await edit(alice, { title: 'Alice page', text: 'two', watchlist: 'unwatch' });
      assert.equal(unwatched.edit.watched, undefined);
      const nochange = await edit(alice, { title: 'Alice page', text: 'three', watchlist: 'nochange' });
      assert.equal(nochange.edit.watched, undefined, 'nochange keeps it unwatched');
      const timed = await edit(alice, { title: 'Alice page', text: 'four', watchlist: 'watch', watchlistexpiry: '1 month' });
      assert.equal(timed.edit.watched, true);
      assert.match(timed.edit.watchlistexpiry, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

      await edit(bob, { title: 'Alice page', text: 'five', summary: 'bob was here' });
      await edit(bob, { title: 'Existing page', text: 'y', summary: 'second' });
      const wl = (await alice.api({ action: 'query', list: 'watchlist', wlprop: 'ids|title|flags|user|comment|timestamp|sizes|expiry', formatversion: '2' })).json();
      const byTitle = new Map<string, any>(wl.query.watchlist.map((c: { title: string }) => [c.title, c]));
      assert.equal(byTitle.get('Alice page').user, 'Bob');
      assert.equal(byTitle.get('Alice page').comment, 'bob was here');
      assert.equal(byTitle.get('Alice page').type, 'edit');
      assert.match(byTitle.get('Alice page').expiry, /Z$/);
      assert.equal(byTitle.get('Existing page').comment, 'second', 'without allrev only the latest change of a page');
      const times: string[] = wl.query.watchlist.map((c: { timestamp: string }) => c.timestamp);
      assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
      const others = (await alice.api({ action: 'query', list: 'watchlist', wlexcludeuser: 'Bob', wlallrev: '1', formatversion: '2' })).json();
      assert.ok(others.query.watchlist.every((c: { title: string }) => c.title === 'Alice page'));
      const paged = (await alice.api({ action: 'query', list: 'watchlist', wllimit: '1', wlallrev: '1', formatversion: '2' })).json();
      assert.equal(paged.query.watchlist.length, 1);
      const rest = (await alice.api({ action: 'query', list: 'watchlist', wllimit: '500', wlallrev: '1', wlcontinue: paged.continue.wlcontinue, formatversion: '2' })).json();
      assert.ok(rest.query.watchlist.length >= 4);
      const changed = (await alice.api({ action: 'query', list: 'watchlistraw', wrprop: 'changed', wrshow: 'changed', formatversion: '2' })).json();
      assert.ok(changed.watchlistraw.some((w: { title: string; changed?: string }) => w.title === 'Alice page' && w.changed));
    });

    test('action=options: change, optionname/optionvalue, invalid values, reset; uiprop=options', async () => {
      const options = async () => (await alice.api({ action: 'query', meta: 'userinfo', uiprop: 'options', formatversion: '2' })).json().query.userinfo.options;
      assert.equal((await options()).skin, 'vector');
      assert.deepEqual(await post(alice, { action: 'options', change: 'skin=monobook|gender=female', token: alice.csrf }), { options: 'success' });
      assert.deepEqual(await post(alice, { action: 'options', optionname: 'nickname', optionvalue: 'Ali|ce', token: alice.csrf }), { options: 'success' });
      let o = await options();
      assert.deepEqual([o.skin, o.gender, o.nickname], ['monobook', 'female', 'Ali|ce']);
      const bad = await post(alice, { action: 'options', change: 'nosuchopt=1|skin=nosuchskin', token: alice.csrf });
      assert.equal(bad.options, 'success');
      assert.equal(bad.warnings.options.warnings, 'Validation error for "nosuchopt": not a valid preference.\nValidation error for "skin": The value you specified is not a valid option.');
      assert.equal((await options()).skin, 'monobook', 'an invalid value changes nothing');
      assert.equal((await post(alice, { action: 'options', token: alice.csrf })).error.code, 'nochanges');
      await post(alice, { action: 'options', change: 'nickname', token: alice.csrf });
      assert.equal((await options()).nickname, '', 'a name without a value goes back to the default');
      await post(alice, { action: 'options', reset: '1', token: alice.csrf });
      o = await options();
      assert.deepEqual([o.skin, o.gender], ['vector', 'unknown']);
      const anon = new WikiClient(wiki.baseUrl);
      assert.equal((await anon.post('/w/api.php', { action: 'options', change: 'skin=monobook', token: '+\\', format: 'json' })).json().error.code, 'notloggedin');
      // watchdefault off: edits no longer watch by preference.
      await post(alice, { action: 'options', change: 'watchdefault=0|watchcreations=0', token: alice.csrf });
      assert.equal((await edit(alice, { title: 'Unwatched by preference', text: 'x' })).edit.watched, undefined);
    });

    test('action=tag adds and removes user-defined tags with changetags; list=tags', async () => {
      const content = wiki.stack.services.find((s) => s.name === 'content')!.runtime.db;
      await content.query(`INSERT INTO ${content.schema}.change_tag_def (ctd_name, ctd_user_defined) VALUES ('reviewed', true)`);
      const rev = (await edit(bob, { title: 'Tagged page', text: 'content' })).edit.newrevid as number;
      const added = await post(alice, { action: 'tag', revid: String(rev), add: 'reviewed', reason: 'checked', token: alice.csrf });
      assert.equal(added.tag[0].status, 'success');
      assert.deepEqual(added.tag[0].added, ['reviewed']);
      assert.ok(added.tag[0].actionlogid > 0);
      const tags = (await wiki.api({ action: 'query', revids: String(rev), prop: 'revisions', rvprop: 'tags', formatversion: '2' })).json().query.pages[0].revisions[0].tags;
      assert.deepEqual(tags, ['reviewed']);
      const log = (await wiki.api({ action: 'query', list: 'logevents', letype: 'tag', formatversion: '2' })).json().query.logevents[0];
      assert.deepEqual([log.type, log.action, log.title, log.comment], ['tag', 'update', 'Tagged page', 'checked']);
      assert.deepEqual((await post(alice, { action: 'tag', revid: String(rev), add: 'reviewed', token: alice.csrf })).tag[0], { revid: rev, status: 'success', noop: true });
      const removed = await post(alice, { action: 'tag', revid: String(rev), remove: 'reviewed', token: alice.csrf });
      assert.deepEqual(removed.tag[0].removed, ['reviewed']);

      const software = await post(alice, { action: 'tag', revid: String(rev), add: 'mw-undo', token: alice.csrf });
      assert.deepEqual([software.error.code, software.error.info, software.error.disallowedtags], ['badtags', 'The tag "mw-undo" is not allowed to be manually applied.', ['mw-undo']]);
      const missing = await post(alice, { action: 'tag', revid: '999999', add: 'reviewed', token: alice.csrf });
      assert.deepEqual(missing.tag[0], { revid: 999999, status: 'error', code: 'nosuchrevid', info: 'There is no revision with ID 999999.' });
      assert.equal((await post(alice, { action: 'tag', add: 'reviewed', token: alice.csrf })).error.code, 'missingparam');
      const anon = new WikiClient(wiki.baseUrl);
      const denied = (await anon.post('/w/api.php', { action: 'tag', revid: String(rev), add: 'reviewed', token: '+\\', format: 'json' })).json();
      assert.equal(denied.error.code, 'permissiondenied');

      const list = (await wiki.api({ action: 'query', list: 'tags', tgprop: 'defined|active|hitcount|source|displayname', tglimit: 'max', formatversion: '2' })).json().query.tags;
      const reviewed = list.find((t: { name: string }) => t.name === 'reviewed');
      assert.deepEqual(reviewed, { name: 'reviewed', displayname: 'reviewed', hitcount: 0, defined: true, source: ['manual'], active: true });
      const undo = list.find((t: { name: string }) => t.name === 'mw-undo');
      assert.deepEqual([undo.defined, undo.source, undo.displayname], [true, ['extension'], 'Undo']);
      const paged = (await wiki.api({ action: 'query', list: 'tags', tglimit: '2', formatversion: '2' })).json();
      assert.equal(paged.query.tags.length, 2);
      const more = (await wiki.api({ action: 'query', list: 'tags', tglimit: '500', tgcontinue: paged.continue.tgcontinue, formatversion: '2' })).json();
      assert.equal(paged.query.tags.length + more.query.tags.length, list.length);
    });

    test('hasmsg: set by another user editing your talk page, cleared when you read it', async () => {
      const hasmsg = async (c: WikiClient) => (await c.api({ action: 'query', meta: 'userinfo', uiprop: 'hasmsg', formatversion: '2' })).json().query.userinfo.messages;
      assert.equal(await hasmsg(alice), false);
      await edit(alice, { title: 'User talk:Alice', text: 'my own notes' });
      assert.equal(await hasmsg(alice), false, 'your own edits do not notify you');
      await edit(bob, { title: 'User talk:Alice/Archive', text: 'archived' });
      assert.equal(await hasmsg(alice), false, 'subpages do not notify');
      await edit(bob, { title: 'User talk:Alice', appendtext: '\nHello from Bob' });
      assert.equal(await hasmsg(alice), true);
      assert.equal(await hasmsg(bob), false);
      // Someone else reading it does not clear it; the owner reading it through REST does.
      await bob.rest('/v1/page/User_talk:Alice');
      assert.equal(await hasmsg(alice), true);
      assert.equal((await alice.rest('/v1/page/User_talk:Alice')).status, 200);
      assert.equal(await hasmsg(alice), false);
      // … and so does action=query on the page.
      await edit(bob, { title: 'User talk:Alice', appendtext: '\nAgain' });
      assert.equal(await hasmsg(alice), true);
      await alice.api({ action: 'query', titles: 'User talk:Alice', prop: 'revisions', rvprop: 'content', rvslots: 'main' });
      assert.equal(await hasmsg(alice), false);
    });
  });
}
