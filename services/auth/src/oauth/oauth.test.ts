/*
 * The auth service's OAuth over gRPC: consumers and their stages, OAuth 1.0a signatures and the
 * handshake, OAuth 2.0 codes, PKCE, refresh and client credentials, and what a request made with
 * those credentials may do — on every backend.
 */
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeClient, ServiceError, startService, type RunningService } from '@quire/kit';
import { makeTestEnv, testBackends, type TestEnv } from '@quire/kit/testing';
import { AuthServiceClient, SessionKind } from '@quire/proto/wiki/auth/v1/auth';
import { ConsumerStage, type SignedRequest } from '@quire/proto/wiki/auth/v1/oauth';
import { AuthClient } from '@quire/gateway/clients/index';
import { OAuthClient } from '@quire/gateway/clients/oauth';
import { authService } from '../server.js';
import { GRANTS, grantRights } from '../grants.js';
import { DEFAULT_GROUP_PERMISSIONS } from '../rights.js';
import { callbackMatches } from './domain/callback.js';
import { rfc3986, signatureBaseString } from './domain/oauth1.js';

async function rejects(p: Promise<unknown>, mwCode: string) {
  await assert.rejects(p, (e: unknown) => e instanceof ServiceError && e.mwCode === mwCode, `expected ${mwCode}`);
}

test('signature base string: RFC 5849 section 3.4.1.1 example', () => {
  // The example request of RFC 5849 (3.4.1.1), its parameters from the query, body and header.
  const params = [
    ['b5', '=%3D'],
    ['a3', 'a'],
    ['c@', ''],
    ['a2', 'r b'],
    ['oauth_consumer_key', '9djdj82h48djs9d2'],
    ['oauth_token', 'kkk9d7dh3k39sjv7'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '137131201'],
    ['oauth_nonce', '7d8f3e4a'],
    ['c2', ''],
    ['a3', '2 q'],
  ].map(([name, value]) => ({ name: name!, value: value! }));
  assert.equal(
    signatureBaseString('POST', 'http://EXAMPLE.COM:80/request', params),
    'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
  );
});

test('callback URLs under a registered prefix: scheme, host and port exactly, the path extended (MWOAuthServer::checkCallback)', () => {
  const cases: [registered: string, given: string, allowed: boolean][] = [
    // A string prefix is not a match: other hosts.
    ['http://client.example', 'http://client.example.evil.example/steal', false],
    ['http://client.example', 'http://client.example@evil.example/', false],
    ['http://client.example', 'http://client.example:8080/', false],
    ['http://client.example', 'http://client.example/', true],
    ['http://client.example', 'http://client.example/any/path?state=1', true],
    ['http://client.example', 'HTTP://Client.Example/cb', true],
    // http may become https, not the other way round; other schemes stay.
    ['http://client.example/cb', 'https://client.example/cb', true],
    ['https://client.example/cb', 'http://client.example/cb', false],
    ['myapp://callback', 'https://callback/', false],
    // The path extends the registered one; dot segments are resolved first.
    ['https://tool.example/cb', 'https://tool.example/cb', true],
    ['https://tool.example/cb', 'https://tool.example/cb/more?x=1', true],
    ['https://tool.example/cb', 'https://tool.example/c', false],
    ['https://tool.example/cb', 'https://tool.example/cb/../steal', false],
    ['https://tool.example/cb', 'https://tool.example/cb/%2e%2e/steal', false],
    // A registered query: the path exactly, the query extended.
    ['https://tool.example/cb?app=1', 'https://tool.example/cb?app=1&state=2', true],
    ['https://tool.example/cb?app=1', 'https://tool.example/cb/more?app=1', false],
    ['https://tool.example/cb?app=1', 'https://tool.example/cb?app=2', false],
    ['https://tool.example/cb?app=1', 'https://tool.example/cb', false],
    ['https://tool.example?app=1', 'https://tool.example/anywhere?app=1', true],
    // Port 1: any port (local development); otherwise the same port.
    ['http://localhost:1/cb', 'http://localhost:5173/cb/x', true],
    ['http://localhost:8080/cb', 'http://localhost:8081/cb', false],
    ['http://localhost:8080/cb', 'http://localhost:8080/cb', true],
    // Not URLs.
    ['https://tool.example/cb', '', false],
    ['https://tool.example/cb', 'oob', false],
    ['https://tool.example/cb', '/cb', false],
    ['https://tool.example/cb', `https://tool.example/cb/${'x'.repeat(2000)}`, false],
  ];
  for (const [registered, given, allowed] of cases) assert.equal(callbackMatches(registered, given), allowed, `${registered} ← ${given}`);
});

