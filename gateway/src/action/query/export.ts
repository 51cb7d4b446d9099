/*
 * action=query&export (ApiQuery::doExport): the page set's good pages, each with its latest
 * revision, as a MediaWiki XML dump — in query.export, or alone as text/xml with exportnowrap.
 */
import { META, type ActionContext } from '../types.js';
import { dumpSiteInfo, exportXmlString } from '../../dump/export.js';
import type { DumpSchema } from '../../dump/writer.js';
import type { PageSet } from './pageset.js';

export async function doExport(ctx: ActionContext, pageSet: PageSet, opts: { nowrap: boolean; schema: DumpSchema }, data: Record<string, unknown>): Promise<void> {
  const pageIds = pageSet.good.map((p) => p.id);
  const site = dumpSiteInfo(ctx.deps.config, await ctx.deps.clients.content.listNamespaces());
  // No pages: the document with its siteinfo alone (an empty page list means "all" to ExportPages).
  const xml = await exportXmlString(ctx.deps.clients.dumps, site, { pageIds: pageIds.length ? pageIds : [-1], currentOnly: true }, opts.schema);
  if (opts.nowrap) {
    ctx.setRawOutput({ contentType: 'text/xml', filename: 'export.xml', body: xml });
    return;
  }
  data.export = xml;
  const bc = (data[META.BC_SUBELEMENTS] as string[] | undefined) ?? [];
  data[META.BC_SUBELEMENTS] = [...bc, 'export'];
}
