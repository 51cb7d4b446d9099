/*
 * mwn's OAuth modes, as a Toolforge bot with an owner-only consumer uses them: OAuth 1.0a
 * (OAuthCredentials: mwn signs every request with the npm oauth-1.0a library) and OAuth 2
 * (OAuth2AccessToken: a Bearer header). Consumers are proposed on
 * Special:OAuthConsumerRegistration; owner-only ones are approved at once and show their tokens.
 */
import { Mwn } from 'mwn';
import { apiUrl, check, equal, runId, runSteps, wiki } from './_workflow.mjs';
import { Browser, registerConsumer } from './_oauth.mjs';

const options = { apiUrl, silent: true, userAgent: 'quire-conformance (mwn OAuth)', defaultParams: { maxlag: undefined } };
const page = `Conformance mwn OAuth ${runId}`;
let oauth1;
let oauth2;

const userinfo = async (bot) => (await bot.request({ action: 'query', meta: 'userinfo', uiprop: 'rights' })).query.userinfo;

await runSteps('mwn OAuth', [
  [
    'register owner-only consumers (1.0a and 2.0) on Special:OAuthConsumerRegistration',
    async () => {
      const browser = new Browser();
      await browser.login();
      const c1 = await registerConsumer(browser, { oauthVersion: 1, ownerOnly: true, grants: ['editpage', 'createeditmovepage'] });
      const c2 = await registerConsumer(browser, { oauthVersion: 2, ownerOnly: true, grants: ['editpage'] });
      check(c1.accessToken && c1.accessSecret, 'owner-only 1.0a consumer: no access token and secret');
      check(c2.accessToken, 'owner-only 2.0 consumer: no access token');
      oauth1 = new Mwn({ ...options, OAuthCredentials: { consumerToken: c1.key, consumerSecret: c1.secret, accessToken: c1.accessToken, accessSecret: c1.accessSecret } });
      oauth2 = new Mwn({ ...options, OAuth2AccessToken: c2.accessToken });
      return `${c1.key}, ${c2.key}`;
    },
  ],
  [
    'OAuth 1.0a: getTokensAndSiteInfo, userinfo, create and edit a page',
    async () => {
      oauth1.initOAuth();
      await oauth1.getTokensAndSiteInfo();
      const me = await userinfo(oauth1);
      equal(me.name, wiki.user, 'userinfo name');
      check(!me.rights.includes('delete'), 'rights beyond the grants');
      const created = await oauth1.create(page, 'Created by mwn over OAuth 1.0a.', 'mwn OAuth 1.0a');
      equal(created.result, 'Success', 'create');
      const edited = await oauth1.edit(page, (rev) => ({ text: `${rev.content}\nEdited.`, summary: 'mwn OAuth 1.0a edit' }));
      equal(edited.result, 'Success', 'edit');
      return `rev ${edited.newrevid}`;
    },
  ],
  [
    'OAuth 2: getTokensAndSiteInfo, userinfo, edit; createpage is not granted',
    async () => {
      oauth2.initOAuth();
      await oauth2.getTokensAndSiteInfo();
      const me = await userinfo(oauth2);
      equal(me.name, wiki.user, 'userinfo name');
      const r = await oauth2.save(page, 'Replaced by mwn over OAuth 2.', 'mwn OAuth 2');
      equal(r.result, 'Success', 'save');
      const refused = await oauth2.create(`${page} 2`, 'x').then(
        () => 'created',
        (e) => e.code,
      );
      equal(refused, 'cantcreate', 'create with the editpage grant only');
      return `rev ${r.newrevid}`;
    },
  ],
  [
    'a wrong consumer secret is refused (mwoauth-invalid-authorization)',
    async () => {
      const c = oauth1.options.OAuthCredentials;
      const wrong = new Mwn({ ...options, OAuthCredentials: { ...c, consumerSecret: '0'.repeat(40) } });
      wrong.initOAuth();
      const code = await wrong.request({ action: 'query', meta: 'userinfo' }).then(
        () => 'accepted',
        (e) => e.code,
      );
      equal(code, 'mwoauth-invalid-authorization', 'error code');
      return code;
    },
  ],
]);
