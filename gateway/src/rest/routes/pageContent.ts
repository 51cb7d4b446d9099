/*
 * What the page source routes share (MediaWiki's PageContentHelper): loading the page with its
 * latest revision, the 404 for missing and invalid titles, the metadata fields, the validators
 * and the cache lifetime.
 */
import { createHash } from 'node:crypto';
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { PageRecord, Revision } from '@quire/proto/wiki/content/v1/content';
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
 * A strong ETag over the latest revision and the page's touched time, and the touched time as
 * Last-Modified, so both change together whenever the page does.
 */
export function pageValidators({ page, latest }: LoadedPage): Validators {
  const touched = page.touched || latest.timestamp;
  return {
    etag: `"${createHash('sha1').update(`${latest.id}:${touched}`).digest('hex')}"`,
    lastModified: new Date(touched),
  };
}

export function pageCacheControl(deps: GatewayDeps): string {
  return `max-age=${deps.config.restMaxAge}`;
}

/** The `{title}` path parameter and the `redirect` query parameter of the page source routes. */
export const pageSourceParams = {
  ...titleParam,
  redirect: { source: 'query', type: 'string', description: '"no": for a redirect page, also return the URL of its target as redirect_target' },
} as const;

/**
 * `redirect_target` of a redirect page when the request says `redirect=no`: the same route for the
 * target title (its DB key), with the request's query (PageRedirectHelper::getTargetUrl). Redirect
 * pages are never followed on the source routes: an editor reading a redirect gets the redirect.
 */
export function redirectTargetField(
  { page }: LoadedPage,
  redirect: string | undefined,
  routeUrl: (template: string, pathParams: Record<string, string>, query: Record<string, string>) => string,
  template: string,
): { redirect_target?: string } {
  if (redirect !== 'no' || !page.redirect || page.redirectTarget === '') return {};
  return { redirect_target: routeUrl(template, { title: page.redirectTarget.replace(/ /g, '_') }, { redirect }) };
}

type RouteUrl = (template: string, pathParams: Record<string, string>, query: Record<string, string>) => string;

/**
 * MediaWiki's PageRedirectHelper (1.41+): a page requested under another form of its title
 * (`main_page`, `Main Page`) gets a permanent redirect (301) to the same route under its DB key,
 * with the request's query kept, so caches and clients converge on one URL.
 */
export function normalizationRedirect(requested: string, { page }: LoadedPage, routeUrl: RouteUrl, template: string, query: Record<string, string>) {
  if (requested === page.dbkey) return undefined;
  return { status: 301, headers: { Location: routeUrl(template, { title: page.dbkey }, query) } };
}

/**
 * The HTML routes follow wiki redirects (PageRedirectHelper with followWikiRedirects): a redirect
 * page answers 307 to the same route for its target with `redirect=no`, so chains stop after one
 * hop; `redirect=no` on the request serves the redirect page itself.
 */
export function wikiRedirect({ page }: LoadedPage, redirect: string | undefined, routeUrl: RouteUrl, template: string) {
  if (redirect === 'no' || !page.redirect || page.redirectTarget === '') return undefined;
  return { status: 307, headers: { Location: routeUrl(template, { title: page.redirectTarget.replace(/ /g, '_') }, { redirect: 'no' }) } };
}
