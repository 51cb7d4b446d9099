/*
 * meta=authmanagerinfo (MediaWiki's ApiQueryAuthManagerInfo): what AuthManager would ask for.
 * Quire's providers are MediaWiki's defaults as the reference wiki runs them — password login
 * with "remember me", account creation with username/password/email/real name, password change,
 * temporary passwords — plus OATHAuth's TOTP step (only while a login waits for it, which a
 * request for login-continue cannot see here, so it lists none as MediaWiki does outside a login).
 * No provider links accounts.
 */
import { escapeHtml } from '../errors.js';
import { englishMessage, replaceMessageParams } from '../../i18n/messages.js';
import { setArrayType, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { queryRunOf } from './run.js';
import { defineModule } from '../define.js';

/** A Message as ApiAuthManagerHelper sees it: a key (or "$1" for a RawMessage) and its parameters. */
interface Msg {
  key: string;
  params: (string | null | { num: number })[];
}

interface FieldInfo {
  type: 'string' | 'password' | 'checkbox';
  label: Msg;
  help: Msg;
  optional?: boolean;
  sensitive?: boolean;
}

type Required = 'optional' | 'required' | 'primary-required';

interface RequestInfo {
  id: string;
  required: Required;
  provider: Msg;
  /** null: the request's username (null before login, the user's name after). */
  account: Msg;
  fields: Record<string, FieldInfo>;
}

const m = (key: string, ...params: Msg['params']): Msg => ({ key, params });
const raw = (text: string | null): Msg => m('$1', text);
const AUTH = 'MediaWiki\\Auth\\';

const USERNAME: FieldInfo = { type: 'string', label: m('userlogin-yourname'), help: m('authmanager-username-help') };
const PASSWORD: FieldInfo = { type: 'password', label: m('userlogin-yourpassword'), help: m('authmanager-password-help'), sensitive: true };

/** A request whose provider and account descriptions are its class name (AuthenticationRequest::describeCredentials). */
function plainRequest(cls: string, required: Required, fields: Record<string, FieldInfo>): RequestInfo {
  return { id: AUTH + cls, required, provider: raw(AUTH + cls), account: raw(AUTH + cls), fields };
}

function passwordRequest(user: string | null, fields: Record<string, FieldInfo>): RequestInfo {
  return { id: `${AUTH}PasswordAuthenticationRequest`, required: 'primary-required', provider: m('authmanager-provider-password'), account: raw(user), fields };
}

/** $wgExtendedLoginCookieExpiration in days (180), the "remember me" label's parameter. */
const REMEMBER_DAYS = 180;

/** AuthManager::getAuthenticationRequests( $action, $user ) of the reference wiki's providers. */
function requestsFor(action: string, user: string | null): RequestInfo[] {
  switch (action) {
    case 'login':
      return [
        passwordRequest(user, { username: USERNAME, password: PASSWORD }),
        plainRequest('RememberMeAuthenticationRequest', 'optional', {
          rememberMe: { type: 'checkbox', label: m('userlogin-remembermypassword', { num: REMEMBER_DAYS }), help: m('authmanager-userlogin-remembermypassword-help'), optional: true },
        }),
      ];
    case 'create':
      return [
        passwordRequest(user, { username: USERNAME, password: PASSWORD, retype: { type: 'password', label: m('yourpasswordagain'), help: m('authmanager-retype-help'), sensitive: true } }),
        plainRequest('UsernameAuthenticationRequest', 'required', { username: USERNAME }),
        plainRequest('UserDataAuthenticationRequest', 'required', {
          email: { type: 'string', label: m('authmanager-email-label'), help: m('authmanager-email-help'), optional: true },
          realname: { type: 'string', label: m('authmanager-realname-label'), help: m('authmanager-realname-help'), optional: true },
        }),
      ];
    case 'change':
      return [
        passwordRequest(user, {
          password: { type: 'password', label: m('newpassword'), help: m('authmanager-password-help'), sensitive: true },
          retype: { type: 'password', label: m('retypenew'), help: m('authmanager-retype-help'), sensitive: true },
        }),
      ];
    case 'remove':
      return [
        {
          id: `${AUTH}TemporaryPasswordAuthenticationRequest`,
          required: 'primary-required',
          provider: m('authmanager-provider-temporarypassword'),
          account: raw(user),
          fields: { mailpassword: { type: 'checkbox', label: m('createaccountmail'), help: m('createaccountmail-help') } },
        },
      ];
    default:
      // login-continue, create-continue, link, link-continue, unlink: nothing outside a flow.
      return [];
  }
}

/** ApiAuthManagerHelper::formatMessage. */
function formatMessage(format: string, msg: Msg): unknown {
  if (format === 'raw') return { key: msg.key, params: setIndexedTagName([...msg.params], 'param') };
  const args = msg.params.map((p) => (p === null ? '' : typeof p === 'object' ? String(p.num) : p));
  const text = msg.key === '$1' ? args[0]! : replaceMessageParams(englishMessage(msg.key) ?? `⧼${msg.key}⧽`, args);
  // These texts have no markup: parseAsBlock() minus the outer paragraph is the escaped text.
  return format === 'html' ? escapeHtml(text) : text;
}

function formatFields(format: string, fields: Record<string, FieldInfo>): ResultObject {
  const out: ResultObject = {};
  for (const [name, f] of Object.entries(fields)) {
    const info: ResultObject = { type: f.type };
    if (format !== 'none') {
      info.label = formatMessage(format, f.label);
      info.help = formatMessage(format, f.help);
    }
    info.optional = f.optional === true;
    info.sensitive = f.sensitive === true;
    out[name] = info;
  }
  return setArrayType(out, 'assoc');
}

/** AuthenticationRequest::mergeFieldInfo. */
function mergeFieldInfo(reqs: RequestInfo[]): Record<string, FieldInfo> {
  let shared: string[] | null = null;
  for (const r of reqs.filter((x) => x.required === 'primary-required')) {
    const required = Object.entries(r.fields)
      .filter(([, f]) => !f.optional)
      .map(([n]) => n);
    shared = shared === null ? required : shared.filter((n) => required.includes(n));
  }
  const merged: Record<string, FieldInfo> = {};
  for (const r of reqs) {
    for (const [name, f] of Object.entries(r.fields)) {
      const optional = r.required === 'optional' || (r.required === 'primary-required' && !(shared ?? []).includes(name)) ? true : f.optional === true;
      const sensitive = f.sensitive === true;
      const prev = merged[name];
      merged[name] = prev ? { ...prev, optional: prev.optional === true && optional, sensitive: prev.sensitive === true || sensitive } : { ...f, optional, sensitive };
    }
  }
  return merged;
}

/** ApiAuthManagerHelper::formatRequests. */
/** The AuthManager modules' message parameters (ApiAuthManagerHelper). */
type AuthManagerFormatContext = ActionContext<{ messageformat?: string | undefined; mergerequestfields?: boolean | undefined }>;

export function formatRequests(ctx: AuthManagerFormatContext, reqs: RequestInfo[]): ResultObject {
  const format = ctx.params.messageformat ?? 'wikitext';
  const merge = ctx.params.mergerequestfields;
  const requests = reqs.map((r) => {
    const info: ResultObject = { id: r.id, metadata: setArrayType({}, 'assoc'), required: r.required };
    if (format !== 'none') {
      info.provider = formatMessage(format, r.provider);
      info.account = formatMessage(format, r.account);
    }
    if (!merge) info.fields = formatFields(format, r.fields);
    return info;
  });
  // No indexed tag name: XML prints the list's items as <_v>, as MediaWiki does.
  const out: ResultObject = { requests };
  if (merge) out.fields = formatFields(format, mergeFieldInfo(reqs));
  return out;
}

/** $wgReauthenticateTime['default']. */
const REAUTHENTICATE_SECONDS = 300;

/** AuthManager::securitySensitiveOperationStatus (SEC_OK, SEC_REAUTH). */
export async function securityStatus(ctx: ActionContext): Promise<string> {
  if (ctx.caller.user.anonymous) return 'reauth';
  const s = await ctx.deps.clients.account.getSessionAuthentication(ctx.caller.sessionId);
  if (s.userId !== ctx.caller.user.id) return 'reauth';
  // $wgAllowSecuritySensitiveOperationIfCannotReauthenticate['default'] is true.
  if (!s.canReauthenticate) return 'ok';
  return s.secondsSinceAuthentication > REAUTHENTICATE_SECONDS ? 'reauth' : 'ok';
}

export const AUTH_ACTIONS = ['login', 'login-continue', 'create', 'create-continue', 'link', 'link-continue', 'change', 'remove', 'unlink'] as const;

export const authmanagerinfoModule = defineModule({
  name: 'authmanagerinfo',
  group: 'meta',
  prefix: 'ami',
  summary: 'Retrieve information about the current authentication status.',
  params: {
    securitysensitiveoperation: { type: 'string', help: "Test whether the user's current authentication status is sufficient for the specified security-sensitive operation." },
    requestsfor: { type: AUTH_ACTIONS, help: 'Fetch information about the authentication requests needed for the specified authentication action.' },
    mergerequestfields: { type: 'boolean', default: false, help: 'Merge field information for all authentication requests into one array.' },
    messageformat: { type: ['html', 'wikitext', 'raw', 'none'], default: 'wikitext', help: 'Format to use for returning messages.' },
  },
  flags: { readRights: false },
  examples: {
    'action=query&meta=authmanagerinfo&amirequestsfor=login': 'Fetch the requests that may be used when beginning a login.',
    'action=query&meta=authmanagerinfo&amirequestsfor=login&amimergerequestfields=1': 'Fetch the requests that may be used when beginning a login, with form fields merged.',
    'action=query&meta=authmanagerinfo&amisecuritysensitiveoperation=foo': 'Test whether authentication is sufficient for action <kbd>foo</kbd>.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const out: ResultObject = { canauthenticatenow: true, cancreateaccounts: true, canlinkaccounts: false };
    if (p.securitysensitiveoperation !== undefined) out.securitysensitiveoperationstatus = await securityStatus(ctx);
    const action = p.requestsfor;
    if (action !== undefined) {
      // No preserved state: Quire keeps no failed login to resume.
      Object.assign(out, { haspreservedstate: false, hasprimarypreservedstate: false, preservedusername: '' });
      const user = ctx.caller.user.anonymous ? null : ctx.caller.user.name;
      Object.assign(out, formatRequests(ctx, requestsFor(action, user)));
    }
    run.data.authmanagerinfo = out;
  },
});
