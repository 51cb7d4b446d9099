import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { User } from '../../clients/types.js';
import { feedwatchlistModule, sectionAnchor, watchlistFeedItem } from './feedwatchlist.js';
import { watchlistModule } from '../query/watchlist.js';
import { fakeContext } from '../query/testing.js';
import { ApiUsageError, type ModuleDecl, type Params } from '../types.js';
import { EMPTY_PAGE_SET } from '../query/pageset.js';
import { QueryContinuation } from '../query/continuation.js';

const ADMIN: User = { id: 2, name: 'Admin', anonymous: false, groups: ['*', 'user'], rights: ['read', 'viewmywatchlist'] };
const ANON: User = { id: 0, name: '10.0.0.1', anonymous: true, groups: ['*'], rights: ['read', 'viewmywatchlist'] };
const ALICE_DETAILS = { user: { id: 3, name: 'Alice', anonymous: false, groups: [], rights: [] }, optionsJson: '{"watchlisttoken":"s3cret"}' };
const ROW = { type: 'edit', title: 'HelperC Feed', revId: 4, logId: 0, comment: '/* Intro % part */ fix', timestamp: '2026-11-25T15:09:27Z', user: 'Admin', patrolled: 2 };

function setup(module: ModuleDecl, params: Params, user: User) {
  const { ctx } = fakeContext(module, params, {}, { user });
  const requests: Record<string, unknown>[] = [];
  const clients = ctx.deps.clients as unknown as Record<string, Record<string, unknown>>;
  clients.auth!.getUsers = async (req: { names: string[] }) => ({ users: req.names[0] === 'Alice' ? [ALICE_DETAILS] : [] });
  clients.content!.listWatchlist = async (req: Record<string, unknown>) => (requests.push(req), { changes: [ROW], continueFrom: '' });
  let sent: { body: string } | undefined;
  (ctx as { setRawOutput: unknown }).setRawOutput = (o: typeof sent) => (sent = o);
  return { ctx, requests, sent: () => sent!.body };
}

test('items: "comment (user)", the diff or the log entry URL, the section anchor with linktosections', () => {
  assert.equal(sectionAnchor('/* Intro % part */ fix'), '#Intro_%_part');
  assert.equal(sectionAnchor('/* 100%25 [[Done|done]] */'), '#100%2525_done');
  assert.equal(sectionAnchor('no section'), '');
  assert.deepEqual(watchlistFeedItem('http://w', ROW, true, []), {
    title: 'HelperC Feed',
    description: '/* Intro % part */ fix (Admin)',
    url: 'http://w/w/index.php?title=HelperC_Feed&diff=4#Intro_%_part',
    date: '2026-11-25T15:09:27Z',
    author: 'Admin',
    comments: '',
  });
  assert.equal(watchlistFeedItem('http://w', { ...ROW, type: 'log', revId: 0, logId: 9 }, false, [])!.url, 'http://w/w/index.php?title=Special:Log&logid=9');
});

test("feedwatchlist: the caller's list of the last hours, or the owner's with their token", async () => {
  const own = setup(feedwatchlistModule, { feedformat: 'rss', hours: 2, linktosections: false, allrev: true, wltype: ['edit'] }, ADMIN);
  await feedwatchlistModule.execute(own.ctx);
  assert.equal(own.requests.length, 1);
  assert.equal(own.requests[0]!.userId, 2);
  assert.equal(own.requests[0]!.limit, 50);
  assert.equal(own.requests[0]!.allRevisions, true);
  assert.deepEqual(own.requests[0]!.types, ['edit']);
  assert.ok(Math.abs(Date.parse(own.requests[0]!.end as string) - (Date.now() - 2 * 3600_000)) < 5000);
  assert.match(own.sent(), /<title>AnchorWiki - Watchlist \[en\]<\/title>/);
  assert.match(own.sent(), /<description>\/\* Intro % part \*\/ fix \(Admin\)<\/description>/);
  const owner = setup(feedwatchlistModule, { feedformat: 'rss', hours: 24, linktosections: false, allrev: false, wlowner: 'Alice', wltoken: 's3cret' }, ANON);
  await feedwatchlistModule.execute(owner.ctx);
  assert.equal(owner.requests[0]!.userId, 3);
});

