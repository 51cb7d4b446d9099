import type { Db } from '@quire/kit';
import { MAIN_PAGE_AUTHOR, MAIN_PAGE_AUTHOR_ID, MAIN_PAGE_TEXT, MAIN_PAGE_TITLE } from '../content/main-page.js';
import type { TitleCodec } from '../title/codec.js';
import { NS_MAIN } from '../title/namespaces.js';
import { saveRevision } from './save.js';

/**
 * First start: creates the site counters and the Main Page in one transaction, exactly once.
 * The site_stats row is the marker: a second instance starting at the same time waits on its
 * primary key, then finds it and does nothing; a later restart finds it too, even if the Main
 * Page has since been moved or deleted. Returns whether this call initialised the wiki.
 */
export async function initialiseWiki(db: Db, codec: TitleCodec): Promise<boolean> {
  return db.tx(async (q) => {
    const marker = await q.query(`INSERT INTO ${db.schema}.site_stats (ss_row_id) VALUES (1) ON CONFLICT DO NOTHING RETURNING ss_row_id`);
    if (marker.rowCount === 0) return false;
    await saveRevision(db, codec, {
      ns: NS_MAIN,
      dbkey: MAIN_PAGE_TITLE,
      baseRevId: 0,
      text: MAIN_PAGE_TEXT,
      contentModel: 'wikitext',
      contentFormat: 'text/x-wiki',
      user: { id: MAIN_PAGE_AUTHOR_ID, name: MAIN_PAGE_AUTHOR },
      comment: '',
      minor: false,
      tags: [],
    });
    return true;
  });
}
