/* Typed wrapper of wiki.content.v1.NotificationService (watchlist notification timestamps; the content service's address). */
import { makeClient, unary } from '@quire/kit';
import { NotificationServiceClient, type SetNotificationTimestampsRequest, type SetNotificationTimestampsResponse } from '@quire/proto/wiki/content/v1/notifications';
import type { CallOpts } from './call-options.js';

export class NotificationsClient {
  constructor(private readonly c: NotificationServiceClient) {}
  static connect(addr: string, secretKey?: string): NotificationsClient {
    return new NotificationsClient(makeClient(NotificationServiceClient, addr, {}, secretKey));
  }
  setNotificationTimestamps(req: SetNotificationTimestampsRequest, o?: CallOpts): Promise<SetNotificationTimestampsResponse> {
    return unary(this.c, this.c.setNotificationTimestamps, req, o);
  }
  close() {
    this.c.close();
  }
}
