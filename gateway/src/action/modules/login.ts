/* action=login (MediaWiki's ApiLogin): bot passwords, and main accounts with a deprecation warning. */
import { LoginResponse_Status as Status } from '../../clients/types.js';
import type { ResultObject } from '../types.js';
import { apiMessage, cookies, lacksSameOriginSecurity, plainText } from './support.js';
import { defineModule } from '../define.js';

export const loginModule = defineModule({
  name: 'login',
  group: 'action',
  prefix: 'lg',
  summary: 'Log in and get authentication cookies.',
  params: {
    name: { type: 'string', help: 'User name.' },
    password: { type: 'password', sensitive: true, mustBePosted: true, help: 'Password.' },
    domain: { type: 'string', help: 'Domain (optional).' },
    token: { type: 'string', sensitive: true, mustBePosted: true, help: 'A "login" token retrieved from action=query&meta=tokens' },
  },
  flags: { mustBePosted: true, readRights: false, writeMode: true },
  examples: { 'action=login&lgname=user&lgpassword=password&lgtoken=123ABC': 'Log in.' },
  async execute(ctx) {
    const result: ResultObject = {};
    ctx.result.login = result;
    if (lacksSameOriginSecurity(ctx)) {
      Object.assign(result, { result: 'Aborted', reason: apiMessage('', 'api-login-fail-sameorigin').text });
      return;
    }
    const p = ctx.params;
    const { caller, deps } = ctx;
    const token = p.token ?? '';
    if (!token) {
      // Legacy first step: the token comes back here, with a session to hold it.
      const r = await deps.clients.auth.getTokensWithSession(caller.sessionId, ['login']);
      if (r.newSessionId) cookies(ctx).set(r.newSessionId);
      Object.assign(result, { result: 'NeedToken', token: r.tokens.login });
      ctx.addWarning('login', apiMessage('deprecation', 'apiwarn-deprecation-login-token'));
      return;
    }
    if (!caller.sessionId) {
      Object.assign(result, { result: 'Failed', reason: apiMessage('sessionlost', 'authpage-cannot-login-continue').text });
      return;
    }
    if (!(await deps.clients.auth.checkToken(caller.sessionId, 'login', token)).valid) {
      result.result = 'WrongToken';
      return;
    }
    const r = await deps.clients.auth.login({
      sessionId: caller.sessionId,
      username: p.name ?? '',
      password: p.password ?? '',
      ip: caller.ip,
      botPasswordAllowed: true,
      remember: false,
    });
    if (r.status === Status.PASS && r.user) {
      cookies(ctx).set(r.sessionId);
      if (!r.botPassword) ctx.addWarning('login', apiMessage('deprecation', 'apiwarn-deprecation-login-botpw'));
      Object.assign(result, { result: 'Success', lguserid: r.user.id, lgusername: r.user.name });
    } else if (r.status === Status.ABORTED) {
      Object.assign(result, { result: 'Aborted', reason: plainText(r.message) });
    } else {
      Object.assign(result, { result: 'Failed', reason: plainText(r.message).replace(/\n/g, ' ') });
    }
  },
});
