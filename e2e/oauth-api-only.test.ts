/*
 * Credentials of the API only, on the web pages (MediaWiki's BotPasswordSessionProvider and the
 * OAuth extension's SessionProvider serve the API alone), over HTTP as a browser without JavaScript
 * uses the pages: a bot password's cookie session is an anonymous visitor on every page, and OAuth
 * credentials are refused there (`mwoauth-not-api`), while the API keeps both with the user's rights
 * ∩ the grants. The legitimate flows stay: an administrator logged in with a password approves a
 * consumer, a logged-in user consents to an OAuth 2.0 client with PKCE and its token works on the API.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type HttpResponse, type TestWiki } from './harness.js';
import { apiLogin, apiUserinfo, hiddenFields } from './special-pages.js';

const MANAGE = '/wiki/Special:OAuthManageConsumers/proposed';
const CONSENT = '/wiki/Special:OAuth/authorize';
const CALLBACK = 'http://client.example/app/cb';

/** The output lines of an admin command. */
async function admin(wiki: TestWiki, argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runAdmin(argv, wiki.testEnv.env, (l) => lines.push(l));
  return lines;
}

/** createOAuthConsumer.php for Dana with `options` (space-separated): its JSON result. */
async function danaConsumer(wiki: TestWiki, name: string, options: string): Promise<{ key: string; accessToken?: string }> {
  const lines = await admin(wiki, ['createOAuthConsumer', '--user', 'Dana', '--name', name, '--version', '1', '--description', name, '--json', ...options.split(' ')]);
  return JSON.parse(lines.at(-1)!);
}

/** A redirect to the login form: the page saw an anonymous visitor. */
function assertLoginRedirect(r: HttpResponse): void {
  assert.equal(r.status, 302, r.text.slice(0, 300));
  assert.match(r.headers.get('location') ?? '', /^\/w\/index\.php\?title=Special%3AUserLogin&/);
}

/** The page of `mwoauth-not-api`: OAuth is refused outside the API. */
function assertNotApiPage(r: HttpResponse): void {
  assert.equal(r.status, 400, r.text.slice(0, 300));
  assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(r.text, /OAuth can only be used with the API/);
  assert.equal(r.headers.get('location'), null);
}

/** A PKCE pair and the authorize query of the consumer `clientId` sending the user to `redirectUri`. */
function authorizeQuery(clientId: string, redirectUri = CALLBACK): { verifier: string; query: URLSearchParams } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, query: new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: redirectUri, state: 'xyz', code_challenge: challenge, code_challenge_method: 'S256' }) };
}

async function csrfToken(c: WikiClient): Promise<string> {
  return (await c.api({ action: 'query', meta: 'tokens' })).json().query.tokens.csrftoken;
}

