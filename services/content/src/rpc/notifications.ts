/* wiki.content.v1.NotificationService: decodes, calls domain/notifications.ts, encodes. */
import { invalidArgument } from '@quire/kit';
import type { SetNotificationTimestampsRequest, SetNotificationTimestampsResponse } from '@quire/proto/wiki/content/v1/notifications';
import { setNotifications } from '../domain/notifications.js';
import { isoTimestamp } from './records.js';
import type { ContentContext } from './context.js';

export function notificationHandlers(ctx: ContentContext) {
  return {
    async setNotificationTimestamps(req: SetNotificationTimestampsRequest): Promise<SetNotificationTimestampsResponse> {
      const timestamp = req.timestamp === '' ? null : new Date(req.timestamp);
      if (timestamp && Number.isNaN(timestamp.getTime())) throw invalidArgument('badtimestamp', `Invalid timestamp "${req.timestamp}".`);
      const pages = await setNotifications(ctx.db, ctx.codec, { userId: req.userId, entireWatchlist: req.entireWatchlist, titles: req.titles, timestamp });
      return { pages: pages.map((p) => ({ ns: p.ns, title: p.title, watched: p.watched, timestamp: p.timestamp ? isoTimestamp(p.timestamp) : '' })) };
    },
  };
}