test("feedwatchlist: an error is the feed's one item", async () => {
  for (const [params, user, item] of [
    [{}, ANON, ['Error (notloggedin)', 'Please log in to view or edit items on your watchlist.']],
    [{ wlowner: 'Alice', wltoken: 'wrong' }, ANON, ['Error (bad_wltoken)', 'Incorrect watchlist token provided. Please set a correct token in [[Special:Preferences]].']],
  ] as [Params, User, string[]][]) {
    const run = setup(feedwatchlistModule, { feedformat: 'rss', hours: 24, linktosections: false, allrev: false, ...params }, user);
    await feedwatchlistModule.execute(run.ctx);
    assert.equal(run.requests.length, 0);
    const body = run.sent();
    assert.match(body, /<title>AnchorWiki - Error - Watchlist \[en\]<\/title>/);
    assert.ok(
      body.includes(
        `\t\t<item>\n\t\t\t<title>${item[0]}</title>\n\t\t\t<link></link>\n\t\t\t<guid isPermaLink="false"></guid>\n\t\t\t<description>${item[1]}</description>\n\t\t\t\n\t\t\t<dc:creator></dc:creator>\n\t\t\t\n\t\t</item>\n`,
      ),
      body,
    );
  }
});

test("list=watchlist: wlowner with wltoken reads the owner's list; a wrong token or owner is refused", async () => {
  const run = async (params: Params, user: User) => {
    const s = setup(watchlistModule, { prop: ['title'], limit: 10, dir: 'older', allrev: false, ...params }, user);
    const q = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['watchlist'], []), resolveRedirects: false };
    await watchlistModule.execute(s.ctx, q);
    return s.requests;
  };
  assert.equal((await run({ owner: 'Alice', token: 's3cret' }, ANON))[0]!.userId, 3);
  assert.equal((await run({ owner: 'Alice' }, ADMIN))[0]!.userId, 2, "owner without token: the caller's own list");
  const refused = (code: string, info: string) => (e: unknown) => e instanceof ApiUsageError && e.code === code && e.info === info;
  await assert.rejects(run({ owner: 'Alice', token: 's3cret!' }, ANON), refused('bad_wltoken', 'Incorrect watchlist token provided. Please set a correct token in [[Special:Preferences]].'));
  await assert.rejects(run({ owner: 'Nobody', token: 'x' }, ADMIN), refused('bad_wlowner', 'There is no user by the name "Nobody". Check your spelling.'));
  await assert.rejects(run({}, ANON), refused('notloggedin', 'Please log in to view or edit items on your watchlist.'));
});

test('list=watchlist: type=external and the patrol filters (for patrollers only, autopatrolled excludes !patrolled)', async () => {
  const run = async (params: Params, user: User) => {
    const s = setup(watchlistModule, { prop: ['title'], limit: 10, dir: 'older', allrev: false, ...params }, user);
    const q = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['watchlist'], []), resolveRedirects: false };
    await watchlistModule.execute(s.ctx, q);
    return s.requests[0]!;
  };
  const patroller = { ...ADMIN, rights: [...ADMIN.rights, 'patrol'] };
  assert.deepEqual((await run({ show: ['!patrolled'], type: ['external'] }, patroller)).show, ['!patrolled']);
  assert.deepEqual((await run({ show: ['autopatrolled'] }, ADMIN)).show, ['autopatrolled'], 'autopatrolled needs no right');
  await assert.rejects(
    run({ show: ['patrolled'] }, ADMIN),
    (e: unknown) => e instanceof ApiUsageError && e.code === 'permissiondenied' && e.info === 'You need the "patrol" or "patrolmarks" right to request the patrolled flag.',
  );
  await assert.rejects(run({ show: ['autopatrolled', '!patrolled'] }, patroller), (e: unknown) => e instanceof ApiUsageError && e.code === 'show');
});

test('list=watchlist wlprop=patrol: patrolled, unpatrolled, autopatrolled for patrollers', async () => {
  const patroller = { ...ADMIN, rights: [...ADMIN.rights, 'patrol'] };
  const s = setup(watchlistModule, { prop: ['patrol'], limit: 10, dir: 'older', allrev: false }, patroller);
  const q = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {} as Record<string, unknown>, continuation: new QueryContinuation(undefined, ['watchlist'], []), resolveRedirects: false };
  await watchlistModule.execute(s.ctx, q);
  assert.deepEqual([...(q.data.watchlist as unknown[])], [{ type: 'edit', patrolled: true, unpatrolled: false, autopatrolled: true }]);
  const plain = setup(watchlistModule, { prop: ['patrol'], limit: 10, dir: 'older', allrev: false }, ADMIN);
  await assert.rejects(watchlistModule.execute(plain.ctx, q), (e: unknown) => e instanceof ApiUsageError && e.code === 'patrol');
});
