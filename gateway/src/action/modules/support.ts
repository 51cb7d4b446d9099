/* What the account modules share: messages of the auth service as API messages, and the session cookie. */
import { InvalidExpiryError, isPastExpiry, normalizeExpiry } from '@quire/kit/expiry';
import type { Message } from '../../clients/types.js';
import { escapeHtml, stripMarkup } from '../errors.js';
import type { ApiUsageError, ActionContext, ApiMessage } from '../types.js';
import { MessageUsageError } from '../errors.js';

/** Wikitext links as their label ("[[Special:BotPasswords]]" → "Special:BotPasswords"), as plain text shows them. */
function unlink(wikitext: string): string {
  return wikitext.replace(/\[\[(?:[^|\]]*\|)?([^\]]*)\]\]/g, '$1');
}

/** English texts of the API messages these modules raise (includes/api/i18n/en.json). */
const API_TEXTS: Record<string, string> = {
  'api-login-fail-sameorigin': 'Cannot log in when the same-origin policy is not applied.',
  'apiwarn-deprecation-login-token': 'Fetching a token via <kbd>action=login</kbd> is deprecated. Use <kbd>action=query&meta=tokens&type=login</kbd> instead.',
  'apiwarn-deprecation-login-botpw':
    'Main-account login via <kbd>action=login</kbd> is deprecated and may stop working without warning. To continue login with <kbd>action=login</kbd>, see [[Special:BotPasswords]]. To safely continue using main-account login, see <kbd>action=clientlogin</kbd>.',
  'authpage-cannot-login-continue': 'Unable to continue login. Your session most likely timed out.',
  'apierror-missingparam-at-least-one-of': 'At least one of the parameters $1 is required.',
  'apierror-permissiondenied': "You don't have permission to $1.",
  'apierror-baduser': 'Invalid value "$2" for user parameter <var>$1</var>.',
  'apierror-toofewexpiries': '$1 expiry {{PLURAL:$1|timestamp was|timestamps were}} provided where $2 {{PLURAL:$2|was|were}} needed.',
  'apierror-invalidexpiry': 'Invalid expiry time "$1".',
  'apierror-pastexpiry': 'Expiry time "$1" is in the past.',
  'apierror-nosuchuserid': 'There is no user with ID $1.',
  'apierror-invaliduser': 'Invalid username "$1".',
  'apierror-blocked': 'You have been blocked from editing.',
  'apierror-blocked-partial': 'You have been blocked from editing this page.',
  'apierror-cantblock': "You don't have permission to block users.",
  'apierror-cantunblock': 'The block you specified was not found. It may have been unblocked already.',
  'apierror-unblock-idanduser': 'The parameters <var>id</var> and <var>user</var> can not be used together.',
  'apierror-unblock-notarget': 'Either the <var>id</var> or the <var>user</var> parameter must be set.',
  'apierror-invalidparammix': 'The parameters $1 can not be used together.',
  'apierror-invalidiprange': 'Invalid CIDR range "$1".',
  'apierror-cidrtoobroad': '$1 CIDR ranges broader than /$2 are not accepted.',
  'paramvalidator-badtitle': 'Invalid value "$2" for title parameter <var>$1</var>: not a valid title string.',
  'paramvalidator-missingtitle': 'Invalid value "$2" for title parameter <var>$1</var>: the page does not exist.',
  badretype: 'The passwords you entered do not match.',
  userexists: 'Username entered already in use.\nPlease choose a different name.',
};

function fill(template: string, params: readonly (string | number)[]): string {
  return template
    .replace(/\{\{PLURAL:\$(\d+)\|([^|}]*)\|([^}]*)\}\}/g, (_m, n: string, one: string, other: string) => (Number(params[Number(n) - 1]) === 1 ? one : other))
    .replace(/\$(\d+)/g, (m, n: string) => String(params[Number(n) - 1] ?? m));
}

/** An API message from a key of the table above, or a text the auth service sent. */
export function apiMessage(code: string, key: string, params: (string | number)[] = [], wikitextOverride?: string): ApiMessage {
  const wikitext = wikitextOverride ?? fill(API_TEXTS[key] ?? key, params);
  return { code, key, params, wikitext, text: stripMarkup(unlink(wikitext)), html: escapeHtml(unlink(wikitext)) };
}

export function apiError(code: string, key: string, params: (string | number)[] = [], data?: Record<string, unknown>): ApiUsageError {
  const m = apiMessage(code, key, params);
  return new MessageUsageError(data ? { ...m, data } : m);
}

/**
 * An expiry a module reads itself (ApiProtect, ApiUserrights: a `string` parameter, not an
 * `expiry` one), by the wiki's one parser: 'infinity' or ISO 8601; `invalidexpiry` and
 * `pastexpiry` as those modules report them.
 */
export function moduleExpiry(value: string): string {
  let expiry: string;
  try {
    expiry = normalizeExpiry(value);
  } catch (e) {
    if (e instanceof InvalidExpiryError) throw apiError('invalidexpiry', 'apierror-invalidexpiry', [value]);
    throw e;
  }
  if (isPastExpiry(expiry)) throw apiError('pastexpiry', 'apierror-pastexpiry', [value]);
  return expiry;
}

/** A message of the auth service in plain text (what bc-format results such as login's `reason` show). */
export function plainText(m: Message | undefined): string {
  return m ? stripMarkup(unlink(m.text)) : '';
}

/** plainText line by line: a special page shows a message's line breaks (as `<br>`), where the API's plain text has spaces. */
export function plainTextLines(m: Message | undefined): string {
  return m
    ? m.text
        .split('\n')
        .map((line) => stripMarkup(unlink(line)))
        .join('\n')
    : '';
}

export function requireRight(ctx: ActionContext, right: string, action: string): void {
  if (!ctx.caller.user.rights.includes(right)) throw apiError('permissiondenied', 'apierror-permissiondenied', [action]);
}

/** The session cookie of the response; the pipeline always provides it for real requests. */
export function cookies(ctx: ActionContext) {
  const c = ctx.caller.cookies;
  if (!c) throw new Error('no session cookie writer on this request');
  return c;
}

/** ApiMain::lacksSameOriginSecurity as far as parameters tell: JSONP or anonymous CORS. */
export function lacksSameOriginSecurity(ctx: ActionContext): boolean {
  return ctx.raw.has('callback') || ctx.raw.get('origin') === '*';
}
