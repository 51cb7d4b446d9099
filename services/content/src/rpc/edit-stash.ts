/* wiki.content.v1.EditStashService: decodes, calls the stash domain, encodes. */
import type { KvStore } from '@quire/kit';
import type { FetchStashedEditTextRequest, FetchStashedEditTextResponse, StashEditTextRequest, StashEditTextResponse } from '@quire/proto/wiki/content/v1/archive';
import { fetchStashedEditText, stashEditText } from '../domain/edit-stash.js';
import { EditStashStore } from '../store/edit-stash.js';

export function editStashHandlers(kv: KvStore) {
  const store = new EditStashStore(kv);
  return {
    async stashEditText(req: StashEditTextRequest): Promise<StashEditTextResponse> {
      return { textHash: await stashEditText(store, req.text) };
    },
    async fetchStashedEditText(req: FetchStashedEditTextRequest): Promise<FetchStashedEditTextResponse> {
      const text = await fetchStashedEditText(store, req.textHash);
      return text === undefined ? {} : { text };
    },
  };
}
