/*
 * WikiExporter: a dump of pages (all, some namespaces, or a page set) as XML pieces, streamed
 * from the content service's ExportPages.
 */
import type { ListNamespacesResponse } from '../clients/types.js';
import type { DumpsClient, ExportItem } from '../clients/dumps.js';
import { ARTICLE_PATH, type GatewayConfig } from '../config.js';
import { wfUrlencode } from '../action/query/encoding.js';
import { MAIN_PAGE_TITLE, QUIRE_GENERATOR } from '../action/query/siteinfo.js';
import { DumpWriter, type DumpSchema, type DumpSiteInfo } from './writer.js';

/** XmlDumpWriter::siteInfo from the wiki's configuration and namespaces. */
export function dumpSiteInfo(config: Pick<GatewayConfig, 'sitename' | 'wikiId' | 'server' | 'lang'>, ns: ListNamespacesResponse): DumpSiteInfo {
  const sorted = [...ns.namespaces].sort((a, b) => a.id - b.id);
  return {
    sitename: config.sitename,
    dbname: config.wikiId,
    base: config.server + ARTICLE_PATH.replace('$1', wfUrlencode(MAIN_PAGE_TITLE.replace(/ /g, '_'))),
    generator: QUIRE_GENERATOR,
    case: sorted.find((n) => n.id === 0)?.case || 'first-letter',
    namespaces: sorted.map((n) => ({ key: n.id, case: n.case || 'first-letter', name: n.name })),
    lang: config.lang,
  };
}

export interface ExportSelection {
  /** Empty: every page (of `namespaces`). */
  pageIds?: number[];
  /** The pages in the order of `pageIds` (Special:Export: WikiExporter::pagesByName dumps them one by one as listed), not by id. */
  listed?: boolean;
  namespaces?: number[];
  currentOnly: boolean;
}

export interface ExportCounts {
  pages: number;
  revisions: number;
}

/**
 * Split into runs of increasing ids: ExportPages writes its pages by id, so a run is written in
 * its listed order by one call (a list already in id order is one call).
 */
export function ascendingRuns(ids: number[]): number[][] {
  const runs: number[][] = [];
  for (const id of ids) {
    const run = runs[runs.length - 1];
    if (run && id > run[run.length - 1]!) run.push(id);
    else runs.push([id]);
  }
  return runs;
}

async function* exportItems(dumps: DumpsClient, sel: ExportSelection): AsyncGenerator<ExportItem> {
  const pageIds = sel.pageIds ?? [];
  const base = { namespaces: sel.namespaces ?? [], currentOnly: sel.currentOnly };
  if (!sel.listed || pageIds.length < 2) return yield* dumps.exportPages({ ...base, pageIds });
  for (const run of ascendingRuns(pageIds)) yield* dumps.exportPages({ ...base, pageIds: run });
}

/** The whole document, piece by piece; `counts` is filled as it goes. */
export async function* exportXml(dumps: DumpsClient, site: DumpSiteInfo, sel: ExportSelection, schema: DumpSchema = '0.11', counts: ExportCounts = { pages: 0, revisions: 0 }): AsyncGenerator<string> {
  const w = new DumpWriter(schema);
  yield w.open(site);
  let open = false;
  for await (const item of exportItems(dumps, sel)) {
    if (item.$case === 'page') {
      if (open) yield w.closePage();
      open = true;
      counts.pages++;
      yield w.openPage(item.value);
    } else {
      counts.revisions++;
      yield w.revision(item.value);
    }
  }
  if (open) yield w.closePage();
  yield w.close();
}

/** The whole document as one string (action=query&export: MediaWiki's DumpStringOutput). */
export async function exportXmlString(dumps: DumpsClient, site: DumpSiteInfo, sel: ExportSelection, schema: DumpSchema): Promise<string> {
  let out = '';
  for await (const piece of exportXml(dumps, site, sel, schema)) out += piece;
  return out;
}
