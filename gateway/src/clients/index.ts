import type { Metadata } from '@grpc/grpc-js';
import { makeClient, unary } from '@quire/kit';
import {
  ContentServiceClient,
  type GetPageResponse,
  type GetRevisionsRequest,
  type GetRevisionsResponse,
  type GetStatisticsResponse,
  type ListNamespacesResponse,
  type ResolvePagesRequest,
  type ResolvePagesResponse,
  type GetReplicationLagResponse,
} from '@quire/proto/wiki/content/v1/content';
import { AuthServiceClient, type CheckTokenResponse, type ResolveSessionResponse } from '@quire/proto/wiki/auth/v1/auth';
import { SearchServiceClient, type GetIndexStatusResponse } from '@quire/proto/wiki/search/v1/search';

/*
 * Thin typed wrappers: the only way gateway handlers reach the services. Every failure arrives
 * as a kit ServiceError (gRPC code + MediaWiki error code), mapped once by each API pipeline.
 */

export interface CallOpts {
  deadlineMs?: number;
  metadata?: Metadata;
}

export class ContentClient {
  constructor(private readonly c: ContentServiceClient) {}
  listNamespaces(o?: CallOpts): Promise<ListNamespacesResponse> {
    return unary(this.c, this.c.listNamespaces, {}, o);
  }
  getStatistics(o?: CallOpts): Promise<GetStatisticsResponse> {
    return unary(this.c, this.c.getStatistics, {}, o);
  }
  resolvePages(req: Partial<ResolvePagesRequest>, o?: CallOpts): Promise<ResolvePagesResponse> {
    return unary(this.c, this.c.resolvePages, { titles: [], pageIds: [], revIds: [], resolveRedirects: false, ...req }, o);
  }
  getPage(title: string, withContent: boolean, o?: CallOpts): Promise<GetPageResponse> {
    return unary(this.c, this.c.getPage, { title, withContent }, o);
  }
  getRevisions(req: Partial<GetRevisionsRequest>, o?: CallOpts): Promise<GetRevisionsResponse> {
    return unary(this.c, this.c.getRevisions, { pageIds: [], revIds: [], withContent: false, limit: 0, dirNewer: false, startId: 0, ...req }, o);
  }
  getReplicationLag(o?: CallOpts): Promise<GetReplicationLagResponse> {
    return unary(this.c, this.c.getReplicationLag, {}, o);
  }
  close() {
    this.c.close();
  }
}

export class AuthClient {
  constructor(private readonly c: AuthServiceClient) {}
  resolveSession(sessionId: string, ip: string, o?: CallOpts): Promise<ResolveSessionResponse> {
    return unary(this.c, this.c.resolveSession, { sessionId, ip }, o);
  }
  async getTokens(sessionId: string, types: string[], o?: CallOpts): Promise<Record<string, string>> {
    return (await unary(this.c, this.c.getTokens, { sessionId, types }, o)).tokens;
  }
  checkToken(sessionId: string, type: string, token: string, o?: CallOpts): Promise<CheckTokenResponse> {
    return unary(this.c, this.c.checkToken, { sessionId, type, token }, o);
  }
  close() {
    this.c.close();
  }
}

export class SearchClient {
  constructor(private readonly c: SearchServiceClient) {}
  getIndexStatus(o?: CallOpts): Promise<GetIndexStatusResponse> {
    return unary(this.c, this.c.getIndexStatus, {}, o);
  }
  close() {
    this.c.close();
  }
}

export interface Clients {
  content: ContentClient;
  auth: AuthClient;
  search: SearchClient;
}

export function connectClients(addr: { content: string; auth: string; search: string }): Clients {
  return {
    content: new ContentClient(makeClient(ContentServiceClient, addr.content)),
    auth: new AuthClient(makeClient(AuthServiceClient, addr.auth)),
    search: new SearchClient(makeClient(SearchServiceClient, addr.search)),
  };
}

export function closeClients(c: Clients) {
  c.content.close();
  c.auth.close();
  c.search.close();
}
