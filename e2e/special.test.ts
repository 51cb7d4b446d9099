/*
 * The gateway's special pages over HTTP, as a browser without JavaScript uses them (cookie jar,
 * urlencoded forms, redirects not followed): Special:UserLogin, Special:BotPasswords and
 * Special:UserLogout, on every backend of testBackends().
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GRANTS } from '@quire/auth/grants';
import { totpAt } from '@quire/auth/totp';
import { GRANT_NAMES } from '@quire/gateway/pages/grants';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type HttpResponse, type TestWiki } from './harness.js';
import { apiLogin, apiUserinfo, hiddenFields, withoutSkinScript } from './special-pages.js';

const LOGIN = '/wiki/Special:UserLogin';
const BOTPASSWORDS = '/wiki/Special:BotPasswords';

function assertHtmlPage(r: HttpResponse, status = 200): void {
  assert.equal(r.status, status, r.text.slice(0, 500));
  assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
  assertSecurityHeaders(r);
  assert.doesNotMatch(withoutSkinScript(r.text), /<script/i, "no script on any page but the skin's");
}

function assertSecurityHeaders(r: HttpResponse): void {
  const csp = r.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/, 'the inline stylesheet by hash only');
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /form-action 'self'/);
  assert.doesNotMatch(csp, /unsafe/);
  assert.match(csp, /(?:^|; )script-src 'self';/, 'scripts only from the wiki itself');
  assert.match(csp, /(?:^|; )connect-src 'self';/);
  assert.equal(r.headers.get('x-frame-options'), 'DENY');
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  assert.match(r.headers.get('cache-control') ?? '', /no-store/);
}

/** Logs `c` in through the login form; resolves with the POST's response. */
async function formLogin(c: WikiClient, name: string, password: string, extra: Record<string, string> = {}): Promise<HttpResponse> {
  const form = await c.get(LOGIN);
  const { wpLoginToken } = hiddenFields(form.text);
  return c.post(LOGIN, { wpName: name, wpPassword: password, wpLoginToken: wpLoginToken!, authAction: 'login', ...extra });
}

async function loggedInClient(wiki: TestWiki, name: string, password: string): Promise<WikiClient> {
  const c = new WikiClient(wiki.baseUrl);
  const r = await formLogin(c, name, password);
  assert.equal(r.status, 302, r.text.slice(0, 500));
  return c;
}

