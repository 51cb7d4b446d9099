import type { EditRequest } from '@quire/proto/wiki/content/edit/v1/edit';
import { editPage } from '../domain/edit.js';
import { wikitextPst, type RenderService } from '../domain/render.js';
import type { RateLimiter } from '../store/ratelimit.js';
import type { ContentContext } from './context.js';

export function editHandlers(ctx: ContentContext, limiter: RateLimiter, render: RenderService) {
  const deps = { db: ctx.db, codec: ctx.codec, revisions: ctx.revisions, limiter, pst: wikitextPst(ctx.codec, render) };
  return {
    edit: (req: EditRequest) => editPage(deps, req),
  };
}
