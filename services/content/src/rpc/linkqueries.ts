/*
 * Link table queries: ListPageLinks (prop=links|templates|categories|langlinks|images|extlinks),
 * ListBacklinks (list=backlinks|embeddedin|imageusage), ListCategoryMembers,
 * ListExternalLinkUsage, GetPageProps, GetCategoryInfo. Continuation values are MediaWiki's own
 * (its modules' formats), so the gateway passes them through unchanged.
 */
import { invalidArgument, notFound } from '@quire/kit';
import {
  LinkTable,
  type GetCategoryInfoRequest,
  type GetCategoryInfoResponse,
  type GetPagePropsRequest,
  type GetPagePropsResponse,
  type LinkingPage,
  type ListBacklinksRequest,
  type ListBacklinksResponse,
  type ListCategoryMembersRequest,
  type ListCategoryMembersResponse,
  type ListExternalLinkUsageRequest,
  type ListExternalLinkUsageResponse,
  type ListPageBacklinksRequest,
  type ListPageBacklinksResponse,
  type ListPageLinksRequest,
  type ListPageLinksResponse,
  type PageLink,
} from '@quire/proto/wiki/content/links/v1/links';
import { RedirectFilter } from '@quire/proto/wiki/content/v1/common';
import { INTERWIKI } from '../render/render.js';
import { wikiUrlencode } from '../render/functions.js';
import { MalformedTitleError } from '../title/codec.js';
import { NS_CATEGORY, NS_FILE } from '../title/namespaces.js';
import { CATEGORY_TYPES, encodeContinuePart, LinkQueryStore, type CategoryMemberRow, type ExternalLinkFilter, type LinkingPageRow, type TitleKey } from '../store/linkqueries.js';
import type { ContentContext } from './context.js';
import { isoTimestamp, parsePageTitleOrThrow } from './records.js';

const MAX_LIMIT = 5000;
const BAD_CONTINUE = 'Invalid continue param. You should pass the original value returned by the previous query.';

const BACKLINK_TABLES = {
  [LinkTable.LINK_TABLE_PAGELINKS]: 'pagelinks',
  [LinkTable.LINK_TABLE_TEMPLATELINKS]: 'templatelinks',
  [LinkTable.LINK_TABLE_IMAGELINKS]: 'imagelinks',
} as const;

function badContinue(): Error {
  return invalidArgument('badcontinue', BAD_CONTINUE);
}

function checkLimit(limit: number): void {
  if (limit < 1 || limit > MAX_LIMIT) throw invalidArgument('badvalue', `limit must be between 1 and ${MAX_LIMIT}.`);
}

/** `n` parts of a continuation value (ApiBase::dieContinueUsageIf on any other count). */
function continueParts(value: string, n: number): string[] {
  const parts = value.split('|');
  if (parts.length !== n) throw badContinue();
  return parts;
}

/** An integer part of a continuation value, as PHP's `(int)` reads it but refusing what does not round-trip. */
function intPart(s: string): number {
  if (!/^-?\d+$/.test(s)) throw badContinue();
  return Number(s);
}

/** rawurldecode, refusing malformed escapes. */
function decodePart(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw badContinue();
  }
}

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const ts14 = (d: Date) => isoTimestamp(d).replace(/[-:TZ]/g, '');

function fromTs14(s: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : undefined;
}

function emptyLink(from: number): PageLink {
  return { fromPageId: from, ns: 0, title: '', sortkeyHex: '', sortkeyPrefix: '', timestamp: '', hidden: false, lang: '', url: '', autonym: '' };
}

function externalFilter(protocol: string, query: string): ExternalLinkFilter {
  return { ...(protocol ? { protocol } : {}), ...(query ? { query } : {}) };
}

class LinkQueryRpc {
  private readonly store: LinkQueryStore;

  constructor(private readonly ctx: ContentContext) {
    this.store = new LinkQueryStore(ctx.db);
  }

  private text(ns: number, dbkey: string): string {
    return this.ctx.codec.prefixedText(ns, dbkey);
  }

