/*
 * PageEditStash's input-text stash: the text of a stashed edit under its SHA-1 in the key-value
 * store (Redis with REDIS_URL, shared by every content instance), for MAX_CACHE_TTL.
 */
import type { KvStore } from '@quire/kit';

/** PageEditStash::MAX_CACHE_TTL (seconds). */
const MAX_CACHE_TTL = 300;

const keyOf = (hash: string) => `editstash:text:${hash}`;

export class EditStashStore {
  constructor(private readonly kv: KvStore) {}

  async put(hash: string, text: string): Promise<void> {
    await this.kv.set(keyOf(hash), text, MAX_CACHE_TTL);
  }

  async get(hash: string): Promise<string | undefined> {
    return (await this.kv.get(keyOf(hash))) ?? undefined;
  }
}
