import type { Db } from '@quire/kit';
import type { TitleCodec } from '../title/codec.js';
import type { PageStore } from '../store/pages.js';
import type { RevisionStore } from '../store/revisions.js';
import type { PageReadCache } from '../store/page-cache.js';

/** What the RPC handlers share: the database, its stores and the wiki's title rules. */
export interface ContentContext {
  db: Db;
  codec: TitleCodec;
  pages: PageStore;
  revisions: RevisionStore;
  /** Hot page reads; see store/page-cache.ts for its invalidation rules. */
  pageCache: PageReadCache;
}
