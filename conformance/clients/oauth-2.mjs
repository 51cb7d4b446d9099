/*
 * OAuth 2.0 with a plain client (fetch, no OAuth library), as a web tool does it: authorization
 * code with PKCE S256 and state through the consent page, the access token on the action API and
 * the REST API, refresh tokens, client credentials of an owner-only consumer, revocation — and
 * the refusals: a used code, a wrong verifier, a reused refresh token, a revoked token.
 */
import crypto from 'node:crypto';
import { apiUrl, check, equal, restUrl, runId, runSteps } from './_workflow.mjs';
import { Browser, consent, registerConsumer, revoke } from './_oauth.mjs';

const callback = 'https://tool.example/oauth-callback';
const user = new Browser();
let confidential;
let publicClient;
let ownerOnly;
let tokens;

const base64url = (b) => b.toString('base64url');
const pkce = () => {
  const verifier = base64url(crypto.randomBytes(32));
  return { verifier, challenge: base64url(crypto.createHash('sha256').update(verifier).digest()) };
};

async function tokenRequest(fields) {
  const res = await fetch(`${restUrl}/oauth2/access_token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  return { status: res.status, body: await res.json() };
}

async function api(token, params, post = false) {
  const q = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
  const headers = { Authorization: `Bearer ${token}` };
  const res = post ? await fetch(apiUrl, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: q }) : await fetch(`${apiUrl}?${q}`, { headers });
  return res.json();
}

/** The authorization code flow up to the callback: the code and the state it came back with. */
async function authorize(client, { challenge, scope = '' }) {
  const state = base64url(crypto.randomBytes(12));
  const q = new URLSearchParams({ client_id: client.key, response_type: 'code', redirect_uri: callback, state, code_challenge: challenge, code_challenge_method: 'S256' });
  if (scope) q.set('scope', scope);
  const answer = await consent(user, `${restUrl}/oauth2/authorize?${q}`);
  equal(answer.status, 302, 'consent answer status');
  const back = new URL(answer.location);
  equal(`${back.origin}${back.pathname}`, callback, 'redirect target');
  equal(back.searchParams.get('state'), state, 'state');
  const code = back.searchParams.get('code');
  check(code, `no code in ${answer.location}`);
  return code;
}

await runSteps('oauth-2 (plain client)', [
  [
    'register consumers on Special:OAuthConsumerRegistration (approved on Special:OAuthManageConsumers)',
    async () => {
      await user.login();
      confidential = await registerConsumer(user, { oauthVersion: 2, callbackUrl: callback, grants: ['editpage', 'highvolume'] });
      publicClient = await registerConsumer(user, { oauthVersion: 2, callbackUrl: callback, grants: ['editpage'], isPublic: true, name: `Conformance OAuth 2 public ${runId}` });
      ownerOnly = await registerConsumer(user, { oauthVersion: 2, ownerOnly: true, grants: ['editpage', 'createeditmovepage'] });
      check(ownerOnly.accessToken.split('.').length === 3, 'owner-only consumer: no access token (JWT) shown');
      return `client ids ${confidential.key}, ${publicClient.key}, ${ownerOnly.key}`;
    },
  ],
  [
    'authorization code with PKCE S256 through the consent page',
    async () => {
      const { verifier, challenge } = pkce();
      const code = await authorize(confidential, { challenge });
      const r = await tokenRequest({ grant_type: 'authorization_code', client_id: confidential.key, client_secret: confidential.secret, code, redirect_uri: callback, code_verifier: verifier });
      equal(r.status, 200, `token status (${JSON.stringify(r.body)})`);
      equal(r.body.token_type, 'Bearer', 'token_type');
      check(r.body.expires_in > 0 && r.body.refresh_token, 'no expiry or refresh token');
      tokens = r.body;
      const again = await tokenRequest({ grant_type: 'authorization_code', client_id: confidential.key, client_secret: confidential.secret, code, redirect_uri: callback, code_verifier: verifier });
      equal(again.status, 400, 'a used code');
      equal(again.body.error, 'invalid_grant', 'error of a used code');
      return `token for ${r.body.expires_in} s; the code is refused the second time (invalid_grant)`;
    },
  ],
  [
    'a wrong code_verifier and a wrong client secret are refused',
    async () => {
      const { challenge } = pkce();
      const code = await authorize(confidential, { challenge });
      const wrongVerifier = await tokenRequest({
        grant_type: 'authorization_code',
        client_id: confidential.key,
        client_secret: confidential.secret,
        code,
        redirect_uri: callback,
        code_verifier: pkce().verifier,
      });
      equal(wrongVerifier.body.error, 'invalid_grant', 'wrong verifier');
      const wrongSecret = await tokenRequest({ grant_type: 'client_credentials', client_id: ownerOnly.key, client_secret: `${ownerOnly.secret}x` });
      equal(wrongSecret.status, 401, 'wrong secret status');
      equal(wrongSecret.body.error, 'invalid_client', 'wrong secret error');
      return 'invalid_grant, invalid_client (401)';
    },
  ],
  [
    'the Bearer token on the action API: the user, grants ∩ rights, CSRF token needed',
    async () => {
      const me = (await api(tokens.access_token, { action: 'query', meta: 'userinfo', uiprop: 'rights' })).query.userinfo;
      check(!me.anon, 'anonymous with a Bearer token');
      check(me.rights.includes('edit') && me.rights.includes('apihighlimits'), `rights ${me.rights}`);
      check(!me.rights.includes('delete') && !me.rights.includes('block'), 'rights beyond the grants');
      const title = `Conformance OAuth 2 ${runId}`;
      const seed = await api(tokens.access_token, { action: 'edit', title, text: 'x', token: '+\\' }, true);
      equal(seed.error?.code, 'badtoken', 'edit without the CSRF token');
      const csrf = (await api(tokens.access_token, { action: 'query', meta: 'tokens' })).query.tokens.csrftoken;
      const created = await api(ownerOnly.accessToken, { action: 'query', meta: 'tokens' });
      const edit = await api(ownerOnly.accessToken, { action: 'edit', title, text: 'Written with OAuth 2.0.', token: created.query.tokens.csrftoken }, true);
      equal(edit.edit?.result, 'Success', `create with the owner-only token (${JSON.stringify(edit)})`);
      const append = await api(tokens.access_token, { action: 'edit', title, appendtext: '\nAppended.', token: csrf }, true);
      equal(append.edit?.result, 'Success', `edit with the CSRF token (${JSON.stringify(append)})`);
      const create = await api(tokens.access_token, { action: 'edit', title: `${title} new`, text: 'x', token: csrf }, true);
      equal(create.error?.code, 'cantcreate', 'editpage grant cannot create pages');
      return `${me.name}: edit ok, createpage refused by the grants`;
    },
  ],
  [
    'the Bearer token on the REST API and /oauth2/resource/profile',
    async () => {
      const profile = await fetch(`${restUrl}/oauth2/resource/profile`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
      equal(profile.status, 200, 'profile status');
      const p = await profile.json();
      check(p.username && p.sub && Array.isArray(p.grants) && p.grants.includes('editpage'), `profile ${JSON.stringify(p)}`);
      const anon = await fetch(`${restUrl}/oauth2/resource/profile`);
      equal(anon.status, 401, 'profile without a token');
      const bad = await fetch(`${restUrl}/v1/page/Main_Page/bare`, { headers: { Authorization: `Bearer ${tokens.access_token}x` } });
      equal(bad.status, 401, 'REST with a bad token');
      // A REST write with a Bearer token needs no CSRF token.
      const title = encodeURIComponent(`Conformance OAuth 2 ${runId}`.replace(/ /g, '_'));
      const bare = await (await fetch(`${restUrl}/v1/page/${title}/bare`)).json();
      const put = await fetch(`${restUrl}/v1/page/${title}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${tokens.access_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ source: 'Replaced over REST with OAuth 2.0.', comment: 'oauth-2 REST', latest: { id: bare.latest.id } }),
      });
      equal(put.status, 200, `REST PUT without a CSRF token (${await put.clone().text()})`);
      const unsigned = await fetch(`${restUrl}/v1/page/${title}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ source: 'x', comment: 'x', latest: { id: bare.latest.id } }),
      });
      equal(unsigned.status, 400, 'REST PUT without credentials or token');
      return `profile of ${p.username}; REST PUT rev ${(await put.json()).latest.id}`;
    },
  ],
  [
    'refresh token: a new pair; the old refresh token is refused',
    async () => {
      const r = await tokenRequest({ grant_type: 'refresh_token', client_id: confidential.key, client_secret: confidential.secret, refresh_token: tokens.refresh_token });
      equal(r.status, 200, `refresh status (${JSON.stringify(r.body)})`);
      const again = await tokenRequest({ grant_type: 'refresh_token', client_id: confidential.key, client_secret: confidential.secret, refresh_token: tokens.refresh_token });
      equal(again.body.error, 'invalid_grant', 'reused refresh token');
      const old = await api(tokens.access_token, { action: 'query', meta: 'userinfo' });
      equal(old.error?.code, 'mwoauth-invalid-authorization', 'the refreshed access token');
      tokens = r.body;
      const me = await api(tokens.access_token, { action: 'query', meta: 'userinfo' });
      check(!me.query.userinfo.anon, 'the new token does not work');
      return 'rotated';
    },
  ],
  [
    'a public client: PKCE without a secret',
    async () => {
      const { verifier, challenge } = pkce();
      const code = await authorize(publicClient, { challenge });
      const r = await tokenRequest({ grant_type: 'authorization_code', client_id: publicClient.key, code, redirect_uri: callback, code_verifier: verifier });
      equal(r.status, 200, `token status (${JSON.stringify(r.body)})`);
      return 'token without a client secret';
    },
  ],
  [
    'client_credentials of an owner-only consumer',
    async () => {
      const r = await tokenRequest({ grant_type: 'client_credentials', client_id: ownerOnly.key, client_secret: ownerOnly.secret });
      equal(r.status, 200, `status (${JSON.stringify(r.body)})`);
      check(!r.body.refresh_token, 'client_credentials must not give a refresh token');
      const me = (await api(r.body.access_token, { action: 'query', meta: 'userinfo' })).query.userinfo;
      check(!me.anon, 'anonymous');
      const notOwnerOnly = await tokenRequest({ grant_type: 'client_credentials', client_id: confidential.key, client_secret: confidential.secret });
      equal(notOwnerOnly.body.error, 'unauthorized_client', 'client_credentials of a consumer that is not owner-only');
      return `as ${me.name}`;
    },
  ],
  [
    'cancel on the consent page sends access_denied; revocation on Special:OAuthManageMyGrants ends the token',
    async () => {
      const q = new URLSearchParams({ client_id: confidential.key, response_type: 'code', redirect_uri: callback, state: 's1', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
      const answer = await consent(user, `${restUrl}/oauth2/authorize?${q}`, false);
      equal(new URL(answer.location).searchParams.get('error'), 'access_denied', 'cancel');
      await revoke(user, confidential.key);
      const r = await api(tokens.access_token, { action: 'query', meta: 'userinfo' });
      equal(r.error?.code, 'mwoauth-invalid-authorization', 'a revoked token');
      const refresh = await tokenRequest({ grant_type: 'refresh_token', client_id: confidential.key, client_secret: confidential.secret, refresh_token: tokens.refresh_token });
      equal(refresh.body.error, 'invalid_grant', 'the refresh token of a revoked authorization');
      return 'refused with mwoauth-invalid-authorization';
    },
  ],
]);
