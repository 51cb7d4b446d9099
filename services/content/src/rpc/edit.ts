import type { EditRequest } from '@quire/proto/wiki/content/v1/content';
import { editPage } from '../edit/edit.js';
import type { RenderService } from '../render/service.js';
import type { RateLimiter } from '../store/ratelimit.js';
import type { ContentContext } from './context.js';
import { wikitextPst } from './render-extra.js';

export function editHandlers(ctx: ContentContext, limiter: RateLimiter, render: RenderService) {
  const deps = { db: ctx.db, codec: ctx.codec, revisions: ctx.revisions, limiter, pst: wikitextPst(ctx, render) };
  return {
    edit: (req: EditRequest) => editPage(deps, req),
  };
}
