/*
 * Special pages of one's account and of sysops: Preferences (the account's facts, with links to
 * change the password and manage bot passwords), ChangePassword (the current password checked by a
 * throwaway login, the new one set by the auth service's policy), MovePage (wpNewTitleNs,
 * wpNewTitleMain, wpReason, wpMovetalk, wpLeaveRedirect), Undelete (the deleted revisions of a
 * title, restored whole) and Block (wpTarget, wpExpiry, wpReason, wpCreateAccount,
 * wpDisableUTEdit). Every POST carries the session's token.
 */
import { LoginResponse_Status } from '../clients/types.js';
import { countEdits, editActor, moveEdits, pageWriteBlock } from '../action/modules/writes.js';
import { hidden, html, messageBox, SafeHtml } from './html.js';
import { articlePath, indexPath, loginPath, specialPath, type SpecialPageName } from './paths.js';
import { csrfToken, field, param, send, SESSION_FAILURE, validCsrf, type PageHandler, type PageRequest } from './request.js';
import { BLOCKED_ACTION, mayAct } from './sysop.js';
import { errorText, formatTime, userLinks } from './wiki.js';
import { DEFAULT_USER_OPTIONS } from '../action/query/userinfo.js';

/** Login-only pages send anonymous visitors to the login form, which brings them back. */
function needsLogin(p: PageRequest, name: SpecialPageName): boolean {
  if (!p.caller.user.anonymous) return false;
  p.res.set('Cache-Control', 'private, no-store');
  p.res.redirect(302, loginPath(`Special:${name}`, 'exception-nologin-text'));
  return true;
}

/** The POST's token, or the session failure box (undefined when it is fine or not a POST). */
async function postProblem(p: PageRequest): Promise<SafeHtml | undefined> {
  if (p.method !== 'POST') return undefined;
  return (await validCsrf(p)) ? undefined : messageBox('error', SESSION_FAILURE);
}

/**
 * Two-factor enrolment (OATHAuth's Special:OATHManage, as a Preferences section): enabling shows the
 * new secret once and asks for a code from the app to confirm it was added (a wrong code offers to
 * switch it off again); disabling needs a valid code.
 */
async function twoFactor(p: PageRequest): Promise<SafeHtml> {
  const u = p.caller.user;
  const { account, auth } = p.deps.clients;
  const op = p.method === 'POST' ? field(p, 'op') : '';
  const code = () => JSON.stringify({ token: field(p, 'OATHToken').trim() });
  let notice: SafeHtml | '' = '';
  if (op === 'enable') {
    const r = await auth.enableTotp({ user: u.name });
    notice = messageBox(
      'warning',
      html`<strong>Two-factor authentication is now on.</strong> Add this key to your authenticator app now; it is not shown again:<br><span class="secret" id="mw-oath-secret">${r.secret}</span><br><code id="mw-oath-uri">${r.uri}</code><br>Then enter the code the app shows to confirm.`,
    );
  } else if (op === 'confirm' || op === 'disable') {
    const v = await account.verifyTwoFactor(u.name, code());
    if (!v.valid) notice = messageBox('error', 'The code is not valid. Try again with a new code.');
    else if (op === 'disable') {
      await auth.disableTotp({ user: u.name });
      notice = messageBox('success', 'Two-factor authentication is now off.');
    } else notice = messageBox('success', 'The code is valid: your authenticator app is set up.');
  }
  const enabled = (await account.verifyTwoFactor(u.name, '{}')).enabled;
  const token = await csrfToken(p);
  const codeField = html`<label class="field" for="OATHToken">Code from the app</label><input type="text" name="OATHToken" id="OATHToken" inputmode="numeric" autocomplete="one-time-code">`;
  const form = enabled
    ? html`<form method="post" action="${specialPath('Preferences')}">${codeField}${hidden('wpEditToken', token)}<div class="buttons">${op === 'enable' || op === 'confirm' ? html`<button type="submit" name="op" value="confirm" class="primary">Confirm</button>` : ''}<button type="submit" name="op" value="disable" class="destructive">Disable two-factor authentication</button></div></form>`
    : html`<form method="post" action="${specialPath('Preferences')}">${hidden('wpEditToken', token)}<div class="buttons"><button type="submit" name="op" value="enable" id="mw-oath-enable">Enable two-factor authentication</button></div></form>`;
  return html`<fieldset id="mw-prefsection-oath"><legend>Two-factor authentication</legend>${notice}<p>Status: <strong>${enabled ? 'enabled' : 'disabled'}</strong></p>${form}</fieldset>`;
}

