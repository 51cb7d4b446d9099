/*
 * Parsoid HTML of pages and revisions (MediaWiki's PageHTMLHandler / RevisionHTMLHandler with
 * HtmlOutputRendererHelper): GET /v1/page/{title}/html, /v1/page/{title}/with_html,
 * /v1/revision/{id}/html and /v1/revision/{id}/with_html. The body comes from the content
 * service's parser cache (rendered once per revision); the document head names this server.
 */
import { createHash } from 'node:crypto';
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { GetRevisionHtmlResponse } from '../../clients/types.js';
import type { GatewayDeps } from '../../context.js';
import { restMessages } from '../responses.js';
import { defineRoute, RestError, type RestResponse, type Validators } from '../types.js';
import { loadPage, pageCacheControl, pageMetadata, titleParam, type LoadedPage } from './pageContent.js';
import { assertTextVisible, loadRevision, revisionIdParam, revisionMetadata } from './revision.js';

const HTML_CONTENT_TYPE = 'text/html;charset=UTF-8';
const STYLES = '/w/load.php?lang=en&amp;modules=mediawiki.skinning.content.parsoid%7Cmediawiki.skinning.interface%7Csite.styles&amp;only=styles&amp;skin=vector';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** wfUrlencode of a DB key. */
const urlKey = (s: string) => encodeURIComponent(s).replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

const acceptLanguageParam = {
  'accept-language': { source: 'header', type: 'string', description: 'Language variant to convert the HTML to' },
} as const;

/** The full Parsoid document around a cached body, in `language` (the content language or the variant it was converted to). */
export function parsoidDocument(server: string, r: GetRevisionHtmlResponse, language = 'en'): string {
  const modified = new Date(r.revTimestamp).toISOString();
  return (
    '<!DOCTYPE html>\n' +
    `<html prefix="dc: http://purl.org/dc/terms/ mw: http://mediawiki.org/rdf/" about="${escapeAttr(`${server}/wiki/Special:Redirect/revision/${r.revId}`)}">` +
    `<head prefix="mwr: ${escapeAttr(`${server}/wiki/Special:Redirect/`)}"><meta charset="utf-8"/>` +
    `<meta property="mw:pageId" content="${r.pageId}"/><meta property="mw:pageNamespace" content="${r.ns}"/>` +
    (r.parentId > 0 ? `<link rel="dc:replaces" resource="mwr:revision/${r.parentId}"/>` : '') +
    `<meta property="mw:revisionSHA1" content="${r.sha1Hex}"/><meta property="dc:modified" content="${modified}"/>` +
    '<meta property="mw:htmlVersion" content="2.6.0"/><meta property="mw:html:version" content="2.6.0"/>' +
    `<link rel="dc:isVersionOf" href="${escapeAttr(`${server}/wiki/${urlKey(r.title.replaceAll(' ', '_'))}`)}"/>` +
    `<base href="${escapeAttr(`${server}/wiki/`)}"/><title>${escapeText(r.title)}</title>` +
    `<link rel="stylesheet" href="${STYLES}"/><meta http-equiv="content-language" content="${escapeAttr(language)}"/><meta http-equiv="vary" content="Accept"/></head>` +
    `<body id="mwAA" lang="${escapeAttr(language)}" class="mw-content-ltr sitedir-ltr ltr mw-body-content parsoid-body mediawiki mw-parser-output" dir="ltr">${r.body}</body></html>`
  );
}

/** ETag of one rendering of a revision (Parsoid's "revision/render-id/view/format"), per language variant. */
function htmlValidators(r: VariantHtml, format: 'html' | 'with_html'): Validators {
  const renderId = createHash('sha1')
    .update(`${r.revId}:${r.renderedAt}${r.converted ? `:${r.language}` : ''}`)
    .digest('hex')
    .slice(0, 32);
  const lastModified = new Date(Math.max(Date.parse(r.renderedAt), Date.parse(r.touched)));
  return { etag: `"${r.revId}/${renderId}/view/${format}"`, lastModified };
}

/** A rendering in the language it is served in. */
interface VariantHtml extends GetRevisionHtmlResponse {
  language: string;
  converted: boolean;
}

/**
 * The rendering in the variant Accept-Language asks for (the content service converts; a language
 * without variants, such as English, passes through unconverted).
 */
async function inVariant(deps: GatewayDeps, r: GetRevisionHtmlResponse, acceptLanguage: string | undefined): Promise<VariantHtml> {
  const language = deps.config.lang;
  if (acceptLanguage === undefined) return { ...r, language, converted: false };
  const c = await deps.clients.content.convertVariant({ language, acceptLanguage, html: r.body });
  return c.converted ? { ...r, body: c.html, language: c.variant, converted: true } : { ...r, language, converted: false };
}

/** A client that names a language learns which one it got, and caches key on the header. */
function languageHeaders(acceptLanguage: string | undefined, r: VariantHtml, base: Record<string, string>): Record<string, string> {
  if (acceptLanguage === undefined) return base;
  return { ...base, 'Content-Language': r.language, Vary: [base.Vary, 'Accept-Language'].filter(Boolean).join(', ') };
}