  /** Filter titles in a namespace (categories, files); the invalid ones are reported, not fatal. */
  private parseTargets(targets: string[], defaultNs: number, invalid: string[]): TitleKey[] {
    const out: TitleKey[] = [];
    for (const t of targets) {
      try {
        const title = this.ctx.codec.parse(t, defaultNs);
        if (title.dbkey === '') throw new MalformedTitleError('title-invalid-empty', t);
        out.push({ ns: title.ns, dbkey: title.dbkey });
      } catch (e) {
        if (!(e instanceof MalformedTitleError)) throw e;
        invalid.push(t);
      }
    }
    return out;
  }

  async listPageLinks(req: ListPageLinksRequest): Promise<ListPageLinksResponse> {
    checkLimit(req.limit);
    const invalid: string[] = [];
    const pageIds = [...new Set(req.pageIds)];
    const base = { pageIds, descending: req.descending, limit: req.limit };
    const cont = req.continue;
    let links: PageLink[] = [];
    let next = '';
    switch (req.table) {
      case LinkTable.LINK_TABLE_PAGELINKS:
      case LinkTable.LINK_TABLE_TEMPLATELINKS: {
        const table = req.table === LinkTable.LINK_TABLE_PAGELINKS ? 'pagelinks' : 'templatelinks';
        let targets: TitleKey[] | undefined;
        if (req.targets.length) {
          // ApiQueryLinks filters the titles by the namespace parameter itself.
          targets = this.parseTargets(req.targets, 0, invalid).filter((t) => !req.namespaces.length || req.namespaces.includes(t.ns));
          if (!targets.length) return { links: [], continue: '', invalidTargets: invalid };
        }
        let after;
        if (cont) {
          const [from, ns, dbkey] = continueParts(cont, 3) as [string, string, string];
          after = { from: intPart(from), ns: intPart(ns), dbkey };
        }
        const r = await this.store.outgoingLinks(table, { ...base, namespaces: req.namespaces, ...(targets ? { targets } : {}), ...(after ? { after } : {}) });
        links = r.rows.map((l) => ({ ...emptyLink(l.from), ns: l.ns, title: this.text(l.ns, l.dbkey) }));
        if (r.next) next = `${r.next.from}|${r.next.ns}|${r.next.dbkey}`;
        break;
      }
      case LinkTable.LINK_TABLE_IMAGELINKS: {
        const targets = req.targets.length
          ? this.parseTargets(req.targets, NS_FILE, invalid)
              .filter((t) => t.ns === NS_FILE)
              .map((t) => t.dbkey)
          : undefined;
        if (targets && !targets.length) return { links: [], continue: '', invalidTargets: invalid };
        let after;
        if (cont) {
          const [from, name] = continueParts(cont, 2) as [string, string];
          after = { from: intPart(from), name };
        }
        const r = await this.store.images({ ...base, ...(targets ? { targets } : {}), ...(after ? { after } : {}) });
        links = r.rows.map((l) => ({ ...emptyLink(l.from), ns: NS_FILE, title: this.text(NS_FILE, l.name) }));
        if (r.next) next = `${r.next.from}|${r.next.name}`;
        break;
      }
      case LinkTable.LINK_TABLE_CATEGORYLINKS: {
        const targets = req.targets.length
          ? this.parseTargets(req.targets, NS_CATEGORY, invalid)
              .filter((t) => t.ns === NS_CATEGORY)
              .map((t) => t.dbkey)
          : undefined;
        if (targets && !targets.length) return { links: [], continue: '', invalidTargets: invalid };
        let after;
        if (cont) {
          const [from, category] = continueParts(cont, 2) as [string, string];
          after = { from: intPart(from), category };
        }
        const hidden = req.hidden === 1 ? true : req.hidden === 2 ? false : undefined;
        const r = await this.store.categories({ ...base, ...(targets ? { targets } : {}), ...(hidden !== undefined ? { hidden } : {}), ...(after ? { after } : {}) });
        links = r.rows.map((c) => ({
          ...emptyLink(c.from),
          ns: NS_CATEGORY,
          title: this.text(NS_CATEGORY, c.category),
          sortkeyHex: hex(c.sortkey),
          sortkeyPrefix: c.sortkeyPrefix,
          timestamp: isoTimestamp(c.timestamp),
          hidden: c.hidden,
        }));
        if (r.next) next = `${r.next.from}|${r.next.category}`;
        break;
      }
      case LinkTable.LINK_TABLE_LANGLINKS: {
        let after;
        if (cont) {
          const [from, lang] = continueParts(cont, 2) as [string, string];
          after = { from: intPart(from), lang };
        }
        const r = await this.store.langLinks({ ...base, ...(req.lang ? { lang: req.lang } : {}), ...(req.langTitle ? { title: req.langTitle } : {}), ...(after ? { after } : {}) });
        links = r.rows.map((l) => {
          const iw = INTERWIKI[l.lang];
          return { ...emptyLink(l.from), title: l.title, lang: l.lang, url: iw ? iw.url.replace('$1', wikiUrlencode(l.title.replaceAll(' ', '_'))) : '', autonym: iw?.language ?? '' };
        });
        if (r.next) next = `${r.next.from}|${r.next.lang}`;
        break;
      }
      case LinkTable.LINK_TABLE_EXTERNALLINKS: {
        // With one page MediaWiki leaves el_from out of the order and of the continuation.
        const single = pageIds.length === 1;
        let after;
        if (cont) {
          const parts = continueParts(cont, single ? 2 : 3).map(decodePart);
          const [from, key, id] = (single ? [String(pageIds[0]), ...parts] : parts) as [string, string, string];
          after = { from: intPart(from), key, id: intPart(id) };
        }
        const r = await this.store.externalLinks({ pageIds, filter: externalFilter(req.protocol, req.query), ...(after ? { after } : {}), limit: req.limit });
        links = r.rows.map((l) => ({ ...emptyLink(l.from), url: l.url }));
        if (r.next) next = [...(single ? [] : [r.next.from]), r.next.key, r.next.id].map(encodeContinuePart).join('|');
        break;
      }
      default:
        throw invalidArgument('badvalue', 'Unknown link table.');
    }
    return { links, continue: next, invalidTargets: invalid };
  }

