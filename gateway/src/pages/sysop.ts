/*
 * The sysop actions on a page: action=delete (DeleteAction: wpReason, wpConfirmB) and
 * action=protect (ProtectionForm: mwProtect-level-<type>, mwProtect-expiry-<type>,
 * mwProtect-reason, mwProtect-cascade). Each POST carries the session's token and goes through
 * the same service calls as action=delete / action=protect.
 */
import type { PageRecord, ProtectionLevel } from '../clients/types.js';
import { moduleExpiry } from '../action/modules/support.js';
import { editActor, pageWriteBlock } from '../action/modules/writes.js';
import { hidden, html, messageBox, SafeHtml } from './html.js';
import { articlePath, indexPath } from './paths.js';
import { csrfToken, field, send, SESSION_FAILURE, validCsrf, type PageRequest } from './request.js';
import { errorText, hasRight, pageTabs } from './wiki.js';

/** MediaWiki's refusal of a blocked user's action (the `blockedtext` page, in short). */
export const BLOCKED_ACTION = 'You are blocked from performing this action.';

/**
 * A sysop action's guard: the right, and no block that covers the page (a sitewide block, or a
 * partial one naming the page or its namespace: PermissionManager::checkUserBlock); answers the
 * refusal and returns false otherwise.
 */
export async function mayAct(p: PageRequest, right: string, what: string, page?: PageRecord): Promise<boolean> {
  const block = await pageWriteBlock(p.deps, p.caller, page ? [{ title: page.title }] : []);
  if (hasRight(p, right) && !block) return true;
  const reason = block ? BLOCKED_ACTION : `You do not have permission to ${what}, for the following reason: The action you have requested is limited to users in the group: Administrators.`;
  send(p, { title: 'Permission error', status: 403, body: messageBox('error', reason), tabs: page ? await pageTabs(p, page, 'none') : undefined });
  return false;
}

/** The posted form is this session's (answers the session failure otherwise). */
async function tokenChecked(p: PageRequest, title: string, page?: PageRecord): Promise<boolean> {
  if (await validCsrf(p)) return true;
  send(p, { title, status: 400, body: messageBox('error', SESSION_FAILURE), tabs: page ? await pageTabs(p, page, 'none') : undefined });
  return false;
}

export async function deleteAction(p: PageRequest, page: PageRecord): Promise<void> {
  if (!(await mayAct(p, 'delete', 'delete this page', page))) return;
  const title = `Delete "${page.title}"`;
  const tabs = await pageTabs(p, page, 'delete');
  if (page.missing) return send(p, { title, status: 404, tabs, body: messageBox('error', 'The page could not be deleted: it does not exist.') });
  let error: string | undefined;
  if (p.method === 'POST') {
    if (!(await tokenChecked(p, title, page))) return;
    try {
      await p.deps.clients.content.deletePage({ title: page.title, reason: field(p, 'wpReason'), actor: editActor(p.caller), watchlist: field(p, 'wpWatch') ? 'watch' : 'nochange' });
      return send(p, {
        title: 'Action complete',
        body: html`${messageBox('success', html`"${page.title}" has been deleted. See <a href="${indexPath('Special:Log', { type: 'delete' })}">deletion log</a> for a record of recent deletions.`)}<p><a href="${articlePath('Main Page')}">Return to Main Page.</a></p>`,
      });
    } catch (e) {
      error = errorText(e);
    }
  }
  const body = html`${error ? messageBox('error', error) : ''}${messageBox('warning', 'You are about to delete a page along with all of its history. Please confirm that you intend to do this, that you understand the consequences, and that you are doing this in accordance with the policy.')}
<form method="post" action="${indexPath(page.title, { action: 'delete' })}" id="deleteconfirm">
<fieldset><legend>Delete</legend>
<label class="field" for="wpReason">Reason:</label><input type="text" name="wpReason" id="wpReason" maxlength="255" value="${field(p, 'wpReason')}">
<p><label><input type="checkbox" name="wpWatch" value="1" id="wpWatch"> Watch this page</label></p>
${hidden('wpEditToken', await csrfToken(p))}
<div class="buttons"><button type="submit" class="destructive" name="wpConfirmB" id="wpConfirmB" value="Delete page">Delete page</button></div>
</fieldset></form>`;
  send(p, { title, body, tabs, noindex: true });
}

