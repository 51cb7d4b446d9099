/*
 * Special:BotPasswords (MediaWiki's SpecialBotPasswords): the list of the user's bot passwords and
 * a bot-name form; Special:BotPasswords/<bot name> creates one with grants, or updates its grants,
 * resets its password or deletes it. A generated password appears once, in the response to the
 * POST that made it. Every POST carries the session's csrf token.
 */
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { BotPassword } from '../clients/types.js';
import { GRANT_LABELS, GRANT_NAMES, HIDDEN_GRANTS, grantsFromForm } from './grants.js';
import { hidden, html, messageBox, multiline, SafeHtml } from './html.js';
import { loginPath, specialPath } from './paths.js';
import { csrfToken, field, fields, redirect, send, SESSION_FAILURE, validCsrf, type PageHandler, type PageRequest } from './request.js';
import { lacksRight } from './wiki.js';

/** BotPassword::APPID_MAXLENGTH. */
const APPID_MAX_LENGTH = 32;

const SUMMARY = new SafeHtml(
  "<p><em>Bot passwords</em> allow access to a user account via the API without using the account's main login credentials. The user rights available when logged in with a bot password may be restricted.</p>\n" +
    "<p>If you don't know why you might want to do this, you should probably not do it. No one should ever ask you to generate one of these and give it to them.</p>",
);

const GRANTS_HELP = 'Grants allow access to rights already held by your user account. Enabling a grant here does not provide access to any rights that your user account would not otherwise have.';

/** Errors of the auth service that are about the submitted form (shown in it), not about the service. */
const FORM_ERRORS = new Set<number>([GrpcStatus.INVALID_ARGUMENT, GrpcStatus.NOT_FOUND, GrpcStatus.ALREADY_EXISTS, GrpcStatus.FAILED_PRECONDITION]);

function formError(e: unknown): string | null {
  return e instanceof ServiceError && FORM_ERRORS.has(e.grpcCode) ? e.message : null;
}

function badAppIdMessage(appId: string): string {
  return `The bot name "${appId}" is not valid.`;
}

function validAppIdLength(appId: string): boolean {
  return appId !== '' && [...appId].length <= APPID_MAX_LENGTH;
}

function grantLabels(grants: readonly string[]): string {
  return grants.map((g) => GRANT_LABELS[g] ?? g).join(', ');
}

/** "2026-11-21T07:03:21Z" → "2026-11-21 07:03 (UTC)". */
function displayTime(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]} (UTC)` : iso;
}

async function showList(p: PageRequest, opts: { error?: string; appId?: string } = {}): Promise<void> {
  const list = await p.deps.clients.auth.listBotPasswords(p.caller.user.name);
  const existing = list.length
    ? html`<fieldset id="mw-botpasswords-existing"><legend>Existing bot passwords</legend>
<table><thead><tr><th>Bot name</th><th>Login name</th><th>Grants</th><th>Created</th></tr></thead><tbody>
${list.map(
  (bp) =>
    html`<tr><td><a href="${specialPath('BotPasswords', bp.appId)}">${bp.appId}</a></td><td><code>${bp.user}@${bp.appId}</code></td><td>${grantLabels(bp.grants)}</td><td>${displayTime(bp.created)}</td></tr>\n`,
)}</tbody></table></fieldset>`
    : '';
  const body = html`${SUMMARY}
${opts.error ? messageBox('error', multiline(opts.error)) : ''}
${existing}
<form method="post" action="${specialPath('BotPasswords')}" id="mw-botpasswords-form">
<fieldset><legend>Create a new bot password</legend>
<label class="field" for="wpappId">Bot name:</label>
<input type="text" id="wpappId" name="wpappId" value="${opts.appId ?? ''}" maxlength="${APPID_MAX_LENGTH}" required>
${hidden('op', 'new')}${hidden('wpEditToken', await csrfToken(p))}
<div class="buttons"><button type="submit" class="primary">Create</button></div>
</fieldset>
</form>`;
  send(p, { title: 'Bot passwords', body });
}

export function grantCheckboxes(checked: readonly string[]): SafeHtml {
  return html`<div class="grants">${GRANT_NAMES.map((g) => {
    const forced = HIDDEN_GRANTS.includes(g);
    return html`<label><input type="checkbox" name="wpgrants[]" value="grant-${g}"${forced || checked.includes(g) ? new SafeHtml(' checked') : ''}${forced ? new SafeHtml(' disabled') : ''}> ${GRANT_LABELS[g]} <code>${g}</code></label>\n`;
  })}</div>`;
}

async function showBotForm(p: PageRequest, appId: string, opts: { error?: string; grants?: string[] } = {}): Promise<void> {
  const saved = (await p.deps.clients.auth.listBotPasswords(p.caller.user.name)).find((bp) => bp.appId === appId);
  const buttons = saved
    ? html`<button type="submit" name="op" value="update" class="primary">Update</button>