  /** The root of a list: a title or a page id (ApiBase::getTitleFromTitleOrPageId). */
  private async rootTitle(title: string, pageId: number): Promise<TitleKey> {
    if (pageId) {
      const page = await this.store.pageById(pageId);
      if (!page) throw notFound('nosuchpageid', `There is no page with ID ${pageId}.`);
      return page;
    }
    const t = parsePageTitleOrThrow(this.ctx.codec, title);
    return { ns: t.ns, dbkey: t.dbkey };
  }

  private linkingPage(r: LinkingPageRow): LinkingPage {
    return { id: r.id, ns: r.ns, title: this.text(r.ns, r.dbkey), redirect: r.redirect, redirlinks: [] };
  }

  /**
   * ApiQueryBacklinks::run: the pages linking to the root (first query) and, with `redirect`, the
   * pages linking to the redirects among them (second query). The continuation has 2 parts
   * (first query) or 6 (the first query's batch start, then where the second query stops).
   */
  async listBacklinks(req: ListBacklinksRequest): Promise<ListBacklinksResponse> {
    checkLimit(req.limit);
    const table = BACKLINK_TABLES[req.table as keyof typeof BACKLINK_TABLES];
    if (!table) throw invalidArgument('badvalue', 'Unknown link table.');
    const root = await this.rootTitle(req.title, req.pageId);
    if (table === 'imagelinks' && root.ns !== NS_FILE) throw invalidArgument('bad_image_title', 'The title for "imageusage" must be a file.');

    let cont: (number | string)[] = [];
    if (req.continue) {
      const parts = req.continue.split('|');
      // 7 and 8 parts only resume a result too big to fit, which never happens here.
      if (![2, 6, 7, 8].includes(parts.length)) throw badContinue();
      cont = [intPart(parts[0]!), intPart(parts[1]!)];
      if (parts.length >= 6) cont.push(intPart(parts[2]!), parts[3]!, intPart(parts[4]!), intPart(parts[5]!));
    }
    const redirectFilter =
      req.filterRedirects === RedirectFilter.REDIRECT_FILTER_REDIRECTS ? ('only' as const) : req.filterRedirects === RedirectFilter.REDIRECT_FILTER_NONREDIRECTS ? ('none' as const) : undefined;
    const common = { namespaces: req.namespaces, descending: req.descending, limit: req.limit };
    let next = '';

    const first = await this.store.linkingPages(table, {
      ...common,
      targets: [root],
      // T24245: with redirects followed, non-redirects are filtered in the second query only.
      ...(redirectFilter === 'only' || (redirectFilter === 'none' && !req.redirect) ? { redirects: redirectFilter } : {}),
      ...(cont.length >= 2 ? { after: { ns: root.ns, dbkey: root.dbkey, fromNs: cont[0] as number, from: cont[1] as number } } : {}),
    });
    if (first.next) next = `${first.next.ns}|${first.next.id}`;
    if (cont.length < 2 && first.rows[0]) cont = [first.rows[0].ns, first.rows[0].id];
    const pages = new Map(first.rows.map((r) => [r.id, this.linkingPage(r)]));
    const redirects = first.rows.filter((r) => r.redirect);

    if (req.redirect && redirects.length) {
      const second = await this.store.linkingPages(table, {
        ...common,
        targets: redirects.map((r) => ({ ns: r.ns, dbkey: r.dbkey })),
        ...(redirectFilter ? { redirects: redirectFilter } : {}),
        ...(cont.length >= 6 ? { after: { ns: cont[2] as number, dbkey: cont[3] as string, fromNs: cont[4] as number, from: cont[5] as number } } : {}),
      });
      if (second.next) {
        const n = second.next;
        next = `${cont[0]}|${cont[1]}|${n.viaNs}|${n.viaDbkey}|${n.ns}|${n.id}`;
      }
      const parentOf = new Map(redirects.map((r) => [`${r.ns}|${r.dbkey}`, r.id]));
      for (const row of second.rows) {
        const parent = pages.get(parentOf.get(`${row.viaNs}|${row.viaDbkey}`) ?? 0);
        parent?.redirlinks.push(this.linkingPage(row));
      }
    }
    return { pages: [...pages.values()], continue: next };
  }

