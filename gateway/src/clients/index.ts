import type { CallOpts } from './call-options.js';
import type { ClientReadableStream } from '@grpc/grpc-js';
import { makeClient, unary, type Logger } from '@quire/kit';
import { OAuthClient } from './oauth.js';
import { NotificationsClient } from './notifications.js';
import { AccountClient } from './account.js';
import { ListsClient } from './lists.js';
import { ArchiveClient } from './archive.js';
import { DumpsClient } from './dumps.js';
import { EditServiceClient } from '@quire/proto/wiki/content/edit/v1/edit';
import { FeedServiceClient } from '@quire/proto/wiki/content/feed/v1/feed';
import { LinkServiceClient } from '@quire/proto/wiki/content/links/v1/links';
import { LogServiceClient } from '@quire/proto/wiki/content/logs/v1/logs';
import { PageServiceClient } from '@quire/proto/wiki/content/pages/v1/pages';
import { RenderServiceClient } from '@quire/proto/wiki/content/render/v1/render';
import { RevisionServiceClient } from '@quire/proto/wiki/content/revisions/v1/revisions';
import { SiteServiceClient } from '@quire/proto/wiki/content/site/v1/site';
import {
  type GetPageResponse,
  ListPagesRequest,
  type ListPagesResponse,
  type ResolvePagesRequest,
  type ResolvePagesResponse,
  GetProtectionRequest,
  type GetProtectionResponse,
  GetPageInfoDetailsRequest,
  type GetPageInfoDetailsResponse,
  type DeepPartial,
} from '@quire/proto/wiki/content/pages/v1/pages';
import {
  GetRevisionsRequest,
  type GetRevisionsResponse,
  GetHistoryRequest,
  type GetHistoryResponse,
  CountRevisionsRequest,
  type CountRevisionsResponse,
  CompareRequest,
  type CompareResponse,
  ListUserContribsRequest,
  type ListUserContribsResponse,
  ListContributionsRequest,
  type ListContributionsResponse,
  CountContributionsRequest,
  type CountContributionsResponse,
} from '@quire/proto/wiki/content/revisions/v1/revisions';
import type { GetStatisticsResponse, ListNamespacesResponse, GetReplicationLagResponse, GetParserInfoResponse } from '@quire/proto/wiki/content/site/v1/site';
import type { PageChange } from '@quire/proto/wiki/content/feed/v1/feed';
import {
  EditRequest,
  type EditResponse,
  DeletePageRequest,
  type DeletePageResponse,
  UndeletePageRequest,
  type UndeletePageResponse,
  ProtectPageRequest,
  type ProtectPageResponse,
  MovePageRequest,
  type MovePageResponse,
  RollbackRequest,
  type RollbackResponse,
  PurgePagesRequest,
  type PurgePagesResponse,
  PatrolRequest,
  type PatrolResponse,
  RevisionDeleteRequest,
  type RevisionDeleteResponse,
} from '@quire/proto/wiki/content/edit/v1/edit';
import {
  ParseRequest,
  PreSaveTransformRequest,
  type PreSaveTransformResponse,
  FormatCommentRequest,
  FormatCommentsRequest,
  type FormatCommentResponse,
  ConvertVariantRequest,
  type ConvertVariantResponse,
  type ParseResponse,
  ExpandTemplatesRequest,
  type ExpandTemplatesResponse,
  GetRevisionHtmlRequest,
  ExpandTemplatesBatchRequest,
  type ExpandedText,
  LintWikitextRequest,
  type LintWikitextResponse,
  TransformWikitextToHtmlRequest,
  TransformHtmlToWikitextRequest,
  type TransformHtmlToWikitextResponse,
  type GetRevisionHtmlResponse,
  RunJobsRequest,
  type RunJobsResponse,
} from '@quire/proto/wiki/content/render/v1/render';
import {
  GetLanguageLinksRequest,
  type GetLanguageLinksResponse,
  ListPageLinksRequest,
  type ListPageLinksResponse,
  ListBacklinksRequest,
  type ListBacklinksResponse,
  ListPageBacklinksRequest,
  type ListPageBacklinksResponse,
  ListCategoryMembersRequest,
  type ListCategoryMembersResponse,
  ListExternalLinkUsageRequest,
  type ListExternalLinkUsageResponse,
  GetPagePropsRequest,
  type GetPagePropsResponse,
  GetCategoryInfoRequest,
  type GetCategoryInfoResponse,
} from '@quire/proto/wiki/content/links/v1/links';
import {
  ListLogEventsRequest,
  type ListLogEventsResponse,
  ListRecentChangesRequest,
  type ListRecentChangesResponse,
  RecordLogEntriesRequest,
  type RecordLogEntriesResponse,
} from '@quire/proto/wiki/content/logs/v1/logs';
import {
  FileServiceClient,
  WatchlistServiceClient,
  TagServiceClient,
  ChangeTagsRequest,
  ManageTagRequest,
  type ManageTagResponse,
  type ChangeTagsResponse,
  GetFileInfoRequest,
  type GetFileInfoResponse,
  type GetMediaLinksResponse,
  ListFilesRequest,
  type ListFilesResponse,
  type ListTagsResponse,
  ListWatchlistRawRequest,
  type ListWatchlistRawResponse,
  ListWatchlistRequest,
  type ListWatchlistResponse,
  type ReadFileResponse,
  UploadRequest,
  type UploadResponse,
  WatchRequest,
  type WatchResponse,
  UploadChunkRequest,
  ListStashedFilesRequest,
  type ListStashedFilesResponse,
  type GetStashedFilesResponse,
  RevertFileRequest,
  type RevertFileResponse,
  ListFileArchiveRequest,
  type ListFileArchiveResponse,
} from '@quire/proto/wiki/content/v1/files';
import {
  AuthServiceClient,
  type BotPassword,
  type BotPasswordSecret,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
  type CreateBotPasswordRequest,
  type DeleteBotPasswordRequest,
  type DisableTotpRequest,
  type EnableTotpRequest,
  type EnableTotpResponse,
  type ResetBotPasswordRequest,
  type UpdateBotPasswordRequest,
  BlockRequest,
  type BlockResponse,
  type ChangeOptionsRequest,
  type ChangeOptionsResponse,
  type ChangeUserGroupsRequest,
  type ChangeUserGroupsResponse,
  type CheckTokenResponse,
  type ContinueLoginRequest,
  type CreateAccountRequest,
  type CreateAccountResponse,
  type GetTokensResponse,
  type GetUsersResponse,
  type GetUserStatisticsResponse,
  ListUserIdsWithRightRequest,
  type ListGroupPermissionsResponse,
  type ListBlocksRequest,
  type ListBlocksResponse,
  type ListUsersRequest,
  type ListUsersResponse,
  type LoginRequest,
  type LoginResponse,
  type ResolveSessionResponse,
  type UnblockRequest,
  type UnblockResponse,
  type ValidatePasswordRequest,
  type ValidatePasswordResponse,
} from '@quire/proto/wiki/auth/v1/auth';
import { SearchServiceClient, type GetIndexStatusResponse, SearchPagesRequest, type SearchPagesResponse, CompleteTitlesRequest, type CompleteTitlesResponse } from '@quire/proto/wiki/search/v1/search';

