/* wiki.content.v1.NotificationService over gRPC: notification timestamps of watched pages, per page and for the whole watchlist. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, ServiceError, startService, unary, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { WatchlistServiceClient, WatchRequest } from '@quire/proto/wiki/content/v1/files';
import { NotificationServiceClient, SetNotificationTimestampsRequest } from '@quire/proto/wiki/content/v1/notifications';
import { contentService } from '../server.js';

const USER = 7;

for (const backend of testBackends()) {
  describe(`NotificationService (${backend})`, () => {
    let te: TestEnv;
    let svc: RunningService;
    let notifications: NotificationServiceClient;
    let watchlist: WatchlistServiceClient;
    const set = (r: Partial<SetNotificationTimestampsRequest>) => unary(notifications, notifications.setNotificationTimestamps, SetNotificationTimestampsRequest.fromPartial({ userId: USER, ...r }));
    const stored = async () =>
      (
        await svc.runtime.db.query<{ wl_title: string; wl_namespace: number; ts: string | null }>(
          `SELECT wl_namespace, wl_title, to_char(wl_notificationtimestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ts FROM content.watchlist WHERE wl_user = $1 ORDER BY wl_namespace, wl_title`,
          [USER],
        )
      ).rows.map((r) => [r.wl_namespace, r.wl_title, r.ts]);

    before(async () => {
      te = await makeTestEnv(backend, { CONTENT_GRPC_PORT: '0' });
      svc = await startService(contentService, te.env);
      notifications = makeClient(NotificationServiceClient, svc.address);
      watchlist = makeClient(WatchlistServiceClient, svc.address);
      await unary(watchlist, watchlist.watch, WatchRequest.fromPartial({ userId: USER, titles: ['Alpha', 'Beta'] }));
    });
    after(async () => {
      notifications.close();
      watchlist.close();
      await svc.stop();
      await te.cleanup();
    });

    test('titles: watched ones get the timestamp (and read it back), others are not watched', async () => {
      const r = await set({ titles: ['Alpha', 'Talk:Alpha', 'Gamma'], timestamp: '2026-01-02T03:04:05Z' });
      assert.deepEqual(r.pages, [
        { ns: 0, title: 'Alpha', watched: true, timestamp: '2026-01-02T03:04:05Z' },
        { ns: 1, title: 'Talk:Alpha', watched: true, timestamp: '2026-01-02T03:04:05Z' },
        { ns: 0, title: 'Gamma', watched: false, timestamp: '' },
      ]);
      assert.deepEqual(await stored(), [
        [0, 'Alpha', '2026-01-02T03:04:05Z'],
        [0, 'Beta', null],
        [1, 'Alpha', '2026-01-02T03:04:05Z'],
        [1, 'Beta', null],
      ]);
      const cleared = await set({ titles: ['alpha'], timestamp: '' });
      assert.deepEqual(cleared.pages, [{ ns: 0, title: 'Alpha', watched: true, timestamp: '' }]);
    });

    test('the whole watchlist: set every page, then mark everything seen', async () => {
      assert.deepEqual((await set({ entireWatchlist: true, timestamp: '2026-05-05T00:00:00Z' })).pages, []);
      assert.deepEqual(
        (await stored()).map((r) => r[2]),
        ['2026-05-05T00:00:00Z', '2026-05-05T00:00:00Z', '2026-05-05T00:00:00Z', '2026-05-05T00:00:00Z'],
      );
      await set({ entireWatchlist: true, timestamp: '' });
      assert.deepEqual(
        (await stored()).map((r) => r[2]),
        [null, null, null, null],
      );
    });

    test('refusals: anonymous callers, a bad timestamp', async () => {
      await assert.rejects(set({ userId: 0, titles: ['Alpha'] }), (e: unknown) => e instanceof ServiceError && e.mwCode === 'notloggedin');
      await assert.rejects(set({ titles: ['Alpha'], timestamp: 'nonsense' }), (e: unknown) => e instanceof ServiceError && e.mwCode === 'badtimestamp');
    });
  });
}