/** $wgMaxSigChars. */
const MAX_SIG_CHARS = 255;
/** The date formats of English (MessagesEn.php $datePreferences), with an example each. */
const DATE_FORMATS: [string, string][] = [
  ['default', 'No preference'],
  ['mdy', '16:12, January 15, 2001'],
  ['dmy', '16:12, 15 January 2001'],
  ['ymd', '16:12, 2001 January 15'],
  ['ISO 8601', '2001-01-15T16:12:34'],
];

/** timecorrection's choices: the wiki's default, or a whole-hour offset from UTC ("Offset|minutes"). */
function timeChoices(): [string, string][] {
  const out: [string, string][] = [['System|0', 'Use wiki default (UTC)']];
  for (let h = -12; h <= 14; h++) {
    const sign = h < 0 ? '-' : '+';
    out.push([`Offset|${h * 60}`, `UTC${sign}${String(Math.abs(h)).padStart(2, '0')}:00`]);
  }
  return out;
}

const on = (v: unknown) => v !== undefined && v !== 0 && v !== '0' && v !== false && v !== '';

/**
 * The options of Preferences (MediaWiki's form fields, action=options' keys): the signature
 * (wpnickname, wpfancysig), the date format and time offset (wpdate, wptimecorrection), the
 * editing defaults (wpminordefault, wpwatchdefault, wpwatchcreations) and wpshowhiddencats. A
 * POST with op=options saves them; a value equal to the wiki's default is stored as no override.
 */
async function options(p: PageRequest, optionsJson: string): Promise<SafeHtml> {
  let saved: SafeHtml | '' = '';
  let own: Record<string, unknown> = {};
  try {
    own = JSON.parse(optionsJson || '{}') as Record<string, unknown>;
  } catch {
    own = {};
  }
  if (p.method === 'POST' && field(p, 'op') === 'options') {
    const wanted: Record<string, string> = {
      nickname: field(p, 'wpnickname')
        .replace(/[\r\n]+/g, ' ')
        .trim(),
      fancysig: field(p, 'wpfancysig') === '1' ? '1' : '0',
      date: DATE_FORMATS.some(([v]) => v === field(p, 'wpdate')) ? field(p, 'wpdate') : 'default',
      timecorrection: timeChoices().some(([v]) => v === field(p, 'wptimecorrection')) ? field(p, 'wptimecorrection') : 'System|0',
      minordefault: field(p, 'wpminordefault') === '1' ? '1' : '0',
      watchdefault: field(p, 'wpwatchdefault') === '1' ? '1' : '0',
      watchcreations: field(p, 'wpwatchcreations') === '1' ? '1' : '0',
      showhiddencats: field(p, 'wpshowhiddencats') === '1' ? '1' : '0',
    };
    if ([...wanted.nickname!].length > MAX_SIG_CHARS) {
      saved = messageBox('error', `Your signature is too long. It must not be more than ${MAX_SIG_CHARS} characters long.`);
    } else {
      const set: Record<string, string> = {};
      const unset: string[] = [];
      for (const [k, v] of Object.entries(wanted)) {
        const d = DEFAULT_USER_OPTIONS[k];
        if (String(d === true ? 1 : d === false ? 0 : (d ?? '')) === v) unset.push(k);
        else set[k] = v;
      }
      const r = await p.deps.clients.auth.changeOptions({ userId: p.caller.user.id, reset: false, set, unset });
      own = JSON.parse(r.optionsJson || '{}') as Record<string, unknown>;
      saved = messageBox('success', 'Your preferences have been saved.');
    }
  }
  const opt = { ...DEFAULT_USER_OPTIONS, ...own };
  const checked = (k: string) => (on(opt[k]) ? new SafeHtml(' checked') : '');
  const box = (k: string, label: string) => html`<label><input type="checkbox" name="wp${k}" id="mw-input-wp${k}" value="1"${checked(k)}> ${label}</label><br>`;
  const date = String(opt.date ?? 'default');
  const tc = String(opt.timecorrection ?? 'System|0');
  return html`${saved}<form method="post" action="${specialPath('Preferences')}" id="mw-prefs-form">
<fieldset id="mw-prefsection-personal-signature"><legend>Signature</legend>
<label class="field" for="mw-input-wpnickname">New signature:</label><input type="text" name="wpnickname" id="mw-input-wpnickname" maxlength="${MAX_SIG_CHARS}" value="${String(opt.nickname ?? '')}"><br>
${box('fancysig', 'Treat signature as wikitext (without an automatic link)')}
</fieldset>
<fieldset id="mw-prefsection-rendering"><legend>Appearance</legend>
<p>Date format:</p>${DATE_FORMATS.map(([v, label]) => html`<label><input type="radio" name="wpdate" value="${v}"${date === v ? new SafeHtml(' checked') : ''}> ${label}</label><br>`)}
<label class="field" for="mw-input-wptimecorrection">Time zone:</label><select name="wptimecorrection" id="mw-input-wptimecorrection">${timeChoices().map(([v, label]) => html`<option value="${v}"${tc === v ? new SafeHtml(' selected') : ''}>${label}</option>`)}</select><br>
${box('showhiddencats', 'Show hidden categories')}
</fieldset>
<fieldset id="mw-prefsection-editing"><legend>Editing</legend>
${box('minordefault', 'Mark all edits minor by default')}
${box('watchdefault', 'Add pages and files I edit to my watchlist')}
${box('watchcreations', 'Add pages I create and files I upload to my watchlist')}
</fieldset>
${hidden('wpEditToken', await csrfToken(p))}<div class="buttons"><button type="submit" name="op" value="options" id="mw-prefs-save" class="primary">Save</button></div></form>`;
}

