/* list=querypage: the QueryPage special pages this wiki computes, one batch at an offset. */
import { invalidArgument, type Db } from '@quire/kit';
import { QUERY_PAGES, QueryPageStore, type QueryPageDbRow } from '../store/querypages.js';

export class QueryPages {
  private readonly store: QueryPageStore;

  constructor(db: Db) {
    this.store = new QueryPageStore(db);
  }

  /** The page's rows from `offset`, at most `limit`, and whether more follow. */
  async run(name: string, offset: number, limit: number): Promise<{ rows: QueryPageDbRow[]; more: boolean }> {
    if (!Object.hasOwn(QUERY_PAGES, name)) throw invalidArgument('badvalue', `Unknown query page "${name}".`);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 5000) throw invalidArgument('badvalue', 'offset or limit out of range.');
    const rows = await this.store.rows(name, offset, limit);
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }
}
