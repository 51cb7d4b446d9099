/* action=createaccount (MediaWiki's ApiAMCreateAccount): name rules, password policy, per-IP throttle. */
import { blockedError } from '../blockinfo.js';
import { AUTHMANAGER_PARAMS, CREATE_SENSITIVE_FIELDS, failResult, field, requireReturnUrlOrContinue } from './authmanager.js';
import { apiError, apiMessage, cookies } from './support.js';
import { defineModule } from '../define.js';

export const createaccountModule = defineModule({
  name: 'createaccount',
  group: 'action',
  prefix: 'create',
  summary: 'Create a new user account.',
  params: { ...AUTHMANAGER_PARAMS },
  flags: { mustBePosted: true, needsToken: 'createaccount', readRights: false, writeMode: true },
  examples: {
    'action=createaccount&username=Example&password=ExamplePassword&retype=ExamplePassword&createreturnurl=http://example.org/&createtoken=123ABC':
      'Start the process of creating user Example with the password ExamplePassword.',
  },
  async execute(ctx) {
    requireReturnUrlOrContinue(ctx);
    // Before the permission checks: MediaWiki loads the requests before AuthManager looks at the user.
    if (ctx.params.continue !== true) ctx.requirePostedParameters(CREATE_SENSITIVE_FIELDS);
    const { caller, deps } = ctx;
    if (!caller.user.rights.includes('createaccount')) throw apiError('permissiondenied', 'apierror-permissiondenied', ['create accounts']);
    if (caller.user.block?.nocreate) throw blockedError(caller.user.block);
    const password = field(ctx, 'password');
    const retype = ctx.raw.has('retype') ? field(ctx, 'retype') : password;
    field(ctx, 'rememberMe');
    if (retype !== password) {
      const m = apiMessage('badretype', 'badretype');
      ctx.result.createaccount = failResult(ctx, 'badretype', { key: 'badretype', text: m.wikitext ?? m.text, params: [] });
      return;
    }
    const r = await deps.clients.auth.createAccount({
      sessionId: caller.sessionId,
      username: field(ctx, 'username'),
      password,
      ip: caller.ip,
      email: field(ctx, 'email'),
      realname: field(ctx, 'realname'),
      // An anonymous creator is logged in as the new account, as MediaWiki does.
      logIn: caller.user.anonymous,
      // The log comment of an account made by a logged-in user (CreationReasonAuthenticationRequest).
      ...(caller.user.anonymous ? {} : { reason: field(ctx, 'reason') }),
    });
    if (!r.ok) {
      ctx.result.createaccount = failResult(ctx, r.messageCode, r.message);
      return;
    }
    if (r.sessionId) cookies(ctx).set(r.sessionId);
    // AuthManager: a new account watches its user page (and so its talk page).
    if (r.user) await deps.clients.content.watch({ userId: r.user.id, titles: [`User:${r.user.name}`] });
    ctx.result.createaccount = { status: 'PASS', username: r.user?.name ?? '' };
  },
});
