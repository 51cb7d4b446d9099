/*
 * The AuthManager modules that change a logged-in user's credentials (MediaWiki's
 * ApiLinkAccount, ApiRemoveAuthenticationData for unlinkaccount and removeauthenticationdata,
 * ApiChangeAuthenticationData), over the providers Quire has — the reference wiki's: no provider
 * links accounts, a password can be changed, a temporary password removed.
 */
import { message, MessageUsageError, usageError } from '../errors.js';
import { englishMessage } from '../../i18n/messages.js';
import type { ActionContext, ModuleDecl } from '../types.js';
import { defineModule } from '../define.js';
import { AUTHMANAGER_PARAMS, failResult, field } from './authmanager.js';
import { securityStatus } from '../query/authmanagerinfo.js';

const AUTH = 'MediaWiki\\Auth\\';
/** $wgChangeCredentialsBlacklist / $wgRemoveCredentialsBlacklist: only these requests remain. */
const CHANGEABLE = [`${AUTH}PasswordAuthenticationRequest`];
const REMOVABLE = [`${AUTH}TemporaryPasswordAuthenticationRequest`];

function requireLoggedIn(ctx: ActionContext, key: string): void {
  if (!ctx.caller.user.anonymous) return;
  // A key MediaWiki 1.39 lacks a text for is shown as ⧼key⧽ (apierror-mustbeloggedin-changeauthenticationdata).
  if (englishMessage(key) !== undefined) throw usageError('notloggedin', key);
  throw new MessageUsageError({ ...message('notloggedin', `⧼${key}⧽`), key });
}

/** ApiAuthManagerHelper::securitySensitiveOperation. */
async function securitySensitiveOperation(ctx: ActionContext): Promise<void> {
  const status = await securityStatus(ctx);
  if (status === 'reauth') throw usageError('reauthenticate', 'apierror-reauthenticate');
  if (status === 'fail') throw usageError('cannotreauthenticate', 'apierror-cannotreauthenticate');
}

const norequest = () => usageError('badrequest', 'apierror-changeauth-norequest');

const REQUEST_PARAM = { type: 'string', required: true, help: 'Use this authentication request, by the <samp>id</samp> returned from <kbd>action=query&meta=authmanagerinfo</kbd>.' } as const;

export const linkaccountModule = defineModule({
  name: 'linkaccount',
  group: 'action',
  prefix: 'link',
  summary: 'Link an account from a third-party provider to the current user.',
  params: {
    requests: AUTHMANAGER_PARAMS.requests,
    messageformat: AUTHMANAGER_PARAMS.messageformat,
    mergerequestfields: AUTHMANAGER_PARAMS.mergerequestfields,
    returnurl: AUTHMANAGER_PARAMS.returnurl,
    continue: AUTHMANAGER_PARAMS.continue,
  },
  flags: { mustBePosted: true, needsToken: 'csrf', readRights: false, writeMode: true },
  examples: { 'action=linkaccount&provider=Example&linkreturnurl=http://example.org/&linktoken=123ABC': 'Start the process of linking to an account from <kbd>Example</kbd>.' },
  async execute(ctx) {
    requireLoggedIn(ctx, 'apierror-mustbeloggedin-linkaccounts');
    const p = ctx.params;
    if (p.continue !== true && p.returnurl === undefined) {
      throw usageError('missingparam', 'apierror-missingparam-at-least-one-of', ['<var>linkcontinue</var> and <var>linkreturnurl</var>', 2]);
    }
    if (p.returnurl !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(p.returnurl)) {
      throw usageError('badurl_linkreturnurl', 'apierror-badurl', ['linkreturnurl', p.returnurl]);
    }
    await securitySensitiveOperation(ctx);
    // AuthManager::canLinkAccounts() is false: no provider links accounts.
    ctx.result.linkaccount = failResult(ctx as unknown as ActionContext, 'userlogin-cannot-link', { key: 'userlogin-cannot-link', text: '⧼userlogin-cannot-link⧽', params: [] });
  },
});

/** ApiRemoveAuthenticationData for one of its two actions. */
function removeModule(name: 'unlinkaccount' | 'removeauthenticationdata', summary: string, removable: readonly string[]): ModuleDecl {
  return defineModule({
    name,
    group: 'action',
    prefix: '',
    summary,
    params: { request: REQUEST_PARAM },
    flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
    examples: { [`action=${name}&request=FooAuthenticationRequest&token=123ABC`]: "Attempt to remove the current user's data for <var>FooAuthenticationRequest</var>." },
    async execute(ctx) {
      requireLoggedIn(ctx, 'apierror-mustbeloggedin-removeauth');
      await securitySensitiveOperation(ctx);
      if (!removable.includes(ctx.params.request)) throw norequest();
      // Removing the temporary password: Quire issues none (no mail), so there is none to remove.
      ctx.result[name] = { status: 'success' };
    },
  });
}

export const unlinkaccountModule = removeModule('unlinkaccount', 'Remove a linked third-party account from the current user.', []);
export const removeauthenticationdataModule = removeModule('removeauthenticationdata', 'Remove authentication data for the current user.', REMOVABLE);

export const changeauthenticationdataModule = defineModule({
  name: 'changeauthenticationdata',
  group: 'action',
  prefix: 'changeauth',
  summary: 'Change authentication data for the current user.',
  params: { request: REQUEST_PARAM },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=changeauthenticationdata&changeauthrequest=MediaWiki%5CAuth%5CPasswordAuthenticationRequest&password=ExamplePassword&retype=ExamplePassword&changeauthtoken=123ABC':
      "Attempt to change the current user's password to <kbd>ExamplePassword</kbd>.",
  },
  async execute(ctx) {
    requireLoggedIn(ctx, 'apierror-mustbeloggedin-changeauthenticationdata');
    await securitySensitiveOperation(ctx);
    if (!CHANGEABLE.includes(ctx.params.request)) throw norequest();
    // The request's fields arrive under their own names (ApiAuthManagerHelper::loadAuthenticationRequests).
    ctx.requirePostedParameters(['password', 'retype']);
    const base = ctx as unknown as ActionContext;
    const password = field(base, 'password');
    const retype = field(base, 'retype');
    const { auth } = ctx.deps.clients;
    const name = ctx.caller.user.name;
    // LocalPasswordPrimaryAuthenticationProvider::providerAllowsAuthenticationDataChange.
    if (password !== retype) throw usageError('badretype', 'badretype');
    const policy = await auth.validatePassword({ username: name, password, email: '', realname: '' });
    const first = policy.messages[0];
    if (first) throw usageError(first.key, first.key, first.params);
    await auth.changePassword({ username: name, password });
    ctx.result.changeauthenticationdata = { status: 'success' };
  },
});