/*
 * Thin typed wrappers: the only way gateway handlers reach the services. Every failure arrives
 * as a kit ServiceError (gRPC code + MediaWiki error code), mapped once by each API pipeline.
 */

export type { CallOpts } from './call-options.js';

/**
 * The content service's gRPC services, one per concern (proto/wiki/content/<concern>/v1, and
 * files, watchlists and tags in wiki.content.v1), all on the content service's one address.
 */
export interface ContentStubs {
  site: SiteServiceClient;
  pages: PageServiceClient;
  revisions: RevisionServiceClient;
  edit: EditServiceClient;
  render: RenderServiceClient;
  links: LinkServiceClient;
  logs: LogServiceClient;
  feed: FeedServiceClient;
  files: FileServiceClient;
  watchlist: WatchlistServiceClient;
  tags: TagServiceClient;
}

/** One stub per service, all to the content service's address (grpc-js shares the connection between stubs with the same address and options). */
export function connectContentStubs(addr: string, secretKey?: string): ContentStubs {
  return {
    site: makeClient(SiteServiceClient, addr, {}, secretKey),
    pages: makeClient(PageServiceClient, addr, {}, secretKey),
    revisions: makeClient(RevisionServiceClient, addr, {}, secretKey),
    edit: makeClient(EditServiceClient, addr, {}, secretKey),
    render: makeClient(RenderServiceClient, addr, {}, secretKey),
    links: makeClient(LinkServiceClient, addr, {}, secretKey),
    logs: makeClient(LogServiceClient, addr, {}, secretKey),
    feed: makeClient(FeedServiceClient, addr, {}, secretKey),
    files: makeClient(FileServiceClient, addr, {}, secretKey),
    watchlist: makeClient(WatchlistServiceClient, addr, {}, secretKey),
    tags: makeClient(TagServiceClient, addr, {}, secretKey),
  };
}

/** The content service as one facade: each method calls the stub of its concern. */
export class ContentClient {
  constructor(private readonly s: ContentStubs) {}

