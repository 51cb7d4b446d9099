/*
 * The generated protobuf messages and enums the gateway uses, re-exported: gateway code outside
 * clients/ imports them from here, never from @quire/proto (dependency rule
 * gateway-imports-no-generated-stubs in .dependency-cruiser.cjs). Add a name here when a handler
 * needs one more.
 */
export { HealthCheckResponse_ServingStatus, HealthClient } from '@quire/proto/grpc/health/v1/health';
export {
  BlockEntry,
  BlockInfo,
  BotPassword,
  CheckTokenResponse,
  CreateAccountRequest,
  ListGroupPermissionsResponse,
  LoginResponse,
  LoginResponse_Status,
  Message,
  ResolveSessionResponse,
  SessionKind,
  User,
  UserDetails,
} from '@quire/proto/wiki/auth/v1/auth';
export { Consumer, ConsumerStage, Param, SignedRequest } from '@quire/proto/wiki/auth/v1/oauth';
export { EditRequest, EditResponse, MovedPage, MovePageResponse } from '@quire/proto/wiki/content/edit/v1/edit';
export { PageChange } from '@quire/proto/wiki/content/feed/v1/feed';
export {
  LinkTable,
  LinkingPage,
  ListBacklinksResponse,
  ListCategoryMembersResponse,
  ListExternalLinkUsageResponse,
  ListPageBacklinksResponse,
  ListPageLinksRequest,
  ListPageLinksResponse,
} from '@quire/proto/wiki/content/links/v1/links';
export { RecentChange } from '@quire/proto/wiki/content/logs/v1/logs';
export { GetPageResponse, PageInfoDetails, ResolvePagesRequest, ResolvePagesResponse } from '@quire/proto/wiki/content/pages/v1/pages';
export { GetRevisionHtmlResponse, LintWikitextRequest, ParseResponse, RenderCategory, RenderLink } from '@quire/proto/wiki/content/render/v1/render';
export {
  CompareRelative,
  CompareSide,
  CompareSideResult,
  CountType,
  DiffFormat,
  GetRevisionsRequest,
  GetRevisionsResponse,
  HistoryFilter,
  UserContrib,
} from '@quire/proto/wiki/content/revisions/v1/revisions';
export {
  GetParserInfoResponse,
  GetReplicationLagResponse,
  GetStatisticsResponse,
  ListNamespacesResponse,
  Namespace,
} from '@quire/proto/wiki/content/site/v1/site';
export { ArchiveOrder, ArchivedRevision, ListArchivedRevisionsRequest, PagedRevision } from '@quire/proto/wiki/content/v1/archive';
export { EditActor, PageRecord, ProtectionLevel, RedirectFilter, Revision, StatusMessage } from '@quire/proto/wiki/content/v1/common';
export { FileVersion, StashedFile, UploadResponse, UploadWarnings, WatchlistChange } from '@quire/proto/wiki/content/v1/files';
export { ExportedPage, ExportedRevision, ImportLog, ImportPageResult, ImportRevision } from '@quire/proto/wiki/content/v1/import';
export { AllLinksTable } from '@quire/proto/wiki/content/v1/lists';
export { CompleteTitlesRequest, CompleteTitlesResponse, SearchHit, SearchPagesResponse, TitleMatch } from '@quire/proto/wiki/search/v1/search';
