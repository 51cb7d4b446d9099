import type { DeletePageRequest, MovePageRequest, PatrolRequest, ProtectPageRequest, PurgePagesRequest, RollbackRequest, UndeletePageRequest } from '@quire/proto/wiki/content/edit/v1/edit';
import { deletePage, undeletePage } from '../domain/lifecycle/delete.js';
import { movePage } from '../domain/lifecycle/move.js';
import { protectPage } from '../domain/lifecycle/protect.js';
import { patrol, purgePages, rollback } from '../domain/lifecycle/rollback.js';
import { enforceRateLimit, type RateLimiter } from '../store/ratelimit.js';
import type { ContentContext } from './context.js';

/** Delete, undelete, protect, move, rollback, purge and patrol (src/domain/lifecycle; their SQL in src/store/lifecycle). Moves and rollbacks count against $wgRateLimits. */
export function lifecycleHandlers(ctx: ContentContext, limiter: RateLimiter) {
  const deps = { db: ctx.db, codec: ctx.codec };
  return {
    deletePage: (req: DeletePageRequest) => deletePage(deps, req),
    undeletePage: (req: UndeletePageRequest) => undeletePage(deps, req),
    protectPage: (req: ProtectPageRequest) => protectPage(deps, req),
    movePage: async (req: MovePageRequest) => {
      await enforceRateLimit(limiter, 'move', req.actor);
      return movePage(deps, req);
    },
    rollback: async (req: RollbackRequest) => {
      await enforceRateLimit(limiter, 'rollback', req.actor);
      return rollback(deps, req);
    },
    purgePages: (req: PurgePagesRequest) => purgePages(deps, req),
    patrol: (req: PatrolRequest) => patrol(deps, req),
  };
}
