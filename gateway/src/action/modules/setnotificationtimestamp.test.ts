import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { User, PageRecord } from '../../clients/types.js';
import { setnotificationtimestampModule } from './setnotificationtimestamp.js';
import { fakeContext, NAMESPACES } from '../query/testing.js';
import { ApiUsageError, type Params } from '../types.js';

const ADMIN: User = { id: 2, name: 'Admin', anonymous: false, groups: ['*', 'user'], rights: ['read', 'editmywatchlist'] };
const page = (id: number, title: string): PageRecord => ({ id, ns: 0, title, dbkey: title.replace(/ /g, '_'), missing: id === 0 }) as PageRecord;

async function run(params: Params, user: User = ADMIN) {
  const { ctx } = fakeContext(
    setnotificationtimestampModule,
    { entirewatchlist: false, redirects: false, converttitles: false, ...params },
    {
      namespaces: NAMESPACES,
      resolvePages: (req) => ({
        normalized: [],
        redirects: [],
        invalid: [],
        pages: (req.titles ?? []).map((t) => page(t === 'Feed' ? 5 : t === 'Main Page' ? 1 : 0, t)),
        missingPageIds: [],
        badRevIds: [],
        revisionPages: [],
      }),
    },
    { user },
  );
  const calls: Record<string, unknown>[] = [];
  const clients = ctx.deps.clients as unknown as Record<string, Record<string, unknown>>;
  clients.notifications = {
    setNotificationTimestamps: async (req: { titles: string[]; timestamp: string }) => (
      calls.push(req), { pages: req.titles.map((t) => ({ ns: 0, title: t, watched: t === 'Feed', timestamp: t === 'Feed' ? req.timestamp : '' })) }
    ),
  };
  clients.content!.getRevisions = async (req: { revIds?: number[]; pageIds?: number[] }) =>
    req.revIds?.length
      ? { revisions: [{ id: 41, pageId: 5, timestamp: '2026-11-25T15:08:27Z' }] }
      : {
          revisions: [
            { id: 41, pageId: 5, timestamp: '2026-11-25T15:08:27Z' },
            { id: 47, pageId: 5, timestamp: '2026-11-25T15:09:28Z' },
          ],
        };
  await setnotificationtimestampModule.execute(ctx);
  return { result: ctx.result, calls };
}

const fails = (code: string, info: string) => (e: unknown) => e instanceof ApiUsageError && e.code === code && e.info === info;

test('the whole watchlist, marked seen or set to a timestamp', async () => {
  const { result, calls } = await run({ entirewatchlist: true, timestamp: '20260101000000' });
  assert.deepEqual(result, { batchcomplete: true, setnotificationtimestamp: { notificationtimestamp: '2026-01-01T00:00:00Z' } });
  assert.deepEqual(calls, [{ userId: 2, entireWatchlist: true, titles: [], timestamp: '2026-01-01T00:00:00Z' }]);
});

test("titles: watched, missing and unwatched pages; torevid and newerthanrevid take the revisions' timestamps", async () => {
  const { result } = await run({ titles: ['Feed', 'Nope'] });
  assert.deepEqual(
    [...(result.setnotificationtimestamp as unknown[])],
    [
      { ns: 0, title: 'Feed', notificationtimestamp: '' },
      { ns: 0, title: 'Nope', missing: true, notwatched: true },
    ],
  );
  assert.equal(result.batchcomplete, true);
  assert.equal((await run({ titles: ['Feed'], torevid: 41 })).calls[0]!.timestamp, '2026-11-25T15:08:27Z');
  assert.equal((await run({ titles: ['Feed'], newerthanrevid: 41 })).calls[0]!.timestamp, '2026-11-25T15:09:28Z');
});

test('refusals: parameter mixes, several pages with torevid, anonymous callers', async () => {
  await assert.rejects(run({ titles: ['Feed'], timestamp: '20260101000000', torevid: 1 }), fails('invalidparammix', 'The parameters "timestamp" and "torevid" can not be used together.'));
  await assert.rejects(run({ entirewatchlist: true, titles: ['Feed'] }), fails('multisource', 'The "entirewatchlist" parameter cannot be used with "titles".'));
  await assert.rejects(run({ titles: ['Feed', 'Main Page'], torevid: 1 }), fails('multpages', '"torevid" may only be used with a single page.'));
  await assert.rejects(
    run({ titles: ['Feed'] }, { id: 0, name: '1.2.3.4', anonymous: true, groups: ['*'], rights: ['editmywatchlist'] }),
    fails('notloggedin', 'Please log in to view or edit items on your watchlist.'),
  );
});
