/*
 * POST /v1/transform/wikitext/to/html[/{title}[/{revision}]] (Parsoid's TransformHandler
 * wt2html): posted wikitext rendered as the Parsoid document the /html routes serve, in the
 * title's (and revision's) context. Without wikitext, the stored page (or revision) is rendered.
 */
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { GetRevisionHtmlResponse } from '@quire/proto/wiki/content/v1/content';
import { restMessages } from '../responses.js';
import { defineRoute, RestError } from '../types.js';
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
