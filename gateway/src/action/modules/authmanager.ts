/*
 * The AuthManager-style modules (clientlogin, createaccount): their shared parameters, the
 * "at least one of continue/returnurl" rule, and the response shape (status, message,
 * messagecode, requests) as ApiAuthManagerHelper formats it.
 */
import type { LoginResponse, Message, User } from '../../clients/types.js';
import type { ActionContext, ResultObject } from '../types.js';
import { defineParams, type ContextOf } from '../define.js';
import { setArrayType, setIndexedTagName } from '../types.js';
import { apiError } from './support.js';

export const AUTHMANAGER_PARAMS = defineParams({
  requests: { type: 'string', multi: true, help: 'Only use these authentication requests.' },
  messageformat: { type: ['html', 'wikitext', 'raw', 'none'], default: 'wikitext', help: 'Format to use for returning messages.' },
  mergerequestfields: { type: 'boolean', default: false, help: 'Merge field information for all authentication requests into one array.' },
  preservestate: { type: 'boolean', default: false, help: 'Preserve state from a previous failed login attempt, if possible.' },
  returnurl: { type: 'string', help: 'Return URL for third-party authentication flows, must be absolute.' },
  continue: { type: 'boolean', default: false, help: 'This request is a continuation after an earlier UI or REDIRECT response.' },
});

/** ApiAuthManagerHelper::securitySensitiveOperation-free precondition: returnurl or continue. */
export function requireReturnUrlOrContinue(ctx: ContextOf<typeof AUTHMANAGER_PARAMS>): void {
  if (!ctx.params.continue && ctx.params.returnurl === undefined) {
    const names = [`${ctx.module.prefix}continue`, `${ctx.module.prefix}returnurl`];
    throw apiError('missingparam', 'apierror-missingparam-at-least-one-of', [`"${names[0]}" and "${names[1]}"`, 2]);
  }
}

/**
 * The sensitive fields of the password requests (PasswordAuthenticationRequest's password, and
 * retype when creating): ApiAuthManagerHelper::loadAuthenticationRequests wants them posted.
 */
export const LOGIN_SENSITIVE_FIELDS = ['password'] as const;
export const CREATE_SENSITIVE_FIELDS = ['password', 'retype'] as const;

/** A request field sent under its own name (username, password, OATHToken…), marked as used. */
export function field(ctx: ActionContext, name: string): string {
  ctx.markUsed(name);
  return ctx.raw.get(name) ?? '';
}

function formatMessage(ctx: ActionContext, m: Message | undefined): unknown {
  const format = ctx.params.messageformat ?? 'wikitext';
  if (!m || format === 'none') return undefined;
  if (format === 'raw') return { key: m.key, params: setIndexedTagName([...m.params], 'param') };
  return m.text;
}

/** OATHAuth's TOTPAuthenticationRequest as ApiAuthManagerHelper::formatRequests describes it. */
function totpRequest(user: User | undefined): ResultObject {
  return {
    id: 'MediaWiki\\Extension\\OATHAuth\\Auth\\TOTPAuthenticationRequest',
    metadata: setArrayType({}, 'assoc'),
    required: 'required',
    provider: 'Two-factor authentication (OATH).',
    account: user?.name ?? '',
    fields: {
      OATHToken: {
        type: 'string',
        label: 'Two-factor token or recovery code',
        help: 'The one-time password used as the second factor of two-factor authentication.',
      },
    },
  };
}

export function failResult(ctx: ActionContext, code: string, m: Message | undefined): ResultObject {
  const out: ResultObject = { status: 'FAIL' };
  const message = formatMessage(ctx, m);
  if (message !== undefined) out.message = message;
  out.messagecode = code;
  return out;
}

/** The clientlogin result of a login step. */
export function loginStepResult(ctx: ActionContext, r: LoginResponse, status: 'PASS' | 'UI' | 'FAIL'): ResultObject {
  if (status === 'PASS') return { status: 'PASS', username: r.user?.name ?? '' };
  if (status === 'FAIL') return failResult(ctx, r.messageCode, r.message);
  const out: ResultObject = { status: 'UI' };
  const message = formatMessage(ctx, r.message);
  if (message !== undefined) out.message = message;
  out.messagecode = r.messageCode;
  out.requests = setIndexedTagName([totpRequest(r.user)], 'request');
  return out;
}