async function revisionHtml(deps: GatewayDeps, req: { title?: string; revId?: number }, notFound: () => RestError): Promise<GetRevisionHtmlResponse> {
  try {
    return await deps.clients.content.getRevisionHtml(req);
  } catch (e) {
    if (e instanceof ServiceError && (e.grpcCode === GrpcStatus.NOT_FOUND || e.mwCode === 'invalidtitle')) throw notFound();
    if (e instanceof ServiceError && e.mwCode === 'badformat') throw new RestError(400, e.message);
    throw e;
  }
}

/** The page's latest revision rendered (page HTML routes; a redirect page is rendered as itself, as in MediaWiki 1.39). */
async function latestPageHtml(deps: GatewayDeps, title: string): Promise<{ loaded: LoadedPage; rendered: GetRevisionHtmlResponse }> {
  const loaded = await loadPage(deps, title, false);
  const rendered = await revisionHtml(deps, { revId: loaded.latest.id }, () => restMessages.nonexistentTitle(title));
  return { loaded, rendered };
}

/** The with_html form: the JSON metadata plus the whole document in `html`. */
async function withHtmlResponse(deps: GatewayDeps, metadata: object, rendered: GetRevisionHtmlResponse, acceptLanguage: string | undefined): Promise<RestResponse> {
  const r = await inVariant(deps, rendered, acceptLanguage);
  return {
    json: { ...metadata, html: parsoidDocument(deps.config.server, r, r.language) },
    headers: languageHeaders(acceptLanguage, r, {}),
    validators: htmlValidators(r, 'with_html'),
  };
}

async function htmlResponse(deps: GatewayDeps, rendered: GetRevisionHtmlResponse, acceptLanguage: string | undefined): Promise<RestResponse> {
  const r = await inVariant(deps, rendered, acceptLanguage);
  return {
    text: parsoidDocument(deps.config.server, r, r.language),
    contentType: HTML_CONTENT_TYPE,
    headers: languageHeaders(acceptLanguage, r, { Vary: 'Accept-Encoding' }),
    validators: htmlValidators(r, 'html'),
  };
}

export const pageHtmlRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/html',
  summary: 'Get the HTML of the latest revision of a page (Parsoid format)',
  params: { ...titleParam, ...acceptLanguageParam },
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const page = await latestPageHtml(ctx.deps, ctx.params.title);
    return htmlResponse(ctx.deps, page.rendered, ctx.params['accept-language']);
  },
});

export const pageWithHtmlRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/with_html',
  summary: 'Get a page: its latest revision and its HTML (Parsoid format)',
  params: { ...titleParam, ...acceptLanguageParam },
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const page = await latestPageHtml(ctx.deps, ctx.params.title);
    return withHtmlResponse(ctx.deps, pageMetadata(page.loaded), page.rendered, ctx.params['accept-language']);
  },
});

const missingRevision = (id: number) => () => new RestError(404, `The specified revision (${id}) does not exist`);

export const revisionHtmlRoute = defineRoute({
  method: 'GET',
  path: '/v1/revision/{id}/html',
  summary: 'Get the HTML of a revision (Parsoid format)',
  params: { ...revisionIdParam, ...acceptLanguageParam },
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    assertTextVisible(await loadRevision(ctx.deps, ctx.params.id, false));
    const r = await revisionHtml(ctx.deps, { revId: ctx.params.id }, missingRevision(ctx.params.id));
    return htmlResponse(ctx.deps, r, ctx.params['accept-language']);
  },
});

export const revisionWithHtmlRoute = defineRoute({
  method: 'GET',
  path: '/v1/revision/{id}/with_html',
  summary: 'Get a revision: its metadata and its HTML (Parsoid format)',
  params: { ...revisionIdParam, ...acceptLanguageParam },
  writes: false,
  cacheControl: pageCacheControl,
  async execute(ctx) {
    const loaded = await loadRevision(ctx.deps, ctx.params.id, false);
    assertTextVisible(loaded);
    const rendered = await revisionHtml(ctx.deps, { revId: ctx.params.id }, missingRevision(ctx.params.id));
    return withHtmlResponse(ctx.deps, await revisionMetadata(ctx, loaded), rendered, ctx.params['accept-language']);
  },
});

/** GET /v1/page/{title}/links/language (LanguageLinksHandler): the page's language links by code. */
export const pageLinksLanguageRoute = defineRoute({
  method: 'GET',
  path: '/v1/page/{title}/links/language',
  summary: 'Get the interlanguage links of a page',
  params: titleParam,
  writes: false,
  async execute(ctx) {
    let r;
    try {
      r = await ctx.deps.clients.content.getLanguageLinks({ title: ctx.params.title });
    } catch (e) {
      if (e instanceof ServiceError && (e.grpcCode === GrpcStatus.NOT_FOUND || e.mwCode === 'invalidtitle')) throw restMessages.nonexistentTitle(ctx.params.title);
      throw e;
    }
    const touched = new Date(r.touched);
    const ts = touched.toISOString().replace(/[-:T]/g, '').slice(0, 14);
    return {
      json: r.links.map((l) => ({ code: l.lang, name: l.autonym, key: l.title.replaceAll(' ', '_'), title: l.title.replaceAll('_', ' ') })),
      validators: { etag: `"${r.latestRevId}@${ts}"`, lastModified: touched },
    };
  },
});
