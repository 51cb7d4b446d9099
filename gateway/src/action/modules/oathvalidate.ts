/*
 * action=oathvalidate (OATHAuth's ApiOATHValidate): checks a user's second-factor code without
 * logging in. Needs oathauth-api-all (the "oath" grant; no group has it by default).
 */
import { usageError } from '../errors.js';
import { setBCBools } from '../types.js';
import { missingRightsError } from '../query/oath.js';
import { defineModule } from '../define.js';

export const oathvalidateModule = defineModule({
  name: 'oathvalidate',
  group: 'action',
  prefix: '',
  summary: 'Validate a two-factor authentication (OATH) token.',
  params: {
    user: { type: 'user', help: 'User to validate token for. Defaults to the current user.' },
    totp: { type: 'string', deprecated: true, help: 'One-time token.' },
    data: { type: 'string', help: 'Validation data' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', internal: true },
  examples: {
    'action=oathvalidate&totp=123456&token=123ABC': 'Validate a two-factor authentication token for the current user',
    'action=oathvalidate&user=Example&totp=123456&token=123ABC': 'Validate a two-factor authentication token for user <kbd>Example</kbd>',
    'action=oathvalidate&user=Example&data={"token":"123456"}&token=123ABC': 'Validate a two-factor authentication token for user <kbd>Example</kbd>',
  },
  async execute(ctx) {
    const p = ctx.params;
    if (p.totp === undefined && p.data === undefined) {
      throw usageError('missingparam', 'apierror-missingparam-at-least-one-of', ['<var>totp</var> and <var>data</var>', 2]);
    }
    ctx.requirePostedParameters(['token', 'data', 'totp']);
    const denied = missingRightsError(ctx, ['oathauth-api-all']);
    if (denied) throw denied;
    const user = p.user ?? ctx.caller.user.name;
    // The legacy totp parameter is TOTP's {"token": …}.
    const data = p.totp !== undefined ? JSON.stringify({ token: p.totp }) : (p.data ?? '');
    const r = await ctx.deps.clients.account.verifyTwoFactor(user, data);
    ctx.result.oathvalidate = setBCBools({ enabled: r.enabled, valid: r.valid, module: r.module }, 'enabled', 'valid');
  },
});
