import type { ListNamespacesResponse, Namespace } from './clients/types.js';
import type { ContentClient } from './clients/index.js';

/**
 * Namespaces rarely change; the gateway keeps them (for parameter validation and siteinfo) and
 * refreshes them from the content service at most every `ttlMs`.
 */
export class SiteCache {
  private ns: ListNamespacesResponse | undefined;
  private fetchedAt = 0;
  private pending: Promise<ListNamespacesResponse> | undefined;

  constructor(
    private readonly content: ContentClient,
    private readonly ttlMs = 60_000,
  ) {}

  async namespaces(): Promise<ListNamespacesResponse> {
    if (this.ns && Date.now() - this.fetchedAt < this.ttlMs) return this.ns;
    this.pending ??= this.content.listNamespaces().then(
      (r) => {
        this.ns = r;
        this.fetchedAt = Date.now();
        this.pending = undefined;
        return r;
      },
      (e) => {
        this.pending = undefined;
        throw e;
      },
    );
    return this.ns ?? this.pending;
  }

  async namespaceIds(): Promise<number[]> {
    return (await this.namespaces()).namespaces.map((n: Namespace) => n.id);
  }
}
