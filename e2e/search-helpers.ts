/* What the search tests share: saving a page the way every edit path does, waiting for the index. */
import { setTimeout as sleep } from 'node:timers/promises';
import { makeClient, unary, type RunningService } from '@quire/kit';
import { SearchServiceClient } from '@quire/proto/wiki/search/v1/search';
import { saveRevision, type SaveRevisionInput } from '@quire/content/store/save';
import { TitleCodec } from '@quire/content/title/codec';
import { NamespaceTable } from '@quire/content/title/namespaces';
import type { TestWiki } from './harness.js';

const codec = new TitleCodec(new NamespaceTable('Quire'));

export function service(wiki: TestWiki, name: string): RunningService {
  return wiki.stack.services.find((s) => s.name === name)!;
}

/** Saves through the content service's own transaction (what every edit path ends in). */
export function save(wiki: TestWiki, ns: number, dbkey: string, baseRevId: number, text: string) {
  const input: SaveRevisionInput = {
    ns,
    dbkey,
    baseRevId,
    text,
    contentModel: 'wikitext',
    contentFormat: 'text/x-wiki',
    user: { id: 0, name: '192.0.2.7' },
    comment: '',
    minor: false,
    tags: [],
  };
  return saveRevision(service(wiki, 'content').runtime.db, codec, input);
}

/** Waits until the search index has applied every change of the feed. */
export async function waitIndexed(wiki: TestWiki, timeoutMs = 30_000): Promise<void> {
  const client = makeClient(SearchServiceClient, service(wiki, 'search').address);
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await unary(client, client.getIndexStatus, {});
      if (s.pendingChanges === 0) return;
      if (Date.now() > deadline) throw new Error(`index still behind: ${JSON.stringify(s)}`);
      await sleep(50);
    }
  } finally {
    client.close();
  }
}
