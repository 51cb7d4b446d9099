/*
 * What the OAuth client workflows share: a browser-like session (cookies, no automatic redirects)
 * that logs in and uses the OAuth special pages the way a person does — registering a consumer
 * on Special:OAuthConsumerRegistration/propose, approving it on Special:OAuthManageConsumers,
 * answering a consent page, revoking on Special:OAuthManageMyGrants. Works against any wiki
 * with the OAuth extension; the runner skips files whose name starts with `_`.
 */
import { apiUrl, check, runId, wiki } from './_workflow.mjs';

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', '#039': "'", '#39': "'" };
const decode = (s) => s.replace(/&(amp|lt|gt|quot|#0?39);/g, (_, e) => ENTITIES[e]);

export const indexUrl = `${wiki.url}/w/index.php`;

/** A person with a browser: keeps cookies, follows nothing by itself. */
export class Browser {
  cookies = new Map();

  async fetch(url, { method = 'GET', form, headers = {} } = {}) {
    const h = { ...headers, 'User-Agent': 'quire-conformance (oauth browser)' };
    if (this.cookies.size) h.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body;
    if (form) {
      body = new URLSearchParams(form).toString();
      h['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(new URL(url, wiki.url), { method, headers: h, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '' || value === 'deleted') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** GET, following redirects that stay on the wiki; the final response and its text. */
  async open(url) {
    let res = await this.fetch(url);
    for (let i = 0; i < 5 && res.status >= 300 && res.status < 400; i++) {
      const next = new URL(res.headers.get('location'), wiki.url);
      if (next.origin !== new URL(wiki.url).origin) break;
      res = await this.fetch(next.toString());
    }
    return { res, text: res.status >= 300 && res.status < 400 ? '' : await res.text() };
  }

  async api(params, { post = false } = {}) {
    const q = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
    const res = post ? await this.fetch(apiUrl, { method: 'POST', form: q }) : await this.fetch(`${apiUrl}?${q}`);
    return res.json();
  }

  /** clientlogin with the main account: the session cookie the special pages use. */
  async login(user = wiki.user, password = wiki.password) {
    const token = (await this.api({ action: 'query', meta: 'tokens', type: 'login' })).query.tokens.logintoken;
    const r = await this.api({ action: 'clientlogin', username: user, password, logintoken: token, loginreturnurl: wiki.url }, { post: true });
    check(r.clientlogin?.status === 'PASS', `clientlogin: ${JSON.stringify(r)}`);
  }

  /** Submits the form of a page (the first one, or the one whose action contains `actionHas`) with extra fields. */
  async submit(pageText, extra, actionHas = '') {
    const forms = [...pageText.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
    const f = forms.find((m) => decode(m[1]).includes(actionHas));
    check(f, `no form${actionHas ? ` for ${actionHas}` : ''} on the page: ${pageText.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const m of f[2].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields.append(decode(m[1]), decode(m[2]));
    for (const [k, v] of Object.entries(extra)) {
      if (Array.isArray(v)) for (const x of v) fields.append(k, x);
      else fields.set(k, v);
    }
    return this.fetch(decode(f[1]), { method: 'POST', form: fields });
  }
}

/** The `<code>` values of a page, in order (the registration result: key, secret, access token, access secret). */
export function codes(text) {
  return [...text.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => decode(m[1]));
}

/**
 * Proposes a consumer on Special:OAuthConsumerRegistration/propose as the logged-in user; an
 * administrator (the same user here: WIKI_USER is a sysop) approves it unless it is owner-only.
 */
export async function registerConsumer(browser, { oauthVersion, ownerOnly = false, callbackUrl = '', callbackIsPrefix = false, grants = [], isPublic = false, name = '' }) {
  const { text: form } = await browser.open(`${indexUrl}?title=Special:OAuthConsumerRegistration/propose`);
  const fields = {
    wpname: name || `Conformance OAuth ${oauthVersion} ${ownerOnly ? 'owner-only ' : ''}${runId}`,
    wpversion: '1.0',
    wpdescription: 'A consumer registered by the conformance workflows.',
    wpoauthVersion: String(oauthVersion),
    wpcallbackUrl: callbackUrl,
    'wpgrants[]': grants.map((g) => `grant-${g}`),
  };
  if (ownerOnly) fields.wpownerOnly = '1';
  if (callbackIsPrefix) fields.wpcallbackIsPrefix = '1';
  if (isPublic) fields.wpoauth2IsPublic = '1';
  const res = await browser.submit(form, fields, 'OAuthConsumerRegistration');
  const text = await res.text();
  check(
    res.status === 200,
    `propose answered ${res.status}: ${text
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 400)}`,
  );
  const [key, secret, accessToken = '', accessSecret = ''] = codes(text);
  check(/^[0-9a-f]{32}$/.test(key ?? ''), `no consumer key on the result page: ${codes(text)}`);
  if (!ownerOnly) {
    const { text: manage } = await browser.open(`${indexUrl}?title=Special:OAuthManageConsumers/proposed`);
    // Every row has its form; the consumer is the posted wpconsumerKey.
    const approved = await browser.submit(manage, { wpaction: 'approve', wpreason: '', wpconsumerKey: key }, 'OAuthManageConsumers');
    const approvedText = await approved.text();
    check(
      /is now approved/.test(approvedText),
      `approval failed: ${approvedText
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 300)}`,
    );
  }
  return { key, secret, accessToken, accessSecret };
}

/** Answers the consent page at `url` (Allow, or Cancel); returns where the wiki sends the browser. */
export async function consent(browser, url, allow = true) {
  const { res, text } = await browser.open(url);
  check(res.status === 200, `consent page answered ${res.status}: ${text.slice(0, 300)}`);
  check(/would like to/.test(text), 'the consent page lists no grants');
  const answer = await browser.submit(text, allow ? { wpAllow: '1' } : { wpCancel: '1' }, 'Special:OAuth');
  return { status: answer.status, location: answer.headers.get('location') ?? '', text: answer.status === 200 ? await answer.text() : '', page: text };
}

/** Revokes the user's authorization of a consumer on Special:OAuthManageMyGrants. */
export async function revoke(browser, key) {
  const { text } = await browser.open(`${indexUrl}?title=Special:OAuthManageMyGrants`);
  const res = await browser.submit(text, { wpconsumerKey: key }, 'OAuthManageMyGrants');
  check(/Access was revoked/.test(await res.text()), 'revocation not confirmed');
}
