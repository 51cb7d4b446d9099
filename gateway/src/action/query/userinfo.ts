/* meta=userinfo (MediaWiki's ApiQueryUserInfo): the props the caller record can answer. */
import type { User } from '@quire/proto/wiki/auth/v1/auth';
import { setArrayType, setIndexedTagName, type ModuleDecl, type ResultObject } from '../types.js';
import { queryRunOf } from './run.js';

const USERINFO_PROPS = ['groups', 'rights'] as const;

export function userInfo(user: User, props: readonly string[]): ResultObject {
  const vals: ResultObject = { id: user.id, name: user.name };
  if (user.anonymous || user.id === 0) vals.anon = true;
  // Lists stay lists even when empty.
  if (props.includes('groups')) vals.groups = setIndexedTagName(setArrayType([...user.groups], 'array'), 'g');
  if (props.includes('rights')) vals.rights = setIndexedTagName(setArrayType([...user.rights], 'array'), 'r');
  return vals;
}

export const userinfoModule: ModuleDecl = {
  name: 'userinfo',
  group: 'meta',
  prefix: 'ui',
  summary: 'Get information about the current user.',
  params: {
    prop: { type: USERINFO_PROPS, multi: true, allowAll: true, help: 'Which pieces of information to include.' },
  },
  flags: {},
  examples: {
    'action=query&meta=userinfo': 'Get information about the current user.',
    'action=query&meta=userinfo&uiprop=groups|rights': 'Get the groups and rights of the current user.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    run.data.userinfo = userInfo(ctx.caller.user, (ctx.params.prop as string[] | undefined) ?? []);
  },
};
