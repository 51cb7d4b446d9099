import type { Db } from '@quire/kit';

export interface SiteStats {
  pages: number;
  articles: number;
  edits: number;
  images: number;
}

/** The site_stats counters (all 0 before the first start has initialised the wiki). */
export async function readSiteStats(db: Db): Promise<SiteStats> {
  const r = await db.query<{ ss_total_pages: number; ss_good_articles: number; ss_total_edits: number; ss_images: number }>(
    `SELECT ss_total_pages, ss_good_articles, ss_total_edits, ss_images FROM ${db.schema}.site_stats WHERE ss_row_id = 1`,
  );
  const row = r.rows[0];
  return { pages: row?.ss_total_pages ?? 0, articles: row?.ss_good_articles ?? 0, edits: row?.ss_total_edits ?? 0, images: row?.ss_images ?? 0 };
}
