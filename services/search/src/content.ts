/* The content service's gRPC services the search service calls (all on CONTENT_GRPC_ADDR). */
import { makeClient } from '@quire/kit';
import { FeedServiceClient } from '@quire/proto/wiki/content/feed/v1/feed';
import { PageServiceClient } from '@quire/proto/wiki/content/pages/v1/pages';
import { SiteServiceClient } from '@quire/proto/wiki/content/site/v1/site';

export interface ContentStubs {
  /** The change feed: changes, page state for the index, a consumer's lag. */
  feed: FeedServiceClient;
  /** Namespaces and site statistics. */
  site: SiteServiceClient;
  /** Page listings (a rebuild walks every namespace). */
  pages: PageServiceClient;
}

export function connectContent(addr: string): ContentStubs {
  return { feed: makeClient(FeedServiceClient, addr), site: makeClient(SiteServiceClient, addr), pages: makeClient(PageServiceClient, addr) };
}

export function closeContent(c: ContentStubs): void {
  c.feed.close();
  c.site.close();
  c.pages.close();
}
