/* action=stashedit's text stash: a text is stored under its SHA-1 (sha1() of PHP: 40 hex digits). */
import { createHash } from 'node:crypto';
import { invalidArgument } from '@quire/kit';
import type { EditStashStore } from '../store/edit-stash.js';

export async function stashEditText(store: EditStashStore, text: string): Promise<string> {
  const hash = createHash('sha1').update(text, 'utf8').digest('hex');
  await store.put(hash, text);
  return hash;
}

export async function fetchStashedEditText(store: EditStashStore, hash: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{40}$/.test(hash)) throw invalidArgument('badvalue', 'A text hash is 40 hexadecimal digits.');
  return store.get(hash);
}
