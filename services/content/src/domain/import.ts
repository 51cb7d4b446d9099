/*
 * XML dumps in and out, without the XML (the callers read and write it): which local title a
 * dump's page gets (WikiImporter's ImportTitleFactory implementations), the import of each page,
 * and the export stream of pages and revisions.
 */
import { GrpcStatus, invalidArgument, ServiceError, type Db } from '@quire/kit';
import { checkTitlePermissions, type TitleActor } from './protection.js';
import { MalformedTitleError, type TitleCodec } from '../title/codec.js';
import { NS_MAIN } from '../title/namespaces.js';
import {
  exportPageBatch,
  exportRevisionBatch,
  importPage,
  importPageBatch,
  type ExportPageRow,
  type ImportPageInput,
  type ImportPageOutcome,
  type ExportRevisionRow,
  type ImportLogInput,
  type ImportRevisionInput,
} from '../store/import.js';

/** A dump's page. Its page and revision ids are not kept: an import gives fresh ones, as MediaWiki's does. */
export interface DumpPage {
  title: string;
  ns: number;
  revisions: ImportRevisionInput[];
}

export interface ImportOptions {
  /** -1: the dump's namespace. */
  targetNamespace: number;
  rootPage: string;
  log?: ImportLogInput;
  dryRun: boolean;
  /**
   * Who imports, when not maintenance (WikiImporter::processTitle outside the command line): a
   * page this user may not edit is skipped with `import-error-edit`.
   */
  editor?: TitleActor;
}

/** WikiImporter's code for a page the importing user may not edit. */
export const IMPORT_ERROR_EDIT = 'import-error-edit';

export interface PageImportResult {
  title: string;
  ns: number;
  pageId: number;
  revisions: number;
  skipped: number;
  invalid: boolean;
  error: string;
}

class InvalidImportTitle extends Error {}

/** Title::makeTitleSafe: the text parsed inside a namespace (its prefix put in front). */
function makeTitleSafe(codec: TitleCodec, ns: number, text: string): { ns: number; dbkey: string } {
  const name = ns === NS_MAIN ? '' : codec.namespaces.get(ns)?.name;
  if (name === undefined) throw new InvalidImportTitle(`no namespace ${ns}`);
  const t = codec.parse(name === '' ? text : `${name}:${text}`);
  if (t.fragment) throw new InvalidImportTitle('a title with a fragment');
  return { ns: t.ns, dbkey: t.dbkey };
}

/**
 * The local title of a dump's page: ForeignTitle's text (the title without the prefix of its
 * namespace), then NaiveImportTitleFactory (same namespace id when it exists here),
 * NamespaceImportTitleFactory (`targetNamespace`) or SubpageImportTitleFactory (`rootPage`).
 */
export function localTitle(codec: TitleCodec, page: { title: string; ns: number }, opts: { targetNamespace: number; rootPage: string }): { ns: number; dbkey: string } {
  const colon = page.title.indexOf(':');
  const text = page.ns !== NS_MAIN && colon >= 0 ? page.title.slice(colon + 1) : page.title;
  let t: { ns: number; dbkey: string };
  if (opts.rootPage) {
    const root = codec.parse(opts.rootPage);
    t = makeTitleSafe(codec, root.ns, `${root.dbkey}/${page.title}`);
  } else if (opts.targetNamespace >= 0) {
    t = makeTitleSafe(codec, opts.targetNamespace, text);
  } else if (codec.namespaces.get(page.ns)) {
    t = makeTitleSafe(codec, page.ns, text);
  } else {
    const parsed = codec.parse(page.title);
    t = { ns: parsed.ns, dbkey: parsed.dbkey };
  }
  // WikiImporter::processTitle: import-error-special.
  if (t.ns < 0) throw new InvalidImportTitle('a special page');
  return t;
}

/** WikiImporter::setTargetRootPage: a valid title in a namespace with subpages. */
export function checkRootPage(codec: TitleCodec, rootPage: string): void {
  let root;
  try {
    root = codec.parse(rootPage);
  } catch (e) {
    if (e instanceof MalformedTitleError) throw invalidArgument('import-rootpage-invalid', 'Given root page is an invalid title.');
    throw e;
  }
  const ns = codec.namespaces.get(root.ns);
  if (root.ns < 0 || !ns?.subpages) {
    throw invalidArgument('import-rootpage-nosubpage', `Namespace "${ns?.name || '(Main)'}" of the root page does not allow subpages.`);
  }
}

