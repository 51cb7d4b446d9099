import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bind, type ServiceModule } from '@quire/kit';
import { SearchServiceService } from '@quire/proto/wiki/search/v1/search';

const here = path.dirname(fileURLToPath(import.meta.url));

export const searchService: ServiceModule = {
  name: 'search',
  migrationsDir: path.join(here, '..', 'migrations'),
  async create(rt) {
    return {
      bindings: [
        bind('wiki.search.v1.SearchService', SearchServiceService, {
          async getIndexStatus() {
            // The change-feed consumer arrives with the search issue; its cursor row starts at 0.
            const r = await rt.db.query<{ position: number }>(`SELECT position FROM search.feed_cursor WHERE id = 1`);
            return { engine: 'sql', indexedThrough: r.rows[0]?.position ?? 0, lagSeconds: 0 };
          },
        }),
      ],
    };
  },
};
