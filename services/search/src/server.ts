import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bind, ConfigError, invalidArgument, gauge, loadConfig, onScrape, unary, v, DEFAULT_GRPC_PORTS, type ServiceModule } from '@quire/kit';
import { SearchServiceService } from '@quire/proto/wiki/search/v1/search';
import type { SearchBackend } from './backend.js';
import { SqlBackend } from './store/engines/sql.js';
import { MeilisearchBackend } from './store/engines/meilisearch.js';
import { IndexFreshness } from './freshness.js';
import { FeedIndexer, LEASE_KEY, readCursor } from './indexer.js';
import { NamespaceNames } from './namespaces.js';
import { SearchIndex } from './search.js';
import { rebuildIndex } from './rebuild.js';
import { closeContent, connectContent } from './content.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export const searchConfigSpec = {
  contentAddr: v.string(['CONTENT_GRPC_ADDR'], { default: `127.0.0.1:${DEFAULT_GRPC_PORTS.content}`, doc: 'the content service (change feed, pages)' }),
  role: v.string(['SEARCH_ROLE'], { default: 'all', doc: 'query, indexer, or all (both)' }),
  meilisearchUrl: v.url(['MEILISEARCH_URL'], { protocols: ['http', 'https'], doc: 'Meilisearch; unset: the SQL engine' }),
  meilisearchApiKey: v.string(['MEILISEARCH_API_KEY'], { doc: 'Meilisearch key' }),
  meilisearchIndex: v.string(['MEILISEARCH_INDEX'], { default: 'quire-pages', doc: 'Meilisearch index uid' }),
};

const ROLES = ['all', 'query', 'indexer'];

/** Shared with the gateway's read-cache follower (consumer label), one series per consumer. */
const feedLag = gauge('quire_change_feed_lag_seconds', "Age of the oldest change a consumer of content's change feed has not applied yet", ['consumer']);
const feedPending = gauge('quire_change_feed_pending_changes', 'Changes a consumer of the change feed has not applied yet (-1: content unreachable)', ['consumer']);

export const searchService: ServiceModule = {
  name: 'search',
  migrationsDir: path.join(here, '..', 'migrations'),
  async create(rt) {
    const cfg = loadConfig(searchConfigSpec, rt.env);
    if (!ROLES.includes(cfg.role)) throw new ConfigError([`SEARCH_ROLE=${JSON.stringify(cfg.role)} is not one of ${ROLES.join(', ')}`]);
    const backend: SearchBackend = cfg.meilisearchUrl ? new MeilisearchBackend(cfg.meilisearchUrl, cfg.meilisearchApiKey, cfg.meilisearchIndex, rt.db) : new SqlBackend(rt.db);
    await backend.init();
    const content = connectContent(cfg.contentAddr, rt.secretKey);
    const namespaces = new NamespaceNames(content.site);
    const indexer = cfg.role === 'query' ? undefined : new FeedIndexer(rt.db, backend, content.feed, rt.kv, rt.log.child({ role: 'indexer' }));
    const freshness = new IndexFreshness({
      indexedThrough: () => readCursor(rt.db, backend.engine),
      feedHead: async (after) => (await unary(content.feed, content.feed.getChangeFeedStatus, { afterPosition: after }, { deadlineMs: 1000 })).latestPosition,
      indexerActive: async () => (await rt.kv.get(LEASE_KEY)) !== null,
      // Only an indexer of this process can be hurried; another replica's ends its pause in time (≤ 250 ms).
      hurry: () => indexer?.hurry(),
    });
    const index = new SearchIndex(backend, () => namespaces.lookup(), freshness);
    indexer?.start();
    /** How far the index is behind content's change feed (GetIndexStatus, metrics, maxlag). */
    const indexStatus = async () => {
      const through = await readCursor(rt.db, backend.engine);
      const active = (await rt.kv.get(LEASE_KEY)) !== null;
      try {
        const feed = await unary(content.feed, content.feed.getChangeFeedStatus, { afterPosition: through }, { deadlineMs: 5000 });
        const lag = feed.oldestPendingAt ? Math.max(0, (Date.now() - Date.parse(feed.oldestPendingAt)) / 1000) : 0;
        return { engine: backend.engine, indexedThrough: through, lagSeconds: lag, pendingChanges: feed.pending, indexerActive: active };
      } catch {
        // Content unreachable: what this service knows on its own.
        return { engine: backend.engine, indexedThrough: through, lagSeconds: 0, pendingChanges: -1, indexerActive: active };
      }
    };
    const stopMetrics = onScrape(async () => {
      const st = await indexStatus();
      feedLag.set({ consumer: 'search-indexer' }, st.lagSeconds);
      feedPending.set({ consumer: 'search-indexer' }, st.pendingChanges);
    });
    return {
      bindings: [
        bind('wiki.search.v1.SearchService', SearchServiceService, {
          getIndexStatus: () => indexStatus(),
          searchPages: (req) => index.search(req),
          completeTitles: (req) => index.complete(req),
          rebuildIndex: async (req, stream) => {
            const engine = req.engine || backend.engine;
            // The SQL tables are always there (a rebuild prepares a switch back from Meilisearch);
            // Meilisearch only when this service is configured with it.
            let target: SearchBackend;
            if (engine === backend.engine) target = backend;
            else if (engine === 'sql') target = new SqlBackend(rt.db);
            else if (engine === 'meilisearch') throw invalidArgument('badvalue', 'the meilisearch engine is not configured (MEILISEARCH_URL)');
            else throw invalidArgument('badvalue', `unknown engine ${JSON.stringify(engine)}: sql or meilisearch`);
            const last = await rebuildIndex(
              target,
              content,
              rt.kv,
              (p) => stream.write(p),
              () => stream.cancelled,
            );
            stream.write(last);
          },
        }),
      ],
      close: async () => {
        stopMetrics();
        feedLag.remove({ consumer: 'search-indexer' });
        feedPending.remove({ consumer: 'search-indexer' });
        await indexer?.stop();
        closeContent(content);
        await backend.close();
      },
    };
  },
};