  listNamespaces(o?: CallOpts): Promise<ListNamespacesResponse> {
    return unary(this.s.site, this.s.site.listNamespaces, {}, o);
  }
  getStatistics(o?: CallOpts): Promise<GetStatisticsResponse> {
    return unary(this.s.site, this.s.site.getStatistics, {}, o);
  }
  resolvePages(req: Partial<ResolvePagesRequest>, o?: CallOpts): Promise<ResolvePagesResponse> {
    return unary(this.s.pages, this.s.pages.resolvePages, { titles: [], pageIds: [], revIds: [], resolveRedirects: false, ...req }, o);
  }
  getPage(title: string, withContent: boolean, o?: CallOpts): Promise<GetPageResponse> {
    return unary(this.s.pages, this.s.pages.getPage, { title, withContent }, o);
  }
  getRevisions(req: Partial<GetRevisionsRequest>, o?: CallOpts): Promise<GetRevisionsResponse> {
    return unary(this.s.revisions, this.s.revisions.getRevisions, GetRevisionsRequest.fromPartial(req), o);
  }
  getHistory(req: Partial<GetHistoryRequest>, o?: CallOpts): Promise<GetHistoryResponse> {
    return unary(this.s.revisions, this.s.revisions.getHistory, GetHistoryRequest.fromPartial(req), o);
  }
  /** prop=info: display titles and watchlist facts of titles. */
  getPageInfoDetails(req: Partial<GetPageInfoDetailsRequest>, o?: CallOpts): Promise<GetPageInfoDetailsResponse> {
    return unary(this.s.pages, this.s.pages.getPageInfoDetails, GetPageInfoDetailsRequest.fromPartial(req), o);
  }
  countRevisions(req: Partial<CountRevisionsRequest>, o?: CallOpts): Promise<CountRevisionsResponse> {
    return unary(this.s.revisions, this.s.revisions.countRevisions, CountRevisionsRequest.fromPartial(req), o);
  }
  listPages(req: Partial<ListPagesRequest>, o?: CallOpts): Promise<ListPagesResponse> {
    return unary(this.s.pages, this.s.pages.listPages, ListPagesRequest.fromPartial(req), o);
  }
  getReplicationLag(o?: CallOpts): Promise<GetReplicationLagResponse> {
    return unary(this.s.site, this.s.site.getReplicationLag, {}, o);
  }
  /** The change feed's latest position (where a follower that only wants new changes starts). */
  changeFeedHead(o?: CallOpts): Promise<number> {
    return unary(this.s.feed, this.s.feed.getChangeFeedStatus, { afterPosition: 0 }, o).then((r) => r.latestPosition);
  }
  /** The page changes after `fromPosition`, as they are committed; the stream ends after `maxWaitMs` without any. */
  streamChanges(fromPosition: number, maxWaitMs: number): ClientReadableStream<PageChange> {
    return this.s.feed.streamChanges({ fromPosition, maxBatch: 500, maxWaitMs });
  }
  getParserInfo(o?: CallOpts): Promise<GetParserInfoResponse> {
    return unary(this.s.site, this.s.site.getParserInfo, {}, o);
  }
  /** Resolves two sides (revision, page, title or text; torelative) and diffs them as wikidiff2. */
  compare(req: DeepPartial<CompareRequest>, o?: CallOpts): Promise<CompareResponse> {
    return unary(this.s.revisions, this.s.revisions.compare, CompareRequest.fromPartial(req), o);
  }
  edit(req: Partial<EditRequest>, o?: CallOpts): Promise<EditResponse> {
    return unary(this.s.edit, this.s.edit.edit, EditRequest.fromPartial(req), o);
  }
  /** Rendering (services/content/src/render): action=parse, expandtemplates, REST html, jobs. */
  parse(req: Partial<ParseRequest>, o?: CallOpts): Promise<ParseResponse> {
    return unary(this.s.render, this.s.render.parse, ParseRequest.fromPartial(req), o);
  }
  expandTemplates(req: Partial<ExpandTemplatesRequest>, o?: CallOpts): Promise<ExpandTemplatesResponse> {
    return unary(this.s.render, this.s.render.expandTemplates, ExpandTemplatesRequest.fromPartial(req), o);
  }
  /** Many texts expanded in one title's context in one call, answered in order (each with its wikitext or its error). */
  async expandTemplatesBatch(req: Partial<ExpandTemplatesBatchRequest>, o?: CallOpts): Promise<ExpandedText[]> {
    if (!req.texts?.length) return [];
    return (await unary(this.s.render, this.s.render.expandTemplatesBatch, ExpandTemplatesBatchRequest.fromPartial(req), o)).results;
  }
  /** The pre-save transform of wikitext (subst:, signatures, pipe trick). */
  preSaveTransform(req: Partial<PreSaveTransformRequest>, o?: CallOpts): Promise<PreSaveTransformResponse> {
    return unary(this.s.render, this.s.render.preSaveTransform, PreSaveTransformRequest.fromPartial(req), o);
  }
  /** An edit summary as HTML (autocomments, links). */
  formatComment(req: Partial<FormatCommentRequest>, o?: CallOpts): Promise<FormatCommentResponse> {
    return unary(this.s.render, this.s.render.formatComment, FormatCommentRequest.fromPartial(req), o);
  }
  /**
   * Many edit summaries as HTML in one call (parsedcomment of a listing), in order; each with the
   * prefixed title its autocomments link to. No call for an empty list.
   */
  async formatComments(comments: { title: string; comment: string }[], o?: CallOpts): Promise<string[]> {
    if (comments.length === 0) return [];
    return (await unary(this.s.render, this.s.render.formatComments, FormatCommentsRequest.fromPartial({ comments }), o)).html;
  }
  /** Rendered HTML in the language variant an Accept-Language header asks for (converted=false: unchanged). */
  convertVariant(req: Partial<ConvertVariantRequest>, o?: CallOpts): Promise<ConvertVariantResponse> {
    return unary(this.s.render, this.s.render.convertVariant, ConvertVariantRequest.fromPartial(req), o);
  }
  getRevisionHtml(req: Partial<GetRevisionHtmlRequest>, o?: CallOpts): Promise<GetRevisionHtmlResponse> {
    return unary(this.s.render, this.s.render.getRevisionHtml, GetRevisionHtmlRequest.fromPartial(req), o);
  }
  lintWikitext(req: Partial<LintWikitextRequest>, o?: CallOpts): Promise<LintWikitextResponse> {
    return unary(this.s.render, this.s.render.lintWikitext, LintWikitextRequest.fromPartial(req), o);
  }
  transformWikitextToHtml(req: Partial<TransformWikitextToHtmlRequest>, o?: CallOpts): Promise<GetRevisionHtmlResponse> {
    return unary(this.s.render, this.s.render.transformWikitextToHtml, TransformWikitextToHtmlRequest.fromPartial(req), o);
  }
  transformHtmlToWikitext(req: Partial<TransformHtmlToWikitextRequest>, o?: CallOpts): Promise<TransformHtmlToWikitextResponse> {
    return unary(this.s.render, this.s.render.transformHtmlToWikitext, TransformHtmlToWikitextRequest.fromPartial(req), o);
  }
  getLanguageLinks(req: Partial<GetLanguageLinksRequest>, o?: CallOpts): Promise<GetLanguageLinksResponse> {
    return unary(this.s.links, this.s.links.getLanguageLinks, GetLanguageLinksRequest.fromPartial(req), o);
  }
  runJobs(req: Partial<RunJobsRequest>, o?: CallOpts): Promise<RunJobsResponse> {
    return unary(this.s.render, this.s.render.runJobs, RunJobsRequest.fromPartial(req), o);
  }
  // Files (FileService): uploads, versions, listings, bytes.
  upload(req: Partial<UploadRequest>, o?: CallOpts): Promise<UploadResponse> {
    return unary(this.s.files, this.s.files.upload, UploadRequest.fromPartial(req), o);
  }
  getFileInfo(req: Partial<GetFileInfoRequest>, o?: CallOpts): Promise<GetFileInfoResponse> {
    return unary(this.s.files, this.s.files.getFileInfo, GetFileInfoRequest.fromPartial(req), o);
  }
  listFiles(req: Partial<ListFilesRequest>, o?: CallOpts): Promise<ListFilesResponse> {
    return unary(this.s.files, this.s.files.listFiles, ListFilesRequest.fromPartial(req), o);
  }
  readFile(name: string, archiveName: string, o?: CallOpts): Promise<ReadFileResponse> {
    return unary(this.s.files, this.s.files.readFile, { name, archiveName }, o);
  }
  getMediaLinks(title: string, limit: number, o?: CallOpts): Promise<GetMediaLinksResponse> {
    return unary(this.s.files, this.s.files.getMediaLinks, { title, limit }, o);
  }
  uploadChunk(req: Partial<UploadChunkRequest>, o?: CallOpts): Promise<UploadResponse> {
    return unary(this.s.files, this.s.files.uploadChunk, UploadChunkRequest.fromPartial(req), o);
  }
  listStashedFiles(req: Partial<ListStashedFilesRequest>, o?: CallOpts): Promise<ListStashedFilesResponse> {
    return unary(this.s.files, this.s.files.listStashedFiles, ListStashedFilesRequest.fromPartial(req), o);
  }
  getStashedFiles(userId: number, filekeys: string[], o?: CallOpts): Promise<GetStashedFilesResponse> {
    return unary(this.s.files, this.s.files.getStashedFiles, { userId, filekeys }, o);
  }
  revertFile(req: Partial<RevertFileRequest>, o?: CallOpts): Promise<RevertFileResponse> {
    return unary(this.s.files, this.s.files.revertFile, RevertFileRequest.fromPartial(req), o);
  }
  listFileArchive(req: Partial<ListFileArchiveRequest>, o?: CallOpts): Promise<ListFileArchiveResponse> {
    return unary(this.s.files, this.s.files.listFileArchive, ListFileArchiveRequest.fromPartial(req), o);
  }
  // Watchlists and talk-page notifications (WatchlistService).
  watch(req: Partial<WatchRequest>, o?: CallOpts): Promise<WatchResponse> {
    return unary(this.s.watchlist, this.s.watchlist.watch, WatchRequest.fromPartial(req), o);
  }
  listWatchlist(req: Partial<ListWatchlistRequest>, o?: CallOpts): Promise<ListWatchlistResponse> {
    return unary(this.s.watchlist, this.s.watchlist.listWatchlist, ListWatchlistRequest.fromPartial(req), o);
  }
  listWatchlistRaw(req: Partial<ListWatchlistRawRequest>, o?: CallOpts): Promise<ListWatchlistRawResponse> {
    return unary(this.s.watchlist, this.s.watchlist.listWatchlistRaw, ListWatchlistRawRequest.fromPartial(req), o);
  }
  async hasNewTalk(userName: string, o?: CallOpts): Promise<boolean> {
    return (await unary(this.s.watchlist, this.s.watchlist.getNewTalk, { userName }, o)).has;
  }
  async markTalkPageSeen(userName: string, userId: number, o?: CallOpts): Promise<void> {
    await unary(this.s.watchlist, this.s.watchlist.markTalkPageSeen, { userName, userId }, o);
  }
  // Change tags (TagService).
  changeTags(req: Partial<ChangeTagsRequest>, o?: CallOpts): Promise<ChangeTagsResponse> {
    return unary(this.s.tags, this.s.tags.changeTags, ChangeTagsRequest.fromPartial(req), o);
  }
  listTags(limit: number, cont: string, o?: CallOpts): Promise<ListTagsResponse> {
    return unary(this.s.tags, this.s.tags.listTags, { limit, continue: cont }, o);
  }
  manageTag(req: Partial<ManageTagRequest>, o?: CallOpts): Promise<ManageTagResponse> {
    return unary(this.s.tags, this.s.tags.manageTag, ManageTagRequest.fromPartial(req), o);
  }
  /** Page lifecycle (services/content/src/store/lifecycle): each write one transaction with its log entry. */
  deletePage(req: DeepPartial<DeletePageRequest>, o?: CallOpts): Promise<DeletePageResponse> {
    return unary(this.s.edit, this.s.edit.deletePage, DeletePageRequest.fromPartial(req), o);
  }
  undeletePage(req: DeepPartial<UndeletePageRequest>, o?: CallOpts): Promise<UndeletePageResponse> {
    return unary(this.s.edit, this.s.edit.undeletePage, UndeletePageRequest.fromPartial(req), o);
  }
  protectPage(req: DeepPartial<ProtectPageRequest>, o?: CallOpts): Promise<ProtectPageResponse> {
    return unary(this.s.edit, this.s.edit.protectPage, ProtectPageRequest.fromPartial(req), o);
  }
  movePage(req: DeepPartial<MovePageRequest>, o?: CallOpts): Promise<MovePageResponse> {
    return unary(this.s.edit, this.s.edit.movePage, MovePageRequest.fromPartial(req), o);
  }
  rollback(req: DeepPartial<RollbackRequest>, o?: CallOpts): Promise<RollbackResponse> {
    return unary(this.s.edit, this.s.edit.rollback, RollbackRequest.fromPartial(req), o);
  }
  purgePages(req: DeepPartial<PurgePagesRequest>, o?: CallOpts): Promise<PurgePagesResponse> {
    return unary(this.s.edit, this.s.edit.purgePages, PurgePagesRequest.fromPartial(req), o);
  }
  patrol(req: DeepPartial<PatrolRequest>, o?: CallOpts): Promise<PatrolResponse> {
    return unary(this.s.edit, this.s.edit.patrol, PatrolRequest.fromPartial(req), o);
  }
  getProtection(req: DeepPartial<GetProtectionRequest>, o?: CallOpts): Promise<GetProtectionResponse> {
    return unary(this.s.pages, this.s.pages.getProtection, GetProtectionRequest.fromPartial(req), o);
  }
  /** Logs and recent changes: up to limit + 1 rows (the extra one tells the caller to continue). */
  listLogEvents(req: DeepPartial<ListLogEventsRequest>, o?: CallOpts): Promise<ListLogEventsResponse> {
    return unary(this.s.logs, this.s.logs.listLogEvents, ListLogEventsRequest.fromPartial(req), o);
  }
  listRecentChanges(req: DeepPartial<ListRecentChangesRequest>, o?: CallOpts): Promise<ListRecentChangesResponse> {
    return unary(this.s.logs, this.s.logs.listRecentChanges, ListRecentChangesRequest.fromPartial(req), o);
  }
  listUserContribs(req: DeepPartial<ListUserContribsRequest>, o?: CallOpts): Promise<ListUserContribsResponse> {
    return unary(this.s.revisions, this.s.revisions.listUserContribs, ListUserContribsRequest.fromPartial(req), o);
  }
  /** action=revisiondelete: rev_deleted of revisions with its log entry, in one transaction. */
  revisionDelete(req: DeepPartial<RevisionDeleteRequest>, o?: CallOpts): Promise<RevisionDeleteResponse> {
    return unary(this.s.edit, this.s.edit.revisionDelete, RevisionDeleteRequest.fromPartial(req), o);
  }
  /** One segment of a user's revisions (REST contributions routes). */
  listContributions(req: Partial<ListContributionsRequest>, o?: CallOpts): Promise<ListContributionsResponse> {
    return unary(this.s.revisions, this.s.revisions.listContributions, ListContributionsRequest.fromPartial(req), o);
  }
  countContributions(req: Partial<CountContributionsRequest>, o?: CallOpts): Promise<CountContributionsResponse> {
    return unary(this.s.revisions, this.s.revisions.countContributions, CountContributionsRequest.fromPartial(req), o);
  }
  recordLogEntries(req: DeepPartial<RecordLogEntriesRequest>, o?: CallOpts): Promise<RecordLogEntriesResponse> {
    return unary(this.s.logs, this.s.logs.recordLogEntries, RecordLogEntriesRequest.fromPartial(req), o);
  }
  /** Link table queries (services/content/src/rpc/linkqueries.ts); continuations are MediaWiki's. */
  listPageLinks(req: DeepPartial<ListPageLinksRequest>, o?: CallOpts): Promise<ListPageLinksResponse> {
    return unary(this.s.links, this.s.links.listPageLinks, ListPageLinksRequest.fromPartial(req), o);
  }
  listBacklinks(req: DeepPartial<ListBacklinksRequest>, o?: CallOpts): Promise<ListBacklinksResponse> {
    return unary(this.s.links, this.s.links.listBacklinks, ListBacklinksRequest.fromPartial(req), o);
  }
  listPageBacklinks(req: DeepPartial<ListPageBacklinksRequest>, o?: CallOpts): Promise<ListPageBacklinksResponse> {
    return unary(this.s.links, this.s.links.listPageBacklinks, ListPageBacklinksRequest.fromPartial(req), o);
  }
  listCategoryMembers(req: DeepPartial<ListCategoryMembersRequest>, o?: CallOpts): Promise<ListCategoryMembersResponse> {
    return unary(this.s.links, this.s.links.listCategoryMembers, ListCategoryMembersRequest.fromPartial(req), o);
  }
  listExternalLinkUsage(req: DeepPartial<ListExternalLinkUsageRequest>, o?: CallOpts): Promise<ListExternalLinkUsageResponse> {
    return unary(this.s.links, this.s.links.listExternalLinkUsage, ListExternalLinkUsageRequest.fromPartial(req), o);
  }
  getPageProps(req: DeepPartial<GetPagePropsRequest>, o?: CallOpts): Promise<GetPagePropsResponse> {
    return unary(this.s.links, this.s.links.getPageProps, GetPagePropsRequest.fromPartial(req), o);
  }
  getCategoryInfo(req: DeepPartial<GetCategoryInfoRequest>, o?: CallOpts): Promise<GetCategoryInfoResponse> {
    return unary(this.s.links, this.s.links.getCategoryInfo, GetCategoryInfoRequest.fromPartial(req), o);
  }
  close() {
    for (const c of Object.values(this.s)) c.close();
  }
}

