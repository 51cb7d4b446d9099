/*
 * The renderer's view of the wiki, answered from the content schema: latest text of pages to
 * transclude, existence of link targets, uploaded files.
 */
import type { Db } from '@quire/kit';
import { fileUrlPath } from '../files/paths.js';
import { titleKey, type FileFacts, type PageFacts, type PageLookup, type TemplateSource, type TitleRef } from '../render/types.js';

interface Row {
  page_id: number;
  page_namespace: number;
  page_title: string;
  page_is_redirect: boolean;
  page_latest: number;
  content_text?: string;
}

export class DbPageLookup implements PageLookup {
  constructor(private readonly db: Db) {}

  private async rows(titles: TitleRef[], withText: boolean): Promise<Row[]> {
    if (titles.length === 0) return [];
    const s = this.db.schema;
    const r = await this.db.query<Row>(
      `SELECT p.page_id, p.page_namespace, p.page_title, p.page_is_redirect, p.page_latest${withText ? ', c.content_text' : ''}
       FROM ${s}.page p
       JOIN unnest($1::int[], $2::text[]) AS t(ns, title) ON p.page_namespace = t.ns AND p.page_title = t.title
       ${withText ? `JOIN ${s}.revision r ON r.rev_id = p.page_latest JOIN ${s}.content c ON c.content_id = r.rev_content_id` : ''}`,
      [titles.map((t) => t.ns), titles.map((t) => t.dbkey)],
    );
    return r.rows;
  }

  async sources(titles: TitleRef[]): Promise<Map<string, TemplateSource>> {
    const rows = await this.rows(titles, true);
    return new Map(rows.map((r) => [titleKey({ ns: r.page_namespace, dbkey: r.page_title }), { pageId: r.page_id, isRedirect: r.page_is_redirect, revId: r.page_latest, text: r.content_text ?? '' }]));
  }

  async exist(titles: TitleRef[]): Promise<Map<string, PageFacts>> {
    const rows = await this.rows(titles, false);
    return new Map(rows.map((r) => [titleKey({ ns: r.page_namespace, dbkey: r.page_title }), { pageId: r.page_id, isRedirect: r.page_is_redirect, revId: r.page_latest }]));
  }

  /** Current versions of uploaded files (the image table), linked at their URL. */
  async files(names: string[]): Promise<Map<string, FileFacts>> {
    if (names.length === 0) return new Map();
    const r = await this.db.query<{ img_name: string; img_width: number; img_height: number; img_major_mime: string; img_minor_mime: string }>(
      `SELECT img_name, img_width, img_height, img_major_mime, img_minor_mime FROM ${this.db.schema}.image WHERE img_name = ANY($1::text[])`,
      [names],
    );
    return new Map(r.rows.map((row) => [row.img_name, { width: row.img_width, height: row.img_height, url: fileUrlPath(row.img_name), mime: `${row.img_major_mime}/${row.img_minor_mime}` }]));
  }
}
