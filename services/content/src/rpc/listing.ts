import { invalidArgument } from '@quire/kit';
import { RedirectFilter } from '@quire/proto/wiki/content/v1/common';
import type { ListPagesRequest, ListPagesResponse } from '@quire/proto/wiki/content/pages/v1/pages';
import { ListingStore } from '../store/listing.js';
import type { ContentContext } from './context.js';
import { recordsFor } from './pages.js';

/** ApiQueryAllPages' highest limit (apihighlimits). */
const MAX_LIST_LIMIT = 5000;

async function listPages(ctx: ContentContext, store: ListingStore, req: ListPagesRequest): Promise<ListPagesResponse> {
  if (req.limit < 1 || req.limit > MAX_LIST_LIMIT) throw invalidArgument('badvalue', `limit must be between 1 and ${MAX_LIST_LIMIT}.`);
  if (!ctx.codec.namespaces.list.some((n) => n.id === req.namespace)) throw invalidArgument('badvalue', `Unknown namespace ${req.namespace}.`);
  const listing = await store.listPages({
    ns: req.namespace,
    ...(req.from ? { from: req.from } : {}),
    ...(req.to ? { to: req.to } : {}),
    ...(req.prefix ? { prefix: req.prefix } : {}),
    ...(req.filterRedirects === RedirectFilter.REDIRECT_FILTER_REDIRECTS ? { redirects: 'only' as const } : {}),
    ...(req.filterRedirects === RedirectFilter.REDIRECT_FILTER_NONREDIRECTS ? { redirects: 'none' as const } : {}),
    ...(req.minSize !== undefined ? { minSize: req.minSize } : {}),
    ...(req.maxSize !== undefined ? { maxSize: req.maxSize } : {}),
    descending: req.descending,
    limit: req.limit,
  });
  const records = await recordsFor(ctx, listing.pages);
  return { pages: listing.pages.map((p) => records.get(p.id)!), continueFrom: listing.continueFrom ?? '' };
}

/** ListPages: list=allpages and generator=allpages. */
export function listingHandlers(ctx: ContentContext) {
  const store = new ListingStore(ctx.db, ctx.pages);
  return {
    listPages: (req: ListPagesRequest) => listPages(ctx, store, req),
  };
}