const LEVELS: [string, string][] = [
  ['', 'Allow all users'],
  ['autoconfirmed', 'Allow only autoconfirmed users'],
  ['sysop', 'Allow only administrators'],
];

export async function protectAction(p: PageRequest, page: PageRecord): Promise<void> {
  const canProtect = hasRight(p, 'protect') && !(await pageWriteBlock(p.deps, p.caller, [{ title: page.title }]));
  const title = `${canProtect ? 'Protect' : 'View protection of'} "${page.title}"`;
  const tabs = await pageTabs(p, page, 'protect');
  const types = page.missing ? ['create'] : ['edit', 'move'];
  let current = (await p.deps.clients.content.getProtection({ titles: [page.dbkey] })).titles[0]?.protections ?? [];
  let notice: SafeHtml | undefined;
  if (p.method === 'POST' && canProtect) {
    if (!(await tokenChecked(p, title, page))) return;
    try {
      const levels: ProtectionLevel[] = types.map((type) => ({
        type,
        level: field(p, `mwProtect-level-${type}`),
        expiry: moduleExpiry(field(p, `mwProtect-expiry-${type}`).trim() || 'infinite'),
        cascade: false,
        source: '',
      }));
      await p.deps.clients.content.protectPage({
        title: page.title,
        protections: levels,
        cascade: field(p, 'mwProtect-cascade') !== '',
        reason: field(p, 'mwProtect-reason'),
        actor: editActor(p.caller),
        watchlist: field(p, 'mwProtectWatch') ? 'watch' : 'nochange',
      });
      notice = messageBox('success', `The protection level of "${page.title}" has been changed.`);
      current = (await p.deps.clients.content.getProtection({ titles: [page.dbkey] })).titles[0]?.protections ?? [];
    } catch (e) {
      notice = messageBox('error', errorText(e));
    }
  }
  const levelOf = (type: string) => current.find((l) => l.type === type);
  const disabled = canProtect ? '' : new SafeHtml(' disabled');
  const sections = types.map((type) => {
    const l = levelOf(type);
    return html`<fieldset><legend>${type === 'edit' ? 'Edit' : type === 'move' ? 'Move' : 'Create'}</legend>
<select name="mwProtect-level-${type}" id="mwProtect-level-${type}"${disabled}>${LEVELS.map(([v, text]) => html`<option value="${v}"${(l?.level ?? '') === v ? new SafeHtml(' selected') : ''}>${text}</option>`)}</select>
<label class="field" for="mwProtect-expiry-${type}">Expires:</label><input type="text" name="mwProtect-expiry-${type}" id="mwProtect-expiry-${type}" value="${l && l.expiry !== 'infinity' ? l.expiry : 'infinite'}"${disabled}>
</fieldset>`;
  });
  const body = html`${notice ?? ''}${canProtect ? '' : messageBox('notice', 'You may view and change the protection level only with the protect right; here are the current settings.')}
<form method="post" action="${indexPath(page.title, { action: 'protect' })}" id="mw-Protect-Form">
${sections}
${page.missing ? '' : html`<p><label><input type="checkbox" name="mwProtect-cascade" id="mwProtect-cascade" value="1"${current.some((x) => x.cascade) ? new SafeHtml(' checked') : ''}${disabled}> Protect pages included in this page (cascading protection)</label></p>`}
<label class="field" for="mwProtect-reason">Reason:</label><input type="text" name="mwProtect-reason" id="mwProtect-reason" maxlength="180"${disabled}>
${canProtect ? html`<p><label><input type="checkbox" name="mwProtectWatch" value="1"> Watch this page</label></p>${hidden('wpEditToken', await csrfToken(p))}<div class="buttons"><button type="submit" class="primary" id="mw-Protect-submit">Confirm</button></div>` : ''}
</form>`;
  send(p, { title, body, tabs, noindex: true });
}
