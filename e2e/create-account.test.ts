/*
 * Special:CreateAccount as a first visitor uses it, over HTTP with an empty cookie jar: the form
 * page starts an anonymous session (its cookie) so the form's token validates; a mistake answers
 * MediaWiki's own message (badretype, passwordincommonlist, userexists) and the form again, which
 * can be resubmitted; the created account is logged in, on MediaWiki's "Welcome, X!" page with its
 * return link and the user in the header.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type HttpResponse, type TestWiki } from './harness.js';
import { apiUserinfo, hiddenFields } from './special-pages.js';

const FORM = '/wiki/Special:CreateAccount';
const PASSWORD = 'okapi-meadow-4711';

/** The form's error box: its text, without markup. */
function errorBox(r: HttpResponse): string {
  const m = /<div class="[^"]*error[^"]*"[^>]*>([\s\S]*?)<\/div>/.exec(r.text);
  return (m?.[1] ?? '').replace(/<br>/g, '\n').replace(/<[^>]+>/g, '');
}

async function accountExists(wiki: TestWiki, name: string): Promise<boolean> {
  const users = (await new WikiClient(wiki.baseUrl).api({ action: 'query', list: 'users', ususers: name, formatversion: '2' })).json<{ query: { users: { missing?: boolean }[] } }>().query.users;
  return !users[0]!.missing;
}

for (const backend of testBackends()) {
  describe(`Special:CreateAccount for a first visitor (${backend})`, () => {
    let wiki: TestWiki;

    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Dana', 'danapass1234567'], wiki.testEnv.env, () => {});
    });
    after(() => wiki?.close());

    test('the form page opens a session; mistakes answer their message and the form again; the account is created and logged in', async () => {
      const visitor = new WikiClient(wiki.baseUrl);
      const page = await visitor.get(`${FORM}?returnto=Main_Page`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('set-cookie') ?? '', /session=/, 'the form page starts a session');
      assert.equal(visitor.jar.cookies.size, 1);
      const hidden = hiddenFields(page.text);
      assert.equal(hidden.authAction, 'create');
      assert.equal(hidden.returnto, 'Main_Page');
      assert.match(hidden.wpCreateaccountToken!, /\+\\$/);
      assert.equal(hidden.wpEditToken, '+\\', "an anonymous session's edit token");
      for (const name of ['wpName', 'wpPassword', 'retype', 'email', 'realname']) assert.match(page.text, new RegExp(`name="${name}"`));

      const submit = async (form: Record<string, string>, last: HttpResponse) => visitor.post(FORM, { ...hiddenFields(last.text), ...form });
      const badretype = await submit({ wpName: 'Newbie', wpPassword: PASSWORD, retype: 'something-else-99' }, page);
      assert.equal(badretype.status, 200);
      assert.equal(errorBox(badretype), 'The passwords you entered do not match.');
      assert.equal(await accountExists(wiki, 'Newbie'), false);

      const common = await submit({ wpName: 'Newbie', wpPassword: 'password', retype: 'password' }, badretype);
      assert.equal(errorBox(common), 'The password entered is in a list of very commonly used passwords. Please choose a more unique password.');
      assert.equal(await accountExists(wiki, 'Newbie'), false);

      const taken = await submit({ wpName: 'Dana', wpPassword: PASSWORD, retype: PASSWORD }, common);
      assert.equal(errorBox(taken), 'Username entered already in use.\nPlease choose a different name.');
      assert.equal((await apiUserinfo(visitor)).anon, true, 'still anonymous');

      const created = await submit({ wpName: 'Newbie', wpPassword: PASSWORD, retype: PASSWORD }, taken);
      assert.equal(created.status, 200, created.text.slice(0, 500));
      assert.equal(errorBox(created), '');
      assert.match(created.text, /<h1[^>]*>Welcome, Newbie!<\/h1>/);
      assert.match(created.text, /Your account has been created\./);
      assert.match(created.text, /<p id="mw-returnto">Return to <a href="\/wiki\/Main_Page">Main Page<\/a>\.<\/p>/);
      assert.match(created.text, /<li id="pt-userpage"><a href="\/wiki\/User:Newbie"[^>]*>Newbie<\/a>/, 'the header shows the user');
      assert.doesNotMatch(created.text, /id="pt-createaccount"/);
      assert.equal(await accountExists(wiki, 'Newbie'), true);
      // The session is the new user's, on the pages and the API.
      assert.equal((await apiUserinfo(visitor)).name, 'Newbie');
      assert.match((await visitor.get('/wiki/Main_Page')).text, /<li id="pt-userpage">/);
    });

    test('without a returnto the welcome page returns to the main page; a form from no session is the session failure', async () => {
      const visitor = new WikiClient(wiki.baseUrl);
      const page = await visitor.get(FORM);
      const created = await visitor.post(FORM, { ...hiddenFields(page.text), wpName: 'Second', wpPassword: PASSWORD, retype: PASSWORD });
      assert.match(created.text, /<h1[^>]*>Welcome, Second!<\/h1>/);
      assert.match(created.text, /Return to <a href="\/wiki\/Main_Page">Main Page<\/a>\./);

      // Cookies refused: the token comes back without its session (MediaWiki answers the same).
      const cookieless = new WikiClient(wiki.baseUrl);
      const form = await cookieless.get(FORM, { cookies: false });
      const r = await cookieless.post(FORM, { ...hiddenFields(form.text), wpName: 'Third', wpPassword: PASSWORD, retype: PASSWORD }, { cookies: false });
      assert.match(errorBox(r), /^There seems to be a problem with your login session;/);
      assert.equal(await accountExists(wiki, 'Third'), false);
    });
  });
}
