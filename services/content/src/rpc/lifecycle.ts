import type {
  DeletePageRequest,
  MovePageRequest,
  PatrolRequest,
  ProtectPageRequest,
  PurgePagesRequest,
  RollbackRequest,
  UndeletePageRequest,
} from '@quire/proto/wiki/content/v1/content';
import { deletePage, undeletePage } from '../store/lifecycle/delete.js';
import { movePage } from '../store/lifecycle/move.js';
import { protectPage } from '../store/lifecycle/protect.js';
import { patrol, purgePages, rollback } from '../store/lifecycle/rollback.js';
import type { ContentContext } from './context.js';

/** Delete, undelete, protect, move, rollback, purge and patrol (src/store/lifecycle). */
export function lifecycleHandlers(ctx: ContentContext) {
  const deps = { db: ctx.db, codec: ctx.codec };
  return {
    deletePage: (req: DeletePageRequest) => deletePage(deps, req),
    undeletePage: (req: UndeletePageRequest) => undeletePage(deps, req),
    protectPage: (req: ProtectPageRequest) => protectPage(deps, req),
    movePage: (req: MovePageRequest) => movePage(deps, req),
    rollback: (req: RollbackRequest) => rollback(deps, req),
    purgePages: (req: PurgePagesRequest) => purgePages(deps, req),
    patrol: (req: PatrolRequest) => patrol(deps, req),
  };
}
