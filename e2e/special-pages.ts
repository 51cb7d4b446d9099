/* What the special-page suites share: reading the forms' hidden fields, and API login with a bot password. */
import type { WikiClient } from './harness.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#039': "'" };

function unescapeHtml(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#039);/g, (_m, e: string) => ENTITIES[e]!);
}

/** The hidden fields of a page's forms (the last one wins when several forms repeat a name). */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) out[unescapeHtml(m[1]!)] = unescapeHtml(m[2]!);
  return out;
}

/** action=login with a fresh login token; the client's cookie jar keeps the session. */
export async function apiLogin(c: WikiClient, name: string, password: string): Promise<{ result: string; lgusername?: string }> {
  const token = (await c.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken as string;
  return (await c.post('/w/api.php', { format: 'json', action: 'login', lgname: name, lgpassword: password, lgtoken: token })).json().login;
}

/** meta=userinfo (name, rights) of the client's session. */
export async function apiUserinfo(c: WikiClient): Promise<{ name: string; anon?: boolean; rights: string[] }> {
  return (await c.api({ action: 'query', meta: 'userinfo', uiprop: 'rights', formatversion: '2' })).json().query.userinfo;
}

/** A page's markup without the skin's own script tag (the one script a page may carry). */
export function withoutSkinScript(html: string): string {
  return html.replace(/<script src="\/w\/skins\/quire\.js\?v=[0-9a-f]{12}" defer><\/script>/, '');
}