/**
 * Imports pages: with a log (action=import) one transaction per page, as ImportReporter logs
 * each; without (importDump) the whole batch in one transaction of set-based statements, and
 * page by page when that fails (a concurrent edit took a title), so one page's problem stays its
 * own. An invalid title is reported, not fatal (ApiImportReporter's `invalid`).
 */
export async function importPages(db: Db, codec: TitleCodec, pages: DumpPage[], opts: ImportOptions): Promise<PageImportResult[]> {
  if (opts.rootPage) checkRootPage(codec, opts.rootPage);
  const out: PageImportResult[] = [];
  const todo: { n: number; input: ImportPageInput }[] = [];
  for (const page of pages) {
    let title: { ns: number; dbkey: string };
    try {
      title = localTitle(codec, page, opts);
    } catch (e) {
      if (!(e instanceof MalformedTitleError || e instanceof InvalidImportTitle)) throw e;
      out.push({ title: page.title, ns: page.ns, pageId: 0, revisions: 0, skipped: 0, invalid: true, error: e.message });
      continue;
    }
    const prefixed = codec.prefixedText(title.ns, title.dbkey);
    if (opts.editor && !(await mayEdit(db, codec, title, page.revisions.at(-1)?.model ?? 'wikitext', opts.editor))) {
      out.push({ title: prefixed, ns: title.ns, pageId: 0, revisions: 0, skipped: page.revisions.length, invalid: false, error: IMPORT_ERROR_EDIT });
      continue;
    }
    out.push({ title: prefixed, ns: title.ns, pageId: 0, revisions: opts.dryRun ? page.revisions.length : 0, skipped: 0, invalid: false, error: '' });
    todo.push({ n: out.length - 1, input: { ns: title.ns, dbkey: title.dbkey, revisions: page.revisions } });
  }
  if (opts.dryRun || todo.length === 0) return out;
  const record = (n: number, r: ImportPageOutcome) => Object.assign(out[n]!, { pageId: r.pageId, revisions: r.imported, skipped: r.skipped });
  if (!opts.log && todo.length > 1) {
    try {
      const rs = await importPageBatch(
        db,
        codec,
        todo.map((t) => t.input),
      );
      rs.forEach((r, i) => {
        record(todo[i]!.n, r);
      });
      return out;
    } catch {
      // One page at a time below: the failing page fails alone.
    }
  }
  for (const t of todo) record(t.n, await importPage(db, codec, t.input, opts.log));
  return out;
}

/** PermissionManager::userCan( 'edit' ) for an imported page: the title's rules and its protection. */
async function mayEdit(db: Db, codec: TitleCodec, title: { ns: number; dbkey: string }, model: string, editor: TitleActor): Promise<boolean> {
  try {
    await checkTitlePermissions(db, db, codec, title, 'edit', editor, { model });
    return true;
  } catch (e) {
    if (e instanceof ServiceError && e.grpcCode === GrpcStatus.PERMISSION_DENIED) return false;
    throw e;
  }
}

export type ExportItem = { page: ExportPageRow & { title: string; redirectTitle: string } } | { revision: ExportRevisionRow };

const PAGE_BATCH = 200;
const REVISION_BATCH = 100;

/** WikiExporter's order: pages by id, each followed by its revisions by id (or only its latest). */
export async function* exportPages(db: Db, codec: TitleCodec, req: { pageIds: number[]; namespaces: number[]; currentOnly: boolean; afterPageId: number }): AsyncGenerator<ExportItem> {
  let after = req.afterPageId;
  for (;;) {
    const pages = await exportPageBatch(db, req, after, PAGE_BATCH);
    for (const page of pages) {
      yield {
        page: { ...page, title: codec.prefixedText(page.ns, page.dbkey), redirectTitle: page.redirect ? codec.prefixedText(page.redirect.ns, page.redirect.dbkey) : '' },
      };
      let afterRev = 0;
      for (;;) {
        const revs = await exportRevisionBatch(db, page, req.currentOnly, afterRev, REVISION_BATCH);
        for (const revision of revs) yield { revision };
        if (req.currentOnly || revs.length < REVISION_BATCH) break;
        afterRev = revs[revs.length - 1]!.id;
      }
    }
    if (pages.length < PAGE_BATCH) return;
    after = pages[pages.length - 1]!.pageId;
  }
}
