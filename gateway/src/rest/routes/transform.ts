/*
 * Parsoid's transforms (MediaWiki's TransformHandler over ParsoidHandler), one implementation for
 * two route families:
 * - POST /coredev/v0/transform/{from}/to/{format}[/{title}[/{revision}]] (coreDevelopmentRoutes.json,
 *   served with REST_DEV_ROUTES): wikitext → html | lint and html → wikitext; any other pair is a
 *   404 ("Invalid transform"), as pagebundle is in MediaWiki 1.39.
 * - POST /v1/transform/wikitext/to/html[…], /v1/transform/wikitext/to/lint[…] and
 *   /v1/transform/html/to/wikitext[…].
 * The body (JSON, form or multipart) carries `wikitext` or `html` as a string or {body, headers},
 * `original` {title, revid, wikitext}, `contentmodel` and `body_only`; the title and revision come
 * from the path or from `original`. Accept chooses the HTML spec version (406 when none fits).
 * wt2html without wikitext renders the given revision, or redirects (307) to the URL naming the
 * page's latest one.
 */
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { GetRevisionHtmlResponse } from '../../clients/types.js';
import { escapeHtml } from '../../action/errors.js';
import { defineRoute, FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MULTIPART_CONTENT_TYPE, RestError, type ParamDecls, type RestContext, type RestResponse } from '../types.js';
import { lints, transformCacheControl, transformPathParams } from './lint.js';
import { parsoidDocument } from './pageHtml.js';
import { acceptableVersion, DEFAULT_HTML_VERSION } from './transformAccept.js';

/** The transformations the routes offer (the `transformations` of coreDevelopmentRoutes.json). */
const TRANSFORMATIONS: Readonly<Record<string, readonly string[]>> = { wikitext: ['html', 'lint'], html: ['wikitext'] };

/** The page a transform without a title is about (Title::newMainPage). */
const MAIN_PAGE = 'Main Page';

/** ParsoidFormatHelper's content type for wikitext. */
const WIKITEXT_CONTENT_TYPE = 'text/plain; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/wikitext/1.0.0"';

/** ParsoidFormatHelper's content type for HTML of a spec version. */
const htmlContentType = (version: string) => `text/html; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/HTML/${version}"`;

/** ParsoidHandler's Cache-Control for responses to posted source (and its redirects). */
const NO_CACHE = 'private,no-cache,s-maxage=0';

/** ParsoidHandler's errors are HttpExceptions: `{message, httpCode, httpReason}`. */
const parsoidError = (status: number, message: string) => new RestError(status, message, {}, { localized: false });
const deletedRevision = () => parsoidError(404, 'The specified revision is deleted or suppressed.');
const missingRevision = () => parsoidError(404, 'The specified revision does not exist.');

/** The body every transform accepts: ParsoidHandler::getParsedBody reads these three types. */
const transformBody = {
  contentTypes: [JSON_CONTENT_TYPE, FORM_CONTENT_TYPE, MULTIPART_CONTENT_TYPE],
  phpArray: { unsupportedType: 'Unsupported Media Type', notAnArray: 'Payload does not JSON decode to an array.' },
  fields: {
    wikitext: { type: 'any', description: 'The wikitext to transform: a string, or {body, headers}' },
    html: { type: 'any', description: 'The HTML to transform: a string, or {body, headers}' },
    original: { type: 'any', description: 'The original: {title, revid, wikitext: {body, headers}}; title and revid stand in for the path' },
    contentmodel: { type: 'any', description: 'Content model of the source: json, or anything else for wikitext' },
    body_only: { type: 'any', description: 'When true, only the children of <body>, without section wrappers' },
  },
} as const;

/** Request headers and query parameters ParsoidHandler reads, declared for every transform route. */
const transformRequestParams = {
  accept: { source: 'header', type: 'string', description: 'HTML spec version wanted, e.g. text/html; profile="https://www.mediawiki.org/wiki/Specs/HTML/2.6.0"' },
  body_only: { source: 'query', type: 'string', description: 'When true, only the children of <body>, without section wrappers' },
} as const;

type TransformContext = RestContext<ParamDecls, Record<string, unknown>>;