  /**
   * ApiQueryBacklinksprop::run: the pages linking to any of the targets, ordered (and continued)
   * by target namespace when there are several, target title when there are several, linking
   * namespace when several are asked for, then linking page id: MediaWiki's `sortby`.
   */
  async listPageBacklinks(req: ListPageBacklinksRequest): Promise<ListPageBacklinksResponse> {
    checkLimit(req.limit);
    const redirects = req.table === LinkTable.LINK_TABLE_REDIRECT;
    const table = BACKLINK_TABLES[req.table as keyof typeof BACKLINK_TABLES];
    if (!table && !redirects) throw invalidArgument('badvalue', 'Unknown link table.');
    const invalid: string[] = [];
    let targets = this.parseTargets(req.targets, 0, invalid);
    // imagelinks has no target namespace: only files can be used.
    if (table === 'imagelinks') targets = targets.filter((t) => t.ns === NS_FILE);
    if (!targets.length) return { links: [], continue: '' };
    const sortByNs = table !== 'imagelinks' && new Set(targets.map((t) => t.ns)).size > 1;
    // Several titles in a namespace, or different ones across namespaces, come down to this.
    const sortByTitle = new Set(targets.map((t) => t.dbkey)).size > 1;
    // The redirect table has no rd_from_namespace: its namespace filter is on the page only.
    const sortByFromNs = !redirects && req.namespaces.length > 1;
    const continueOf = (r: LinkingPageRow): string => [...(sortByNs ? [r.viaNs] : []), ...(sortByTitle ? [r.viaDbkey] : []), ...(sortByFromNs ? [r.ns] : []), r.id].join('|');

    let after;
    if (req.continue) {
      const parts = continueParts(req.continue, Number(sortByNs) + Number(sortByTitle) + Number(sortByFromNs) + 1);
      const first = targets[0]!;
      after = {
        ns: sortByNs ? intPart(parts.shift()!) : first.ns,
        dbkey: sortByTitle ? parts.shift()! : first.dbkey,
        fromNs: sortByFromNs ? intPart(parts.shift()!) : 0,
        from: intPart(parts.shift()!),
      };
    }
    if (redirects) {
      const fragment = req.fragmentFilter === 1 ? ('with' as const) : req.fragmentFilter === 2 ? ('without' as const) : undefined;
      const r = await this.store.redirectsTo({
        targets,
        namespaces: req.namespaces,
        limit: req.limit,
        ...(fragment ? { fragment } : {}),
        ...(after ? { after: { ns: after.ns, dbkey: after.dbkey, from: after.from } } : {}),
      });
      return {
        links: r.rows.map((row) => ({ target: this.text(row.viaNs ?? 0, row.viaDbkey ?? ''), page: this.linkingPage(row), fragment: row.fragment })),
        continue: r.next ? continueOf(r.next) : '',
      };
    }
    const filter =
      req.filterRedirects === RedirectFilter.REDIRECT_FILTER_REDIRECTS ? ('only' as const) : req.filterRedirects === RedirectFilter.REDIRECT_FILTER_NONREDIRECTS ? ('none' as const) : undefined;
    const r = await this.store.linkingPages(table!, {
      targets,
      namespaces: req.namespaces,
      descending: false,
      limit: req.limit,
      ...(filter ? { redirects: filter } : {}),
      ...(after ? { after } : {}),
    });
    return {
      links: r.rows.map((row) => ({ target: this.text(row.viaNs ?? 0, row.viaDbkey ?? ''), page: this.linkingPage(row), fragment: '' })),
      continue: r.next ? continueOf(r.next) : '',
    };
  }

