/*
 * ApiQueryUserInfo::getCentralUserInfo with Quire's one central-id provider, "local"
 * ($wgCentralIdLookupProviders: LocalIdLookup): a user's central id is their local id, and they
 * are attached to this wiki (and to no other) when registered.
 */
import { setArrayType, type ResultObject } from '../types.js';

export const ATTACHED_WIKI_PARAM = { type: 'string', help: 'With prop=centralids, indicate whether the user is attached with the wiki identified by this ID.' } as const;

/** centralids, attachedlocal and (with an attachedwiki parameter) attachedwiki of a user (id 0: none). */
export function centralUserInfo(userId: number, attachedWiki: string | undefined, wikiId: string): ResultObject {
  const registered = userId > 0;
  const out: ResultObject = {
    centralids: setArrayType({ local: userId }, 'assoc'),
    attachedlocal: setArrayType({ local: registered }, 'assoc'),
  };
  if (attachedWiki) out.attachedwiki = setArrayType({ local: registered && attachedWiki === wikiId }, 'assoc');
  return out;
}
