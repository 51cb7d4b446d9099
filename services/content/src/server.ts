import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bind, ConfigError, loadConfig, serviceConfigSpec, v, type ServiceModule } from '@quire/kit';
import { EditServiceService } from '@quire/proto/wiki/content/edit/v1/edit';
import { FeedServiceService } from '@quire/proto/wiki/content/feed/v1/feed';
import { LinkServiceService } from '@quire/proto/wiki/content/links/v1/links';
import { LogServiceService } from '@quire/proto/wiki/content/logs/v1/logs';
import { PageServiceService } from '@quire/proto/wiki/content/pages/v1/pages';
import { RenderServiceService } from '@quire/proto/wiki/content/render/v1/render';
import { RevisionServiceService } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { SiteServiceService } from '@quire/proto/wiki/content/site/v1/site';
import { FileServiceService, TagServiceService, WatchlistServiceService } from '@quire/proto/wiki/content/v1/files';
import { ListServiceService } from '@quire/proto/wiki/content/v1/lists';
import { NotificationServiceService } from '@quire/proto/wiki/content/v1/notifications';
import { notificationHandlers } from './rpc/notifications.js';
import { ArchiveServiceService, EditStashServiceService, RevisionTextServiceService } from '@quire/proto/wiki/content/v1/archive';
import { ImportServiceService } from '@quire/proto/wiki/content/v1/import';
import { TitleCodec } from './title/codec.js';
import { NamespaceTable } from './title/namespaces.js';
import { PageStore } from './store/pages.js';
import { RevisionStore } from './store/revisions.js';
import { initialiseWiki } from './store/bootstrap.js';
import { PageChangeListener, pageCacheOf } from './store/page-cache.js';
import type { ContentContext } from './rpc/context.js';
import { siteHandlers } from './rpc/site.js';
import { pageHandlers } from './rpc/pages.js';
import { revisionHandlers } from './rpc/revisions.js';
import { historyHandlers } from './rpc/history.js';
import { listingHandlers } from './rpc/listing.js';
import { ReplicaLagProbe, replicationHandlers } from './rpc/replication.js';
import { renderHandlers } from './rpc/render.js';
import { renderExtraHandlers } from './rpc/render-extra.js';
import { renderLintHandlers } from './rpc/render-lint.js';
import { renderHtml2WtHandlers } from './rpc/render-html2wt.js';
import { startRendering } from './domain/render-setup.js';
import { ChangeFeedStore } from './store/feed.js';
import { feedHandlers } from './rpc/feed.js';
import { editHandlers } from './rpc/edit.js';
import { compareHandlers } from './rpc/compare.js';
import { lifecycleHandlers } from './rpc/lifecycle.js';
import { logHandlers } from './rpc/logs.js';
import { parseRateLimits, RateLimiter, type RateLimits } from './store/ratelimit.js';
import { fileStoreFromEnv } from './files/config.js';
import { DbFileStore } from './store/file-objects.js';
import { FileRepo } from './store/files.js';
import { fileHandlers } from './rpc/files.js';
import { watchHandlers } from './rpc/watch.js';
import { tagHandlers } from './rpc/tags.js';
import { listHandlers } from './rpc/lists.js';
import { linkQueryHandlers } from './rpc/linkqueries.js';
import { revdelHandlers } from './rpc/revdel.js';
import { contributionHandlers } from './rpc/contributions.js';
import { archiveHandlers } from './rpc/archive.js';
import { importHandlers } from './rpc/import.js';
import { editStashHandlers } from './rpc/edit-stash.js';
import { revisionTextHandlers } from './rpc/revision-text.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export const contentConfigSpec = {
  // The gateway reads the same variable: the project namespace is named after the site.
  wikiName: v.string(['WIKI_NAME'], { default: 'Quire', doc: 'site name ($wgSitename)' }),
  metaNamespace: v.string(['WIKI_META_NAMESPACE'], { doc: 'the project namespace ($wgMetaNamespace); unset: the site name' }),
  replicaUrls: v.string(['CONTENT_REPLICA_DATABASE_URLS'], { doc: 'comma-separated postgres URLs of read replicas, for maxlag' }),
  pageCacheMb: v.int(['CONTENT_PAGE_CACHE_MB'], { default: 64, min: 0, doc: 'memory for hot page reads; 0 disables the cache' }),
  rateLimits: v.string(['RATE_LIMITS'], { doc: '$wgRateLimits overrides merged over the defaults per action and kind, e.g. {"edit": {"ip": [1000000, 60]}}' }),
};

/** RATE_LIMITS, refused at start when malformed. */
function rateLimitsOf(raw: string | undefined): RateLimits {
  try {
    return parseRateLimits(raw);
  } catch (e) {
    throw new ConfigError([(e as Error).message]);
  }
}