  async listCategoryMembers(req: ListCategoryMembersRequest): Promise<ListCategoryMembersResponse> {
    checkLimit(req.limit);
    const cat = await this.rootTitle(req.title, req.pageId);
    if (cat.ns !== NS_CATEGORY) throw invalidArgument('invalidcategory', 'The category name you entered is not valid.');
    let types: string[] = req.types.length ? CATEGORY_TYPES.filter((t) => req.types.includes(t)) : [...CATEGORY_TYPES];
    const common = { category: cat.dbkey, namespaces: req.namespaces, descending: req.descending, limit: req.limit };
    let rows: CategoryMemberRow[];
    let continueOf: (r: CategoryMemberRow) => string;
    if (req.byTimestamp) {
      let after;
      if (req.continue) {
        const [ts, from] = continueParts(req.continue, 2) as [string, string];
        const iso = fromTs14(ts);
        if (!iso) throw badContinue();
        after = { timestamp: iso, from: intPart(from) };
      }
      rows = await this.store.membersByTimestamp({
        ...common,
        types,
        ...(req.startTimestamp ? { start: req.startTimestamp } : {}),
        ...(req.endTimestamp ? { end: req.endTimestamp } : {}),
        ...(after ? { after } : {}),
      });
      continueOf = (r) => `${ts14(r.timestamp)}|${r.id}`;
    } else {
      let after;
      if (req.continue) {
        const parts = req.continue.split('|');
        if (parts.length < 3) throw badContinue();
        const [type, hexKey] = parts as [string, string];
        const from = parts.slice(2).join('|');
        // array_search + array_slice: an unknown type keeps every type.
        const at = types.indexOf(type);
        if (at > 0) types = types.slice(at);
        if (!/^(?:[0-9a-fA-F]{2})*$/.test(hexKey)) throw badContinue();
        after = { sortkey: Buffer.from(hexKey, 'hex').toString('utf8'), from: parseInt(from, 10) || 0 };
      }
      // The "uppercase" collation of a sort key prefix (store/links.ts categorySortKey).
      const start = req.startSortkeyPrefix !== undefined ? req.startSortkeyPrefix.toUpperCase() : req.startSortkey;
      const end = req.endSortkeyPrefix !== undefined ? req.endSortkeyPrefix.toUpperCase() : req.endSortkey;
      rows = [];
      for (const [i, type] of types.entries()) {
        // The continuation applies to the type it names, the first one queried.
        const part = await this.store.membersBySortkey({
          ...common,
          type,
          ...(after && i === 0 ? { after } : {}),
          ...(!after && start !== undefined ? { start } : {}),
          ...(!after && end !== undefined ? { end } : {}),
        });
        rows.push(...part);
        if (rows.length >= req.limit + 1) break;
      }
      continueOf = (r) => `${r.type}|${hex(r.sortkey)}|${r.id}`;
    }
    const extra = rows[req.limit];
    return {
      members: rows.slice(0, req.limit).map((r) => ({
        id: r.id,
        ns: r.ns,
        title: this.text(r.ns, r.dbkey),
        sortkeyHex: hex(r.sortkey),
        sortkeyPrefix: r.sortkeyPrefix,
        type: r.type,
        timestamp: isoTimestamp(r.timestamp),
      })),
      continue: extra ? continueOf(extra) : '',
    };
  }