/** What the route's path says; the title and revision may be overridden by `original`. */
interface TransformTarget {
  from: string;
  format: string;
  title: string | undefined;
  revision: string | number | undefined;
  /** The route template a redirect names, with {from}, {format}, {title} and {revision}. */
  endpoint: string;
}

/** A PHP scalar as a string (null for arrays and absent values), as a `?string` parameter takes it. */
function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '';
  return undefined;
}

/** Source given as a string or as {body, headers}. */
function sourceText(v: unknown): string | undefined {
  if (typeof v === 'object' && v !== null) return Array.isArray(v) ? undefined : scalarText((v as Record<string, unknown>).body);
  return scalarText(v);
}

/** PHP truthiness of a request value ("0", "" and 0 are false). */
const truthy = (v: unknown) => v !== undefined && v !== null && v !== false && v !== 0 && v !== '' && v !== '0';

/** PHP's (int) cast of a revision id ("12abc" is 12, "abc" is 0). */
function intval(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  const m = /^\s*[+-]?\d+/.exec(typeof v === 'string' ? v : '');
  return m ? Number(m[0]) : 0;
}

/** ParsoidHandler::getRequestAttributes: the page, the revision and the output options. */
function requestAttributes(ctx: TransformContext, target: TransformTarget) {
  const original = typeof ctx.body.original === 'object' && ctx.body.original !== null ? (ctx.body.original as Record<string, unknown>) : {};
  let titleMissing = target.title === undefined || target.title === '' || target.title === '0';
  let pageName = target.title ?? '';
  let revision: unknown = target.revision;
  if (original.revid !== undefined && original.revid !== null) revision = original.revid;
  const originalTitle = scalarText(original.title);
  if (originalTitle !== undefined) {
    titleMissing = false;
    pageName = originalTitle;
  }
  return {
    original,
    titleMissing,
    pageName,
    oldid: revision === undefined || revision === '' ? undefined : intval(revision),
    bodyOnly: truthy(ctx.params.body_only ?? ctx.body.body_only),
    contentModel: scalarText(ctx.body.contentmodel) ?? '',
  };
}

type Attribs = ReturnType<typeof requestAttributes>;

/** The service's title and revision errors as ParsoidHandler answers them. */
function mapContentError(e: unknown, notFound: () => RestError): never {
  if (e instanceof ServiceError && e.grpcCode === GrpcStatus.NOT_FOUND) throw notFound();
  // MediaWiki fails on a bad title with a LogicException (500); it is the client's mistake here.
  if (e instanceof ServiceError && (e.mwCode === 'invalidtitle' || e.mwCode === 'badformat')) throw parsoidError(400, e.message);
  throw e;
}

/** ResponseFactory::createTemporaryRedirect: 307 with a minimal HTML document linking the target. */
function temporaryRedirect(url: string): RestResponse {
  const link = escapeHtml(url);
  return {
    status: 307,
    headers: { Location: url, 'Cache-Control': NO_CACHE },
    text: `<!doctype html><title>Redirect</title><a href="${link}">${link}</a>`,
    contentType: 'text/html; charset=utf-8',
  };
}

/**
 * ParsoidHandler::tryToCreatePageConfig for a transform from the stored page: its latest revision
 * is named in a redirect (the page must exist), so only a given revision is ever rendered.
 */
async function redirectToLatest(ctx: TransformContext, target: TransformTarget, attribs: Attribs): Promise<RestResponse> {
  let page;
  try {
    page = (await ctx.deps.clients.content.getPage(attribs.pageName || MAIN_PAGE, false)).page;
  } catch (e) {
    mapContentError(e, missingRevision);
  }
  if (!page || page.missing || page.special || page.latestRevId <= 0) throw missingRevision();
  const query = typeof ctx.params.body_only === 'string' ? { body_only: ctx.params.body_only } : undefined;
  return temporaryRedirect(ctx.routeUrl(target.endpoint, { from: target.from, format: target.format, title: page.title, revision: String(page.latestRevId) }, query));
}

