/* action=clientlogin (MediaWiki's ApiClientLogin): password, then a TOTP code for users with two-factor. */
import { LoginResponse_Status as Status } from '../../clients/types.js';
import { AUTHMANAGER_PARAMS, field, LOGIN_SENSITIVE_FIELDS, loginStepResult, requireReturnUrlOrContinue } from './authmanager.js';
import { cookies } from './support.js';
import { defineModule } from '../define.js';

export const clientloginModule = defineModule({
  name: 'clientlogin',
  group: 'action',
  prefix: 'login',
  summary: 'Log in to the wiki using the interactive flow.',
  params: { ...AUTHMANAGER_PARAMS },
  flags: { mustBePosted: true, needsToken: 'login', readRights: false, writeMode: true },
  examples: {
    'action=clientlogin&username=Example&password=ExamplePassword&loginreturnurl=http://example.org/&logintoken=123ABC': 'Start the process of logging in to the wiki as user Example.',
    'action=clientlogin&logincontinue=1&OATHToken=987654&logintoken=123ABC': 'Continue logging in after a UI response for two-factor auth.',
  },
  async execute(ctx) {
    requireReturnUrlOrContinue(ctx);
    if (ctx.params.continue !== true) ctx.requirePostedParameters(LOGIN_SENSITIVE_FIELDS);
    const { caller, deps } = ctx;
    const r = ctx.params.continue
      ? await deps.clients.auth.continueLogin({ sessionId: caller.sessionId, totpCode: field(ctx, 'OATHToken'), ip: caller.ip })
      : await deps.clients.auth.login({
          sessionId: caller.sessionId,
          username: field(ctx, 'username'),
          password: field(ctx, 'password'),
          ip: caller.ip,
          botPasswordAllowed: false,
          remember: ['1', 'true', 'on'].includes(field(ctx, 'rememberMe')),
        });
    const status = r.status === Status.PASS ? 'PASS' : r.status === Status.UI ? 'UI' : 'FAIL';
    if (status === 'PASS') cookies(ctx).set(r.sessionId, r.persistentSeconds ? { maxAgeSeconds: r.persistentSeconds } : undefined);
    else if (status === 'UI' && r.sessionId !== caller.sessionId) cookies(ctx).set(r.sessionId);
    ctx.result.clientlogin = loginStepResult(ctx, r, status);
  },
});
