/* generator=recentchanges|watchlist|watchlistraw (ApiQueryGeneratorBase): what each gives the page set, and its continuation. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type User, RecentChange, WatchlistChange } from '../../clients/types.js';
import { recentchangesModule } from './recentchanges.js';
import { watchlistModule, watchlistrawModule } from './watchlist.js';
import { fakeContext } from './testing.js';
import { EMPTY_PAGE_SET } from './pageset.js';
import { QueryContinuation } from './continuation.js';
import type { GeneratorModule } from './generator.js';
import type { ApiUsageError, Params } from '../types.js';

const ADMIN: User = { id: 2, name: 'Admin', anonymous: false, groups: ['*', 'user'], rights: ['read', 'viewmywatchlist'] };
const RC = [
  RecentChange.fromPartial({ rcId: 9, type: 'edit', ns: 0, title: 'B', revId: 5, timestamp: '2026-11-25T16:25:13Z' }),
  RecentChange.fromPartial({ rcId: 8, type: 'log', ns: 2, title: 'User:C', revId: 0, timestamp: '2026-11-25T16:25:12Z' }),
  RecentChange.fromPartial({ rcId: 7, type: 'new', ns: 0, title: 'A', revId: 3, timestamp: '2026-11-25T16:25:11Z' }),
];
const WL = [WatchlistChange.fromPartial({ type: 'edit', title: 'B', pageId: 3, revId: 5 }), WatchlistChange.fromPartial({ type: 'new', title: 'A', pageId: 2, revId: 3 })];

async function generate(module: GeneratorModule, params: Params) {
  const { ctx } = fakeContext(module, params, {}, { user: ADMIN });
  const requests: Record<string, unknown>[] = [];
  const content = ctx.deps.clients.content as unknown as Record<string, unknown>;
  content.listRecentChanges = async (req: Record<string, unknown>) => (requests.push(req), { changes: RC.slice(0, Number(req.limit) + 1) });
  content.listWatchlist = async (req: Record<string, unknown>) => (requests.push(req), { changes: WL, continueFrom: '2026-11-25T16:25:10Z|6' });
  content.listWatchlistRaw = async (req: Record<string, unknown>) => (
    requests.push(req),
    {
      pages: [
        { ns: 0, title: 'A' },
        { ns: 1, title: 'Talk:A' },
      ],
      continueFrom: '1|B',
    }
  );
  const continuation = new QueryContinuation(undefined, [], []);
  const generated = await module.generate(ctx, { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation, resolveRedirects: false });
  return { generated, requests, next: continuation.continuation().continue };
}

test('generator=recentchanges: the changed titles, or with generaterevisions the revisions made', async () => {
  const titles = await generate(recentchangesModule, { limit: 2, generaterevisions: false, toponly: false, dir: 'older' });
  assert.deepEqual(titles.generated, { titles: ['B', 'User:C'] });
  assert.equal(titles.requests[0]!.limit, 2);
  assert.deepEqual(titles.next, { grccontinue: '20261125162511|7', continue: 'grccontinue||' });
  const revisions = await generate(recentchangesModule, { limit: 3, generaterevisions: true, toponly: false, dir: 'older' });
  assert.deepEqual(revisions.generated, { revIds: [5, 3] }, 'a log entry has no revision');
  assert.equal(revisions.next, undefined);
});

test('generator=recentchanges: the patrol right is checked as for the list', async () => {
  await assert.rejects(generate(recentchangesModule, { limit: 2, show: ['!patrolled'], generaterevisions: false, toponly: false, dir: 'older' }), (e: ApiUsageError) => e.code === 'permissiondenied');
});

test("generator=watchlist: the pages changed, or with allrev the revisions; the list's prop is not checked", async () => {
  const pages = await generate(watchlistModule, { limit: 10, allrev: false, dir: 'older', prop: ['patrol'] });
  assert.deepEqual(pages.generated, [3, 2]);
  assert.equal(pages.requests[0]!.userId, 2);
  assert.deepEqual(pages.next, { gwlcontinue: '20261125162510|6', continue: 'gwlcontinue||' });
  const revisions = await generate(watchlistModule, { limit: 10, allrev: true, dir: 'older' });
  assert.deepEqual(revisions.generated, { revIds: [5, 3] });
  assert.equal(revisions.requests[0]!.allRevisions, true);
});

test('generator=watchlistraw: the watched titles, existing or not', async () => {
  const { generated, next } = await generate(watchlistrawModule, { limit: 2, dir: 'ascending' });
  assert.deepEqual(generated, { titles: ['A', 'Talk:A'] });
  assert.deepEqual(next, { gwrcontinue: '1|B', continue: 'gwrcontinue||' });
});