/** The children of <body> without the section wrappers (body_only turns wrapSections off). */
function unwrapSections(body: string): string {
  // Sections come only from the renderer's wrapping: wikitext cannot produce a <section> tag.
  return body.replace(/<section data-mw-section-id="[^"]*"[^>]*>|<\/section>/g, '');
}

/** The document in the HTML version negotiated (the renderer writes the default one). */
function withHtmlVersion(doc: string, version: string): string {
  if (version === DEFAULT_HTML_VERSION) return doc;
  const meta = (v: string) => `<meta property="mw:htmlVersion" content="${v}"/><meta property="mw:html:version" content="${v}"/>`;
  return doc.replace(meta(DEFAULT_HTML_VERSION), meta(version));
}

async function wikitextToHtml(ctx: TransformContext, attribs: Attribs, wikitext: string | undefined, version: string): Promise<RestResponse> {
  const { content } = ctx.deps.clients;
  let r: GetRevisionHtmlResponse;
  try {
    r =
      wikitext !== undefined
        ? await content.transformWikitextToHtml({ text: wikitext, title: attribs.pageName, revId: attribs.oldid ?? 0, contentModel: attribs.contentModel })
        : await content.getRevisionHtml({ revId: attribs.oldid ?? 0 });
  } catch (e) {
    mapContentError(e, wikitext !== undefined ? missingRevision : deletedRevision);
  }
  const lang = ctx.deps.config.lang;
  const headers: Record<string, string> = { 'Content-Language': lang, Vary: 'Accept' };
  // Posted source is never cached; a stored revision is named in a header for clients.
  if (wikitext !== undefined) headers['Cache-Control'] = NO_CACHE;
  else headers['Content-Revision-Id'] = String(attribs.oldid);
  return {
    text: attribs.bodyOnly ? unwrapSections(r.body) : withHtmlVersion(parsoidDocument(ctx.deps.config.server, r, lang), version),
    contentType: htmlContentType(version),
    headers,
  };
}

async function wikitextToLint(ctx: TransformContext, attribs: Attribs, wikitext: string | undefined): Promise<RestResponse> {
  const out =
    wikitext !== undefined
      ? await lints(ctx.deps, { hasText: true, text: wikitext, title: attribs.pageName }, () => parsoidError(400, `Invalid title: ${attribs.pageName}`))
      : await lints(ctx.deps, { revId: attribs.oldid ?? 0 }, deletedRevision);
  return { ...out, headers: wikitext !== undefined ? { 'Cache-Control': NO_CACHE } : { 'Content-Revision-Id': String(attribs.oldid) } };
}

async function htmlToWikitext(ctx: TransformContext, attribs: Attribs, html: string): Promise<RestResponse> {
  if (attribs.oldid !== undefined && attribs.oldid <= 0) throw deletedRevision();
  try {
    const r = await ctx.deps.clients.content.transformHtmlToWikitext({ html, title: attribs.pageName, revId: attribs.oldid ?? 0, contentModel: attribs.contentModel });
    return { text: r.wikitext, contentType: WIKITEXT_CONTENT_TYPE };
  } catch (e) {
    mapContentError(e, deletedRevision);
  }
}

/** TransformHandler::execute. */
async function transform(ctx: TransformContext, target: TransformTarget): Promise<RestResponse> {
  const { from, format } = target;
  if (!TRANSFORMATIONS[from]?.includes(format)) throw parsoidError(404, `Invalid transform: ${from}/to/${format}`);
  const attribs = requestAttributes(ctx, target);
  const version = acceptableVersion(format, typeof ctx.params.accept === 'string' ? ctx.params.accept : undefined);
  if (version === undefined) throw parsoidError(406, 'Not acceptable');

  if (from === 'html') {
    const html = sourceText(ctx.body.html);
    if (html === undefined) throw parsoidError(400, 'No html was supplied.');
    return htmlToWikitext(ctx, attribs, html);
  }
  // Wikitext as a string or {body, headers}, else the original's source.
  const wikitext = sourceText(ctx.body.wikitext) ?? sourceText(attribs.original.wikitext);
  if (wikitext === undefined && attribs.titleMissing) throw parsoidError(400, 'No title or wikitext was provided.');
  if (wikitext === undefined) {
    if (attribs.oldid === undefined) return redirectToLatest(ctx, target, attribs);
    if (attribs.oldid <= 0) throw deletedRevision();
  }
  return format === 'lint' ? wikitextToLint(ctx, attribs, wikitext) : wikitextToHtml(ctx, attribs, wikitext, version);
}