/** Validates CONTENT_REPLICA_DATABASE_URLS at start rather than on the first maxlag request. */
function parseReplicaUrls(raw: string | undefined): string[] {
  const urls = (raw ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  for (const u of urls) {
    let protocol = '';
    try {
      protocol = new URL(u).protocol;
    } catch {
      /* reported below */
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
      throw new ConfigError([`CONTENT_REPLICA_DATABASE_URLS has an entry that is not a postgres URL: ${JSON.stringify(u)}`]);
    }
  }
  return urls;
}

export const contentService: ServiceModule = {
  name: 'content',
  migrationsDir: path.join(here, '..', 'migrations'),
  async create(rt) {
    const cfg = loadConfig(contentConfigSpec, rt.env);
    const limiter = new RateLimiter(rt.kv, rateLimitsOf(cfg.rateLimits));
    const probe = new ReplicaLagProbe(parseReplicaUrls(cfg.replicaUrls), rt.log);
    const codec = new TitleCodec(new NamespaceTable(cfg.metaNamespace || cfg.wikiName));
    if (await initialiseWiki(rt.db, codec)) rt.log.info('created the Main Page');
    const pageCache = pageCacheOf(rt.db, cfg.pageCacheMb * 1024 * 1024);
    // Other instances' writes arrive by NOTIFY on a real server; embedded, this process is the only writer.
    const dbUrl = loadConfig(serviceConfigSpec('content'), rt.env).databaseUrl;
    const listener = dbUrl && !rt.db.embedded ? new PageChangeListener(dbUrl, pageCache, rt.log) : undefined;
    await listener?.start();
    const ctx: ContentContext = { db: rt.db, codec, pages: new PageStore(rt.db), revisions: new RevisionStore(rt.db), pageCache };
    const files = fileStoreFromEnv(rt.env, rt.dataDir, { make: () => new DbFileStore(rt.db), isDefault: !rt.db.embedded });
    const rendering = startRendering(rt, codec);
    rt.log.info({ fileStore: files.store.description }, 'file store');
    const fileRepo = new FileRepo({ db: rt.db, codec, store: files.store, maxBytes: files.maxBytes });
    // Handler modules that serve RPCs of two packages are split here.
    const { getProtection, listUserContribs, ...logs } = logHandlers(ctx);
    const { getLanguageLinks, ...render } = renderHandlers(ctx, rendering.service, rendering.jobs);
    return {
      bindings: [
        // One gRPC service per concern (proto/wiki/content/<concern>/v1), all on this server.
        bind('wiki.content.site.v1.SiteService', SiteServiceService, { ...siteHandlers(ctx), ...replicationHandlers(probe) }),
        bind('wiki.content.pages.v1.PageService', PageServiceService, {
          ...pageHandlers(ctx),
          ...listingHandlers(ctx),
          getProtection,
        }),
        bind('wiki.content.revisions.v1.RevisionService', RevisionServiceService, {
          ...revisionHandlers(ctx),
          ...historyHandlers(ctx),
          ...compareHandlers(ctx),
          ...contributionHandlers(ctx, rendering.service),
          listUserContribs,
        }),
        bind('wiki.content.edit.v1.EditService', EditServiceService, {
          ...editHandlers(ctx, limiter, rendering.service),
          ...lifecycleHandlers(ctx, limiter),
          ...revdelHandlers(ctx),
        }),
        bind('wiki.content.render.v1.RenderService', RenderServiceService, {
          ...render,
          ...renderExtraHandlers(ctx, rendering.service),
          ...renderLintHandlers(ctx, rendering.service),
          ...renderHtml2WtHandlers(ctx, rendering.service),
        }),
        bind('wiki.content.links.v1.LinkService', LinkServiceService, { ...linkQueryHandlers(ctx), getLanguageLinks }),
        bind('wiki.content.logs.v1.LogService', LogServiceService, logs),
        bind('wiki.content.feed.v1.FeedService', FeedServiceService, feedHandlers(new ChangeFeedStore(rt.db, codec))),
        bind('wiki.content.v1.FileService', FileServiceService, fileHandlers(ctx, fileRepo, limiter)),
        bind('wiki.content.v1.WatchlistService', WatchlistServiceService, watchHandlers(ctx)),
        bind('wiki.content.v1.NotificationService', NotificationServiceService, notificationHandlers(ctx)),
        bind('wiki.content.v1.TagService', TagServiceService, tagHandlers(ctx, rendering.service)),
        bind('wiki.content.v1.ListService', ListServiceService, listHandlers(ctx)),
        bind('wiki.content.v1.ArchiveService', ArchiveServiceService, archiveHandlers(ctx)),
        bind('wiki.content.v1.ImportService', ImportServiceService, importHandlers(ctx)),
        bind('wiki.content.v1.EditStashService', EditStashServiceService, editStashHandlers(rt.kv)),
        bind('wiki.content.v1.RevisionTextService', RevisionTextServiceService, revisionTextHandlers()),
      ],
      close: async () => {
        await rendering.close();
        await listener?.stop();
        await probe.close();
      },
    };
  },
};