const preferencesPage: PageHandler = async (p) => {
  if (needsLogin(p, 'Preferences')) return;
  const u = p.caller.user;
  const problem = await postProblem(p);
  const info = (await p.deps.clients.auth.getUsers({ names: [u.name] })).users[0];
  const body = html`${problem ?? ''}<fieldset><legend>Basic information</legend><table>
<tr><th>Username:</th><td>${u.name}</td></tr>
<tr><th>Member of groups:</th><td>${u.groups.filter((g) => g !== '*' && g !== 'user').join(', ') || '(none)'}</td></tr>
${info ? html`<tr><th>Number of edits:</th><td>${Number(info.editcount)}</td></tr><tr><th>Registration time:</th><td>${info.registration ? formatTime(info.registration) : ''}</td></tr>` : ''}
<tr><th>Password:</th><td><a href="${specialPath('ChangePassword')}" id="mw-pref-change-password">Change password</a></td></tr>
<tr><th>Email address:</th><td id="mw-pref-email">${info?.email ? html`${info.email} ` : ''}<a href="${specialPath('ChangeEmail')}" id="mw-pref-change-email">${info?.email ? 'Change or remove email address' : 'Set an email address'}</a></td></tr>
<tr><th>Bot passwords:</th><td><a href="${specialPath('BotPasswords')}">Manage bot passwords</a></td></tr>
</table></fieldset>
${problem ? '' : await options(p, info?.optionsJson ?? '')}
${problem ? '' : await twoFactor(p)}`;
  send(p, { title: 'Preferences', body });
};