  async listExternalLinkUsage(req: ListExternalLinkUsageRequest): Promise<ListExternalLinkUsageResponse> {
    checkLimit(req.limit);
    let after;
    if (req.continue) {
      const [key, id] = continueParts(req.continue, 2).map(decodePart) as [string, string];
      after = { key, id: intPart(id) };
    }
    const r = await this.store.externalLinkUsage({ filter: externalFilter(req.protocol, req.query), namespaces: req.namespaces, ...(after ? { after } : {}), limit: req.limit });
    return {
      links: r.rows.map((l) => ({ pageId: l.from, ns: l.ns, title: this.text(l.ns, l.dbkey), url: l.url })),
      continue: r.next ? [r.next.key, r.next.id].map(encodeContinuePart).join('|') : '',
    };
  }

  async getPageProps(req: GetPagePropsRequest): Promise<GetPagePropsResponse> {
    const rows = await this.store.pageProps([...new Set(req.pageIds)], req.names);
    const byPage = new Map<number, { name: string; value: string }[]>();
    for (const r of rows) {
      const list = byPage.get(r.page) ?? [];
      list.push({ name: r.name, value: r.value });
      byPage.set(r.page, list);
    }
    return { pages: [...byPage].map(([pageId, props]) => ({ pageId, props })) };
  }

  async getCategoryInfo(req: GetCategoryInfoRequest): Promise<GetCategoryInfoResponse> {
    const counts = await this.store.categoryCounts([...new Set(req.names)]);
    return { categories: counts.map((c) => ({ ...c, size: c.pages + c.subcats + c.files })) };
  }
}

export function linkQueryHandlers(ctx: ContentContext) {
  const rpc = new LinkQueryRpc(ctx);
  return {
    listPageLinks: (req: ListPageLinksRequest) => rpc.listPageLinks(req),
    listBacklinks: (req: ListBacklinksRequest) => rpc.listBacklinks(req),
    listPageBacklinks: (req: ListPageBacklinksRequest) => rpc.listPageBacklinks(req),
    listCategoryMembers: (req: ListCategoryMembersRequest) => rpc.listCategoryMembers(req),
    listExternalLinkUsage: (req: ListExternalLinkUsageRequest) => rpc.listExternalLinkUsage(req),
    getPageProps: (req: GetPagePropsRequest) => rpc.getPageProps(req),
    getCategoryInfo: (req: GetCategoryInfoRequest) => rpc.getCategoryInfo(req),
  };
}
