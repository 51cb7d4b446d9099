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
} from '@quire/proto/wiki/content/v1/content';
import type { RenderService } from '../render/service.js';
import { formatComment, formatComments, type CommentOf } from '../render/transform/comment.js';
import { preSaveTransform, type PstUser } from '../render/transform/pst.js';
import type { TitleRef } from '../render/types.js';
import { convertHtml, headerVariant } from '../render/variants/index.js';
import type { ContentContext } from './context.js';
import { parsePageTitleOrThrow } from './records.js';

/** The pre-save transform of wikitext saved to a page by a user at a time (also what edits save). */
export type WikitextPst = (text: string, page: TitleRef, user: PstUser, now: Date) => Promise<string>;

export function wikitextPst(ctx: ContentContext, svc: RenderService): WikitextPst {
  return (text, page, user, now) =>
    preSaveTransform(text, {
      title: ctx.codec.prefixedText(page.ns, page.dbkey),
      user,
      now,
      expand: async (wikitext) => (await svc.render({ text: wikitext, title: page, pageId: 0, revId: 0, now, expandOnly: true })).html,
    });
}

export function renderExtraHandlers(ctx: ContentContext, svc: RenderService) {
  const pst = wikitextPst(ctx, svc);
  return {
    async preSaveTransform(req: PreSaveTransformRequest): Promise<PreSaveTransformResponse> {
      const t = parsePageTitleOrThrow(ctx.codec, req.title || 'API');
      const text = await pst(req.text, { ns: t.ns, dbkey: t.dbkey }, { name: req.userName, anonymous: req.userAnonymous }, new Date());
      return { text };
    },
    async formatComment(req: FormatCommentRequest): Promise<FormatCommentResponse> {
      const t = parsePageTitleOrThrow(ctx.codec, req.title || 'API');
      return { html: await formatComment(req.comment, { ns: t.ns, dbkey: t.dbkey }, ctx.codec, svc.lookup) };
    },
    async formatComments(req: FormatCommentsRequest): Promise<FormatCommentsResponse> {
      const items = req.comments.map((c): CommentOf => {
        const t = parsePageTitleOrThrow(ctx.codec, c.title || 'API');
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
