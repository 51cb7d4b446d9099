/*
 * Special:UserLogin (MediaWiki's form login through the auth service's Login RPC, with the TOTP
 * step for users with two-factor) and Special:UserLogout. The login form is protected by the
 * session's login token; main-account passwords only, as in MediaWiki (bot passwords are for the API).
 */
import { LoginResponse_Status as Status, type LoginResponse } from '../clients/types.js';
import { plainTextLines } from '../action/modules/support.js';
import { hidden, html, messageBox, multiline, type SafeHtml } from './html.js';
import { returnToPath, specialPath } from './paths.js';
import { anonymousCaller, csrfToken, field, param, queryParam, redirect, send, SESSION_FAILURE, sessionFormTokens, validCsrf, type PageHandler, type PageRequest } from './request.js';

/** Login page notices MediaWiki shows for `warning=<key>` (only these keys; the parameter is never echoed). */
const LOGIN_WARNINGS: Record<string, string> = {
  'exception-nologin-text': 'Please log in to be able to access this page or action.',
};

/** MediaWiki's "nocookieslogin". */
function noCookies(sitename: string): string {
  return `${sitename} uses cookies to log in users.\nYou have cookies disabled.\nPlease enable them and try again.`;
}

interface LoginFormState {
  name?: string;
  error?: string;
  status?: number;
}

function returnFields(p: PageRequest): SafeHtml {
  const returnTo = param(p, 'returnto');
  const returnToQuery = param(p, 'returntoquery');
  return html`${returnTo ? hidden('returnto', returnTo) : ''}${returnToQuery ? hidden('returntoquery', returnToQuery) : ''}`;
}

async function showLoginForm(p: PageRequest, state: LoginFormState): Promise<void> {
  const token = (await sessionFormTokens(p, ['login'])).login;
  const warning = LOGIN_WARNINGS[queryParam(p, 'warning')];
  const body = html`
${warning ? messageBox('warning', warning) : ''}
${!p.caller.user.anonymous ? messageBox('notice', multiline(`You are already logged in as ${p.caller.user.name}.\nUse the form below to log in as another user.`)) : ''}
${state.error ? messageBox('error', multiline(state.error)) : ''}
<form method="post" action="${specialPath('UserLogin')}" name="userlogin">
<label class="field" for="wpName1">Username</label>
<input type="text" id="wpName1" name="wpName" value="${state.name ?? ''}" placeholder="Enter your username" autocomplete="username" required autofocus>
<label class="field" for="wpPassword1">Password</label>
<input type="password" id="wpPassword1" name="wpPassword" placeholder="Enter your password" autocomplete="current-password" required>
<p><label><input type="checkbox" name="wpRemember" value="1" id="wpRemember"> Keep me logged in</label></p>
${hidden('wpLoginToken', token)}${hidden('authAction', 'login')}${returnFields(p)}
<div class="buttons"><button type="submit" class="primary" id="wpLoginAttempt">Log in</button></div>
</form>`;
  send(p, { title: 'Log in', body, status: state.status ?? 200 });
}

/** The second step for an account with two-factor: the code from the authenticator app. */
async function showTotpForm(p: PageRequest, sessionId: string, r: LoginResponse): Promise<void> {
  const token = (await sessionFormTokens(p, ['login'], sessionId)).login;
  const failed = r.messageCode === 'oathauth-login-failed';
  const body = html`
${messageBox(failed ? 'error' : 'notice', multiline(plainTextLines(r.message)))}
<form method="post" action="${specialPath('UserLogin')}" name="userlogin">
<label class="field" for="OATHToken">Code</label>
<input type="text" id="OATHToken" name="OATHToken" inputmode="numeric" autocomplete="one-time-code" required autofocus>
${hidden('wpLoginToken', token)}${hidden('authAction', 'login-continue')}${returnFields(p)}
<div class="buttons"><button type="submit" class="primary">Continue login</button></div>
</form>`;
  send(p, { title: 'Log in', body });
}

export const userLoginPage: PageHandler = async (p) => {
  if (p.method === 'GET') return showLoginForm(p, {});
  const name = field(p, 'wpName');
  const { caller, deps } = p;
  // No session: the login token (and with it the form) came from a session the browser did not keep.
  if (!caller.sessionId) return showLoginForm(p, { name, error: noCookies(deps.config.sitename) });
  if (!(await deps.clients.auth.checkToken(caller.sessionId, 'login', field(p, 'wpLoginToken'))).valid) {
    return showLoginForm(p, { name, error: SESSION_FAILURE });
  }
  const r =
    field(p, 'authAction') === 'login-continue'
      ? await deps.clients.auth.continueLogin({ sessionId: caller.sessionId, totpCode: field(p, 'OATHToken'), ip: caller.ip })
      : await deps.clients.auth.login({
          sessionId: caller.sessionId,
          username: name,
          password: field(p, 'wpPassword'),
          ip: caller.ip,
          botPasswordAllowed: false,
          remember: field(p, 'wpRemember') === '1',
        });
  if (r.status === Status.PASS) {
    caller.cookies?.set(r.sessionId, r.persistentSeconds ? { maxAgeSeconds: r.persistentSeconds } : undefined);
    return redirect(p, returnToPath(param(p, 'returnto'), param(p, 'returntoquery')));
  }
  if (r.status === Status.UI) {
    if (r.sessionId !== caller.sessionId) caller.cookies?.set(r.sessionId);
    return showTotpForm(p, r.sessionId, r);
  }
  return showLoginForm(p, { name: r.user?.name ?? name, error: plainTextLines(r.message) || 'Your login failed - Aborted' });
};

export const userLogoutPage: PageHandler = async (p) => {
  const { caller, deps } = p;
  if (caller.user.anonymous) {
    return send(p, { title: 'Log out', body: html`${messageBox('notice', 'You are not logged in.')}<p><a href="${specialPath('UserLogin')}">Log in</a></p>` });
  }
  if (p.method === 'POST' && (await validCsrf(p))) {
    await deps.clients.auth.logout(caller.sessionId);
    caller.cookies?.clear();
    return send(
      { ...p, caller: anonymousCaller(caller.ip) },
      { title: 'Log out', body: html`${messageBox('success', html`<strong>You are now logged out.</strong>`)}<p><a href="${specialPath('UserLogin')}">Log in again</a></p>` },
    );
  }
  const body = html`
${p.method === 'POST' ? messageBox('error', multiline(SESSION_FAILURE)) : ''}
<form method="post" action="${specialPath('UserLogout')}">
<p>Do you want to log out?</p>
${hidden('wpEditToken', await csrfToken(p))}
<div class="buttons"><button type="submit" class="primary">Log out</button></div>
</form>`;
  send(p, { title: 'Log out', body });
};
