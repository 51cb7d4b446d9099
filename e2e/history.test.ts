/*
 * REST revision, history and count endpoints on the whole wiki (reads):
 * shapes against MediaWiki 1.39's golden samples, history paging followed to the end and back,
 * filters, counts with their parameter rules, and redirect pages on the page routes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, unary } from '@quire/kit';
import { AuthServiceClient, ChangeUserGroupsRequest, CreateAccountRequest } from '@quire/proto/wiki/auth/v1/auth';
import { saveRevision } from '../services/content/src/store/save.js';
import { TitleCodec } from '../services/content/src/title/codec.js';
import { NamespaceTable } from '../services/content/src/title/namespaces.js';
import { GOLDEN_DIR, readGolden, shapeCompareSample, startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';
const GENEROUS_LIMITS = JSON.stringify({ edit: { ip: [100000, 60] } });
const codec = new TitleCodec(new NamespaceTable('Quire'));

interface HistoryBody {
  revisions: { id: number; timestamp: string; minor: boolean; size: number; comment: string | null; user: { id: number | null; name: string } | null; delta: number | null }[];
  latest: string;
  older?: string;
  newer?: string;
}

for (const backend of testBackends()) {
  describe(`REST history and revisions on ${backend}`, () => {
    let wiki: TestWiki;
    /** Revision ids of "Long history", oldest first. */
    const longIds: number[] = [];

    async function anonEdit(title: string, text: string, extra: Record<string, string> = {}) {
      const r = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: ANON_TOKEN, title, text, ...extra })).json<{ edit: { newrevid: number } }>();
      assert.ok(r.edit?.newrevid, JSON.stringify(r));
      return r.edit.newrevid;
    }
    const restPath = (url: string) => url.slice(url.indexOf('/w/rest.php') + '/w/rest.php'.length);

    before(async () => {
      wiki = await startWiki(backend, { RATE_LIMITS: GENEROUS_LIMITS });
      for (let i = 0; i < 45; i++) longIds.push(await anonEdit('Long history', `text ${'x'.repeat(i)}`, { summary: `edit ${i}` }));
      // The golden samples were made by a registered user: write those revisions as one.
      const content = wiki.stack.services.find((s) => s.name === 'content')!;
      const save = (baseRevId: number, text: string, comment: string) =>
        saveRevision(content.runtime.db, codec, {
          ns: 0,
          dbkey: 'Anchor_sample_page',
          baseRevId,
          text,
          contentModel: 'wikitext',
          contentFormat: 'text/x-wiki',
          user: { id: 2, name: 'Admin' },
          comment,
          minor: false,
          tags: [],
        });
      const first = await save(0, 'Hello from the anchor.', 'create sample page');
      await save(first.revId, 'Hello from the anchor.\n\n== Section two ==\nA second edit.', 'second edit');
      await anonEdit('Redirecting', '#REDIRECT [[Long history]]');
    });
    after(() => wiki?.close());

    test('revision, bare revision and history have the golden shapes and headers', async () => {
      const anchor = (await wiki.rest('/v1/page/Anchor_sample_page/history')).json<HistoryBody>();
      const latestId = anchor.revisions[0]!.id;
      for (const [sample, path] of [
        ['rest_revision.http', `/v1/revision/${latestId}`],
        ['rest_revision_bare.http', `/v1/revision/${latestId}/bare`],
        ['rest_page_history.http', '/v1/page/Anchor_sample_page/history'],
        ['rest_page_history_counts_edits.http', '/v1/page/Anchor_sample_page/history/counts/edits'],
        ['rest_error_404_revision.http', '/v1/revision/999999'],
      ] as const) {
        const { code, output } = await shapeCompareSample(`${GOLDEN_DIR}/${sample}`, `${wiki.baseUrl}/w/rest.php${path}`);
        assert.equal(code, 0, `${sample}: ${output}`);
        const golden = await readGolden(sample);
        const ours = await wiki.rest(path);
        for (const h of ['cache-control', 'etag', 'last-modified']) assert.equal(ours.headers.has(h), h in golden.headers, `${sample}: ${h}`);
      }
      const rev = (await wiki.rest(`/v1/revision/${latestId}`)).json<Record<string, unknown>>();
      assert.deepEqual(Object.keys(rev), ['id', 'size', 'minor', 'timestamp', 'content_model', 'page', 'license', 'user', 'comment', 'delta', 'source']);
      assert.deepEqual(rev.user, { id: 2, name: 'Admin' });
      assert.equal(rev.delta, (rev.size as number) - 'Hello from the anchor.'.length);
      assert.deepEqual(rev.page, { id: (await wiki.rest('/v1/page/Anchor_sample_page/bare')).json<{ id: number }>().id, key: 'Anchor_sample_page', title: 'Anchor sample page' });
      const r = await wiki.rest(`/v1/revision/${latestId}`);
      // MediaWiki's revision ETag: sha1 of the id and "a1" (accessible).
      const { createHash } = await import('node:crypto');
      assert.equal(r.headers.get('etag'), `"${createHash('sha1').update(`${latestId}a1`).digest('hex')}"`);
      assert.equal((await wiki.rest(`/v1/revision/${latestId}`, { headers: { 'If-None-Match': r.headers.get('etag')! } })).status, 304);
      const bare = (await wiki.rest(`/v1/revision/${longIds[0]}/bare`)).json<Record<string, unknown>>();
      assert.equal(bare.html_url, `${wiki.baseUrl}/w/rest.php/v1/revision/${longIds[0]}/html`);
      assert.deepEqual(bare.user, { id: null, name: '127.0.0.1' });
      assert.equal(bare.delta, null);
      assert.equal('source' in bare, false);
      const history = await wiki.rest('/v1/page/Anchor_sample_page/history');
      assert.equal(history.headers.get('etag'), `"${latestId}"`);
    });

    test('errors: missing revision, bad ids, incompatible parameters, unknown relative revision', async () => {
      const notFound = await wiki.rest('/v1/revision/999999');
      assert.equal(notFound.status, 404);
      assert.equal(notFound.text, (await readGolden('rest_error_404_revision.http')).body);
      assert.deepEqual((await wiki.rest('/v1/revision/0')).json(), { messageTranslations: { en: 'The specified revision (0) does not exist' }, httpCode: 404, httpReason: 'Not Found' });
      assert.equal((await wiki.rest('/v1/revision/abc')).json<{ failureCode: string }>().failureCode, 'badinteger');
      const both = await wiki.rest('/v1/page/Long_history/history?older_than=1&newer_than=2');
      assert.equal(both.status, 400);
      assert.deepEqual(both.json(), { messageTranslations: { en: 'Parameters "older_than" and "newer_than" cannot both be specified' }, httpCode: 400, httpReason: 'Bad Request' });
      assert.equal((await wiki.rest('/v1/page/Long_history/history?older_than=0')).json<{ messageTranslations: { en: string } }>().messageTranslations.en, 'Revision id must be greater than 0');
      const foreign = await wiki.rest(`/v1/page/Long_history/history?older_than=${(await wiki.rest('/v1/page/Main_Page/bare')).json<{ latest: { id: number } }>().latest.id}`);
      assert.equal(foreign.status, 404);
      assert.match(foreign.json<{ messageTranslations: { en: string } }>().messageTranslations.en, /^The specified revision \(\d+\) does not exist for the specified page \(Long_history\)$/);
      assert.equal((await wiki.rest('/v1/page/Long_history/history?filter=bogus')).json<{ failureCode: string }>().failureCode, 'badvalue');
      assert.equal((await wiki.rest('/v1/page/Nope/history')).status, 404);
    });

    test('history pages: older URLs to the end, newer URLs back to the top', async () => {
      const newestFirst = [...longIds].reverse();
      const first = await wiki.rest('/v1/page/Long_history/history');
      const body = first.json<HistoryBody>();
      assert.equal(first.headers.has('cache-control'), false);
      assert.equal(body.latest, `${wiki.baseUrl}/w/rest.php/v1/page/Long_history/history`);
      assert.equal(body.newer, undefined);
      assert.equal(body.older, `${wiki.baseUrl}/w/rest.php/v1/page/Long_history/history?older_than=${newestFirst[19]}`);
      assert.deepEqual(body.revisions[0], {
        id: newestFirst[0],
        timestamp: body.revisions[0]!.timestamp,
        minor: false,
        size: 'text '.length + 44,
        comment: 'edit 44',
        user: { id: null, name: '127.0.0.1' },
        delta: 1,
      });
      const pages: HistoryBody[] = [body];
      while (pages.at(-1)!.older) pages.push((await wiki.rest(restPath(pages.at(-1)!.older!))).json<HistoryBody>());
      assert.deepEqual(
        pages.map((p) => p.revisions.length),
        [20, 20, 5],
      );
      assert.deepEqual(
        pages.flatMap((p) => p.revisions.map((r) => r.id)),
        newestFirst,
      );
      assert.equal(pages.at(-1)!.revisions.at(-1)!.delta, null);
      // And back up with the newer links.
      const back: HistoryBody[] = [pages.at(-1)!];
      while (back.at(-1)!.newer) back.push((await wiki.rest(restPath(back.at(-1)!.newer!))).json<HistoryBody>());
      assert.deepEqual(
        back.map((p) => p.revisions.length),
        [5, 20, 20],
      );
      assert.deepEqual(
        back.flatMap((p) => p.revisions.map((r) => r.id)).sort((a, b) => a - b),
        longIds,
      );
      // The top page reached through newer_than still offers both directions.
      assert.ok(back.at(-1)!.older);
      assert.equal(back.at(-1)!.revisions[0]!.id, newestFirst[0]);
    });

    test('history filters keep the filter in every URL', async () => {
      const anon = (await wiki.rest('/v1/page/Long_history/history?filter=anonymous')).json<HistoryBody>();
      assert.equal(anon.revisions.length, 20);
      assert.equal(anon.latest, `${wiki.baseUrl}/w/rest.php/v1/page/Long_history/history?filter=anonymous`);
      assert.equal(anon.older, `${wiki.baseUrl}/w/rest.php/v1/page/Long_history/history?filter=anonymous&older_than=${anon.revisions[19]!.id}`);
      assert.deepEqual((await wiki.rest('/v1/page/Long_history/history?filter=minor')).json<HistoryBody>().revisions, []);
      assert.deepEqual((await wiki.rest('/v1/page/Anchor_sample_page/history?filter=anonymous')).json<HistoryBody>().revisions, []);
      assert.deepEqual((await wiki.rest('/v1/page/Long_history/history?filter=bot')).json<HistoryBody>().revisions, []);
    });

    test('bot filter and count: authors now in a bot group, not the rev_bot flag', async () => {
      const authSvc = wiki.stack.services.find((s) => s.name === 'auth')!;
      const auth = makeClient(AuthServiceClient, authSvc.address);
      try {
        const account = async (username: string) => {
          const r = await unary(auth, auth.createAccount, CreateAccountRequest.fromPartial({ username, password: 'histpass123456', ip: '127.0.0.1' }));
          assert.ok(r.ok && r.user, JSON.stringify(r));
          return r.user.id;
        };
        const joinGroup = (userId: number, group: string) => unary(auth, auth.changeUserGroups, ChangeUserGroupsRequest.fromPartial({ userId, add: [{ group, expiry: 'infinite' }] }));
        // The anchor page's revisions carry a user id (2) with no account here: new accounts
        // start above it so that their edits are not merged into that actor.
        const authDb = authSvc.runtime.db;
        await authDb.query(`SELECT setval(pg_get_serial_sequence('${authDb.schema}.users', 'id'), 1000)`);
        const later = { id: await account('Later bot'), name: 'Later bot' };
        const flagged = { id: await account('Flagged human'), name: 'Flagged human' };
        const lapsed = { id: await account('Lapsed bot'), name: 'Lapsed bot' };
        const content = wiki.stack.services.find((s) => s.name === 'content')!;
        const ids: number[] = [];
        let base = 0;
        for (const [user, bot] of [
          [later, false],
          [flagged, true],
          [later, false],
          [lapsed, true],
          [flagged, true],
        ] as const) {
          const saved = await saveRevision(content.runtime.db, codec, {
            ns: 0,
            dbkey: 'Bot_history',
            baseRevId: base,
            text: `edit ${ids.length}`,
            contentModel: 'wikitext',
            contentFormat: 'text/x-wiki',
            user,
            comment: '',
            minor: false,
            tags: [],
            bot,
          });
          base = saved.revId;
          ids.push(saved.revId);
        }
        const botIds = async () => (await wiki.rest('/v1/page/Bot_history/history?filter=bot')).json<HistoryBody>().revisions.map((r) => r.id);
        const botCount = async () => (await wiki.rest('/v1/page/Bot_history/history/counts/bot')).json();
        assert.deepEqual(await botIds(), [], 'rev_bot edits by users in no bot group are not bot edits');
        assert.deepEqual(await botCount(), { count: 0, limit: false });

        // Joining the bot group after the edits makes them bot edits; a group whose rights lack
        // `bot` does not, and neither does a bot membership that has expired.
        await joinGroup(later.id, 'bot');
        await joinGroup(flagged.id, 'sysop');
        await joinGroup(lapsed.id, 'bot');
        await authDb.query(`UPDATE ${authDb.schema}.user_groups SET expiry = now() - interval '1 hour' WHERE user_id = $1`, [lapsed.id]);
        assert.deepEqual(await botIds(), [ids[2], ids[0]]);
        assert.deepEqual(await botCount(), { count: 2, limit: false }, 'the count agrees with the filter');
        const listed = (await wiki.rest('/v1/page/Bot_history/history?filter=bot')).json<HistoryBody>().revisions;
        assert.deepEqual(
          listed.map((r) => r.user),
          [later, later].map(({ id, name }) => ({ id, name })),
        );
      } finally {
        auth.close();
      }
    });

    test('counts: types, from/to rules, deprecated names, headers', async () => {
      const count = async (path: string) => (await wiki.rest(`/v1/page/Long_history/history/counts/${path}`)).json<Record<string, unknown>>();
      assert.deepEqual(await count('edits'), { count: 45, limit: false });
      assert.deepEqual(await count('anonymous'), { count: 45, limit: false });
      assert.deepEqual(await count('editors'), { count: 1, limit: false });
      assert.deepEqual(await count('minor'), { count: 0, limit: false });
      assert.deepEqual(await count('bot'), { count: 0, limit: false });
      assert.deepEqual(await count('reverted'), { count: 0, limit: false });
      assert.deepEqual(await count('temporary'), { count: 0, limit: false });
      assert.deepEqual(await count(`edits?from=${longIds[10]}&to=${longIds[2]}`), { count: 7, limit: false });
      assert.deepEqual(await count(`editors?from=${longIds[2]}&to=${longIds[10]}`), { count: 1, limit: false });
      const invalid = { messageTranslations: { en: 'The specified combination of parameters is not supported.' }, httpCode: 400, httpReason: 'Bad Request' };
      assert.deepEqual(await count(`edits?from=${longIds[1]}`), invalid);
      assert.deepEqual(await count(`minor?from=${longIds[1]}&to=${longIds[2]}`), invalid);
      assert.deepEqual(await count(`edits?from=0&to=${longIds[2]}`), invalid);
      assert.deepEqual(await count(`edits?from=999999&to=${longIds[2]}`), { messageTranslations: { en: 'The specified revision (999999) does not exist' }, httpCode: 404, httpReason: 'Not Found' });
      assert.equal((await count('bogus')).failureCode, 'badvalue');
      const deprecated = await wiki.rest('/v1/page/Long_history/history/counts/anonedits');
      assert.deepEqual(deprecated.json(), { count: 45, limit: false });
      assert.equal(deprecated.headers.get('deprecation'), 'version="v1"');
      assert.equal(deprecated.headers.get('cache-control'), 'max-age=60');
      assert.ok(deprecated.headers.get('last-modified'));
      assert.equal(deprecated.headers.has('etag'), false);
    });

    test('a redirect page is served as itself on every page route, under any title form (MediaWiki 1.39: no redirects, no redirect_target)', async () => {
      const plain = await wiki.rest('/v1/page/Redirecting');
      assert.equal(plain.status, 200);
      const body = plain.json<Record<string, unknown>>();
      assert.equal(body.source, '#REDIRECT [[Long history]]');
      assert.equal('redirect_target' in body, false);
      for (const path of ['Redirecting?redirect=no', 'Redirecting/bare?redirect=no', 'Redirecting/html', 'Redirecting/with_html', 'long_history/html', 'long%20history/with_html']) {
        const r = await wiki.rest(`/v1/page/${path}`);
        assert.equal(r.status, 200, path);
        assert.equal(r.headers.get('location'), null, path);
        if (!path.includes('/html')) assert.equal('redirect_target' in r.json<Record<string, unknown>>(), false, path);
      }
    });
  });
}