/** Sanitizer::validateEmail: atext (RFC 5322) before the @, LDH labels (RFC 1034) after it. */
export function validEmail(address: string): boolean {
  return /^[a-z0-9!#$%&'*+\-/=?^_`{|}~.]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i.test(address);
}

/**
 * Special:ChangeEmail (SpecialChangeEmail, $wgRequirePasswordforEmailChange): the current password
 * proves the owner is at the keyboard; an empty address removes it. The address is stored and
 * shown (Preferences, meta=userinfo&uiprop=email); no mail is sent, so it stays unconfirmed.
 */
const changeEmailPage: PageHandler = async (p) => {
  if (needsLogin(p, 'ChangeEmail')) return;
  const u = p.caller.user;
  const { auth } = p.deps.clients;
  let current = (await auth.getUsers({ ids: [u.id] })).users[0]?.email ?? '';
  let notice = await postProblem(p);
  if (p.method === 'POST' && !notice) {
    const next = field(p, 'wpNewEmail').trim();
    if (next === current) notice = messageBox('error', 'Please enter a different new email address.');
    else if (next !== '' && !validEmail(next)) {
      notice = messageBox('error', 'The email address cannot be accepted as it appears to have an invalid format. Please enter a well-formatted address or empty that field.');
    } else {
      // As the password change: a login that is thrown away.
      const check = await auth.login({ sessionId: '', username: u.name, password: field(p, 'wpPassword'), ip: p.caller.ip, botPasswordAllowed: false, remember: false });
      if (check.sessionId && check.sessionId !== p.caller.sessionId) await auth.logout(check.sessionId);
      if (check.status !== LoginResponse_Status.PASS && check.status !== LoginResponse_Status.UI) notice = messageBox('error', 'Incorrect password entered. Please try again.');
      else {
        await auth.changeOptions({ userId: u.id, reset: false, set: {}, unset: [], email: next });
        current = next;
        notice = messageBox('success', next === '' ? 'Your email address has been removed.' : 'Your email address has been changed.');
      }
    }
  }
  const body = html`${notice ?? ''}<p>Complete this form to change your email address. If you would like to remove the association of any email address from your account, leave the new email address blank when submitting the form.</p>
<form method="post" action="${specialPath('ChangeEmail')}" id="mw-changeemail">
<p>Current email address: <span id="mw-changeemail-current">${current || '(none)'}</span></p>
<label class="field" for="wpNewEmail">New email address:</label><input type="email" name="wpNewEmail" id="wpNewEmail" autocomplete="email" maxlength="255">
<label class="field" for="wpPassword">Password:</label><input type="password" name="wpPassword" id="wpPassword" autocomplete="current-password" required>
${hidden('wpEditToken', await csrfToken(p))}<div class="buttons"><button type="submit" class="primary" id="mw-changeemail-submit">Change email</button></div></form>
<p><a href="${specialPath('Preferences')}">Back to preferences</a></p>`;
  send(p, { title: 'Change or remove email address', body });
};

const changePasswordPage: PageHandler = async (p) => {
  if (needsLogin(p, 'ChangePassword')) return;
  const name = p.caller.user.name;
  let notice = await postProblem(p);
  if (p.method === 'POST' && !notice) {
    const next = field(p, 'password');
    if (next !== field(p, 'retype')) notice = messageBox('error', 'The passwords you entered do not match.');
    else {
      // The current password proves it is the account's owner at the keyboard: a login that is thrown away.
      const check = await p.deps.clients.auth.login({ sessionId: '', username: name, password: field(p, 'wpPassword'), ip: p.caller.ip, botPasswordAllowed: false, remember: false });
      if (check.sessionId && check.sessionId !== p.caller.sessionId) await p.deps.clients.auth.logout(check.sessionId);
      if (check.status !== LoginResponse_Status.PASS && check.status !== LoginResponse_Status.UI) notice = messageBox('error', 'The current password is incorrect.');
      else {
        const policy = await p.deps.clients.auth.validatePassword({ username: name, password: next, email: '', realname: '' });
        if (policy.validity !== 'Good') notice = messageBox('error', policy.messages.map((m) => m.text).join(' ') || 'The new password is not valid.');
        else {
          await p.deps.clients.auth.changePassword({ username: name, password: next });
          notice = messageBox('success', 'Your password has been changed.');
        }
      }
    }
  }
  const body = html`${notice ?? ''}<form method="post" action="${specialPath('ChangePassword')}" id="mw-changepassword">
<label class="field" for="wpPassword">Current password</label><input type="password" name="wpPassword" id="wpPassword" autocomplete="current-password" required>
<label class="field" for="password">New password</label><input type="password" name="password" id="password" autocomplete="new-password" required>
<label class="field" for="retype">Confirm password</label><input type="password" name="retype" id="retype" autocomplete="new-password" required>
${hidden('wpEditToken', await csrfToken(p))}<div class="buttons"><button type="submit" class="primary" id="mw-changepassword-submit">Change password</button></div></form>`;
  send(p, { title: 'Change password', body });
};

const movePage: PageHandler = async (p) => {
  if (needsLogin(p, 'MovePage') || !(await mayAct(p, 'move', 'move this page'))) return;
  const from = (p.subpage ?? param(p, 'wpOldTitle') ?? param(p, 'target')).replaceAll('_', ' ').trim();
  const source = from ? (await p.deps.clients.content.resolvePages({ titles: [from] })).pages[0] : undefined;
  if (!source || source.missing) return send(p, { title: 'Move page', status: 404, body: messageBox('error', 'The page you wanted to move does not exist. Choose it from its tabs.') });
  const namespaces = (await p.deps.site.namespaces()).namespaces.filter((n) => n.id >= 0);
  let notice = await postProblem(p);
  if (p.method === 'POST' && !notice) {
    const ns = namespaces.find((n) => String(n.id) === field(p, 'wpNewTitleNs'));
    const to = ns?.name ? `${ns.name}:${field(p, 'wpNewTitleMain')}` : field(p, 'wpNewTitleMain');
    // A partial block covers moves from and to its pages and namespaces, as action=move.
    if (await pageWriteBlock(p.deps, p.caller, [{ title: source.title }, { title: to }])) notice = messageBox('error', BLOCKED_ACTION);
    else
      try {
        const r = await p.deps.clients.content.movePage({
          from: source.title,
          to,
          reason: field(p, 'wpReason'),
          moveTalk: field(p, 'wpMovetalk') !== '',
          noRedirect: field(p, 'wpLeaveRedirect') === '',
          actor: editActor(p.caller),
          watchlist: field(p, 'wpWatch') ? 'watch' : 'nochange',
        });
        countEdits(p.deps, p.caller, moveEdits(r));
        const moved = r.page?.to ?? to;
        return send(p, {
          title: 'Move succeeded',
          body: messageBox('success', html`"<a href="${indexPath(source.title, { redirect: 'no' })}">${source.title}</a>" has been moved to "<a href="${articlePath(moved)}">${moved}</a>".`),
        });
      } catch (e) {
        notice = messageBox('error', errorText(e));
      }
  }
  const text = source.ns === 0 ? source.title : source.title.slice(source.title.indexOf(':') + 1);
  const body = html`${notice ?? ''}<p>Using the form below will rename a page, moving all of its history to the new name. The old title will become a redirect page to the new title.</p>
<form method="post" action="${specialPath('MovePage')}" id="movepage">${hidden('wpOldTitle', source.title)}
<label class="field" for="wpNewTitleMain">New title:</label>
<select name="wpNewTitleNs" aria-label="Namespace">${namespaces.map((n) => html`<option value="${n.id}"${n.id === source.ns ? new SafeHtml(' selected') : ''}>${n.name || '(Main)'}</option>`)}</select>
<input type="text" name="wpNewTitleMain" id="wpNewTitleMain" value="${field(p, 'wpNewTitleMain') || text}" required>
<label class="field" for="wpReason">Reason:</label><input type="text" name="wpReason" id="wpReason" maxlength="500" value="${field(p, 'wpReason')}">
<p><label><input type="checkbox" name="wpMovetalk" value="1" checked> Move associated talk page</label><br>
<label><input type="checkbox" name="wpLeaveRedirect" value="1" checked> Leave a redirect behind</label><br>
<label><input type="checkbox" name="wpWatch" value="1"> Watch source page and target page</label></p>
${hidden('wpEditToken', await csrfToken(p))}<div class="buttons"><button type="submit" class="primary" name="wpMove" id="wpMove" value="Move page">Move page</button></div></form>`;
  send(p, { title: `Move ${source.title}`, body });
};

const undeletePage: PageHandler = async (p) => {
  if (needsLogin(p, 'Undelete') || !(await mayAct(p, 'undelete', 'view deleted history'))) return;
  const target = (p.subpage ?? param(p, 'target')).replaceAll('_', ' ').trim();
  const { archive, content } = p.deps.clients;
  if (!target) {
    const r = await archive.listArchivedRevisions({ allNamespaces: true, uniqueTitles: true, limit: 200 });
    const body = html`<p>Deleted pages that can be restored:</p>${r.revisions.length ? html`<ul class="list">${r.revisions.map((x) => html`<li><a href="${specialPath('Undelete', x.title)}">${x.title}</a></li>`)}</ul>` : html`<p>No matching pages found in the archive.</p>`}`;
    return send(p, { title: 'View and restore deleted pages', body });
  }
  let notice = await postProblem(p);
  if (p.method === 'POST' && !notice) {
    if (await pageWriteBlock(p.deps, p.caller, [{ title: target }])) notice = messageBox('error', BLOCKED_ACTION);
    else
      try {
        const r = await content.undeletePage({ title: target, reason: field(p, 'wpComment'), actor: editActor(p.caller) });
        return send(p, { title: 'Undelete', body: messageBox('success', html`${r.revisions} revision${r.revisions === 1 ? '' : 's'} restored. <a href="${articlePath(target)}">${target}</a>`) });
      } catch (e) {
        notice = messageBox('error', errorText(e));
      }
  }
  const r = await archive.listArchivedRevisions({ titles: [target], allNamespaces: true, limit: 500 });
  const rows = r.revisions.map(
    (x) =>
      x.revision &&
      html`<li>${formatTime(x.revision.timestamp)} ${userLinks(x.revision.userText, x.revision.userId === 0)} (${x.revision.size} bytes) <span class="comment">${x.revision.comment}</span></li>`,
  );
  const body = html`${notice ?? ''}${
    r.revisions.length === 0
      ? messageBox('notice', 'There are no deleted revisions of this page.')
      : html`<form method="post" action="${specialPath('Undelete', target)}" id="undelete">
<label class="field" for="wpComment">Reason:</label><input type="text" name="wpComment" id="wpComment">
${hidden('wpEditToken', await csrfToken(p))}${hidden('target', target)}<div class="buttons"><button type="submit" class="primary" name="restore" id="mw-undelete-submit" value="1">Undelete</button></div></form>
<h2>Page history</h2><ul class="list">${rows}</ul>`
  }`;
  send(p, { title: `Undelete "${target}"`, body });
};

const blockPage: PageHandler = async (p) => {
  if (needsLogin(p, 'Block') || !(await mayAct(p, 'block', 'block users'))) return;
  let notice = await postProblem(p);
  const target = (field(p, 'wpTarget') || (p.subpage ?? '')).replaceAll('_', ' ').trim();
  if (p.method === 'POST' && !notice) {
    try {
      const expiry = field(p, 'wpExpiry') === 'other' ? field(p, 'wpExpiry-other') : field(p, 'wpExpiry') || 'infinite';
      const r = await p.deps.clients.auth.block({
        target,
        expiry,
        reason: field(p, 'wpReason'),
        performerId: p.caller.user.id,
        performer: p.caller.user.name,
        anononly: field(p, 'wpHardBlock') === '',
        nocreate: field(p, 'wpCreateAccount') !== '',
        noemail: false,
        allowusertalk: field(p, 'wpDisableUTEdit') === '',
        reblock: field(p, 'wpReblock') !== '',
        tags: [],
      });
      return send(p, { title: 'Block succeeded', body: messageBox('success', html`<a href="${specialPath('Contributions', r.user)}">${r.user}</a> has been blocked.`) });
    } catch (e) {
      notice = messageBox('error', errorText(e));
    }
  }
  const expiries = ['2 hours', '1 day', '3 days', '1 week', '2 weeks', '1 month', '3 months', '6 months', '1 year', 'infinite'];
  const body = html`${notice ?? ''}<form method="post" action="${specialPath('Block')}" id="mw-block-form">
<label class="field" for="mw-bi-target">Username, IP address or IP range:</label><input type="text" name="wpTarget" id="mw-bi-target" value="${target}" required>
<label class="field" for="wpExpiry">Expiration:</label><select name="wpExpiry" id="wpExpiry">${expiries.map((x) => html`<option value="${x}"${x === 'infinite' ? new SafeHtml(' selected') : ''}>${x}</option>`)}<option value="other">Other time:</option></select>
<input type="text" name="wpExpiry-other" aria-label="Other time">
<label class="field" for="mw-input-wpReason">Reason:</label><input type="text" name="wpReason" id="mw-input-wpReason" maxlength="500">
<p><label><input type="checkbox" name="wpCreateAccount" value="1" checked> Account creation</label><br>
<label><input type="checkbox" name="wpDisableUTEdit" value="1"> Prevent this user from editing their own talk page</label><br>
<label><input type="checkbox" name="wpHardBlock" value="1"> Apply block to logged-in users from this IP address</label><br>
<label><input type="checkbox" name="wpReblock" value="1"> Change an existing block</label></p>
${hidden('wpEditToken', await csrfToken(p))}<div class="buttons"><button type="submit" class="destructive" id="mw-block-submit">Block</button></div></form>`;
  send(p, { title: 'Block user', body });
};

export const ADMIN_SPECIAL_HANDLERS = {
  Preferences: preferencesPage,
  ChangePassword: changePasswordPage,
  ChangeEmail: changeEmailPage,
  MovePage: movePage,
  Undelete: undeletePage,
  Block: blockPage,
} satisfies Partial<Record<SpecialPageName, PageHandler>>;
