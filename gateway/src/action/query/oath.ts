/*
 * meta=oath (OATHAuth's ApiQueryOATH): whether a user has two-factor authentication. Callers
 * with oathauth-verify-user but not oathauth-api-all must give a reason, and every check of a
 * registered user by them (or with a reason) is logged as oath/verify.
 */
import { englishMessage } from '../../i18n/messages.js';
import { usageError } from '../errors.js';
import { setBCBools, type ActionContext, type ApiUsageError } from '../types.js';
import { modulePath, queryRunOf } from './run.js';
import { defineModule } from '../define.js';

/** ApiBase::checkUserRightsAny: the error names the first right's action ("action-<right>"). */
export function missingRightsError(ctx: ActionContext, rights: readonly string[]): ApiUsageError | undefined {
  if (rights.some((r) => ctx.caller.user.rights.includes(r))) return undefined;
  return usageError('permissiondenied', 'apierror-permissiondenied', [englishMessage(`action-${rights[0]}`) ?? rights[0]!]);
}

function inModule<E extends ApiUsageError>(ctx: ActionContext, e: E): E {
  e.modulePath = modulePath(ctx.module);
  return e;
}

export const oathModule = defineModule({
  name: 'oath',
  group: 'meta',
  prefix: 'oath',
  summary: 'Check to see if two-factor authentication (OATH) is enabled for a user.',
  params: {
    user: { type: 'user', help: 'User to get information about. Defaults to the current user.' },
    reason: { type: 'string', help: 'Reason for querying the OATH status.' },
  },
  flags: { internal: true },
  examples: {
    'action=query&meta=oath': 'Get information about the current user',
    'action=query&meta=oath&oathuser=Example': 'Get information about user <kbd>Example</kbd>',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    ctx.setCacheMode('private');
    const { caller } = ctx;
    const user = ctx.params.user ?? caller.user.name;
    const denied = missingRightsError(ctx, ['oathauth-api-all', 'oathauth-verify-user']);
    if (denied) throw inModule(ctx, denied);
    const apiAll = caller.user.rights.includes('oathauth-api-all');
    const reason = ctx.params.reason ?? '';
    if (!apiAll && reason === '') throw inModule(ctx, usageError('missingparam', 'apierror-missingparam', ['reason']));
    const status = await ctx.deps.clients.account.getTwoFactorStatus({
      userName: user,
      logVerify: !apiAll || reason !== '',
      performerId: caller.user.id,
      performerName: caller.user.name,
      reason,
    });
    run.data.oath = setBCBools({ enabled: status.enabled }, 'enabled');
  },
});
