/* wiki.content.v1.ListService: whole-wiki enumerations (domain/lists.ts) and the QueryPage special pages. */
import { invalidArgument } from '@quire/kit';
import {
  AllLinksTable,
  type ListAllCategoriesRequest,
  type ListAllCategoriesResponse,
  type ListAllLinksRequest,
  type ListAllLinksResponse,
  type ListedPage,
  type ListContributorsRequest,
  type ListContributorsResponse,
  type ListFilteredPagesRequest,
  type ListInterwikiBacklinksRequest,
  type ListInterwikiBacklinksResponse,
  type ListInterwikiLinksRequest,
  type ListInterwikiLinksResponse,
  type ListLangBacklinksRequest,
  type ListLangBacklinksResponse,
  type ListFilteredPagesResponse,
  type ListPagePropNamesRequest,
  type ListPagePropNamesResponse,
  type ListPagesWithPropRequest,
  type ListPagesWithPropResponse,
  type ListProtectedTitlesRequest,
  type ListProtectedTitlesResponse,
  type ListRandomPagesRequest,
  type ListRandomPagesResponse,
  type RunQueryPageRequest,
  type RunQueryPageResponse,
} from '@quire/proto/wiki/content/v1/lists';
import { ListQueries } from '../domain/lists.js';
import { INTERWIKI } from '../render/render.js';
import { wikiUrlencode } from '../render/functions.js';
import { QueryPages } from '../domain/querypages.js';
import type { LinkTableName, ListedPageRow } from '../store/lists.js';
import { NS_CATEGORY, NS_FILE } from '../title/namespaces.js';
import type { ContentContext } from './context.js';
import { isoTimestamp } from './records.js';

const TABLES: Record<number, LinkTableName> = {
  [AllLinksTable.ALL_LINKS_TABLE_PAGELINKS]: 'pagelinks',
  [AllLinksTable.ALL_LINKS_TABLE_TEMPLATELINKS]: 'templatelinks',
  [AllLinksTable.ALL_LINKS_TABLE_IMAGELINKS]: 'imagelinks',
  [AllLinksTable.ALL_LINKS_TABLE_REDIRECT]: 'redirect',
};

/** A request's optional string: "" means absent. */
const opt = (s: string): string | undefined => (s === '' ? undefined : s);

function optDate(s: string): Date | undefined {
  if (s === '') return undefined;
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) throw invalidArgument('badtimestamp', `Invalid value "${s}" for timestamp.`);
  return d;
}

