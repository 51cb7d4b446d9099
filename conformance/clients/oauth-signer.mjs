/*
 * Requests signed with the npm oauth-1.0a library directly (HMAC-SHA1 over the query, the form
 * body and the Authorization header), the signer mwn and many tools use: GET and POST, a write
 * with the CSRF token; and the refusals — a wrong token secret, a replayed nonce, an old
 * timestamp, a tampered parameter, an unknown consumer.
 */
import crypto from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { apiUrl, check, equal, runId, runSteps } from './_workflow.mjs';
import { Browser, registerConsumer } from './_oauth.mjs';

let consumer;
let token;

function signer(secret) {
  return new OAuth({
    consumer: { key: consumer.key, secret: secret ?? consumer.secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
  });
}

/** A signed request; `fixed` pins oauth_nonce / oauth_timestamp (the library's authorize output is edited before the header is made). */
async function signed(method, params, { secret, tokenSecret, fixed = {}, tamper } = {}) {
  const oauth = signer(secret);
  const data = { format: 'json', formatversion: '2', ...params };
  const url = method === 'GET' ? `${apiUrl}?${new URLSearchParams(data)}` : apiUrl;
  const authData = oauth.authorize({ url, method, data: method === 'POST' ? data : undefined }, { key: token.key, secret: tokenSecret ?? token.secret });
  if (fixed.nonce || fixed.timestamp) {
    Object.assign(authData, { oauth_nonce: fixed.nonce ?? authData.oauth_nonce, oauth_timestamp: fixed.timestamp ?? authData.oauth_timestamp });
    delete authData.oauth_signature;
    authData.oauth_signature = oauth.getSignature({ url, method, data: method === 'POST' ? data : undefined }, tokenSecret ?? token.secret, authData);
  }
  const body = method === 'POST' ? new URLSearchParams(tamper ? { ...data, ...tamper } : data) : undefined;
  const res = await fetch(url, { method, headers: { ...oauth.toHeader(authData), ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) }, body });
  return res.json();
}

const errorCode = (r) => r.error?.code ?? 'no error';

await runSteps('oauth-1.0a signer', [
  [
    'register an owner-only 1.0a consumer',
    async () => {
      const browser = new Browser();
      await browser.login();
      consumer = await registerConsumer(browser, { oauthVersion: 1, ownerOnly: true, grants: ['editpage'] });
      token = { key: consumer.accessToken, secret: consumer.accessSecret };
      check(token.key && token.secret, 'no access token');
      return consumer.key;
    },
  ],
  [
    'signed GET and POST; a write with the CSRF token',
    async () => {
      const me = (await signed('GET', { action: 'query', meta: 'userinfo' })).query.userinfo;
      check(!me.anon, 'anonymous');
      const csrf = (await signed('POST', { action: 'query', meta: 'tokens' })).query.tokens.csrftoken;
      const r = await signed('POST', { action: 'edit', title: 'Main Page', appendtext: `\n<!-- oauth-1.0a ${runId} -->`, token: csrf });
      equal(r.edit?.result, 'Success', `edit (${JSON.stringify(r)})`);
      const noToken = await signed('POST', { action: 'edit', title: 'Main Page', appendtext: 'x', token: '+\\' });
      equal(errorCode(noToken), 'badtoken', 'a write without the CSRF token');
      return `as ${me.name}`;
    },
  ],
  [
    'refused: wrong token secret, replayed nonce, old timestamp, tampered body',
    async () => {
      equal(errorCode(await signed('GET', { action: 'query', meta: 'userinfo' }, { tokenSecret: 'f'.repeat(40) })), 'mwoauth-invalid-authorization', 'wrong token secret');
      const fixed = { nonce: crypto.randomBytes(16).toString('hex'), timestamp: String(Math.floor(Date.now() / 1000)) };
      equal(errorCode(await signed('GET', { action: 'query', meta: 'userinfo' }, { fixed })), 'no error', 'first use of a nonce');
      const replay = await signed('GET', { action: 'query', meta: 'userinfo' }, { fixed });
      equal(errorCode(replay), 'mwoauth-invalid-authorization', 'replayed nonce');
      check(/Nonce already used/.test(replay.error.info), replay.error.info);
      const old = await signed('GET', { action: 'query', meta: 'userinfo' }, { fixed: { timestamp: String(Math.floor(Date.now() / 1000) - 3600) } });
      check(/Expired timestamp/.test(old.error?.info ?? ''), `old timestamp: ${JSON.stringify(old)}`);
      const tampered = await signed('POST', { action: 'query', meta: 'userinfo' }, { tamper: { meta: 'siteinfo' } });
      check(/Invalid signature/.test(tampered.error?.info ?? ''), `tampered body: ${JSON.stringify(tampered)}`);
      const saved = consumer.key;
      consumer = { ...consumer, key: '0'.repeat(32) };
      const unknown = await signed('GET', { action: 'query', meta: 'userinfo' });
      consumer = { ...consumer, key: saved };
      equal(errorCode(unknown), 'mwoauth-invalid-authorization', 'unknown consumer');
      return 'all mwoauth-invalid-authorization';
    },
  ],
]);