const CORE_DEV_ENDPOINT = '/coredev/v0/transform/{from}/to/{format}/{title}/{revision}';

const coreDevPathParams = {
  from: { source: 'path', type: 'string', required: true, description: 'Format of the source: wikitext or html' },
  format: { source: 'path', type: 'string', required: true, description: 'Format to transform to: html or lint from wikitext, wikitext from html' },
} as const;
const coreDevTitleParam = { title: { source: 'path', type: 'string', description: 'Title of the page whose context the transform uses (default: the main page)' } } as const;
const coreDevRevisionParam = { revision: { source: 'path', type: 'string', description: 'Revision whose context (or stored source) the transform uses' } } as const;

function coreDevTransformRoute<P extends ParamDecls>(suffix: string, params: P) {
  return defineRoute({
    method: 'POST',
    path: `/coredev/v0/transform/{from}/to/{format}${suffix}`,
    summary: 'Transform wikitext to Parsoid HTML or lints, or Parsoid HTML to wikitext',
    params: { ...coreDevPathParams, ...params, ...transformRequestParams },
    body: transformBody,
    writes: false,
    execute: (ctx) => {
      const p = ctx.params as { from: string; format: string; title?: string; revision?: string };
      return transform(ctx, { from: p.from, format: p.format, title: p.title, revision: p.revision, endpoint: CORE_DEV_ENDPOINT });
    },
  });
}

/** The development transform routes, as coreDevelopmentRoutes.json declares them. */
export const coreDevTransformRoutes = [
  coreDevTransformRoute('', {}),
  coreDevTransformRoute('/{title}', coreDevTitleParam),
  coreDevTransformRoute('/{title}/{revision}', { ...coreDevTitleParam, ...coreDevRevisionParam }),
];

/** A /v1 transform of one fixed pair; responses are never cached. */
function v1TransformRoute<P extends (typeof transformPathParams)[keyof typeof transformPathParams]>(from: string, format: string, summary: string, suffix: string, params: P) {
  return defineRoute({
    method: 'POST',
    path: `/v1/transform/${from}/to/${format}${suffix}`,
    summary,
    params: { ...params, ...transformRequestParams },
    body: transformBody,
    writes: false,
    cacheControl: transformCacheControl,
    execute: (ctx) => {
      const p = ctx.params as { title?: string; revision?: number };
      return transform(ctx, { from, format, title: p.title, revision: p.revision, endpoint: '/v1/transform/{from}/to/{format}/{title}/{revision}' });
    },
  });
}

export const transformWikitextToHtmlRoutes = [
  v1TransformRoute('wikitext', 'html', 'Transform wikitext to Parsoid HTML', '', transformPathParams.bare),
  v1TransformRoute('wikitext', 'html', 'Transform wikitext to Parsoid HTML', '/{title}', transformPathParams.title),
  v1TransformRoute('wikitext', 'html', 'Transform wikitext to Parsoid HTML', '/{title}/{revision}', transformPathParams.revision),
];

export const transformLintRoutes = [
  v1TransformRoute('wikitext', 'lint', 'Lint wikitext (Parsoid lint categories)', '', transformPathParams.bare),
  v1TransformRoute('wikitext', 'lint', 'Lint wikitext (Parsoid lint categories)', '/{title}', transformPathParams.title),
  v1TransformRoute('wikitext', 'lint', 'Lint wikitext (Parsoid lint categories)', '/{title}/{revision}', transformPathParams.revision),
];

export const transformHtmlToWikitextRoutes = [
  v1TransformRoute('html', 'wikitext', 'Transform Parsoid HTML to wikitext', '', transformPathParams.bare),
  v1TransformRoute('html', 'wikitext', 'Transform Parsoid HTML to wikitext', '/{title}', transformPathParams.title),
  v1TransformRoute('html', 'wikitext', 'Transform Parsoid HTML to wikitext', '/{title}/{revision}', transformPathParams.revision),
];
