/*
 * Rendering extras: the pre-save transform of wikitext and edit-summary formatting (action=parse
 * pst/onlypst/summary). Substitutions expand through the same renderer and page lookup as renders.
 */
import type {
  ConvertVariantRequest,
  ConvertVariantResponse,
  FormatCommentRequest,
  FormatCommentResponse,
  FormatCommentsRequest,
  FormatCommentsResponse,
  PreSaveTransformRequest,
  PreSaveTransformResponse,
} from '@quire/proto/wiki/content/render/v1/render';
import { wikitextPst, type RenderService } from '../domain/render.js';
import { formatComment, formatComments, type CommentOf } from '../render/transform/comment.js';
import { convertHtml, headerVariant } from '../render/variants/index.js';
import type { ContentContext } from './context.js';
import { parsePageTitleOrThrow } from './records.js';

export function renderExtraHandlers(ctx: ContentContext, svc: RenderService) {
  const pst = wikitextPst(ctx.codec, svc);
  return {
    async preSaveTransform(req: PreSaveTransformRequest): Promise<PreSaveTransformResponse> {
      const t = parsePageTitleOrThrow(ctx.codec, req.title || 'API');
      const text = await pst(req.text, { ns: t.ns, dbkey: t.dbkey }, { name: req.userName, anonymous: req.userAnonymous, signature: req.signature }, new Date());
      return { text };
    },
    async formatComment(req: FormatCommentRequest): Promise<FormatCommentResponse> {
      const t = parsePageTitleOrThrow(ctx.codec, req.title || 'API');
      return { html: await formatComment(req.comment, { ns: t.ns, dbkey: t.dbkey }, ctx.codec, svc.lookup, req.samePage) };
    },
    async formatComments(req: FormatCommentsRequest): Promise<FormatCommentsResponse> {
      const items = req.comments.map((c): CommentOf => {
        // No title: rows formatted without their page (the recent changes feed), autocomments unlinked.
        if (!c.title) return { comment: c.comment };
        const t = parsePageTitleOrThrow(ctx.codec, c.title);
        return { comment: c.comment, self: { ns: t.ns, dbkey: t.dbkey } };
      });
      return { html: await formatComments(items, ctx.codec, svc.lookup) };
    },
    async convertVariant(req: ConvertVariantRequest): Promise<ConvertVariantResponse> {
      const variant = headerVariant(req.language, req.acceptLanguage);
      if (!variant || variant === req.language) return { converted: false, variant: req.language, html: '' };
      return { converted: true, variant, html: convertHtml(req.language, req.html, variant) };
    },
  };
}
