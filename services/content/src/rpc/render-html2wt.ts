/*
 * TransformHtmlToWikitext behind REST POST /v1/transform/html/to/wikitext[/{title}[/{revision}]]
 * (Parsoid's html2wt): our Parsoid-style HTML serialized back to wikitext (render/transform/html2wt.ts),
 * or a JSON table back to JSON text for contentmodel=json (render/transform/json.ts).
 * The title and revision are checked as ParsoidHandler checks them: a bad title is invalid, a
 * revision that is not the page's does not exist.
 */
import { invalidArgument, notFound } from '@quire/kit';
import type { TransformHtmlToWikitextRequest, TransformHtmlToWikitextResponse } from '@quire/proto/wiki/content/render/v1/render';
import type { RenderService } from '../domain/render.js';
import { htmlToWikitext } from '../render/transform/html2wt.js';
import { jsonFromParsoidHtml } from '../render/transform/json.js';
import type { ContentContext } from './context.js';
import { parsePageTitleOrThrow } from './records.js';

export function renderHtml2WtHandlers(ctx: ContentContext, svc: RenderService) {
  return {
    async transformHtmlToWikitext(req: TransformHtmlToWikitextRequest): Promise<TransformHtmlToWikitextResponse> {
      const t = req.title ? parsePageTitleOrThrow(ctx.codec, req.title) : undefined;
      if (req.revId) {
        const rev = await svc.revision(req.revId);
        if (!rev || (t && (rev.ns !== t.ns || rev.dbkey !== t.dbkey))) throw notFound('nosuchrevid', `There is no revision with ID ${req.revId}.`);
      }
      if (req.contentModel !== 'json') return { wikitext: htmlToWikitext(req.html) };
      try {
        return { wikitext: jsonFromParsoidHtml(req.html) };
      } catch (e) {
        // HTML that is not a JSON table is the client's mistake (Parsoid's assertion, a ClientError here).
        throw invalidArgument('badformat', (e as Error).message);
      }
    },
  };
}
