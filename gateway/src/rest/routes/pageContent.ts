/*
 * What the page source routes share (MediaWiki's PageContentHelper): loading the page with its
 * latest revision, the 404 for missing and invalid titles, the metadata fields, the validators
 * and the cache lifetime.
 */
import { createHash } from 'node:crypto';
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { PageRecord, Revision } from '../../clients/types.js';
import type { GatewayDeps } from '../../context.js';
import { restMessages } from '../responses.js';
import { RestError, type Validators } from '../types.js';

/** The `{title}` path parameter of every page route. */
export const titleParam = {
  title: { source: 'path', type: 'string', required: true, description: 'Page title, URL-encoded, underscores or spaces' },
} as const;

export interface LoadedPage {
  page: PageRecord;
  latest: Revision;
}

/**
 * The page named by the request, with its latest revision. Missing pages, special pages and
 * invalid titles are all "does not exist" with the title as given.
 */
export async function loadPage(deps: GatewayDeps, title: string, withContent: boolean): Promise<LoadedPage> {
  let found;
  try {
    found = await deps.clients.content.getPage(title, withContent);
  } catch (e) {
    const gone = e instanceof ServiceError && (e.grpcCode === GrpcStatus.NOT_FOUND || (e.grpcCode === GrpcStatus.INVALID_ARGUMENT && e.mwCode === 'invalidtitle'));
    throw gone ? restMessages.nonexistentTitle(title) : e;
  }
  const { page, latest } = found;
  if (!page || page.missing || page.special) throw restMessages.nonexistentTitle(title);
  if (!latest) throw new RestError(404, `Unable to retrieve revision for title ${title}`);
  return { page, latest };
}

/** ISO 8601 without fractional seconds, as MediaWiki's TS_ISO_8601. */
export function isoTimestamp(value: string): string {
  return new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** MediaWiki's $wgRightsUrl / $wgRightsText, empty by default (as in the reference wiki). */
export const LICENSE = { url: '', title: '' };

/** The fields every page form starts with (PageContentHelper::constructMetadata). */
export function pageMetadata({ page, latest }: LoadedPage) {
  return {
    id: page.id,
    key: page.dbkey,
    title: page.title,
    latest: { id: latest.id, timestamp: isoTimestamp(latest.timestamp) },
    content_model: latest.contentModel || page.contentModel,
    license: LICENSE,
  };
}

/**
 * PageContentHelper::getETag / getLastModified: a strong ETag over the latest revision id and
 * its readability ("a1": the route has already checked `read`), and that revision's timestamp.
 */
export function pageValidators({ latest }: LoadedPage): Validators {
  return {
    etag: `"${createHash('sha1').update(`${latest.id}a1`).digest('hex')}"`,
    lastModified: new Date(latest.timestamp),
  };
}

export function pageCacheControl(deps: GatewayDeps): string {
  return `max-age=${deps.config.restMaxAge}`;
}
