/*
 * Rebuilding an engine's index from the content service's pages (RebuildIndex, `npm run admin --
 * rebuildSearchIndex`): a new index is filled beside the live one, which keeps answering and
 * following the feed, then swapped in. The feed's head is read before the first page is fetched,
 * so every page holds at least the changes through it; the swap sets the engine's cursor there and
 * the indexer applies what came after (again, idempotently) — nothing written meanwhile is lost.
 */
import { conflict, failedPrecondition, unary, type KvStore } from '@quire/kit';
import { ListPagesRequest } from '@quire/proto/wiki/content/pages/v1/pages';
import type { RebuildIndexProgress } from '@quire/proto/wiki/search/v1/search';
import type { ContentStubs } from './content.js';
import type { SearchBackend } from './backend.js';
import { docOf, FETCH_CHUNK } from './indexer.js';

/** Titles per ListPages call. */
const LIST_CHUNK = 500;
const LOCK_TTL_S = 120;

export async function rebuildIndex(
  backend: SearchBackend,
  content: ContentStubs,
  kv: KvStore,
  progress: (p: RebuildIndexProgress) => void,
  /** True once the caller went away (Ctrl-C on the admin CLI): the new index is dropped. */
  cancelled: () => boolean = () => false,
): Promise<RebuildIndexProgress> {
  const engine = backend.engine;
  const lockKey = `search-rebuild:${engine}`;
  const lockId = `${process.pid}-${Date.now()}`;
  // Two rebuilds of one engine would fill (and drop) the same new index.
  if (!(await kv.setIfAbsent(lockKey, lockId, LOCK_TTL_S))) throw failedPrecondition('rebuild-running', `a rebuild of the ${engine} index is running`);
  const rebuild = await backend.startRebuild();
  try {
    const head = (await unary(content.feed, content.feed.getChangeFeedStatus, { afterPosition: 0 }, { deadlineMs: 30_000 })).latestPosition;
    const total = (await unary(content.site, content.site.getStatistics, {}, { deadlineMs: 30_000 })).pages;
    const namespaces = (await unary(content.site, content.site.listNamespaces, {}, { deadlineMs: 30_000 })).namespaces.map((n) => n.id).filter((id) => id >= 0);
    const started = Date.now();
    let done = 0;
    const status = (finished: boolean): RebuildIndexProgress => ({
      engine,
      pagesDone: done,
      pagesTotal: Math.max(total, done),
      pagesPerSecond: done / Math.max((Date.now() - started) / 1000, 0.001),
      done: finished,
      indexedThrough: finished ? head : 0,
    });
    for (const namespace of namespaces) {
      let from = '';
      do {
        const list = await unary(content.pages, content.pages.listPages, ListPagesRequest.fromPartial({ namespace, from, limit: LIST_CHUNK }), { deadlineMs: 60_000 });
        const ids = list.pages.map((p) => p.id);
        for (let i = 0; i < ids.length; i += FETCH_CHUNK) {
          const r = await unary(content.feed, content.feed.getPagesForIndex, { pageIds: ids.slice(i, i + FETCH_CHUNK) }, { deadlineMs: 60_000 });
          await rebuild.target.apply(r.pages.map(docOf), []);
          done += r.pages.length;
        }
        if (cancelled()) throw conflict('rebuild-cancelled', `the rebuild of the ${engine} index was cancelled; the live index is unchanged`);
        await kv.set(lockKey, lockId, LOCK_TTL_S);
        progress(status(false));
        from = list.continueFrom;
      } while (from !== '');
    }
    await rebuild.swap(head);
    return status(true);
  } catch (err) {
    await rebuild.abort().catch(() => undefined);
    throw err;
  } finally {
    if ((await kv.get(lockKey)) === lockId) await kv.del(lockKey);
  }
}
