import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, startService, unary, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { CountRevisionsRequest, CountType, GetHistoryRequest, GetRevisionsRequest, HistoryFilter, RevisionServiceClient } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { ListPagesRequest, PageServiceClient } from '@quire/proto/wiki/content/pages/v1/pages';
import { RedirectFilter } from '@quire/proto/wiki/content/v1/common';
import { contentService } from '../server.js';
import { saveRevision, type SaveRevisionInput } from '../store/save.js';
import { HistoryStore } from '../store/history.js';
import { RevisionStore } from '../store/revisions.js';
import { TitleCodec } from '../title/codec.js';
import { NamespaceTable } from '../title/namespaces.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));
const ANON = { id: 0, name: '192.0.2.7' };
const ALICE = { id: 41, name: 'Alice' };
const BOTTY = { id: 42, name: 'Botty' };

for (const backend of testBackends()) {
  describe(`content history and listing RPCs (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    let client: RevisionServiceClient;
    let pages: PageServiceClient;
    const history = (r: Partial<GetHistoryRequest>) => unary(client, client.getHistory, GetHistoryRequest.fromPartial({ limit: 20, ...r }));
    const count = (r: Partial<CountRevisionsRequest>) => unary(client, client.countRevisions, CountRevisionsRequest.fromPartial(r));
    const list = (r: Partial<ListPagesRequest>) => unary(pages, pages.listPages, ListPagesRequest.fromPartial({ limit: 10, ...r }));
    const range = (r: Partial<GetRevisionsRequest>) => unary(client, client.getRevisions, GetRevisionsRequest.fromPartial(r));

    /** Page "History subject": 12 revisions, one per second; see `authors` for who made which. */
    const revIds: number[] = [];
    let pageId = 0;
    const t0 = Date.UTC(2030, 0, 1);
    // Revision i (0-based) is by: anon for i%3==0, the bot for i%3==1, Alice otherwise.
    const authorOf = (i: number) => [ANON, BOTTY, ALICE][i % 3]!;

    before(async () => {
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0' });
      svc = await startService(contentService, te.env);
      client = makeClient(RevisionServiceClient, svc.address);
      pages = makeClient(PageServiceClient, svc.address);
      const db = svc.runtime.db;
      let base = 0;
      for (let i = 0; i < 12; i++) {
        const input: SaveRevisionInput = {
          ns: 0,
          dbkey: 'History_subject',
          baseRevId: base,
          text: 'x'.repeat(10 + i * 3),
          contentModel: 'wikitext',
          contentFormat: 'text/x-wiki',
          user: authorOf(i),
          comment: `rev ${i}`,
          minor: i % 4 === 2,
          tags: i === 7 ? ['mw-undo'] : i === 9 ? ['mw-rollback', 'mw-manual-revert'] : [],
          timestamp: new Date(t0 + i * 1000),
          bot: authorOf(i) === BOTTY,
        };
        const saved = await saveRevision(db, codec, input);
        base = saved.revId;
        pageId = saved.pageId;
        revIds.push(saved.revId);
      }
      // Revision 4 (the bot's) has its author hidden (rev_deleted 4 = DELETED_USER).
      await db.query(`UPDATE ${db.schema}.revision SET rev_deleted = 4 WHERE rev_id = $1`, [revIds[4]]);

      for (const [dbkey, text] of [
        ['Apple', 'an apple [[Main Page]]'],
        ['Apricot', '#REDIRECT [[Apple]]'],
        ['Banana', 'b'],
        ['Zebra_crossing', 'z'.repeat(100)],
        ['Ápfel', 'non-ASCII sorts after ASCII'],
      ] as const) {
        await saveRevision(db, codec, { ns: 0, dbkey, baseRevId: 0, text, contentModel: 'wikitext', contentFormat: 'text/x-wiki', user: ALICE, comment: '', minor: false, tags: [] });
      }
      await saveRevision(db, codec, { ns: 1, dbkey: 'Apple', baseRevId: 0, text: 'talk', contentModel: 'wikitext', contentFormat: 'text/x-wiki', user: ALICE, comment: '', minor: false, tags: [] });
    });
    after(async () => {
      client.close();
      pages.close();
      await svc.stop();
      await te.cleanup();
    });

    const newestFirst = () => [...revIds].reverse();

    test('GetHistory: newest first, keyset pages older and newer, exclusive of the relative revision', async () => {
      const first = await history({ pageId, limit: 5 });
      assert.deepEqual(
        first.revisions.map((r) => r.id),
        newestFirst().slice(0, 5),
      );
      assert.equal(first.more, true);
      assert.equal(first.relativeFound, true);
      // Walk to the end with older_than, then back with newer_than.
      const seen: number[] = [...first.revisions.map((r) => r.id)];
      let last = first;
      while (last.more) {
        last = await history({ pageId, limit: 5, olderThan: last.revisions.at(-1)!.id });
        seen.push(...last.revisions.map((r) => r.id));
      }
      assert.deepEqual(seen, newestFirst());
      const back = await history({ pageId, limit: 5, newerThan: revIds[0]! });
      assert.deepEqual(
        back.revisions.map((r) => r.id),
        revIds.slice(1, 6).reverse(),
        'newer_than pages come newest first too',
      );
      assert.equal(back.more, true);
      const top = await history({ pageId, limit: 5, newerThan: revIds[8]! });
      assert.deepEqual(
        top.revisions.map((r) => r.id),
        revIds.slice(9).reverse(),
      );
      assert.equal(top.more, false);
      // Parent sizes give the delta; the first revision has none.
      const oldest = (await history({ pageId, limit: 1, newerThan: revIds[0]! })).revisions[0]!;
      assert.equal(oldest.size - oldest.parentSize, 3);
      assert.equal((await history({ pageId, limit: 1, olderThan: revIds[1]! })).revisions[0]!.parentSize, -1);
    });

    test('GetHistory: a relative revision of another page or none at all is reported, not guessed', async () => {
      const other = (await list({ namespace: 0, from: 'Banana', limit: 1 })).pages[0]!;
      assert.equal((await history({ pageId, olderThan: other.latestRevId })).relativeFound, false);
      assert.equal((await history({ pageId, newerThan: 999999 })).relativeFound, false);
      await assert.rejects(history({ pageId, olderThan: revIds[3]!, newerThan: revIds[2]! }), /cannot be combined/);
    });

    test('GetHistory filters: anonymous, bot (by the given bot users; hidden authors excluded), reverted, minor', async () => {
      const ids = async (filter: HistoryFilter, hiddenUserBits = 0, botUserIds = [BOTTY.id]) => (await history({ pageId, filter, hiddenUserBits, botUserIds })).revisions.map((r) => r.id);
      const where = (pred: (i: number) => boolean) => newestFirst().filter((id) => pred(revIds.indexOf(id)));
      assert.deepEqual(
        await ids(HistoryFilter.HISTORY_FILTER_ANONYMOUS),
        where((i) => i % 3 === 0),
      );
      assert.deepEqual(
        await ids(HistoryFilter.HISTORY_FILTER_BOT),
        where((i) => i % 3 === 1),
      );
      assert.deepEqual(
        await ids(HistoryFilter.HISTORY_FILTER_BOT, 4),
        where((i) => i % 3 === 1 && i !== 4),
        'a caller who cannot see hidden authors does not learn them',
      );
      // The author's current groups decide, not the revision's rev_bot flag.
      assert.deepEqual(
        await ids(HistoryFilter.HISTORY_FILTER_BOT, 0, [ALICE.id]),
        where((i) => i % 3 === 2),
        'Alice saved no rev_bot edit, yet she is a bot now',
      );
      assert.deepEqual(await ids(HistoryFilter.HISTORY_FILTER_BOT, 0, []), [], 'rev_bot edits by users in no bot group are not bot edits');
      assert.deepEqual(
        await ids(HistoryFilter.HISTORY_FILTER_REVERTED),
        where((i) => i === 7 || i === 9),
      );
      assert.deepEqual(
        await ids(HistoryFilter.HISTORY_FILTER_MINOR),
        where((i) => i % 4 === 2),
      );
      const paged = await history({ pageId, filter: HistoryFilter.HISTORY_FILTER_ANONYMOUS, limit: 2, olderThan: revIds[9]! });
      assert.deepEqual(
        paged.revisions.map((r) => r.id),
        [revIds[6], revIds[3]],
      );
      assert.equal(paged.more, true);
    });

    test('CountRevisions: each type, caps with limit, from/to exclusive in either order', async () => {
      // The page's last log entry (its creation) is reported with every count, for Last-Modified.
      const { lastLogTimestamp } = await count({ pageId, type: CountType.COUNT_TYPE_EDITS, cap: 1000 });
      assert.match(lastLogTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const c = async (type: CountType, extra: Partial<CountRevisionsRequest> = {}) => {
        const { lastLogTimestamp: _lastLog, ...rest } = await count({ pageId, type, cap: 1000, ...extra });
        return rest;
      };
      assert.deepEqual(await c(CountType.COUNT_TYPE_EDITS), { count: 12, limit: false, missingRevId: 0, foreignRevId: 0 });
      assert.equal((await c(CountType.COUNT_TYPE_ANONYMOUS)).count, 4);
      assert.equal((await c(CountType.COUNT_TYPE_BOT, { botUserIds: [BOTTY.id] })).count, 3, 'the bot revision with a hidden author is not counted');
      assert.equal((await c(CountType.COUNT_TYPE_BOT, { botUserIds: [ALICE.id, 999] })).count, 4, 'the bot users decide, not rev_bot');
      assert.equal((await c(CountType.COUNT_TYPE_BOT)).count, 0);
      assert.equal((await c(CountType.COUNT_TYPE_EDITORS)).count, 3);
      assert.equal((await c(CountType.COUNT_TYPE_MINOR)).count, 3);
      assert.equal((await c(CountType.COUNT_TYPE_REVERTED)).count, 2, 'a revision with two revert tags counts once');
      assert.deepEqual(await c(CountType.COUNT_TYPE_EDITS, { cap: 5 }), { count: 5, limit: true, missingRevId: 0, foreignRevId: 0 });
      assert.deepEqual(await c(CountType.COUNT_TYPE_EDITS, { cap: 12 }), { count: 12, limit: false, missingRevId: 0, foreignRevId: 0 });
      assert.equal((await c(CountType.COUNT_TYPE_EDITS, { fromRevId: revIds[2]!, toRevId: revIds[6]! })).count, 3);
      assert.equal((await c(CountType.COUNT_TYPE_EDITS, { fromRevId: revIds[6]!, toRevId: revIds[2]! })).count, 3);
      assert.equal((await c(CountType.COUNT_TYPE_EDITS, { fromRevId: revIds[6]!, toRevId: revIds[6]! })).count, 0);
      assert.equal((await c(CountType.COUNT_TYPE_EDITORS, { fromRevId: revIds[0]!, toRevId: revIds[3]! })).count, 2);
      assert.equal((await c(CountType.COUNT_TYPE_EDITS, { fromRevId: 999999, toRevId: revIds[3]! })).missingRevId, 999999);
      const other = (await list({ namespace: 0, from: 'Banana', limit: 1 })).pages[0]!;
      assert.equal((await c(CountType.COUNT_TYPE_EDITS, { fromRevId: other.latestRevId, toRevId: revIds[3]! })).foreignRevId, other.latestRevId);
      await assert.rejects(c(CountType.COUNT_TYPE_MINOR, { fromRevId: revIds[0]!, toRevId: revIds[3]! }), /edits and editors only/);
      await assert.rejects(c(CountType.COUNT_TYPE_EDITS, { fromRevId: revIds[0]! }), /together/);
    });

    test('a count reads at most cap + 1 rows (the store function takes the cap)', async () => {
      const store = new HistoryStore(svc.runtime.db, new RevisionStore(svc.runtime.db));
      assert.deepEqual(await store.count(pageId, 'anonymous', 3), { count: 3, limit: true });
      assert.deepEqual(await store.count(pageId, 'anonymous', 4), { count: 4, limit: false });
      assert.deepEqual(await store.count(pageId, 'editors', 2), { count: 2, limit: true });
    });

    test('GetRevisions range filters: timestamps, user, excludeuser, tag, end id', async () => {
      const ids = async (r: Partial<GetRevisionsRequest>) => (await range({ pageIds: [pageId], limit: 50, ...r })).revisions.map((x) => x.id);
      const iso = (i: number) => new Date(t0 + i * 1000).toISOString();
      assert.deepEqual(
        await ids({ startTimestamp: iso(5), endTimestamp: iso(2) }),
        [5, 4, 3, 2].map((i) => revIds[i]),
      );
      assert.deepEqual(
        await ids({ dirNewer: true, startTimestamp: iso(9) }),
        [9, 10, 11].map((i) => revIds[i]),
      );
      assert.deepEqual(
        await ids({ user: 'Alice' }),
        [11, 8, 5, 2].map((i) => revIds[i]),
      );
      assert.deepEqual((await ids({ excludeUser: 'Alice' })).length, 8);
      assert.deepEqual(await ids({ tag: 'mw-rollback' }), [revIds[9]]);
      assert.deepEqual(
        await ids({ endId: revIds[9]! }),
        [11, 10, 9].map((i) => revIds[i]),
      );
      const limited = await range({ pageIds: [pageId], limit: 2, user: 'Alice' });
      assert.equal(limited.nextId, revIds[5], 'the continuation is the next matching revision');
      await assert.rejects(range({ pageIds: [pageId], limit: 2, startTimestamp: 'yesterday' }), /ISO 8601/);
    });

    test('ListPages: binary title order, bounds, prefix, redirects, sizes, direction, continuation', async () => {
      const titles = async (r: Partial<ListPagesRequest>) => (await list(r)).pages.map((p) => p.title);
      assert.deepEqual(await titles({}), ['Apple', 'Apricot', 'Banana', 'History subject', 'Main Page', 'Zebra crossing', 'Ápfel']);
      assert.deepEqual(await titles({ namespace: 1 }), ['Talk:Apple']);
      assert.deepEqual(await titles({ from: 'Apricot', to: 'Main_Page' }), ['Apricot', 'Banana', 'History subject', 'Main Page']);
      assert.deepEqual(await titles({ prefix: 'Ap' }), ['Apple', 'Apricot']);
      assert.deepEqual(await titles({ filterRedirects: RedirectFilter.REDIRECT_FILTER_REDIRECTS }), ['Apricot']);
      assert.equal((await titles({ filterRedirects: RedirectFilter.REDIRECT_FILTER_NONREDIRECTS })).includes('Apricot'), false);
      assert.deepEqual(await titles({ minSize: 50, maxSize: 100 }), ['Zebra crossing']);
      assert.deepEqual(await titles({ maxSize: 1 }), ['Banana']);
      assert.deepEqual(await titles({ descending: true, from: 'Banana', limit: 2 }), ['Banana', 'Apricot']);
      const firstPage = await list({ limit: 3 });
      assert.deepEqual(
        firstPage.pages.map((p) => p.title),
        ['Apple', 'Apricot', 'Banana'],
      );
      assert.equal(firstPage.continueFrom, 'History_subject');
      assert.equal(firstPage.pages[1]!.redirect, true);
      assert.equal(firstPage.pages[1]!.redirectTarget, 'Apple');
      const rest = await list({ limit: 10, from: firstPage.continueFrom });
      assert.equal(rest.pages[0]!.title, 'History subject');
      assert.equal(rest.continueFrom, '');
      await assert.rejects(list({ namespace: 77 }), /Unknown namespace/);
    });
  });
}
