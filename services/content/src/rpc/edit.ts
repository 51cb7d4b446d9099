import type { EditRequest } from '@quire/proto/wiki/content/v1/content';
import { editPage } from '../edit/edit.js';
import type { RateLimiter } from '../store/ratelimit.js';
import type { ContentContext } from './context.js';

export function editHandlers(ctx: ContentContext, limiter: RateLimiter) {
  return {
    edit: (req: EditRequest) => editPage({ db: ctx.db, codec: ctx.codec, revisions: ctx.revisions, limiter }, req),
  };
}