<button type="submit" name="op" value="reset">Reset the password</button>
<button type="submit" name="op" value="delete" class="destructive">Delete</button>`
    : html`<button type="submit" name="op" value="create" class="primary">Create</button>`;
  const body = html`${SUMMARY}
${opts.error ? messageBox('error', multiline(opts.error)) : ''}
<form method="post" action="${specialPath('BotPasswords', appId)}" id="mw-botpasswords-form">
<fieldset><legend>${saved ? 'Edit an existing bot password' : 'Create a new bot password'}</legend>
<p><strong>Username:</strong> <code id="bp-login-name">${p.caller.user.name}@${appId}</code></p>
<p><strong>Applicable grants:</strong></p>
${grantCheckboxes(opts.grants ?? saved?.grants ?? [])}
<p class="help">${GRANTS_HELP}</p>
${hidden('wpEditToken', await csrfToken(p))}
<div class="buttons">${buttons}
<a href="${specialPath('BotPasswords')}">Cancel</a></div>
</fieldset>
</form>`;
  send(p, { title: 'Bot passwords', body });
}

/** The page after a change: what happened, the new password when there is one (shown this once), a way back. */
function showResult(p: PageRequest, title: string, verb: string, bp: Pick<BotPassword, 'user' | 'appId'>, password?: string): void {
  const loginName = `${bp.user}@${bp.appId}`;
  const body = html`${messageBox('success', `The bot password for bot name "${bp.appId}" of user "${bp.user}" was ${verb}.`)}
${
  password
    ? html`<p id="bp-new-password">The new password to log in with <strong class="secret" id="bp-login">${loginName}</strong> is <strong class="secret" id="bp-password">${password}</strong>. <em>Please record this for future reference.</em></p>`
    : ''
}
<p>Return to <a href="${specialPath('BotPasswords')}">Special:BotPasswords</a>.</p>`;
  send(p, { title, body });
}

async function submitBotForm(p: PageRequest, appId: string): Promise<void> {
  const auth = p.deps.clients.auth;
  const user = p.caller.user.name;
  const grants = grantsFromForm(fields(p, 'wpgrants[]'));
  const op = field(p, 'op');
  if (!(await validCsrf(p))) return showBotForm(p, appId, { error: SESSION_FAILURE, grants });
  try {
    switch (op) {
      case 'create': {
        const r = await auth.createBotPassword({ user, appId, grants });
        return showResult(p, 'Bot password created', 'created', r.botPassword!, r.password);
      }
      case 'update':
        return showResult(p, 'Bot password updated', 'updated', await auth.updateBotPassword({ user, appId, grants }));
      case 'reset': {
        const r = await auth.resetBotPassword({ user, appId });
        return showResult(p, 'Bot password updated', 'updated', r.botPassword!, r.password);
      }
      case 'delete': {
        await auth.deleteBotPassword({ user, appId });
        return showResult(p, 'Bot password deleted', 'deleted', { user, appId });
      }
      default:
        return showBotForm(p, appId, { grants });
    }
  } catch (e) {
    const error = formError(e);
    if (error === null) throw e;
    return showBotForm(p, appId, { error, grants });
  }
}

export const botPasswordsPage: PageHandler = async (p) => {
  const { caller } = p;
  // MediaWiki's requireNamedUser: anonymous visitors are sent to log in and brought back.
  if (caller.user.anonymous) {
    const here = p.subpage === null ? 'Special:BotPasswords' : `Special:BotPasswords/${p.subpage}`;
    return redirect(p, loginPath(here, 'exception-nologin-text'));
  }
  // The page's restriction (editmyprivateinfo; a bot password's session never gets here: web pages see it as anonymous).
  if (lacksRight(p, 'editmyprivateinfo', 'edit your private information')) return;
  // $par as MediaWiki has it: the title's DB key after the "/", without surrounding blanks.
  const appId = p.subpage?.replace(/^[\s_]+|[\s_]+$/g, '') ?? '';
  if (appId === '') {
    if (p.method === 'GET') return showList(p);
    const wanted = field(p, 'wpappId').trim();
    if (!(await validCsrf(p))) return showList(p, { error: SESSION_FAILURE, appId: wanted });
    if (!validAppIdLength(wanted)) return showList(p, { error: badAppIdMessage(wanted), appId: wanted });
    return redirect(p, specialPath('BotPasswords', wanted));
  }
  if (!validAppIdLength(appId)) {
    return send(p, { title: 'Bot passwords', status: 400, body: messageBox('error', badAppIdMessage(appId)) });
  }
  return p.method === 'GET' ? showBotForm(p, appId) : submitBotForm(p, appId);
};
