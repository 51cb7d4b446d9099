/*
 * Rendering extras: the pre-save transform of wikitext and edit-summary formatting (action=parse
 * pst/onlypst/summary). Substitutions expand through the same renderer and page lookup as renders.
 */
import type {
  ConvertVariantRequest,
  ConvertVariantResponse,
  FormatCommentRequest,
  FormatCommentResponse,
  PreSaveTransformRequest,
  PreSaveTransformResponse,
} from '@quire/proto/wiki/content/v1/content';
import type { RenderService } from '../render/service.js';
import { formatComment } from '../render/transform/comment.js';
import { preSaveTransform } from '../render/transform/pst.js';
import { convertHtml, headerVariant } from '../render/variants/index.js';
import type { ContentContext } from './context.js';
import { parsePageTitleOrThrow } from './records.js';

export function renderExtraHandlers(ctx: ContentContext, svc: RenderService) {
  return {
    async preSaveTransform(req: PreSaveTransformRequest): Promise<PreSaveTransformResponse> {
      const t = parsePageTitleOrThrow(ctx.codec, req.title || 'API');
      const now = new Date();
      const text = await preSaveTransform(req.text, {
        title: ctx.codec.prefixedText(t.ns, t.dbkey),
        user: { name: req.userName, anonymous: req.userAnonymous },
        now,
        expand: async (wikitext) => (await svc.render({ text: wikitext, title: { ns: t.ns, dbkey: t.dbkey }, pageId: 0, revId: 0, now, expandOnly: true })).html,
      });
      return { text };
    },
    async formatComment(req: FormatCommentRequest): Promise<FormatCommentResponse> {
      const t = parsePageTitleOrThrow(ctx.codec, req.title || 'API');
      return { html: await formatComment(req.comment, { ns: t.ns, dbkey: t.dbkey }, ctx.codec, svc.lookup) };
    },
    async convertVariant(req: ConvertVariantRequest): Promise<ConvertVariantResponse> {
      const variant = headerVariant(req.language, req.acceptLanguage);
      if (!variant || variant === req.language) return { converted: false, variant: req.language, html: '' };
      return { converted: true, variant, html: convertHtml(req.language, req.html, variant) };
    },
  };
}
