/*
 * Reading through the action API on the whole wiki, continued:
 * generator=revisions in its three modes with grvcontinue, and prop=info's display title
 * ({{DISPLAYTITLE}} from page_props), variant titles and the caller's watchlist facts
 * (watched, notificationtimestamp, watchers, visitingwatchers) with readable and preload —
 * each compared with what MediaWiki 1.39 answers for the same requests.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, type TestWiki } from './harness.js';
import { loggedIn } from './files-helpers.js';

const ANON_TOKEN = '+\\';
const GENEROUS_LIMITS = JSON.stringify({ edit: { ip: [100000, 60] } });
const quiet = () => undefined;

type Json = Record<string, any>;

async function eventually(check: () => Promise<void>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

for (const backend of testBackends()) {
  describe(`generator=revisions and prop=info details on ${backend}`, () => {
    let wiki: TestWiki;
    const api = async (params: Record<string, string>): Promise<Json> => (await wiki.api({ formatversion: '2', ...params })).json<Json>();
    const pageIds: Record<string, number> = {};
    const revs: Record<string, number[]> = {};
    async function edit(title: string, text: string) {
      const r = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title, text })).json<Json>();
      assert.ok(r.edit?.newrevid, JSON.stringify(r));
      pageIds[title] = r.edit.pageid;
      (revs[title] ??= []).push(r.edit.newrevid);
    }
    const titlesOf = (r: Json) => (r.query?.pages ?? []).map((p: Json) => p.title);
    const revIdsOf = (r: Json) => (r.query?.pages ?? []).flatMap((p: Json) => (p.revisions ?? []).map((v: Json) => v.revid));

    before(async () => {
      wiki = await startWiki(backend, { RATE_LIMITS: GENEROUS_LIMITS });
      for (let i = 0; i < 4; i++) await edit('Hist', `hist ${i}`);
      await edit('Other', 'other');
      await edit('Redir', '#REDIRECT [[Other]]');
      await edit('Talk:Hist', 'talk');
      await edit('Styled', "{{DISPLAYTITLE:''Styled''}} body");
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456', '--groups', 'sysop'], wiki.testEnv.env, quiet);
      await runAdmin(['createAndPromote', 'Bob', 'bobpass1234567'], wiki.testEnv.env, quiet);
    });
    after(() => wiki?.close());

    test('generator=revisions: latest revision of each page, as prop=revisions over revids', async () => {
      const r = await api({ action: 'query', generator: 'revisions', titles: 'Hist|Other|Nope', prop: 'info|revisions', rvprop: 'ids' });
      assert.deepEqual(titlesOf(r), ['Hist', 'Other'], 'missing titles of the input are not shown');
      assert.deepEqual(revIdsOf(r), [revs.Hist!.at(-1), revs.Other![0]]);
      assert.equal(r.query.pages[0].lastrevid, revs.Hist!.at(-1));
      assert.equal(r.batchcomplete, true);
      assert.equal(r.continue, undefined);
      assert.equal(r.query.normalized, undefined);

      // The latest mode continues on "pageid|revid".
      const cont = await api({ action: 'query', generator: 'revisions', titles: 'Hist|Other', grvcontinue: `${pageIds.Other}|${revs.Other![0]}`, prop: 'revisions', rvprop: 'ids' });
      assert.deepEqual(titlesOf(cont), ['Other']);

      // revids: the generated set is those revisions, unknown ones silently dropped (MediaWiki 1.39).
      const byRev = await api({ action: 'query', generator: 'revisions', revids: `${revs.Hist![0]}|${revs.Hist![2]}|999999`, prop: 'revisions', rvprop: 'ids' });
      assert.deepEqual(revIdsOf(byRev), [revs.Hist![0], revs.Hist![2]]);
      assert.equal(byRev.query.badrevids, undefined);

      // redirects=1 resolves the input: the target's latest revision is generated.
      const redir = await api({ action: 'query', generator: 'revisions', titles: 'Redir', redirects: '1', prop: 'info' });
      assert.deepEqual(titlesOf(redir), ['Other']);
      assert.equal(redir.query.redirects, undefined);
    });

    test('generator=revisions enumerates one page with grvlimit, grvdir and grvcontinue (fv1 and fv2)', async () => {
      const seen: number[] = [];
      let cont: Json = {};
      let rounds = 0;
      for (;;) {
        const r = await api({ action: 'query', generator: 'revisions', titles: 'Hist', grvlimit: '3', prop: 'revisions', rvprop: 'ids', ...cont });
        rounds++;
        seen.push(...revIdsOf(r));
        assert.equal(r.batchcomplete, true);
        if (!r.continue) break;
        assert.match(r.continue.grvcontinue, /^\d{14}\|\d+$/);
        assert.equal(r.continue.continue, 'grvcontinue||');
        cont = r.continue;
      }
      assert.equal(rounds, 2);
      // Each batch is newest first; within a batch prop=revisions lists by revision id.
      assert.deepEqual(seen, [revs.Hist![1], revs.Hist![2], revs.Hist![3], revs.Hist![0]]);

      const newer = (await wiki.api({ action: 'query', generator: 'revisions', titles: 'Hist', grvlimit: '2', grvdir: 'newer', prop: 'revisions', rvprop: 'ids' })).json<Json>();
      assert.equal(newer.batchcomplete, '');
      assert.deepEqual(
        Object.values(newer.query.pages as Record<string, Json>).flatMap((p) => p.revisions.map((v: Json) => v.revid)),
        revs.Hist!.slice(0, 2),
      );
      assert.equal(newer.continue.grvcontinue.split('|')[1], String(revs.Hist![2]));

      const max = await api({ action: 'query', generator: 'revisions', titles: 'Hist', grvlimit: 'max' });
      assert.deepEqual(max.limits, { revisions: 500 });
      assert.deepEqual(titlesOf(max), ['Hist']);

      const multi = await api({ action: 'query', generator: 'revisions', titles: 'Hist|Other', grvdir: 'newer' });
      assert.equal(multi.error.code, 'invalidparammix');
      assert.match(multi.error.info, /may only be used on a single page/);
      const badStart = await api({ action: 'query', generator: 'revisions', titles: 'Hist', grvstartid: '999999' });
      assert.equal(badStart.error.code, 'badid_grvstartid');
    });

    test('prop=info: displaytitle from {{DISPLAYTITLE}}, varianttitles of the content language', async () => {
      const q = { action: 'query', prop: 'info', inprop: 'url|talkid|displaytitle|varianttitles', titles: 'Styled|Hist|Talk:Hist|Nope' };
      await eventually(async () => {
        const r = await api(q);
        const styled = r.query.pages.find((p: Json) => p.title === 'Styled');
        assert.equal(styled.displaytitle, '<i>Styled</i>');
      });
      const r = await api(q);
      const byTitle = Object.fromEntries(r.query.pages.map((p: Json) => [p.title, p]));
      assert.deepEqual(byTitle.Styled.varianttitles, { en: '<i>Styled</i>' });
      assert.equal(byTitle.Styled.fullurl.endsWith('/wiki/Styled'), true);
      assert.equal(byTitle.Hist.displaytitle, 'Hist');
      assert.deepEqual(byTitle.Hist.varianttitles, { en: 'Hist' });
      assert.equal(byTitle.Hist.talkid, pageIds['Talk:Hist']);
      assert.deepEqual(byTitle['Talk:Hist'].varianttitles, { en: 'Talk:Hist' });
      assert.equal(byTitle.Nope.displaytitle, 'Nope');
      assert.equal('varianttitles' in byTitle.Nope, false, 'missing pages have no variant titles');
      assert.deepEqual(Object.keys(byTitle.Hist).slice(-6), ['talkid', 'fullurl', 'editurl', 'canonicalurl', 'displaytitle', 'varianttitles']);
    });

    test('prop=info: watched, watchers, visitingwatchers, notificationtimestamp, readable, preload', async () => {
      const alice = await loggedIn(wiki, 'Alice', 'alicepass123456');
      const bob = await loggedIn(wiki, 'Bob', 'bobpass1234567');
      for (const c of [alice, bob]) {
        const w = (await c.post('/w/api.php', { action: 'watch', titles: 'Hist', token: c.watchToken, format: 'json' })).json<Json>();
        assert.equal(w.watch[0].watched, '');
      }
      await bob.post('/w/api.php', { action: 'watch', titles: 'Nope', expiry: '1 week', token: bob.watchToken, format: 'json' });
      await edit('Hist', 'hist by someone else');
      const inprop = 'watched|watchers|visitingwatchers|notificationtimestamp|readable|preload';
      const ask = async (c: typeof alice | undefined, extra: Record<string, string> = {}) => {
        const params = { action: 'query', prop: 'info', inprop, titles: 'Hist|Other|Nope', format: 'json', formatversion: '2', ...extra };
        return (await (c ?? wiki).api(params)).json<Json>();
      };

      const a = await ask(alice);
      // The deprecated value warns as in MediaWiki 1.39.
      assert.equal(a.warnings.info.warnings, 'The value "readable" to parameter "inprop" has been deprecated.');
      const pa = Object.fromEntries(a.query.pages.map((p: Json) => [p.title, p]));
      const lastEdit = revs.Hist!.at(-1)!;
      const histTs = (await api({ action: 'query', revids: String(lastEdit), prop: 'revisions', rvprop: 'timestamp' })).query.pages[0].revisions[0].timestamp;
      assert.deepEqual(
        {
          watched: pa.Hist.watched,
          watchers: pa.Hist.watchers,
          visitingwatchers: pa.Hist.visitingwatchers,
          notificationtimestamp: pa.Hist.notificationtimestamp,
          readable: pa.Hist.readable,
          preload: pa.Hist.preload,
        },
        { watched: true, watchers: 2, visitingwatchers: 2, notificationtimestamp: histTs, readable: true, preload: '' },
      );
      assert.deepEqual(Object.keys(pa.Hist).slice(-6), ['watched', 'watchers', 'visitingwatchers', 'notificationtimestamp', 'readable', 'preload']);
      // A sysop (unwatchedpages) sees zero counts too; a missing page preloads nothing (null).
      assert.deepEqual(
        { watched: pa.Other.watched, watchers: pa.Other.watchers, visitingwatchers: pa.Other.visitingwatchers, notificationtimestamp: pa.Other.notificationtimestamp },
        { watched: false, watchers: 0, visitingwatchers: 0, notificationtimestamp: '' },
      );
      assert.equal(pa.Nope.preload, null);
      assert.equal(pa.Nope.watchers, 1);
      assert.equal(pa.Nope.watched, false);

      // Bob has no unwatchedpages right: no counts; his own watch has its expiry.
      const b = await ask(bob);
      const pb = Object.fromEntries(b.query.pages.map((p: Json) => [p.title, p]));
      assert.equal(pb.Hist.watched, true);
      assert.equal('watchers' in pb.Hist, false);
      assert.equal('visitingwatchers' in pb.Hist, false);
      assert.equal(pb.Nope.watched, true);
      assert.ok(Math.abs(Date.parse(pb.Nope.watchlistexpiry) - (Date.now() + 7 * 86400_000)) < 120_000, pb.Nope.watchlistexpiry);

      // Anonymous: not watching, no counts; formatversion=1 drops false and keeps null.
      const anon = await ask(undefined, { formatversion: '1' });
      const hist = Object.values(anon.query.pages as Record<string, Json>).find((p) => p.title === 'Hist')!;
      const nope = Object.values(anon.query.pages as Record<string, Json>).find((p) => p.title === 'Nope')!;
      assert.equal('watched' in hist, false);
      assert.equal('watchers' in hist, false);
      assert.equal(hist.notificationtimestamp, '');
      assert.equal(hist.readable, '');
      assert.equal(hist.preload, '');
      assert.equal(nope.preload, null);
    });
  });
}
