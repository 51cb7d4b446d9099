/*
 * action=setnotificationtimestamp's write (ApiSetNotificationTimestamp with WatchedItemStore):
 * the user's watched pages among the titles, or their whole watchlist, get the timestamp, in one
 * transaction, and the titles' resulting timestamps are read back in it.
 */
import { invalidArgument, type Db } from '@quire/kit';
import type { TitleCodec } from '../title/codec.js';
import { notificationTimestamps, resetAllNotificationTimestamps, setNotificationTimestamps } from '../store/notifications.js';

export interface PageNotificationState {
  ns: number;
  title: string;
  watched: boolean;
  /** null: nothing unseen. */
  timestamp: Date | null;
}

export async function setNotifications(
  db: Db,
  codec: TitleCodec,
  req: { userId: number; entireWatchlist: boolean; titles: readonly string[]; timestamp: Date | null },
): Promise<PageNotificationState[]> {
  if (req.userId <= 0) throw invalidArgument('notloggedin', 'Please log in to view or edit items on your watchlist.');
  // The gateway sends titles its page set resolved: each one parses.
  const pages = req.entireWatchlist ? [] : req.titles.map((text) => codec.parse(text));
  return db.tx(async (q) => {
    if (req.entireWatchlist) await resetAllNotificationTimestamps(q, db, req.userId, req.timestamp);
    else await setNotificationTimestamps(q, db, req.userId, pages, req.timestamp);
    const stored = await notificationTimestamps(q, db, req.userId, pages);
    return pages.map((p) => {
      const key = `${p.ns}|${p.dbkey}`;
      return { ns: p.ns, title: codec.prefixedText(p.ns, p.dbkey), watched: stored.has(key), timestamp: stored.get(key) ?? null };
    });
  });
}
