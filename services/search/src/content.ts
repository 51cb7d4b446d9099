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

/** `secretKey`: the wiki's secret, which every call to the content service is signed with. */
export function connectContent(addr: string, secretKey: string): ContentStubs {
  return {
    feed: makeClient(FeedServiceClient, addr, {}, secretKey),
    site: makeClient(SiteServiceClient, addr, {}, secretKey),
    pages: makeClient(PageServiceClient, addr, {}, secretKey),
  };
}

export function closeContent(c: ContentStubs): void {
  c.feed.close();
  c.site.close();
  c.pages.close();
}