/** How long the gateway collects a user's edits before it sends their count (AuthClient.incrementEditCount). */
const EDIT_COUNT_COLLECT_MS = 100;

export class AuthClient {
  /** Edits saved and not yet sent, by user id. */
  private readonly editsToCount = new Map<number, number>();
  private editCountTimer: NodeJS.Timeout | undefined;
  /** The sending of the previous collection, which the next flush waits for too. */
  private editCountsSent: Promise<void> = Promise.resolve();

  constructor(
    private readonly c: AuthServiceClient,
    private readonly onEditCountError: (err: unknown, userId: number) => void = () => undefined,
  ) {}
  /** With `token`, the session's token of that type is checked in the same call (`tokenValid`). */
  resolveSession(sessionId: string, ip: string, o?: CallOpts, token?: { type: string; token: string }): Promise<ResolveSessionResponse> {
    return unary(this.c, this.c.resolveSession, { sessionId, ip, tokenType: token?.type ?? '', token: token?.token ?? '' }, o);
  }
  async getTokens(sessionId: string, types: string[], o?: CallOpts): Promise<Record<string, string>> {
    return (await unary(this.c, this.c.getTokens, { sessionId, types, createSession: false }, o)).tokens;
  }
  /** Tokens, creating an anonymous session when a type needs one (login, createaccount): `newSessionId`. */
  getTokensWithSession(sessionId: string, types: string[], o?: CallOpts): Promise<GetTokensResponse> {
    return unary(this.c, this.c.getTokens, { sessionId, types, createSession: true }, o);
  }
  login(req: LoginRequest, o?: CallOpts): Promise<LoginResponse> {
    return unary(this.c, this.c.login, req, o);
  }
  continueLogin(req: ContinueLoginRequest, o?: CallOpts): Promise<LoginResponse> {
    return unary(this.c, this.c.continueLogin, req, o);
  }
  async logout(sessionId: string, o?: CallOpts): Promise<void> {
    await unary(this.c, this.c.logout, { sessionId }, o);
  }
  createAccount(req: Partial<CreateAccountRequest> & Pick<CreateAccountRequest, 'username' | 'password' | 'ip'>, o?: CallOpts): Promise<CreateAccountResponse> {
    return unary(this.c, this.c.createAccount, { sessionId: '', email: '', realname: '', logIn: false, skipThrottle: false, reason: '', ...req }, o);
  }
  validatePassword(req: ValidatePasswordRequest, o?: CallOpts): Promise<ValidatePasswordResponse> {
    return unary(this.c, this.c.validatePassword, req, o);
  }
  /** Edit counts this gateway still collects are sent first: three edits, then userinfo, shows all three. */
  async getUsers(req: { names?: string[]; ids?: number[] }, o?: CallOpts): Promise<GetUsersResponse> {
    await this.flushEditCounts();
    return unary(this.c, this.c.getUsers, { names: req.names ?? [], ids: req.ids ?? [] }, o);
  }
  async listUsers(req: Partial<ListUsersRequest>, o?: CallOpts): Promise<ListUsersResponse> {
    await this.flushEditCounts();
    return unary(this.c, this.c.listUsers, { from: '', to: '', prefix: '', groups: [], excludeGroups: [], descending: false, limit: 10, withEditsOnly: false, ...req }, o);
  }
  changeUserGroups(req: ChangeUserGroupsRequest, o?: CallOpts): Promise<ChangeUserGroupsResponse> {
    return unary(this.c, this.c.changeUserGroups, req, o);
  }
  block(req: DeepPartial<BlockRequest>, o?: CallOpts): Promise<BlockResponse> {
    return unary(this.c, this.c.block, BlockRequest.fromPartial(req), o);
  }
  unblock(req: UnblockRequest, o?: CallOpts): Promise<UnblockResponse> {
    return unary(this.c, this.c.unblock, req, o);
  }
  listBlocks(req: Partial<ListBlocksRequest>, o?: CallOpts): Promise<ListBlocksResponse> {
    return unary(this.c, this.c.listBlocks, { ids: [], users: [], ip: '', descending: true, limit: 10, continueId: 0, start: '', end: '', show: [], ...req }, o);
  }
  /**
   * Counts a saved edit for the user's editcount (the edit path calls it, without waiting: MediaWiki
   * counts in a deferred update too). A user's edits are collected for EDIT_COUNT_COLLECT_MS and
   * sent as one call (a call per edit was a third of an edit's gRPC calls); reads of edit
   * counts through this client send what is collected first, and so does `flushEditCounts` when the
   * gateway stops. A failed send is reported to `onEditCountError` (the edit itself is committed).
   */
  incrementEditCount(userId: number): void {
    this.editsToCount.set(userId, (this.editsToCount.get(userId) ?? 0) + 1);
    this.editCountTimer ??= setTimeout(() => void this.flushEditCounts(), EDIT_COUNT_COLLECT_MS);
  }

