/*
 * POST /v1/transform/wikitext/to/html[/{title}[/{revision}]] (Parsoid's TransformHandler
 * wt2html): posted wikitext rendered as the Parsoid document the /html routes serve, in the
 * title's (and revision's) context. Without wikitext, the stored page (or revision) is rendered.
 * POST /v1/transform/html/to/wikitext[/{title}[/{revision}]] (html2wt): posted HTML of that
 * kind serialized back to wikitext.
 */
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { GetRevisionHtmlResponse } from '@quire/proto/wiki/content/v1/content';
import { restMessages } from '../responses.js';
import { defineRoute, FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, RestError } from '../types.js';
import { noInput, transformCacheControl, transformPathParams, wikitextBody } from './lint.js';
import { parsoidDocument } from './pageHtml.js';

/** ParsoidHandler's content type for HTML (the spec version of the output). */
const PARSOID_HTML_CONTENT_TYPE = 'text/html; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/HTML/2.6.0"';

function wikitextToHtmlRoute<P extends (typeof transformPathParams)[keyof typeof transformPathParams]>(suffix: string, params: P) {
  return defineRoute({
    method: 'POST',
    path: `/v1/transform/wikitext/to/html${suffix}`,
    summary: 'Transform wikitext to Parsoid HTML',
    params,
    body: wikitextBody,
    writes: false,
    cacheControl: transformCacheControl,
    async execute(ctx) {
      const p = ctx.params as { title?: string; revision?: number };
      const title = p.title ?? '';
      let r: GetRevisionHtmlResponse;
      try {
        if (ctx.body.wikitext !== undefined) r = await ctx.deps.clients.content.transformWikitextToHtml({ text: ctx.body.wikitext, title, revId: p.revision ?? 0 });
        else if (p.title === undefined) throw noInput();
        else r = await ctx.deps.clients.content.getRevisionHtml(p.revision !== undefined ? { revId: p.revision } : { title });
      } catch (e) {
        if (e instanceof ServiceError && e.grpcCode === GrpcStatus.NOT_FOUND) {
          throw p.revision !== undefined ? new RestError(404, `The specified revision (${p.revision}) does not exist`) : restMessages.nonexistentTitle(title);
        }
        if (e instanceof ServiceError && (e.mwCode === 'invalidtitle' || e.mwCode === 'badformat')) throw new RestError(400, e.message, {}, { localized: false });
        throw e;
      }
      const lang = ctx.deps.config.lang;
      return {
        text: parsoidDocument(ctx.deps.config.server, r, lang),
        contentType: PARSOID_HTML_CONTENT_TYPE,
        headers: { 'Content-Language': lang, Vary: 'Accept' },
      };
    },
  });
}

export const transformWikitextToHtmlRoutes = [
  wikitextToHtmlRoute('', transformPathParams.bare),
  wikitextToHtmlRoute('/{title}', transformPathParams.title),
  wikitextToHtmlRoute('/{title}/{revision}', transformPathParams.revision),
];

/** ParsoidHandler's content type for wikitext. */
const PARSOID_WIKITEXT_CONTENT_TYPE = 'text/plain; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/wikitext/1.0.0"';

/** The body of html2wt: JSON or a form, as for the wikitext transforms. */
const htmlBody = {
  contentTypes: [JSON_CONTENT_TYPE, FORM_CONTENT_TYPE],
  fields: { html: { type: 'string', description: 'The Parsoid HTML to transform' } },
} as const;

function htmlToWikitextRoute<P extends (typeof transformPathParams)[keyof typeof transformPathParams]>(suffix: string, params: P) {
  return defineRoute({
    method: 'POST',
    path: `/v1/transform/html/to/wikitext${suffix}`,
    summary: 'Transform Parsoid HTML to wikitext',
    params,
    body: htmlBody,
    writes: false,
    cacheControl: transformCacheControl,
    async execute(ctx) {
      const p = ctx.params as { title?: string; revision?: number };
      // TransformHandler's message when the body has no html.
      if (ctx.body.html === undefined) throw new RestError(400, 'No html was supplied.', {}, { localized: false });
      try {
        const r = await ctx.deps.clients.content.transformHtmlToWikitext({ html: ctx.body.html, title: p.title ?? '', revId: p.revision ?? 0 });
        return { text: r.wikitext, contentType: PARSOID_WIKITEXT_CONTENT_TYPE, headers: { 'Content-Language': ctx.deps.config.lang, Vary: 'Accept' } };
      } catch (e) {
        if (e instanceof ServiceError && e.grpcCode === GrpcStatus.NOT_FOUND) throw new RestError(404, `The specified revision (${p.revision ?? 0}) does not exist`);
        if (e instanceof ServiceError && e.mwCode === 'invalidtitle') throw new RestError(400, e.message, {}, { localized: false });
        throw e;
      }
    },
  });
}

export const transformHtmlToWikitextRoutes = [
  htmlToWikitextRoute('', transformPathParams.bare),
  htmlToWikitextRoute('/{title}', transformPathParams.title),
  htmlToWikitextRoute('/{title}/{revision}', transformPathParams.revision),
];
