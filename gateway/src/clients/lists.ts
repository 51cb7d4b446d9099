/* Typed wrapper of wiki.content.v1.ListService (the content service's whole-wiki lists, same address). */
import { makeClient, unary } from '@quire/kit';
import {
  ListServiceClient,
  ListAllCategoriesRequest,
  type ListAllCategoriesResponse,
  ListAllLinksRequest,
  type ListAllLinksResponse,
  ListFilteredPagesRequest,
  type ListFilteredPagesResponse,
  ListInterwikiBacklinksRequest,
  type ListInterwikiBacklinksResponse,
  ListInterwikiLinksRequest,
  type ListInterwikiLinksResponse,
  ListContributorsRequest,
  type ListContributorsResponse,
  ListLangBacklinksRequest,
  type ListLangBacklinksResponse,
  ListPagePropNamesRequest,
  type ListPagePropNamesResponse,
  ListPagesWithPropRequest,
  type ListPagesWithPropResponse,
  ListProtectedTitlesRequest,
  type ListProtectedTitlesResponse,
  ListRandomPagesRequest,
  type ListRandomPagesResponse,
  RunQueryPageRequest,
  type RunQueryPageResponse,
} from '@quire/proto/wiki/content/v1/lists';
import type { CallOpts } from './call-options.js';

export class ListsClient {
  constructor(private readonly c: ListServiceClient) {}
  static connect(addr: string, secretKey?: string): ListsClient {
    return new ListsClient(makeClient(ListServiceClient, addr, {}, secretKey));
  }
  listAllLinks(req: Partial<ListAllLinksRequest>, o?: CallOpts): Promise<ListAllLinksResponse> {
    return unary(this.c, this.c.listAllLinks, ListAllLinksRequest.fromPartial(req), o);
  }
  listAllCategories(req: Partial<ListAllCategoriesRequest>, o?: CallOpts): Promise<ListAllCategoriesResponse> {
    return unary(this.c, this.c.listAllCategories, ListAllCategoriesRequest.fromPartial(req), o);
  }
  listRandomPages(req: Partial<ListRandomPagesRequest>, o?: CallOpts): Promise<ListRandomPagesResponse> {
    return unary(this.c, this.c.listRandomPages, ListRandomPagesRequest.fromPartial(req), o);
  }
  listPagePropNames(req: Partial<ListPagePropNamesRequest>, o?: CallOpts): Promise<ListPagePropNamesResponse> {
    return unary(this.c, this.c.listPagePropNames, ListPagePropNamesRequest.fromPartial(req), o);
  }
  listPagesWithProp(req: Partial<ListPagesWithPropRequest>, o?: CallOpts): Promise<ListPagesWithPropResponse> {
    return unary(this.c, this.c.listPagesWithProp, ListPagesWithPropRequest.fromPartial(req), o);
  }
  listProtectedTitles(req: Partial<ListProtectedTitlesRequest>, o?: CallOpts): Promise<ListProtectedTitlesResponse> {
    return unary(this.c, this.c.listProtectedTitles, ListProtectedTitlesRequest.fromPartial(req), o);
  }
  listFilteredPages(req: Partial<ListFilteredPagesRequest>, o?: CallOpts): Promise<ListFilteredPagesResponse> {
    return unary(this.c, this.c.listFilteredPages, ListFilteredPagesRequest.fromPartial(req), o);
  }
  runQueryPage(req: Partial<RunQueryPageRequest>, o?: CallOpts): Promise<RunQueryPageResponse> {
    return unary(this.c, this.c.runQueryPage, RunQueryPageRequest.fromPartial(req), o);
  }
  listLangBacklinks(req: Partial<ListLangBacklinksRequest>, o?: CallOpts): Promise<ListLangBacklinksResponse> {
    return unary(this.c, this.c.listLangBacklinks, ListLangBacklinksRequest.fromPartial(req), o);
  }
  listContributors(req: Partial<ListContributorsRequest>, o?: CallOpts): Promise<ListContributorsResponse> {
    return unary(this.c, this.c.listContributors, ListContributorsRequest.fromPartial(req), o);
  }
  listInterwikiBacklinks(req: Partial<ListInterwikiBacklinksRequest>, o?: CallOpts): Promise<ListInterwikiBacklinksResponse> {
    return unary(this.c, this.c.listInterwikiBacklinks, ListInterwikiBacklinksRequest.fromPartial(req), o);
  }
  listInterwikiLinks(req: Partial<ListInterwikiLinksRequest>, o?: CallOpts): Promise<ListInterwikiLinksResponse> {
    return unary(this.c, this.c.listInterwikiLinks, ListInterwikiLinksRequest.fromPartial(req), o);
  }
  close(): void {
    this.c.close();
  }
}