test('OAuth rights: by default users propose and manage their grants, administrators manage consumers; no grant gives any', () => {
  const oauthRights = ['mwoauthproposeconsumer', 'mwoauthupdateownconsumer', 'mwoauthmanagemygrants', 'mwoauthmanageconsumer'];
  assert.deepEqual(
    oauthRights.map((r) => DEFAULT_GROUP_PERMISSIONS.user?.[r] === true),
    [true, true, true, false],
  );
  assert.equal(DEFAULT_GROUP_PERMISSIONS.sysop?.mwoauthmanageconsumer, true);
  const granted = grantRights(GRANTS);
  assert.deepEqual(
    oauthRights.filter((r) => granted.has(r)),
    [],
  );
});

/** A request signed as a client does (HMAC-SHA1 over the base string). */
function sign(
  url: string,
  params: Record<string, string>,
  consumer: { key: string; secret: string },
  token?: { key: string; secret: string },
  opts: { nonce?: string; timestamp?: number } = {},
): SignedRequest {
  const oauth: Record<string, string> = {
    oauth_consumer_key: consumer.key,
    oauth_nonce: opts.nonce ?? crypto.randomBytes(8).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(opts.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
    ...(token ? { oauth_token: token.key } : {}),
  };
  const all = Object.entries({ ...params, ...oauth }).map(([name, value]) => ({ name, value }));
  const key = `${rfc3986(consumer.secret)}&${rfc3986(token?.secret ?? '')}`;
  const signature = crypto
    .createHmac('sha1', key)
    .update(signatureBaseString('POST', url, all))
    .digest('base64');
  return { method: 'POST', url, params: [...all, { name: 'oauth_signature', value: signature }], ip: '10.0.0.9' };
}

const INDEX = 'http://wiki.test/w/index.php';
const API = 'http://wiki.test/w/api.php';

for (const backend of testBackends()) {
  describe(`auth service OAuth (${backend})`, () => {
    let env: TestEnv;
    let svc: RunningService;
    let auth: AuthClient;
    let oauth: OAuthClient;
    let owner = 0;
    let admin = 0;

    before(async () => {
      // The bot group may manage consumers here: the service checks the right, not a group's name.
      env = await makeTestEnv(backend, { AUTH_GRPC_PORT: '0', GROUP_PERMISSIONS_JSON: JSON.stringify({ bot: { mwoauthmanageconsumer: true } }) });
      svc = await startService(authService, env.env);
      auth = new AuthClient(makeClient(AuthServiceClient, svc.address));
      oauth = OAuthClient.connect(svc.address);
      owner = (await auth.createAccount({ username: 'Dana', password: 'danapass123456', ip: '10.0.0.1' })).user!.id;
      admin = (await auth.createAccount({ username: 'Sysop', password: 'sysoppass123456', ip: '10.0.0.1' })).user!.id;
      await auth.changeUserGroups({ username: 'Sysop', userId: 0, add: [{ group: 'sysop', expiry: 'infinite' }], remove: [], performerId: 0, reason: '', tags: [] });
    });
    after(async () => {
      auth.close();
      oauth.close();
      await svc.stop();
      await env.cleanup();
    });

    test('consumers: checks, stages, administrators only, secrets only at creation', async () => {
      const base = { userId: owner, version: '1.0', oauthVersion: 2, callbackUrl: 'https://tool.example/cb', description: 'd' };
      await rejects(oauth.proposeConsumer({ ...base, name: 'Bad', grants: ['nosuchgrant'] }), 'mwoauth-invalid-field');
      await rejects(oauth.proposeConsumer({ ...base, name: 'Bad', callbackUrl: 'not a url', grants: ['editpage'] }), 'mwoauth-invalid-field');
      const r = await oauth.proposeConsumer({ ...base, name: 'Tool', grants: ['editpage'] });
      assert.equal(r.consumer!.stage, ConsumerStage.CONSUMER_STAGE_PROPOSED);
      assert.deepEqual(r.consumer!.grants, ['basic', 'editpage']);
      assert.match(r.secret, /^[0-9a-f]{40}$/);
      await rejects(oauth.proposeConsumer({ ...base, name: 'Tool', grants: ['editpage'] }), 'mwoauth-consumer-alreadyexists');
      await rejects(oauth.manageConsumer({ performerId: owner, key: r.consumer!.key, action: 'approve', reason: '' }), 'permissiondenied');
      await rejects(oauth.manageConsumer({ performerId: admin, key: r.consumer!.key, action: 'disable', reason: '' }), 'mwoauth-invalid-field');
      const approved = await oauth.manageConsumer({ performerId: admin, key: r.consumer!.key, action: 'approve', reason: '' });
      assert.equal(approved.stage, ConsumerStage.CONSUMER_STAGE_APPROVED);
      await rejects(oauth.manageConsumer({ performerId: admin, key: r.consumer!.key, action: 'approve', reason: '' }), 'mwoauthmanageconsumers-wrong-stage');
      // Whoever has the right (here a bot, through GROUP_PERMISSIONS_JSON), not a group named sysop.
      const robot = (await auth.createAccount({ username: 'Robot', password: 'robotpass123456', ip: '10.0.0.1' })).user!.id;
      await auth.changeUserGroups({ username: 'Robot', userId: 0, add: [{ group: 'bot', expiry: 'infinite' }], remove: [], performerId: 0, reason: '', tags: [] });
      const other = await oauth.proposeConsumer({ ...base, name: 'Other tool', grants: ['editpage'] });
      assert.equal((await oauth.manageConsumer({ performerId: robot, key: other.consumer!.key, action: 'reject', reason: 'spam' })).stage, ConsumerStage.CONSUMER_STAGE_REJECTED);
      const listed = await oauth.listConsumers({ ownerId: owner });
      assert.deepEqual(listed.map((c) => c.key).sort(), [r.consumer!.key, other.consumer!.key].sort());
      // A reset gives a new secret; an update by someone else is refused.
      await rejects(oauth.updateConsumer({ userId: admin, key: r.consumer!.key, resetSecret: true }), 'mwoauth-consumer-not-owner');
      const reset = await oauth.updateConsumer({ userId: owner, key: r.consumer!.key, resetSecret: true });
      assert.notEqual(reset.secret, r.secret);
      assert.match(reset.secret, /^[0-9a-f]{40}$/);
    });

    test('OAuth 1.0a: handshake, identify, signed requests within grants ∩ rights, refusals', async () => {
      const c = await oauth.proposeConsumer({
        userId: owner,
        name: 'One',
        version: '1',
        oauthVersion: 1,
        callbackUrl: 'https://tool.example/one',
        description: '',
        grants: ['editpage'],
        approve: true,
      });
      const consumer = { key: c.consumer!.key, secret: c.secret };
      const rt = await oauth.initiateOAuth1(sign(INDEX, { title: 'Special:OAuth/initiate', oauth_callback: 'oob' }, consumer));
      assert.match(rt.key, /^[0-9a-f]{32}$/);
      // Its callback is not a prefix: "oob" only (MWOAuthServer::checkCallback).
      await rejects(oauth.initiateOAuth1(sign(INDEX, { title: 'Special:OAuth/initiate', oauth_callback: 'https://tool.example/one' }, consumer)), 'mwoauth-callback-not-oob');
      await rejects(oauth.initiateOAuth1(sign(INDEX, { title: 'Special:OAuth/initiate', oauth_callback: 'oob' }, { ...consumer, secret: 'x' })), 'mwoauth-invalid-authorization');
      const described = await oauth.describeRequestToken(consumer.key, rt.key);
      assert.equal(described.name, 'One');
      const answer = await oauth.authorizeOAuth1({ userId: owner, consumerKey: consumer.key, requestToken: rt.key, approve: true });
      const callback = new URL(answer.callbackUrl);
      assert.equal(callback.origin + callback.pathname, 'https://tool.example/one');
      assert.equal(callback.searchParams.get('oauth_token'), rt.key);
      await rejects(oauth.exchangeOAuth1(sign(INDEX, { title: 'Special:OAuth/token', oauth_verifier: 'wrong' }, consumer, rt)), 'mwoauthdatastore-bad-verifier');
      const access = await oauth.exchangeOAuth1(sign(INDEX, { title: 'Special:OAuth/token', oauth_verifier: answer.verifier }, consumer, rt));
      await rejects(oauth.exchangeOAuth1(sign(INDEX, { title: 'Special:OAuth/token', oauth_verifier: answer.verifier }, consumer, rt)), 'mwoauthdatastore-request-token-not-found');

      const jwt = await oauth.identifyOAuth1(sign(INDEX, { title: 'Special:OAuth/identify' }, consumer, access, { nonce: 'n-identify' }));
      const [header, payload, sig] = jwt.split('.');
      assert.equal(crypto.createHmac('sha256', consumer.secret).update(`${header}.${payload}`).digest('base64url'), sig);
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      assert.equal(claims.username, 'Dana');
      assert.equal(claims.aud, consumer.key);
      assert.equal(claims.iss, 'http://wiki.test');
      assert.equal(claims.nonce, 'n-identify');
      assert.equal(claims.sub, String(owner));
      assert.ok(claims.exp > claims.iat);

      const request = sign(API, { action: 'query', meta: 'userinfo' }, consumer, access, { nonce: 'n-once' });
      const r = await oauth.resolveOAuthRequest({ signed: request, ip: '10.0.0.9' });
      assert.equal(r.user!.name, 'Dana');
      assert.ok(r.user!.rights.includes('edit'));
      assert.ok(!r.user!.rights.includes('createpage'), 'createpage is not in the editpage grant');
      assert.ok(!r.user!.rights.includes('upload'), 'the user has upload, the grants do not');
      // The same signature again: a replay.
      await rejects(oauth.resolveOAuthRequest({ signed: request, ip: '10.0.0.9' }), 'mwoauth-invalid-authorization');
      await rejects(oauth.resolveOAuthRequest({ signed: sign(API, { action: 'query' }, consumer, { ...access, secret: 'wrong' }), ip: '' }), 'mwoauth-invalid-authorization');
      await rejects(
        oauth.resolveOAuthRequest({ signed: sign(API, { action: 'query' }, consumer, access, { timestamp: Math.floor(Date.now() / 1000) - 1000 }), ip: '' }),
        'mwoauth-invalid-authorization',
      );
      // The CSRF tokens of the request's session work and stay the same across requests; it is the API's only.
      assert.equal((await auth.resolveSession(r.sessionId, '')).sessionKind, SessionKind.SESSION_KIND_OAUTH);
      const tokens = await auth.getTokens(r.sessionId, ['csrf']);
      assert.equal((await auth.checkToken(r.sessionId, 'csrf', tokens.csrf!)).valid, true);
      const again = await oauth.resolveOAuthRequest({ signed: sign(API, { action: 'query' }, consumer, access), ip: '' });
      assert.equal(again.sessionId, r.sessionId);
      // Revoked: the access token no longer works.
      await oauth.revokeAuthorization(owner, consumer.key);
      await rejects(oauth.resolveOAuthRequest({ signed: sign(API, { action: 'query' }, consumer, access), ip: '' }), 'mwoauth-invalid-authorization');
    });

    test('OAuth 1.0a RSA-SHA1: a consumer registered with a public key signs with its private key', async () => {
      const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      await rejects(
        oauth.proposeConsumer({ userId: owner, name: 'Rsa', version: '0', oauthVersion: 1, callbackUrl: 'https://tool.example/rsa', description: '', grants: [], rsaKey: 'not a key' }),
        'mwoauth-invalid-rsa-key',
      );
      const c = await oauth.proposeConsumer({
        userId: owner,
        name: 'Rsa',
        version: '1',
        oauthVersion: 1,
        callbackUrl: 'https://tool.example/rsa',
        description: '',
        grants: [],
        approve: true,
        rsaKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      });
      const rsaSigned = (key: crypto.KeyObject): SignedRequest => {
        const params = Object.entries({
          title: 'Special:OAuth/initiate',
          oauth_callback: 'oob',
          oauth_consumer_key: c.consumer!.key,
          oauth_nonce: crypto.randomBytes(8).toString('hex'),
          oauth_signature_method: 'RSA-SHA1',
          oauth_timestamp: String(Math.floor(Date.now() / 1000)),
        }).map(([name, value]) => ({ name, value }));
        const signature = crypto.sign('RSA-SHA1', Buffer.from(signatureBaseString('POST', INDEX, params)), key).toString('base64');
        return { method: 'POST', url: INDEX, params: [...params, { name: 'oauth_signature', value: signature }], ip: '' };
      };
      assert.match((await oauth.initiateOAuth1(rsaSigned(privateKey))).key, /^[0-9a-f]{32}$/);
      await rejects(oauth.initiateOAuth1(rsaSigned(crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)), 'mwoauth-invalid-authorization');
    });

    test('OAuth 2.0: code + PKCE once, refresh rotation, client credentials, disabled consumers', async () => {
      const c = await oauth.proposeConsumer({
        userId: owner,
        name: 'Two',
        version: '1',
        oauthVersion: 2,
        callbackUrl: 'https://tool.example/two',
        description: '',
        grants: ['editpage', 'highvolume'],
        approve: true,
      });
      const clientId = c.consumer!.key;
      const verifier = crypto.randomBytes(32).toString('base64url');
      const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
      const ask = { clientId, responseType: 'code', redirectUri: 'https://tool.example/two', codeChallenge: challenge, codeChallengeMethod: 'S256', scope: 'editpage' };
      await rejects(oauth.authorizeOAuth2({ ...ask, redirectUri: 'https://evil.example/' }), 'invalid_client');
      await rejects(oauth.authorizeOAuth2({ ...ask, scope: 'delete' }), 'invalid_scope');
      const { code } = await oauth.authorizeOAuth2({ ...ask, userId: owner, approve: true });
      const redeem = { grantType: 'authorization_code', clientId, clientSecret: c.secret, code, redirectUri: 'https://tool.example/two', codeVerifier: verifier };
      await rejects(oauth.issueOAuth2Token({ ...redeem, clientSecret: 'wrong' }), 'invalid_client');
      const t = await oauth.issueOAuth2Token(redeem);
      assert.equal(t.tokenType, 'Bearer');
      assert.equal(t.expiresIn, 4 * 3600);
      await rejects(oauth.issueOAuth2Token(redeem), 'invalid_grant');

      const r = await oauth.resolveOAuthRequest({ bearerToken: t.accessToken, ip: '', withProfile: true });
      assert.equal(r.user!.name, 'Dana');
      assert.deepEqual(r.grants, ['basic', 'editpage']);
      assert.ok(!r.user!.rights.includes('apihighlimits'), 'highvolume was not in the scope');
      assert.equal(JSON.parse(r.profileJson).username, 'Dana');

      const refreshed = await oauth.issueOAuth2Token({ grantType: 'refresh_token', clientId, clientSecret: c.secret, refreshToken: t.refreshToken });
      await rejects(oauth.issueOAuth2Token({ grantType: 'refresh_token', clientId, clientSecret: c.secret, refreshToken: t.refreshToken }), 'invalid_grant');
      await rejects(oauth.resolveOAuthRequest({ bearerToken: t.accessToken, ip: '' }), 'mwoauth-invalid-authorization');
      assert.equal((await oauth.resolveOAuthRequest({ bearerToken: refreshed.accessToken, ip: '' })).user!.name, 'Dana');

      // A PKCE code with the wrong verifier.
      const second = await oauth.authorizeOAuth2({ ...ask, userId: owner, approve: true });
      await rejects(oauth.issueOAuth2Token({ ...redeem, code: second.code, codeVerifier: crypto.randomBytes(32).toString('base64url') }), 'invalid_grant');

      await rejects(oauth.issueOAuth2Token({ grantType: 'client_credentials', clientId, clientSecret: c.secret }), 'unauthorized_client');
      const own = await oauth.proposeConsumer({ userId: owner, name: 'Mine', version: '1', oauthVersion: 2, description: '', grants: ['editpage'], ownerOnly: true });
      assert.equal(own.consumer!.stage, ConsumerStage.CONSUMER_STAGE_APPROVED);
      assert.equal((await oauth.resolveOAuthRequest({ bearerToken: own.accessToken, ip: '' })).user!.name, 'Dana');
      const cc = await oauth.issueOAuth2Token({ grantType: 'client_credentials', clientId: own.consumer!.key, clientSecret: own.secret });
      assert.equal(cc.refreshToken, '');
      // Identification only: the user, without any right.
      const idOnly = await oauth.proposeConsumer({ userId: owner, name: 'Who', version: '1', oauthVersion: 2, description: '', grants: ['mwoauth-authonly'], ownerOnly: true });
      assert.deepEqual(idOnly.consumer!.grants, ['mwoauth-authonly']);
      const who = await oauth.resolveOAuthRequest({ bearerToken: idOnly.accessToken, ip: '' });
      assert.equal(who.user!.name, 'Dana');
      assert.deepEqual(who.user!.rights, []);
      // Disabled by an administrator: its tokens stop working.
      await oauth.manageConsumer({ performerId: admin, key: clientId, action: 'disable', reason: 'abuse' });
      await rejects(oauth.resolveOAuthRequest({ bearerToken: refreshed.accessToken, ip: '' }), 'mwoauth-invalid-authorization-not-approved');
      await rejects(oauth.resolveOAuthRequest({ bearerToken: 'not.a.jwt', ip: '' }), 'mwoauth-invalid-authorization');
    });

    test('callbacks under a registered prefix: 1.0a initiate and authorize, 2.0 authorize and token, host by host', async () => {
      const prefixed = { userId: owner, version: '1', description: '', callbackUrl: 'http://client.example', callbackIsPrefix: true, grants: ['editpage'], approve: true };
      const one = await oauth.proposeConsumer({ ...prefixed, name: 'Prefix one', oauthVersion: 1 });
      const consumer = { key: one.consumer!.key, secret: one.secret };
      const initiate = (callback: string) => oauth.initiateOAuth1(sign(INDEX, { title: 'Special:OAuth/initiate', oauth_callback: callback }, consumer));
      await rejects(initiate('http://client.example.evil.example/steal'), 'mwoauth-callback-not-oob-or-prefix');
      await rejects(initiate('http://client.example@evil.example/'), 'mwoauth-callback-not-oob-or-prefix');
      await rejects(initiate(''), 'mwoauth-callback-not-oob-or-prefix');
      const rt = await initiate('https://client.example/app/cb?x=1');
      const answer = await oauth.authorizeOAuth1({ userId: owner, consumerKey: consumer.key, requestToken: rt.key, approve: true });
      const back = new URL(answer.callbackUrl);
      assert.equal(back.origin + back.pathname, 'https://client.example/app/cb');
      assert.equal(back.searchParams.get('x'), '1');
      assert.equal(back.searchParams.get('oauth_token'), rt.key);

      // A public 2.0 client: whoever holds the PKCE verifier redeems its code, so the code must only reach the client.
      const two = await oauth.proposeConsumer({ ...prefixed, name: 'Prefix two', oauthVersion: 2, oauth2Public: true });
      const clientId = two.consumer!.key;
      const verifier = crypto.randomBytes(32).toString('base64url');
      const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
      const ask = { clientId, responseType: 'code', codeChallenge: challenge, codeChallengeMethod: 'S256', userId: owner, approve: true };
      for (const stolen of ['http://client.example.evil.example/steal', 'http://client.example@evil.example/', 'http://client.example:8080/cb']) {
        await rejects(oauth.authorizeOAuth2({ ...ask, redirectUri: stolen }), 'invalid_client');
      }
      const good = 'http://client.example/app/cb';
      const { code, redirectUri } = await oauth.authorizeOAuth2({ ...ask, redirectUri: good });
      assert.equal(redirectUri, good);
      const redeem = { grantType: 'authorization_code', clientId, code, codeVerifier: verifier };
      // The token request's redirect_uri: allowed for the client, then the authorization's exactly.
      await rejects(oauth.issueOAuth2Token({ ...redeem, redirectUri: 'http://client.example.evil.example/app/cb' }), 'invalid_client');
      await rejects(oauth.issueOAuth2Token({ ...redeem, redirectUri: '' }), 'invalid_request');
      const second = await oauth.authorizeOAuth2({ ...ask, redirectUri: good });
      await rejects(oauth.issueOAuth2Token({ ...redeem, code: second.code, redirectUri: 'http://client.example/app/other' }), 'invalid_request');
      const third = await oauth.authorizeOAuth2({ ...ask, redirectUri: good });
      const t = await oauth.issueOAuth2Token({ ...redeem, code: third.code, redirectUri: good });
      assert.equal((await oauth.resolveOAuthRequest({ bearerToken: t.accessToken, ip: '' })).user!.name, 'Dana');
      // Without redirect_uri at authorize, the token request names none either (AuthCodeGrant).
      const plain = await oauth.authorizeOAuth2({ ...ask, redirectUri: '' });
      await rejects(oauth.issueOAuth2Token({ ...redeem, code: plain.code, redirectUri: good }), 'invalid_request');
      const fourth = await oauth.authorizeOAuth2({ ...ask, redirectUri: '' });
      assert.equal((await oauth.issueOAuth2Token({ ...redeem, code: fourth.code })).tokenType, 'Bearer');
    });
  });
}