/** The bot-password page of `appId`, its form's token, and a POST of that form. */
async function submitBotForm(c: WikiClient, appId: string, op: string, grants: string[] = [], token?: string): Promise<HttpResponse> {
  const path = `${BOTPASSWORDS}/${encodeURIComponent(appId)}`;
  const page = await c.get(path);
  assert.equal(page.status, 200, page.text.slice(0, 500));
  const body = new URLSearchParams({ wpEditToken: token ?? hiddenFields(page.text).wpEditToken!, op });
  for (const g of grants) body.append('wpgrants[]', `grant-${g}`);
  return c.request('POST', path, body.toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

function newPassword(r: HttpResponse): string {
  const m = /<strong class="secret" id="bp-password">([^<]*)<\/strong>/.exec(r.text);
  assert.ok(m, `a new password on the page: ${r.text.slice(0, 800)}`);
  return m[1]!;
}

for (const backend of testBackends()) {
  describe(`special pages (${backend})`, () => {
    let wiki: TestWiki;

    before(async () => {
      wiki = await startWiki(backend);
      for (const [name, password] of [
        ['Alice', 'alicepass123456'],
        ['Bob', 'bobpass1234567'],
      ]) {
        await runAdmin(['createAndPromote', name!, password!], wiki.testEnv.env, () => undefined);
      }
    });
    after(() => wiki.close());

    test('the page grants are the auth service grants, in the same order', () => {
      assert.deepEqual(GRANT_NAMES, GRANTS);
    });

    test('Special:UserLogin: the form, at both addresses, with a login token and a new session', async () => {
      for (const path of [LOGIN, '/w/index.php?title=Special:UserLogin', '/wiki/special:userlogin', '/wiki/Special:User_login']) {
        const c = new WikiClient(wiki.baseUrl);
        const r = await c.get(path);
        assertHtmlPage(r);
        assert.match(r.text, /<form method="post" action="\/wiki\/Special:UserLogin" name="userlogin">/);
        assert.match(r.text, /<input type="text" id="wpName1" name="wpName"/);
        assert.match(r.text, /<input type="password" id="wpPassword1" name="wpPassword"/);
        assert.match(hiddenFields(r.text).wpLoginToken ?? '', /^[0-9a-f]{32}[0-9a-f]+\+\\$/);
        assert.ok(c.jar.cookies.get('quire_session'), `${path}: a session holds the login token`);
      }
      const head = await new WikiClient(wiki.baseUrl).request('HEAD', LOGIN);
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
    });

    test('login: success sets a new session cookie and goes to returnto (or the Main Page)', async () => {
      const c = new WikiClient(wiki.baseUrl);
      const form = await c.get(`/w/index.php?title=Special:UserLogin&returnto=Special:BotPasswords&returntoquery=${encodeURIComponent('a=1&b=x y')}`);
      const anonymousSession = c.jar.cookies.get('quire_session');
      const fieldsOfForm = hiddenFields(form.text);
      assert.equal(fieldsOfForm.returnto, 'Special:BotPasswords');
      const r = await c.post(LOGIN, { ...fieldsOfForm, wpName: 'alice', wpPassword: 'alicepass123456' });
      assert.equal(r.status, 302);
      assertSecurityHeaders(r);
      assert.equal(r.headers.get('location'), '/wiki/Special:BotPasswords?a=1&b=x+y');
      const cookie = r.headers.getSetCookie().find((l) => l.startsWith('quire_session='));
      assert.ok(cookie);
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, /SameSite=Lax/i);
      assert.notEqual(c.jar.cookies.get('quire_session'), anonymousSession, 'login replaces the session');
      assert.equal((await apiUserinfo(c)).name, 'Alice');

      const plain = await formLogin(new WikiClient(wiki.baseUrl), 'Alice', 'alicepass123456');
      assert.equal(plain.headers.get('location'), '/wiki/Main_Page');
      // returnto is a title of this wiki: never a way off the site.
      for (const target of ['//evil.example/x', 'https://evil.example/', '\\\\evil.example']) {
        const away = await formLogin(new WikiClient(wiki.baseUrl), 'Alice', 'alicepass123456', { returnto: target });
        assert.match(away.headers.get('location') ?? '', /^\/wiki\/[^/\\]/, target);
      }
      // "Keep me logged in": a persistent cookie.
      const remembered = await formLogin(new WikiClient(wiki.baseUrl), 'Alice', 'alicepass123456', { wpRemember: '1' });
      assert.match(remembered.headers.getSetCookie().find((l) => l.startsWith('quire_session='))!, /Max-Age=\d+/i);
    });

    test('login: a wrong password is shown in the form, the name kept (escaped), nobody logged in', async () => {
      const c = new WikiClient(wiki.baseUrl);
      const r = await formLogin(c, 'Alice', 'wrong password');
      assertHtmlPage(r);
      assert.match(r.text, /class="msg msg-error"[^>]*>Incorrect username or password entered\.<br>Please try again\.<\/div>/);
      assert.match(r.text, /name="wpName" value="Alice"/);
      assert.equal((await apiUserinfo(c)).anon, true);

      const hostile = await formLogin(c, '"><script>alert(1)</script>', 'x');
      assertHtmlPage(hostile);
      assert.ok(hostile.text.includes('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'));
    });

    test('login: a bad login token is a session failure; no session at all asks for cookies', async () => {
      const c = new WikiClient(wiki.baseUrl);
      await c.get(LOGIN);
      const bad = await c.post(LOGIN, { wpName: 'Alice', wpPassword: 'alicepass123456', wpLoginToken: 'deadbeef+\\', authAction: 'login' });
      assertHtmlPage(bad);
      assert.match(bad.text, /There seems to be a problem with your login session;/);
      assert.equal((await apiUserinfo(c)).anon, true);

      const noSession = await new WikiClient(wiki.baseUrl).post(LOGIN, { wpName: 'Alice', wpPassword: 'alicepass123456', wpLoginToken: hiddenFields(bad.text).wpLoginToken! }, { cookies: false });
      assertHtmlPage(noSession);
      assert.match(noSession.text, /Quire uses cookies to log in users\./);
      // Bot passwords are for the API, not for the login form.
      const botLogin = await formLogin(c, 'Alice@nobot', 'whatever');
      assert.match(botLogin.text, /msg-error/);
    });

    test('two-factor: the login form asks for the code, then logs in', async () => {
      await runAdmin(['createAndPromote', 'Totpuser', 'totppass123456'], wiki.testEnv.env, () => undefined);
      const lines: string[] = [];
      await runAdmin(['enableTOTP', 'Totpuser'], wiki.testEnv.env, (l) => lines.push(l));
      const secret = lines.find((l) => l.startsWith('secret: '))!.slice('secret: '.length);
      const c = new WikiClient(wiki.baseUrl);
      const step1 = await formLogin(c, 'Totpuser', 'totppass123456', { returnto: 'Special:BotPasswords' });
      assertHtmlPage(step1);
      assert.match(step1.text, /name="OATHToken"/);
      assert.equal(hiddenFields(step1.text).authAction, 'login-continue');
      const now = Date.now() / 1000;
      const accepted = [now - 30, now, now + 30].map((t) => totpAt(secret, t));
      const wrong = await c.post(LOGIN, { ...hiddenFields(step1.text), OATHToken: ['000000', '111111', '222222', '333333'].find((x) => !accepted.includes(x))! });
      assert.match(wrong.text, /msg-error[^>]*>Verification failed\./);
      const ok = await c.post(LOGIN, { ...hiddenFields(wrong.text), OATHToken: totpAt(secret, Date.now() / 1000) });
      assert.equal(ok.status, 302, ok.text.slice(0, 500));
      assert.equal(ok.headers.get('location'), '/wiki/Special:BotPasswords');
      assert.equal((await apiUserinfo(c)).name, 'Totpuser');
    });

    test('Special:BotPasswords: anonymous visitors are sent to log in and brought back', async () => {
      const c = new WikiClient(wiki.baseUrl);
      const r = await c.get(BOTPASSWORDS);
      assert.equal(r.status, 302);
      assertSecurityHeaders(r);
      const location = r.headers.get('location')!;
      assert.equal(location, '/w/index.php?title=Special%3AUserLogin&returnto=Special%3ABotPasswords&returntoquery=&warning=exception-nologin-text');
      const login = await c.get(location);
      assert.match(login.text, /msg-warning[^>]*>Please log in to be able to access this page or action\./);
      assert.equal(hiddenFields(login.text).returnto, 'Special:BotPasswords');
      const back = await c.post(LOGIN, { ...hiddenFields(login.text), wpName: 'Alice', wpPassword: 'alicepass123456' });
      assert.equal(back.headers.get('location'), '/wiki/Special:BotPasswords');
      assertHtmlPage(await c.get(back.headers.get('location')!));

      const sub = await new WikiClient(wiki.baseUrl).get(`${BOTPASSWORDS}/mybot`);
      assert.match(sub.headers.get('location')!, /returnto=Special%3ABotPasswords%2Fmybot/);
      const posted = await new WikiClient(wiki.baseUrl).post(`${BOTPASSWORDS}/mybot`, { op: 'create', 'wpgrants[]': 'grant-delete' });
      assert.equal(posted.status, 302, 'an anonymous POST changes nothing');
    });

    test('create, list, update grants, reset password, delete — each visible to action=login', async () => {
      const c = await loggedInClient(wiki, 'Alice', 'alicepass123456');
      const list = await c.get(BOTPASSWORDS);
      assertHtmlPage(list);
      assert.doesNotMatch(list.text, /Existing bot passwords/);
      // Checked rather than compared: a token carries the second it was made in.
      const csrf = hiddenFields(list.text).wpEditToken ?? '';
      const check = (await c.api({ action: 'checktoken', type: 'csrf', token: csrf })).json().checktoken;
      assert.equal(check.result, 'valid', "the forms carry the session's csrf token");

      // The bot-name form leads to the bot's own page.
      const named = await c.post(BOTPASSWORDS, { ...hiddenFields(list.text), wpappId: '  my bot ' });
      assert.equal(named.status, 302);
      assert.equal(named.headers.get('location'), '/wiki/Special:BotPasswords/my_bot');
      const form = await c.get(named.headers.get('location')!);
      assertHtmlPage(form);
      assert.match(form.text, /<legend>Create a new bot password<\/legend>/);
      assert.match(form.text, /<code id="bp-login-name">Alice@my_bot<\/code>/);
      const boxes = [...form.text.matchAll(/<input type="checkbox" name="wpgrants\[\]" value="grant-([a-z]+)"([^>]*)>/g)];
      assert.deepEqual(
        boxes.map((m) => m[1]),
        GRANTS,
      );
      assert.equal(boxes[0]![2], ' checked disabled', 'basic is always granted');
      assert.match(form.text, /> Edit existing pages <code>editpage<\/code>/);

      const created = await submitBotForm(c, 'my_bot', 'create', ['editpage']);
      assertHtmlPage(created);
      assert.match(created.text, /<h1 id="firstHeading">Bot password created<\/h1>/);
      assert.match(created.text, /<strong class="secret" id="bp-login">Alice@my_bot<\/strong>/);
      const password = newPassword(created);
      assert.match(password, /^[a-z2-7]{32}$/);

      const bot = new WikiClient(wiki.baseUrl);
      assert.equal((await apiLogin(bot, 'Alice@my_bot', password)).result, 'Success');
      let rights = (await apiUserinfo(bot)).rights;
      assert.ok(rights.includes('edit'));
      assert.ok(!rights.includes('createpage'), 'editpage does not create pages');

      const listed = await c.get(BOTPASSWORDS);
      assert.match(listed.text, /Existing bot passwords/);
      assert.match(listed.text, /<a href="\/wiki\/Special:BotPasswords\/my_bot">my_bot<\/a><\/td><td><code>Alice@my_bot<\/code><\/td><td>Basic rights, Edit existing pages<\/td>/);
      assert.doesNotMatch(listed.text, new RegExp(password), 'the password is shown only once');
      const again = await c.get(`${BOTPASSWORDS}/my_bot`);
      assert.match(again.text, /<legend>Edit an existing bot password<\/legend>/);
      assert.match(again.text, /value="grant-editpage" checked>/);
      assert.doesNotMatch(again.text, new RegExp(password));

      const updated = await submitBotForm(c, 'my_bot', 'update', ['createeditmovepage']);
      assertHtmlPage(updated);
      assert.match(updated.text, /<h1 id="firstHeading">Bot password updated<\/h1>/);
      assert.doesNotMatch(updated.text, /bp-password/, 'an update keeps the password');
      const bot2 = new WikiClient(wiki.baseUrl);
      assert.equal((await apiLogin(bot2, 'Alice@my_bot', password)).result, 'Success');
      rights = (await apiUserinfo(bot2)).rights;
      assert.ok(rights.includes('createpage') && rights.includes('move'));

      const reset = await submitBotForm(c, 'my_bot', 'reset');
      const password2 = newPassword(reset);
      assert.notEqual(password2, password);
      assert.equal((await apiLogin(new WikiClient(wiki.baseUrl), 'Alice@my_bot', password)).result, 'Failed', 'the old password is gone');
      assert.equal((await apiLogin(new WikiClient(wiki.baseUrl), 'Alice@my_bot', password2)).result, 'Success');

      const duplicate = await submitBotForm(c, 'other', 'create', ['editpage']);
      assert.match(duplicate.text, /<h1 id="firstHeading">Bot password created<\/h1>/);
      const dupForm = await c.get(`${BOTPASSWORDS}/other`);
      const dupPost = await c.post(`${BOTPASSWORDS}/other`, { wpEditToken: hiddenFields(dupForm.text).wpEditToken!, op: 'create' });
      assertHtmlPage(dupPost);
      assert.match(dupPost.text, /Failed to add bot name &quot;other&quot;\. Was it already added\?/);

      const deleted = await submitBotForm(c, 'my_bot', 'delete');
      assertHtmlPage(deleted);
      assert.match(deleted.text, /<h1 id="firstHeading">Bot password deleted<\/h1>/);
      assert.equal((await apiLogin(new WikiClient(wiki.baseUrl), 'Alice@my_bot', password2)).result, 'Failed');
      assert.doesNotMatch((await c.get(BOTPASSWORDS)).text, /my_bot/);
      // A second delete of the same name: the service's "does not exist", shown in the form.
      const gone = await c.post(`${BOTPASSWORDS}/my_bot`, { wpEditToken: csrf, op: 'delete' });
      assert.match(gone.text, /User &quot;Alice&quot; does not have a bot password named &quot;my_bot&quot;\./);
    });

    test('CSRF: a missing, wrong or foreign token changes nothing', async () => {
      const alice = await loggedInClient(wiki, 'Alice', 'alicepass123456');
      const bob = await loggedInClient(wiki, 'Bob', 'bobpass1234567');
      const bobToken = hiddenFields((await bob.get(BOTPASSWORDS)).text).wpEditToken!;
      for (const token of ['', '+\\', 'deadbeef+\\', bobToken]) {
        const r = await submitBotForm(alice, 'csrfbot', 'create', ['delete'], token);
        assertHtmlPage(r);
        assert.match(r.text, /There seems to be a problem with your login session;/, `token ${JSON.stringify(token)}`);
        assert.doesNotMatch(r.text, /bp-password/);
      }
      assert.doesNotMatch((await alice.get(BOTPASSWORDS)).text, /csrfbot/);

      const created = await submitBotForm(alice, 'csrfbot', 'create', ['editpage']);
      const password = newPassword(created);
      for (const op of ['update', 'reset', 'delete']) {
        const r = await submitBotForm(alice, 'csrfbot', op, ['delete'], bobToken);
        assert.match(r.text, /There seems to be a problem with your login session;/);
      }
      const listed = await alice.get(BOTPASSWORDS);
      assert.match(listed.text, /<td>Basic rights, Edit existing pages<\/td>/, 'grants unchanged');
      assert.equal((await apiLogin(new WikiClient(wiki.baseUrl), 'Alice@csrfbot', password)).result, 'Success', 'password unchanged');
      const badNew = await alice.post(BOTPASSWORDS, { wpEditToken: 'x', op: 'new', wpappId: 'elsewhere' });
      assert.equal(badNew.status, 200);
      assert.match(badNew.text, /There seems to be a problem with your login session;/);
    });

    test('escaping: a hostile bot name is text on every page', async () => {
      const c = await loggedInClient(wiki, 'Bob', 'bobpass1234567');
      const hostile = '<script>alert(1)</script>';
      const named = await c.post(BOTPASSWORDS, { ...hiddenFields((await c.get(BOTPASSWORDS)).text), wpappId: hostile });
      assert.equal(named.headers.get('location'), '/wiki/Special:BotPasswords/%3Cscript%3Ealert(1)%3C/script%3E');
      // The "/" inside the name is part of the subpage, as in MediaWiki.
      const form = await c.get(named.headers.get('location')!);
      assertHtmlPage(form);
      assert.ok(form.text.includes('Bob@&lt;script&gt;alert(1)&lt;/script&gt;'));
      const created = await submitBotForm(c, hostile, 'create', ['editpage']);
      assertHtmlPage(created);
      assert.ok(created.text.includes('bot name &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; of user &quot;Bob&quot;'));
      const password = newPassword(created);
      assert.equal((await apiLogin(new WikiClient(wiki.baseUrl), `Bob@${hostile}`, password)).result, 'Success');
      const list = await c.get(BOTPASSWORDS);
      assertHtmlPage(list);
      assert.ok(list.text.includes('<a href="/wiki/Special:BotPasswords/%3Cscript%3Ealert(1)%3C/script%3E">&lt;script&gt;alert(1)&lt;/script&gt;</a>'));

      const quote = 'q"onmouseover="x';
      const quoted = await submitBotForm(c, quote, 'create', []);
      assertHtmlPage(quoted);
      const quotedList = await c.get(BOTPASSWORDS);
      assert.ok(quotedList.text.includes('>q&quot;onmouseover=&quot;x</a>'));
      assert.doesNotMatch(quotedList.text, /onmouseover="/);
    });

    test('bad bot names, unknown pages and methods', async () => {
      const c = await loggedInClient(wiki, 'Bob', 'bobpass1234567');
      const tooLong = await c.get(`${BOTPASSWORDS}/${'x'.repeat(33)}`);
      assertHtmlPage(tooLong, 400);
      assert.match(tooLong.text, /The bot name &quot;x{33}&quot; is not valid\./);
      const empty = await c.post(BOTPASSWORDS, { ...hiddenFields((await c.get(BOTPASSWORDS)).text), wpappId: '   ' });
      assertHtmlPage(empty);
      assert.match(empty.text, /The bot name &quot;&quot; is not valid\./);
      const at = await submitBotForm(c, 'a@b', 'create', []);
      assert.match(at.text, /The bot name &quot;a@b&quot; is not valid\./);
      const unknownGrant = await c.post(`${BOTPASSWORDS}/g`, { wpEditToken: hiddenFields((await c.get(BOTPASSWORDS)).text).wpEditToken!, op: 'create', 'wpgrants[]': 'grant-nosuchgrant' });
      assertHtmlPage(unknownGrant);
      assert.match(unknownGrant.text, /Unrecognized grants: nosuchgrant\./);

      assertHtmlPage(await c.get('/wiki/Special:NoSuchPage'), 404);
      const put = await c.request('PUT', BOTPASSWORDS);
      assertHtmlPage(put, 405);
      assert.equal(put.headers.get('allow'), 'GET, HEAD, POST');
      const malformed = await c.request('POST', BOTPASSWORDS, 'x'.repeat(70_000), { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assertHtmlPage(malformed, 413);
      // Other titles are the article views' (e2e/wiki-pages.test.ts).
      assert.equal((await c.get('/wiki/Main_Page')).status, 200);
    });

    test("a bot-password session is the API's only: Special:BotPasswords sends it to log in", async () => {
      const lines: string[] = [];
      await runAdmin(['createBotPassword', 'Bob', 'everything', '--grants', GRANTS.join(',')], wiki.testEnv.env, (l) => lines.push(l));
      const bot = new WikiClient(wiki.baseUrl);
      assert.equal((await apiLogin(bot, 'Bob@everything', lines[1]!)).result, 'Success');
      // BotPasswordSessionProvider gives no session outside the API: the page sees an anonymous visitor.
      const r = await bot.get(BOTPASSWORDS);
      assert.equal(r.status, 302);
      assert.equal(r.headers.get('location'), '/w/index.php?title=Special%3AUserLogin&returnto=Special%3ABotPasswords&returntoquery=&warning=exception-nologin-text');
      assert.equal((await apiUserinfo(bot)).name, 'Bob');
    });

    test('Special:UserLogout: a confirmation form, then the session ends', async () => {
      const c = await loggedInClient(wiki, 'Alice', 'alicepass123456');
      const form = await c.get('/wiki/Special:UserLogout');
      assertHtmlPage(form);
      assert.match(form.text, /Do you want to log out\?/);
      const refused = await c.post('/wiki/Special:UserLogout', { wpEditToken: 'bad+\\' });
      assert.match(refused.text, /There seems to be a problem with your login session;/);
      assert.equal((await apiUserinfo(c)).name, 'Alice');
      const r = await c.post('/wiki/Special:UserLogout', hiddenFields(form.text));
      assertHtmlPage(r);
      assert.match(r.text, /You are now logged out\./);
      assert.ok(!c.jar.cookies.has('quire_session'), 'the cookie is cleared');
      assert.equal((await apiUserinfo(c)).anon, true);
    });
  });
}