for (const backend of testBackends()) {
  describe(`API-only credentials on web pages (${backend})`, () => {
    let wiki: TestWiki;
    /** Dana's public OAuth 2.0 client (callback http://client.example as a prefix), proposed. */
    let clientId = '';
    let botPassword = '';

    before(async () => {
      // Bureaucrats manage consumers too here: the pages check the right, not a group's name.
      wiki = await startWiki(backend, { GROUP_PERMISSIONS_JSON: JSON.stringify({ bureaucrat: { mwoauthmanageconsumer: true } }) });
      await admin(wiki, ['createAndPromote', 'Olga', 'olgapass1234567', '--groups', 'sysop']);
      await admin(wiki, ['createAndPromote', 'Bea', 'beapass12345678', '--groups', 'bureaucrat']);
      await admin(wiki, ['createAndPromote', 'Dana', 'danapass1234567']);
      botPassword = (await admin(wiki, ['createBotPassword', 'Olga', 'tool', '--grants', 'basic']))[1]!;
      clientId = (await danaConsumer(wiki, 'Delete tool', '--callbackUrl http://client.example --callbackIsPrefix --grants basic,editpage,delete --oauthVersion 2 --oauth2IsPublic')).key;
    });
    after(() => wiki?.close());

    test("a bot password's session: the API's, an anonymous visitor on every page", async () => {
      const bot = new WikiClient(wiki.baseUrl);
      assert.equal((await apiLogin(bot, 'Olga@tool', botPassword)).result, 'Success');
      // The API: Olga, within the basic grant.
      const info = await apiUserinfo(bot);
      assert.equal(info.name, 'Olga');
      assert.ok(info.rights.includes('read') && !info.rights.includes('delete'), info.rights.join(' '));
      const csrf = await csrfToken(bot);
      assert.notEqual(csrf, '+\\');

      // The pages: approving another user's consumer, its consent, the two-factor form, an edit form.
      assertLoginRedirect(await bot.get(MANAGE));
      assertLoginRedirect(await bot.post(MANAGE, { wpEditToken: csrf, wpconsumerKey: clientId, wpaction: 'approve', wpreason: '' }));
      const { query } = authorizeQuery(clientId);
      const authorize = await bot.get(`/w/rest.php/oauth2/authorize?${query}`);
      assert.equal(authorize.status, 302);
      assertLoginRedirect(await bot.get(authorize.headers.get('location')!));
      const allow = await bot.post(CONSENT, { ...Object.fromEntries(query), wpEditToken: csrf, wpAllow: '1' });
      assertLoginRedirect(allow);
      assert.doesNotMatch(allow.headers.get('location')!, /code=/);
      assertLoginRedirect(await bot.post('/wiki/Special:Preferences', { op: 'enable', wpEditToken: csrf }));
      const edit = await bot.get('/w/index.php?title=Main_Page&action=edit');
      assert.equal(edit.status, 200);
      assert.match(edit.text, /You are not logged in\./);
      // Nothing changed: Olga has no second factor (her password alone logs in), the session still serves the API.
      assert.equal((await apiLogin(new WikiClient(wiki.baseUrl), 'Olga', 'olgapass1234567')).result, 'Success');
      assert.equal((await apiUserinfo(bot)).name, 'Olga');
    });

    test('an administrator logged in with a password approves the consumer; the right decides, not the group', async () => {
      const dana = new WikiClient(wiki.baseUrl);
      assert.equal((await apiLogin(dana, 'Dana', 'danapass1234567')).result, 'Success');
      const refused = await dana.get(MANAGE);
      assert.equal(refused.status, 403);
      assert.match(refused.text, /You do not have permission to manage OAuth consumers/);
      // A bureaucrat, given the right by the configuration, rejects another consumer.
      const spam = await danaConsumer(wiki, 'Spam', '--callbackUrl https://spam.example/ --grants basic');
      const bea = new WikiClient(wiki.baseUrl);
      assert.equal((await apiLogin(bea, 'Bea', 'beapass12345678')).result, 'Success');
      const queue = await bea.get(MANAGE);
      assert.equal(queue.status, 200, queue.text.slice(0, 300));
      const rejected = await bea.post(MANAGE, { wpEditToken: hiddenFields(queue.text).wpEditToken!, wpconsumerKey: spam.key, wpaction: 'reject', wpreason: 'spam' });
      assert.match(rejected.text, /The consumer &quot;Spam&quot; is now rejected\./);

      const olga = new WikiClient(wiki.baseUrl);
      const form = await olga.get('/wiki/Special:UserLogin');
      const login = await olga.post('/wiki/Special:UserLogin', { wpName: 'Olga', wpPassword: 'olgapass1234567', wpLoginToken: hiddenFields(form.text).wpLoginToken!, authAction: 'login' });
      assert.equal(login.status, 302);
      const list = await olga.get(MANAGE);
      assert.equal(list.status, 200);
      assert.match(list.text, new RegExp(clientId), 'still proposed: the bot session approved nothing');
      const approved = await olga.post(MANAGE, { wpEditToken: hiddenFields(list.text).wpEditToken!, wpconsumerKey: clientId, wpaction: 'approve', wpreason: '' });
      assert.equal(approved.status, 200);
      assert.match(approved.text, /The consumer &quot;Delete tool&quot; is now approved\./);
    });

    test('OAuth 2.0 consent by a logged-in user: the code only to a callback under the prefix, redeemed with PKCE', async () => {
      const olga = new WikiClient(wiki.baseUrl);
      assert.equal((await apiLogin(olga, 'Olga', 'olgapass1234567')).result, 'Success');
      // Other hosts that start with the registered callback's text.
      for (const stolen of ['http://client.example.evil.example/steal', 'http://client.example@evil.example/']) {
        const r = await olga.get(`/w/rest.php/oauth2/authorize?${authorizeQuery(clientId, stolen).query}`);
        assert.equal(r.status, 401, r.text);
        assert.equal(r.json().error, 'invalid_client');
        const page = await olga.get(`${CONSENT}?${authorizeQuery(clientId, stolen).query}`);
        assert.equal(page.status, 400);
        assert.doesNotMatch(page.text, /wpAllow/);
      }

      const { verifier, query } = authorizeQuery(clientId);
      const authorize = await olga.get(`/w/rest.php/oauth2/authorize?${query}`);
      assert.equal(authorize.status, 302);
      const consent = await olga.get(authorize.headers.get('location')!);
      assert.equal(consent.status, 200);
      assert.match(consent.text, /Delete tool/);
      const allowed = await olga.post(CONSENT, { ...hiddenFields(consent.text), wpAllow: '1' });
      assert.equal(allowed.status, 302);
      const back = new URL(allowed.headers.get('location')!);
      assert.equal(back.origin + back.pathname, CALLBACK);
      assert.equal(back.searchParams.get('state'), 'xyz');

      const token = await wiki.post(
        '/w/rest.php/oauth2/access_token',
        { grant_type: 'authorization_code', client_id: clientId, code: back.searchParams.get('code')!, redirect_uri: CALLBACK, code_verifier: verifier },
        { cookies: false },
      );
      assert.equal(token.status, 200, token.text);
      const bearer = { Authorization: `Bearer ${token.json().access_token}` };
      const info = (await wiki.api({ action: 'query', meta: 'userinfo', uiprop: 'rights', formatversion: '2' }, { headers: bearer, cookies: false })).json().query.userinfo;
      assert.equal(info.name, 'Olga');
      assert.ok(info.rights.includes('delete'), 'the delete grant and a sysop');
    });

    test('OAuth credentials on web pages: mwoauth-not-api; on the API: the user within the grants', async () => {
      const who = await danaConsumer(wiki, 'Who', '--grants mwoauth-authonly --oauthVersion 2 --ownerOnly');
      const headers = { Authorization: `Bearer ${who.accessToken}` };
      const app = new WikiClient(wiki.baseUrl);
      const opts = { headers, cookies: false };
      // The API: Dana without any right (identification only), so not even reading.
      assert.equal((await app.rest('/oauth2/resource/profile', opts)).json().username, 'Dana');
      const api = (await app.api({ action: 'query', meta: 'userinfo' }, opts)).json();
      assert.equal(api.error?.code, 'readapidenied', JSON.stringify(api));

      // Two-factor login for the owner: the form and its POST (with the form's token, were there one).
      const form = await app.get('/wiki/Special:Preferences', opts);
      assertNotApiPage(form);
      const csrf = hiddenFields(form.text).wpEditToken ?? '';
      const enable = await app.post('/wiki/Special:Preferences', { op: 'enable', wpEditToken: csrf }, opts);
      assertNotApiPage(enable);
      assert.doesNotMatch(enable.text, /mw-oath-secret/);
      // Authorizing another application, through the REST endpoint or the consent page.
      const { query } = authorizeQuery(clientId);
      const rest = await app.get(`/w/rest.php/oauth2/authorize?${query}`, opts);
      assert.equal(rest.status, 400);
      assert.deepEqual(rest.json(), { error: 'mwoauth-not-api', error_description: 'OAuth can only be used with the API', message: 'OAuth can only be used with the API' });
      assertNotApiPage(await app.get(`${CONSENT}?${query}`, opts));
      assertNotApiPage(await app.post(CONSENT, { ...Object.fromEntries(query), wpEditToken: csrf, wpAllow: '1' }, opts));
      // Any other page or action.
      assertNotApiPage(await app.get('/w/index.php?title=Main_Page&action=edit', opts));
      assertNotApiPage(await app.get('/wiki/Special:OAuthManageMyGrants', opts));

      // Nothing changed: Dana has no second factor, and of the applications only her own is connected.
      const dana = new WikiClient(wiki.baseUrl);
      assert.equal((await apiLogin(dana, 'Dana', 'danapass1234567')).result, 'Success');
      const grants = await dana.get('/wiki/Special:OAuthManageMyGrants');
      assert.equal(grants.status, 200);
      assert.match(grants.text, /<td>Who 1<\/td>/);
      assert.doesNotMatch(grants.text, /Delete tool/);
    });
  });
}