export function listHandlers(ctx: ContentContext) {
  const lists = new ListQueries(ctx.db);
  const queryPages = new QueryPages(ctx.db);
  const page = (r: ListedPageRow): ListedPage => ({ id: r.id, ns: r.ns, title: ctx.codec.prefixedText(r.ns, r.dbkey), redirect: r.redirect });

  return {
    async listAllLinks(req: ListAllLinksRequest): Promise<ListAllLinksResponse> {
      const table = TABLES[req.table];
      if (!table) throw invalidArgument('badvalue', 'Unknown link table.');
      const ns = table === 'imagelinks' ? NS_FILE : req.namespace;
      const r = await lists.allLinks(table, {
        namespace: ns,
        from: opt(req.from),
        to: opt(req.to),
        prefix: opt(req.prefix),
        unique: req.unique,
        descending: req.descending,
        limit: req.limit,
        continue: req.continue,
      });
      return {
        links: r.rows.map((l) => ({ fromPageId: l.from, ns, title: ctx.codec.prefixedText(ns, l.dbkey), fragment: l.fragment, interwiki: l.interwiki })),
        continue: r.continue,
      };
    },

    async listAllCategories(req: ListAllCategoriesRequest): Promise<ListAllCategoriesResponse> {
      const r = await lists.allCategories({
        from: opt(req.from),
        to: opt(req.to),
        prefix: opt(req.prefix),
        min: req.min,
        max: req.max,
        descending: req.descending,
        limit: req.limit,
        continue: req.continue,
      });
      return {
        categories: r.rows.map((c) => ({
          name: ctx.codec.prefixedText(NS_CATEGORY, c.name).replace(/^[^:]*:/, ''),
          size: c.size,
          pages: c.size - c.subcats - c.files,
          files: c.files,
          subcats: c.subcats,
          hidden: c.hidden,
        })),
        continue: r.continue,
      };
    },

    async listRandomPages(req: ListRandomPagesRequest): Promise<ListRandomPagesResponse> {
      const r = await lists.randomPages({ namespaces: req.namespaces, redirects: req.filterRedirects, limit: req.limit, continue: req.continue });
      return { pages: r.rows.map(page), continue: r.continue, current: r.current };
    },

    async listPagePropNames(req: ListPagePropNamesRequest): Promise<ListPagePropNamesResponse> {
      const r = await lists.pagePropNames({ limit: req.limit, continue: req.continue });
      return { names: r.rows, continue: r.continue };
    },

    async listPagesWithProp(req: ListPagesWithPropRequest): Promise<ListPagesWithPropResponse> {
      const r = await lists.pagesWithProp({ propname: req.propname, descending: req.descending, limit: req.limit, continue: req.continue });
      return { pages: r.rows.map((p) => ({ page: page(p), value: p.value })), continue: r.continue };
    },

    async listProtectedTitles(req: ListProtectedTitlesRequest): Promise<ListProtectedTitlesResponse> {
      const r = await lists.protectedTitles({
        namespaces: req.namespaces,
        levels: req.levels,
        newer: req.newer,
        start: optDate(req.start),
        end: optDate(req.end),
        limit: req.limit,
        continue: req.continue,
      });
      return {
        titles: r.rows.map((t) => ({
          ns: t.ns,
          title: ctx.codec.prefixedText(t.ns, t.dbkey),
          timestamp: isoTimestamp(t.timestamp),
          user: t.userName,
          userId: t.userId,
          comment: t.reason,
          expiry: t.expiry ? isoTimestamp(t.expiry) : '',
          level: t.level,
        })),
        continue: r.continue,
      };
    },

    async listFilteredPages(req: ListFilteredPagesRequest): Promise<ListFilteredPagesResponse> {
      const hasProtection = req.protectionTypes.length > 0 || req.expiryFilter !== 0;
      const r = await lists.filteredPages({
        namespace: req.namespace,
        from: opt(req.from),
        to: opt(req.to),
        prefix: opt(req.prefix),
        redirects: req.filterRedirects,
        minSize: req.minSize,
        maxSize: req.maxSize,
        descending: req.descending,
        limit: req.limit,
        protection: hasProtection ? { types: req.protectionTypes, levels: req.protectionLevels, cascade: req.cascadeFilter, expiry: req.expiryFilter } : undefined,
        langlinks: req.langlinksFilter,
      });
      return { pages: r.rows.map(page), continueFrom: r.continue };
    },

    async runQueryPage(req: RunQueryPageRequest): Promise<RunQueryPageResponse> {
      const r = await queryPages.run(req.page, req.offset, req.limit);
      return {
        rows: r.rows.map((row) => ({
          ns: row.ns,
          title: ctx.codec.prefixedText(row.ns, row.dbkey),
          value: row.value ?? '',
          hasValue: row.value !== undefined,
          timestamp: row.time ? isoTimestamp(row.time) : '',
          databaseResultJson: row.extra ? JSON.stringify(row.extra) : '',
        })),
        more: r.more,
      };
    },

    async listLangBacklinks(req: ListLangBacklinksRequest): Promise<ListLangBacklinksResponse> {
      const r = await lists.foreignBacklinks('langlinks', { prefix: opt(req.lang), title: opt(req.title), descending: req.descending, limit: req.limit, continue: req.continue });
      return { links: r.rows.map((l) => ({ page: page(l), lang: l.prefix, title: l.title })), continue: r.continue };
    },

    async listInterwikiBacklinks(req: ListInterwikiBacklinksRequest): Promise<ListInterwikiBacklinksResponse> {
      const r = await lists.foreignBacklinks('iwlinks', { prefix: opt(req.prefix), title: opt(req.title), descending: req.descending, limit: req.limit, continue: req.continue });
      return { links: r.rows.map((l) => ({ page: page(l), prefix: l.prefix, title: l.title })), continue: r.continue };
    },

    async listInterwikiLinks(req: ListInterwikiLinksRequest): Promise<ListInterwikiLinksResponse> {
      const r = await lists.interwikiLinks({ pageIds: req.pageIds, prefix: opt(req.prefix), title: opt(req.title), descending: req.descending, limit: req.limit, continue: req.continue });
      return {
        links: r.rows.map((l) => {
          const iw = INTERWIKI[l.prefix.toLowerCase()];
          return { fromPageId: l.from, prefix: l.prefix, title: l.title, url: iw ? iw.url.replace('$1', wikiUrlencode(l.title)) : '' };
        }),
        continue: r.continue,
      };
    },

    async listContributors(req: ListContributorsRequest): Promise<ListContributorsResponse> {
      const r = await lists.contributors({
        pageIds: req.pageIds,
        users: req.filterUsers || req.excludeUsers ? { ids: req.userIds, exclude: req.excludeUsers } : undefined,
        limit: req.limit,
        continue: req.continue,
      });
      return {
        anons: r.anons.map((a) => ({ pageId: a.page, count: a.count })),
        users: r.users.map((u) => ({ pageId: u.page, userId: u.userId, name: u.name })),
        continue: r.continue,
      };
    },
  };
}
