/*
 * Lint and transform RPCs behind the REST lint and transform routes (Parsoid's ParsoidHandler):
 * LintWikitext lints posted wikitext, a revision or a page's latest revision; TransformWikitextToHtml
 * renders posted wikitext as the Parsoid-style body the /html routes serve, in a page's context
 * (or posted JSON as Parsoid's JSON tables, for contentmodel=json).
 */
import crypto from 'node:crypto';
import { invalidArgument, notFound } from '@quire/kit';
import type { GetRevisionHtmlResponse, LintWikitextRequest, LintWikitextResponse, TransformWikitextToHtmlRequest } from '@quire/proto/wiki/content/render/v1/render';
import { lintWikitext } from '../render/lint/index.js';
import { jsonToParsoidBody } from '../render/transform/json.js';
import type { RenderService } from '../domain/render.js';
import { findPage } from '../store/pages.js';
import { NS_FILE } from '../title/namespaces.js';
import type { ContentContext } from './context.js';
import { parsePageTitleOrThrow } from './records.js';

const DEFAULT_TITLE = 'Main Page';

export function renderLintHandlers(ctx: ContentContext, svc: RenderService) {
  const isFileNamespace = (prefix: string) => ctx.codec.namespaces.indexOf(prefix) === NS_FILE;

  /** The page row of a title, if the page exists. */
  const pageOf = (ns: number, dbkey: string) => findPage(ctx.db, ctx.db.schema, { ns, dbkey });

  return {
    async lintWikitext(req: LintWikitextRequest): Promise<LintWikitextResponse> {
      if (req.hasText) {
        parsePageTitleOrThrow(ctx.codec, req.title || DEFAULT_TITLE);
        return { lintsJson: JSON.stringify(lintWikitext(req.text, { isFileNamespace })), revId: 0 };
      }
      let revId = req.revId;
      if (!revId) {
        const t = parsePageTitleOrThrow(ctx.codec, req.title);
        const page = await pageOf(t.ns, t.dbkey);
        if (!page) throw notFound('missingtitle', "The page you specified doesn't exist.");
        revId = page.latest;
      }
      const src = await svc.revision(revId);
      if (!src) throw notFound('nosuchrevid', `There is no revision with ID ${revId}.`);
      if (src.contentModel !== 'wikitext') throw invalidArgument('badformat', `Content model ${src.contentModel} cannot be linted.`);
      return { lintsJson: JSON.stringify(lintWikitext(src.text, { isFileNamespace })), revId };
    },

    async transformWikitextToHtml(req: TransformWikitextToHtmlRequest): Promise<GetRevisionHtmlResponse> {
      const t = parsePageTitleOrThrow(ctx.codec, req.title || DEFAULT_TITLE);
      const page = await pageOf(t.ns, t.dbkey);
      // A revision given with the title is the context of REVISIONID & co. when it is that page's.
      const rev = req.revId && page ? await svc.revision(req.revId) : undefined;
      const revId = rev && rev.pageId === page?.id ? rev.revId : (page?.latest ?? 0);
      const now = new Date();
      // Parsoid's JSON handler for contentmodel=json; every other model is parsed as wikitext.
      const isJson = req.contentModel === 'json';
      const out = isJson
        ? { parsoidBody: jsonToParsoidBody(req.text), displayTitle: '' }
        : await svc.render({ text: req.text, title: { ns: t.ns, dbkey: t.dbkey }, pageId: page?.id ?? 0, revId, now, mode: 'parsoid' });
      return {
        pageId: page?.id ?? 0,
        ns: t.ns,
        dbkey: t.dbkey,
        title: ctx.codec.prefixedText(t.ns, t.dbkey),
        revId,
        parentId: 0,
        revTimestamp: now.toISOString(),
        sha1Hex: crypto.createHash('sha1').update(req.text).digest('hex'),
        contentModel: isJson ? 'json' : 'wikitext',
        body: out.parsoidBody ?? '',
        renderedAt: now.toISOString(),
        displayTitle: out.displayTitle,
        latestRevId: page?.latest ?? 0,
        touched: (page?.touched ?? now).toISOString(),
      };
    },
  };
}