  /** Sends the edit counts collected so far; resolves once they (and any earlier sending) are written. */
  flushEditCounts(): Promise<void> {
    clearTimeout(this.editCountTimer);
    this.editCountTimer = undefined;
    if (this.editsToCount.size === 0) return this.editCountsSent;
    const batch = [...this.editsToCount];
    this.editsToCount.clear();
    const sending = Promise.all(batch.map(([userId, count]) => unary(this.c, this.c.incrementEditCount, { userId, count }).catch((err: unknown) => this.onEditCountError(err, userId))));
    this.editCountsSent = Promise.all([this.editCountsSent, sending]).then(() => undefined);
    return this.editCountsSent;
  }
  getUserStatistics(o?: CallOpts): Promise<GetUserStatisticsResponse> {
    return unary(this.c, this.c.getUserStatistics, {}, o);
  }
  /** Ids of the users now in a group with this right (e.g. "bot": the REST history's bot edits). */
  async listUserIdsWithRight(right: string, o?: CallOpts): Promise<number[]> {
    return (await unary(this.c, this.c.listUserIdsWithRight, ListUserIdsWithRightRequest.fromPartial({ right }), o)).userIds;
  }
  /** $wgGroupPermissions as the auth service applies them (siteinfo usergroups). */
  listGroupPermissions(countMembers: boolean, o?: CallOpts): Promise<ListGroupPermissionsResponse> {
    return unary(this.c, this.c.listGroupPermissions, { countMembers }, o);
  }
  /** action=options: the user's option overrides after the change. */
  changeOptions(req: ChangeOptionsRequest, o?: CallOpts): Promise<ChangeOptionsResponse> {
    return unary(this.c, this.c.changeOptions, req, o);
  }
  changePassword(req: ChangePasswordRequest, o?: CallOpts): Promise<ChangePasswordResponse> {
    return unary(this.c, this.c.changePassword, req, o);
  }
  // Bot passwords (Special:BotPasswords and the admin CLI).
  createBotPassword(req: CreateBotPasswordRequest, o?: CallOpts): Promise<BotPasswordSecret> {
    return unary(this.c, this.c.createBotPassword, req, o);
  }
  async listBotPasswords(user: string, o?: CallOpts): Promise<BotPassword[]> {
    return (await unary(this.c, this.c.listBotPasswords, { user }, o)).botPasswords;
  }
  updateBotPassword(req: UpdateBotPasswordRequest, o?: CallOpts): Promise<BotPassword> {
    return unary(this.c, this.c.updateBotPassword, req, o);
  }
  resetBotPassword(req: ResetBotPasswordRequest, o?: CallOpts): Promise<BotPasswordSecret> {
    return unary(this.c, this.c.resetBotPassword, req, o);
  }
  async deleteBotPassword(req: DeleteBotPasswordRequest, o?: CallOpts): Promise<void> {
    await unary(this.c, this.c.deleteBotPassword, req, o);
  }
  // Two-factor TOTP.
  enableTotp(req: EnableTotpRequest, o?: CallOpts): Promise<EnableTotpResponse> {
    return unary(this.c, this.c.enableTotp, req, o);
  }
  async disableTotp(req: DisableTotpRequest, o?: CallOpts): Promise<void> {
    await unary(this.c, this.c.disableTotp, req, o);
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
  searchPages(req: Partial<SearchPagesRequest>, o?: CallOpts): Promise<SearchPagesResponse> {
    return unary(this.c, this.c.searchPages, SearchPagesRequest.fromPartial(req), o);
  }
  completeTitles(req: Partial<CompleteTitlesRequest>, o?: CallOpts): Promise<CompleteTitlesResponse> {
    return unary(this.c, this.c.completeTitles, CompleteTitlesRequest.fromPartial(req), o);
  }
  close() {
    this.c.close();
  }
}

export interface Clients {
  content: ContentClient;
  auth: AuthClient;
  /** The auth service's OAuth part (same address). */
  oauth: OAuthClient;
  /** The content service's watchlist notification timestamps (same address). */
  notifications: NotificationsClient;
  /** The auth service's account security: session authentication age, second factors (same address). */
  account: AccountClient;
  search: SearchClient;
  /** The content service's revision listings across pages (ArchiveService, same address). */
  archive: ArchiveClient;
  /** The content service's whole-wiki lists (ListService, same address). */
  lists: ListsClient;
  /** The content service's XML dump pages in and out (ImportService, same address). */
  dumps: DumpsClient;
}

/**
 * `log` hears of edit counts the auth client could not send (the edits themselves are saved);
 * `secretKey` (the wiki's secret) signs every call, as the services require (kit's service-auth.ts).
 */
export function connectClients(addr: { content: string; auth: string; search: string }, log?: Logger, secretKey?: string): Clients {
  return {
    content: new ContentClient(connectContentStubs(addr.content, secretKey)),
    auth: new AuthClient(makeClient(AuthServiceClient, addr.auth, {}, secretKey), (err, userId) => log?.warn({ err, userId }, 'could not count an edit')),
    oauth: OAuthClient.connect(addr.auth, secretKey),
    notifications: NotificationsClient.connect(addr.content, secretKey),
    account: AccountClient.connect(addr.auth, secretKey),
    search: new SearchClient(makeClient(SearchServiceClient, addr.search, {}, secretKey)),
    archive: ArchiveClient.connect(addr.content, secretKey),
    lists: ListsClient.connect(addr.content, secretKey),
    dumps: DumpsClient.connect(addr.content, secretKey),
  };
}

export function closeClients(c: Clients) {
  c.content.close();
  c.auth.close();
  c.oauth.close();
  c.notifications.close();
  c.account.close();
  c.search.close();
  c.archive.close();
  c.lists.close();
  c.dumps.close();
}
