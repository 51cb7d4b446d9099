/*
 * Accounts, sessions and tokens end to end: the real stack, driven over HTTP like a bot or a
 * browser would (cookie jar), on every backend of testBackends().
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { totpAt } from '@quire/auth/totp';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

const API = '/w/api.php';

async function admin(wiki: TestWiki, ...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runAdmin(argv, wiki.testEnv.env, (l) => lines.push(l));
  return lines;
}

function client(wiki: TestWiki): WikiClient {
  return new WikiClient(wiki.baseUrl);
}

async function post(c: WikiClient, form: Record<string, string>) {
  const r = await c.post(API, { format: 'json', ...form });
  return { status: r.status, body: r.json(), headers: r.headers };
}

async function tokens(c: WikiClient, type: string): Promise<Record<string, string>> {
  return (await c.api({ action: 'query', meta: 'tokens', type })).json().query.tokens;
}

async function login(c: WikiClient, name: string, password: string) {
  const { logintoken } = await tokens(c, 'login');
  return post(c, { action: 'login', lgname: name, lgpassword: password, lgtoken: logintoken! });
}

async function userinfo(c: WikiClient, uiprop = 'groups|rights|blockinfo|hasmsg') {
  return (await c.api({ action: 'query', meta: 'userinfo', uiprop, formatversion: '2' })).json().query.userinfo;
}

/** An error's code and text. */
const pick = (e: { code: string; info: string }) => ({ code: e.code, info: e.info });

for (const backend of testBackends()) {
  describe(`auth (${backend})`, () => {
    let wiki: TestWiki;
    let botPassword: string;
    let readOnlyBotPassword: string;

    before(async () => {
      wiki = await startWiki(backend, { AUTH_PASSWORD_ATTEMPT_THROTTLE: '1000/300', AUTH_ACCOUNT_CREATION_THROTTLE: '1000/86400' });
      await admin(wiki, 'createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,bureaucrat,bot');
      await admin(wiki, 'createAndPromote', 'Alice', 'alicepass123456');
      botPassword = (await admin(wiki, 'createBotPassword', 'Admin', 'ci', '--grants', 'basic,editpage,highvolume,blockusers'))[1]!;
      readOnlyBotPassword = (await admin(wiki, 'createBotPassword', 'Alice', 'reader', '--grants', 'basic'))[1]!;
    });
    after(() => wiki.close());

    test('admin CLI: bot passwords are 32 characters, shown once', () => {
      assert.match(botPassword, /^[a-z2-7]{32}$/);
      assert.notEqual(botPassword, readOnlyBotPassword);
    });

    test('anonymous tokens are exactly +\\ except login/createaccount, which open a session', async () => {
      const c = client(wiki);
      const r = await c.api({ action: 'query', meta: 'tokens', type: 'csrf|watch|login|createaccount' });
      const t = r.json().query.tokens;
      assert.equal(t.csrftoken, '+\\');
      assert.equal(t.watchtoken, '+\\');
      assert.match(t.logintoken, /^[0-9a-f]{32}[0-9a-f]+\+\\$/);
      assert.match(t.createaccounttoken, /^[0-9a-f]{32}[0-9a-f]+\+\\$/);
      const cookie = r.headers.getSetCookie().find((l) => l.startsWith('quire_session='));
      assert.ok(cookie, 'session cookie set');
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, /SameSite=Lax/i);
      assert.match(cookie, /Path=\//i);
      // The same session keeps its login token valid.
      const again = (await c.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
      const check = (await c.api({ action: 'checktoken', type: 'login', token: again })).json().checktoken;
      assert.equal(check.result, 'valid');
      assert.match(check.generated, /^\d{4}-\d\d-\d\dT/);
    });

    test('login: every result state', async () => {
      const c = client(wiki);
      // Legacy first step without a token: NeedToken with a token and a session cookie.
      const need = await post(c, { action: 'login', lgname: 'Admin@ci', lgpassword: botPassword });
      assert.equal(need.body.login.result, 'NeedToken');
      assert.match(need.body.login.token, /\+\\$/);
      assert.match(need.body.warnings.login['*'], /Fetching a token via "action=login" is deprecated/);
      assert.ok(c.jar.cookies.has('quire_session'));
      // A token that does not match the session.
      const wrong = await post(c, { action: 'login', lgname: 'Admin@ci', lgpassword: botPassword, lgtoken: 'abc+\\' });
      assert.deepEqual(wrong.body.login, { result: 'WrongToken' });
      // A token but no session at all.
      const lost = await client(wiki).post(API, { format: 'json', action: 'login', lgname: 'Admin', lgpassword: 'x', lgtoken: need.body.login.token });
      assert.deepEqual(lost.json().login, { result: 'Failed', reason: 'Unable to continue login. Your session most likely timed out.' });
      // Wrong password, unknown user: the same Failed.
      for (const [name, pw] of [
        ['Alice', 'nope'],
        ['Nobody', 'nope'],
        ['Admin@ci', 'wrongwrongwrong'],
      ]) {
        const failed = await post(c, { action: 'login', lgname: name!, lgpassword: pw!, lgtoken: need.body.login.token });
        assert.deepEqual(failed.body.login, { result: 'Failed', reason: 'Incorrect username or password entered. Please try again.' }, name);
      }
      // Bot password: Success without the deprecation warning; the session cookie changes.
      const before = c.jar.cookies.get('quire_session');
      const ok = await post(c, { action: 'login', lgname: 'Admin@ci', lgpassword: botPassword, lgtoken: need.body.login.token });
      assert.equal(ok.body.login.result, 'Success');
      assert.equal(ok.body.login.lgusername, 'Admin');
      assert.equal(typeof ok.body.login.lguserid, 'number');
      assert.equal(ok.body.warnings, undefined);
      assert.notEqual(c.jar.cookies.get('quire_session'), before);
      // Main account: Success with the deprecation warning.
      const main = await login(client(wiki), 'alice', 'alicepass123456');
      assert.equal(main.body.login.result, 'Success');
      assert.equal(main.body.login.lgusername, 'Alice');
      assert.match(main.body.warnings.login['*'], /Main-account login via "action=login" is deprecated/);
      // origin=* never logs in.
      const aborted = await post(client(wiki), { action: 'login', origin: '*', lgname: 'Alice', lgpassword: 'alicepass123456', lgtoken: 'x+\\' });
      assert.deepEqual(aborted.body.login, { result: 'Aborted', reason: 'Cannot log in when the same-origin policy is not applied.' });
    });

    test('login: GET is refused (mustbeposted)', async () => {
      const r = await client(wiki).api({ action: 'login', lgname: 'Alice', lgpassword: 'x' });
      assert.equal(r.json().error.code, 'mustbeposted');
    });

    test('secrets in the query string are refused (mustpostparams), as MediaWiki does', async () => {
      const c = client(wiki);
      const { logintoken, createaccounttoken } = await tokens(c, 'login|createaccount');
      const inQuery = async (query: Record<string, string>, form: Record<string, string>) => (await c.post(`${API}?${new URLSearchParams(query)}`, { format: 'json', ...form })).json().error;
      const mustPost = (names: string) => `The following ${names.includes(',') ? 'parameters were' : 'parameter was'} found in the query string, but must be in the POST body: ${names}.`;
      const login = await inQuery({ lgpassword: 'alicepass123456', lgtoken: logintoken! }, { action: 'login', lgname: 'Alice' });
      assert.deepEqual([login.code, login.info], ['mustpostparams', mustPost('lgpassword, lgtoken')]);
      assert.equal((await inQuery({ lgpassword: 'x' }, { action: 'login', lgname: 'Alice', lgtoken: logintoken! })).info, mustPost('lgpassword'));
      const client1 = { action: 'clientlogin', username: 'Alice', loginreturnurl: 'http://x/' };
      assert.equal((await inQuery({ password: 'x' }, { ...client1, logintoken: logintoken! })).info, mustPost('password'));
      assert.equal((await inQuery({ logintoken: logintoken! }, { ...client1, password: 'x' })).info, mustPost('logintoken'));
      const create = { action: 'createaccount', username: 'Querystring', createreturnurl: 'http://x/', createtoken: createaccounttoken! };
      assert.equal((await inQuery({ password: 'qspass987654', retype: 'qspass987654' }, create)).info, mustPost('password, retype'));
      assert.equal((await inQuery({ password: 'x' }, { action: 'validatepassword' })).info, mustPost('password'));
      // Nothing was logged in or created on the way.
      assert.equal((await userinfo(c)).anon, true);
      assert.deepEqual((await c.api({ action: 'query', list: 'users', ususers: 'Querystring', formatversion: '2' })).json().query.users[0].missing, true);
    });

    test('sessions: tokens stay valid for the session, change on login, and logout invalidates them', async () => {
      const c = client(wiki);
      const anonCsrf = (await tokens(c, 'csrf')).csrftoken;
      assert.equal(anonCsrf, '+\\');
      assert.equal((await login(c, 'Alice', 'alicepass123456')).body.login.result, 'Success');
      const csrf = (await tokens(c, 'csrf')).csrftoken!;
      assert.match(csrf, /^[0-9a-f]{32}[0-9a-f]+\+\\$/);
      assert.equal((await c.api({ action: 'checktoken', type: 'csrf', token: csrf })).json().checktoken.result, 'valid');
      assert.equal((await c.api({ action: 'checktoken', type: 'csrf', token: '+\\' })).json().checktoken.result, 'invalid');
      // Wrong token type.
      assert.equal((await c.api({ action: 'checktoken', type: 'watch', token: csrf })).json().checktoken.result, 'invalid');
      const info = await userinfo(c);
      assert.equal(info.name, 'Alice');
      assert.deepEqual(info.groups, ['*', 'user', 'autoconfirmed']);
      assert.equal(info.messages, false);
      // Logout needs the csrf token, POSTed.
      assert.equal((await c.api({ action: 'logout' })).json().error.code, 'missingparam');
      assert.equal((await c.api({ action: 'logout', token: csrf })).json().error.code, 'mustpostparams');
      assert.equal((await post(c, { action: 'logout', token: 'bad+\\' })).body.error.code, 'badtoken');
      const sessionCookie = c.jar.cookies.get('quire_session')!;
      const out = await post(c, { action: 'logout', token: csrf });
      assert.deepEqual(out.body, {});
      const cleared = out.headers.getSetCookie().find((l) => l.startsWith('quire_session='));
      assert.match(cleared ?? '', /^quire_session=;/);
      assert.equal(c.jar.cookies.has('quire_session'), false);
      // The old session and its token are dead even if a client replays them.
      const replay = new WikiClient(wiki.baseUrl);
      replay.jar.cookies.set('quire_session', sessionCookie);
      assert.equal((await post(replay, { action: 'logout', token: csrf })).body.error.code, 'badtoken');
      assert.equal((await userinfo(replay)).anon, true);
      const assertUser = await replay.api({ action: 'query', meta: 'userinfo', assert: 'user' });
      assert.equal(assertUser.json().error.code, 'assertuserfailed');
    });

    test('grants: a bot-password session has the user rights intersected with its grants', async () => {
      const bot = client(wiki);
      assert.equal((await login(bot, 'Admin@ci', botPassword)).body.login.result, 'Success');
      const rights: string[] = (await userinfo(bot)).rights;
      for (const r of ['read', 'edit', 'bot', 'apihighlimits', 'block', 'writeapi']) assert.ok(rights.includes(r), r);
      for (const r of ['delete', 'userrights', 'protect', 'createaccount']) assert.ok(!rights.includes(r), r);
      assert.equal((await bot.api({ action: 'query', meta: 'userinfo', assert: 'bot' })).json().query.userinfo.name, 'Admin');
      const reader = client(wiki);
      assert.equal((await login(reader, 'Alice@reader', readOnlyBotPassword)).body.login.result, 'Success');
      const readerRights: string[] = (await userinfo(reader)).rights;
      assert.ok(readerRights.includes('read'));
      assert.ok(!readerRights.includes('edit'), 'no editpage grant: no edit right');
      assert.equal((await reader.api({ action: 'query', meta: 'userinfo', assert: 'bot' })).json().error.code, 'assertbotfailed');
    });

    test('clientlogin: PASS, FAIL, missing returnurl, and badtoken', async () => {
      const c = client(wiki);
      const { logintoken } = await tokens(c, 'login');
      const missing = await post(c, { action: 'clientlogin', username: 'Alice', password: 'alicepass123456', logintoken: logintoken! });
      assert.equal(missing.body.error.code, 'missingparam');
      assert.equal(missing.body.error.info, 'At least one of the parameters "logincontinue" and "loginreturnurl" is required.');
      const fail = await post(c, { action: 'clientlogin', username: 'Alice', password: 'bad', logintoken: logintoken!, loginreturnurl: 'http://x/' });
      assert.deepEqual(fail.body.clientlogin, { status: 'FAIL', message: 'Incorrect username or password entered.\nPlease try again.', messagecode: 'wrongpassword' });
      const bad = await post(c, { action: 'clientlogin', username: 'Alice', password: 'alicepass123456', logintoken: 'nope', loginreturnurl: 'http://x/' });
      assert.equal(bad.body.error.code, 'badtoken');
      const pass = await post(c, { action: 'clientlogin', username: 'Alice', password: 'alicepass123456', logintoken: logintoken!, loginreturnurl: 'http://x/' });
      assert.deepEqual(pass.body.clientlogin, { status: 'PASS', username: 'Alice' });
      assert.equal((await userinfo(c)).name, 'Alice');
    });

    test('two-factor: clientlogin asks for the TOTP code; action=login is Aborted', async () => {
      await admin(wiki, 'createAndPromote', 'Tess', 'tesspass123456');
      const lines = await admin(wiki, 'enableTOTP', 'Tess');
      const secret = lines.find((l) => l.startsWith('secret: '))!.slice(8);
      assert.match(lines.find((l) => l.startsWith('uri: '))!, /^uri: otpauth:\/\/totp\/Quire%3ATess\?secret=[A-Z2-7]+/);
      const c = client(wiki);
      const { logintoken } = await tokens(c, 'login');
      const ui = await post(c, { action: 'clientlogin', username: 'Tess', password: 'tesspass123456', logintoken: logintoken!, loginreturnurl: 'http://x/' });
      assert.equal(ui.body.clientlogin.status, 'UI');
      assert.equal(ui.body.clientlogin.messagecode, 'oathauth-auth-ui');
      assert.equal(ui.body.clientlogin.requests[0].id, 'MediaWiki\\Extension\\OATHAuth\\Auth\\TOTPAuthenticationRequest');
      assert.deepEqual(Object.keys(ui.body.clientlogin.requests[0].fields), ['OATHToken']);
      assert.equal((await userinfo(c)).anon, true, 'not logged in before the code');
      const wrongCode = await post(c, { action: 'clientlogin', logincontinue: '1', OATHToken: '000000', logintoken: logintoken! });
      assert.equal(wrongCode.body.clientlogin.status, 'UI');
      assert.equal(wrongCode.body.clientlogin.messagecode, 'oathauth-login-failed');
      const code = totpAt(secret, Date.now() / 1000);
      const pass = await post(c, { action: 'clientlogin', logincontinue: '1', OATHToken: code, logintoken: logintoken! });
      assert.deepEqual(pass.body.clientlogin, { status: 'PASS', username: 'Tess' });
      assert.equal(pass.body.warnings, undefined, 'OATHToken is a recognized field');
      assert.equal((await userinfo(c)).name, 'Tess');
      const aborted = await login(client(wiki), 'Tess', 'tesspass123456');
      assert.equal(aborted.body.login.result, 'Aborted');
      assert.match(aborted.body.login.reason, /^Authentication requires user interaction, which is not supported by "action=login"/);
      // Without a pending login, continuing fails.
      const fresh = client(wiki);
      const t2 = (await tokens(fresh, 'login')).logintoken!;
      const notInProgress = await post(fresh, { action: 'clientlogin', logincontinue: '1', OATHToken: code, logintoken: t2 });
      assert.equal(notInProgress.body.clientlogin.messagecode, 'authmanager-authn-not-in-progress');
      await admin(wiki, 'disableTOTP', 'Tess');
      assert.equal((await login(client(wiki), 'Tess', 'tesspass123456')).body.login.result, 'Success');
    });

    test('createaccount: token, name rules, password policy, and login of the new account', async () => {
      const c = client(wiki);
      const { createaccounttoken } = await tokens(c, 'createaccount');
      const create = (form: Record<string, string>) => post(c, { action: 'createaccount', createreturnurl: 'http://x/', createtoken: createaccounttoken!, ...form });
      assert.equal((await post(c, { action: 'createaccount', username: 'Bob', password: 'x', createreturnurl: 'http://x/', createtoken: 'bad' })).body.error.code, 'badtoken');
      const common = await create({ username: 'Bob', password: 'password', retype: 'password' });
      assert.deepEqual(common.body.createaccount, {
        status: 'FAIL',
        message: 'The password entered is in a list of very commonly used passwords. Please choose a more unique password.',
        messagecode: 'passwordincommonlist',
      });
      assert.equal((await create({ username: 'Bob', password: 'Bo', retype: 'Bo' })).body.createaccount.messagecode, 'password-substring-username-match');
      assert.equal((await create({ username: 'Bob', password: 'bobpass987654', retype: 'other987654' })).body.createaccount.messagecode, 'badretype');
      assert.equal((await create({ username: 'Bad@name', password: 'bobpass987654' })).body.createaccount.messagecode, 'noname');
      assert.equal((await create({ username: '127.0.0.1', password: 'bobpass987654' })).body.createaccount.messagecode, 'noname');
      assert.equal((await create({ username: 'Alice', password: 'bobpass987654' })).body.createaccount.messagecode, 'userexists');
      const pass = await create({ username: 'bob_builder', password: 'bobpass987654', retype: 'bobpass987654' });
      assert.deepEqual(pass.body.createaccount, { status: 'PASS', username: 'Bob builder' });
      assert.equal((await userinfo(c)).name, 'Bob builder');
    });

    test('validatepassword', async () => {
      const c = client(wiki);
      const v = (form: Record<string, string>) => post(c, { action: 'validatepassword', ...form });
      assert.deepEqual((await v({ password: 'Correct horse battery staple 93' })).body.validatepassword, { validity: 'Good' });
      assert.deepEqual((await v({ password: 'password', user: 'Newbie' })).body.validatepassword, {
        validity: 'Change',
        validitymessages: [{ message: 'passwordincommonlist', params: [], code: 'passwordincommonlist', type: 'error' }],
      });
      assert.equal((await v({ password: 'x', user: 'Alice' })).body.error.code, 'userexists');
      // "@" is valid in a user name (the user type accepts it); only account creation refuses it.
      const at = (await v({ password: 'x', user: 'Ad@min' })).body.error;
      assert.deepEqual([at.code, at.info], ['baduser_user', 'Invalid value "Ad@min" for user parameter "user".']);
      // A page title and an IP are not user names here (UserDef, names only).
      assert.deepEqual([(await v({ password: 'x', user: 'Talk:Foo' })).body.error.code, (await v({ password: 'x', user: '1.2.3.4' })).body.error.code], ['baduser', 'baduser']);
      assert.equal((await v({})).body.error.code, 'missingparam');
      // POST only, as in MediaWiki.
      assert.equal((await c.api({ action: 'validatepassword', password: 'x' })).json().error.code, 'mustbeposted');
    });

    test('userrights: add with expiry, remove; needs the right and the userrights token', async () => {
      const adminC = client(wiki);
      // Main-account session of a bureaucrat (the bot password lacks the userrights grant).
      assert.equal((await login(adminC, 'Admin', 'adminpass123456')).body.login.result, 'Success');
      const { userrightstoken, csrftoken } = await tokens(adminC, 'userrights|csrf');
      assert.equal((await post(adminC, { action: 'userrights', user: 'Alice', add: 'bot', token: csrftoken! })).body.error.code, 'badtoken');
      const add = await post(adminC, { action: 'userrights', user: 'Alice', add: 'bot|sysop', expiry: '1 day|infinite', token: userrightstoken!, formatversion: '2' });
      assert.deepEqual(add.body.userrights.added, ['bot', 'sysop']);
      const users = (await adminC.api({ action: 'query', list: 'users', ususers: 'Alice', usprop: 'groupmemberships', formatversion: '2' })).json().query.users;
      const memberships = users[0].groupmemberships as { group: string; expiry: string }[];
      assert.equal(memberships.find((m) => m.group === 'sysop')!.expiry, 'infinity');
      assert.match(memberships.find((m) => m.group === 'bot')!.expiry, /^\d{4}-\d\d-\d\dT/);
      const remove = await post(adminC, { action: 'userrights', user: 'Alice', remove: 'bot|sysop|bureaucrat', token: userrightstoken!, formatversion: '2' });
      assert.deepEqual(remove.body.userrights.removed, ['bot', 'sysop']);
      const past = await post(adminC, { action: 'userrights', user: 'Alice', add: 'bot', expiry: '2001-01-01T00:00:00Z', token: userrightstoken! });
      assert.deepEqual(pick(past.body.error), { code: 'pastexpiry', info: 'Expiry time "2001-01-01T00:00:00Z" is in the past.' });
      const unreadable = await post(adminC, { action: 'userrights', user: 'Alice', add: 'bot', expiry: 'whenever', token: userrightstoken! });
      assert.deepEqual(pick(unreadable.body.error), { code: 'invalidexpiry', info: 'Invalid expiry time "whenever".' });
      const alice = client(wiki);
      await login(alice, 'Alice', 'alicepass123456');
      const t = (await tokens(alice, 'userrights')).userrightstoken!;
      assert.equal((await post(alice, { action: 'userrights', user: 'Alice', add: 'sysop', token: t })).body.error.code, 'permissiondenied');
    });

    test('block and unblock: blockinfo on the blocked user, list=blocks, errors', async () => {
      await admin(wiki, 'createAndPromote', 'Mallory', 'mallorypass123456');
      const bot = client(wiki);
      await login(bot, 'Admin@ci', botPassword);
      const csrf = (await tokens(bot, 'csrf')).csrftoken!;
      const blocked = await post(bot, { action: 'block', user: 'Mallory', expiry: '1 day', reason: 'vandalism', nocreate: '1', token: csrf, formatversion: '2' });
      assert.equal(blocked.body.block.user, 'Mallory');
      assert.equal(blocked.body.block.nocreate, true);
      assert.match(blocked.body.block.expiry, /^\d{4}-\d\d-\d\dT/);
      assert.equal((await post(bot, { action: 'block', user: 'Mallory', token: csrf })).body.error.code, 'alreadyblocked');
      assert.equal((await post(bot, { action: 'block', user: 'Nobody here', token: csrf })).body.error.code, 'nosuchuser');
      // Expiries as BlockUser and ApiUserrights refuse them (the reference wiki's codes and texts).
      assert.deepEqual(pick((await post(bot, { action: 'block', user: 'Alice', expiry: 'whenever', token: csrf })).body.error), { code: 'invalidexpiry', info: 'Expiry time invalid.' });
      assert.deepEqual(pick((await post(bot, { action: 'block', user: 'Alice', expiry: 'Infinite', token: csrf })).body.error), { code: 'invalidexpiry', info: 'Expiry time invalid.' });
      assert.deepEqual(pick((await post(bot, { action: 'block', user: 'Alice', expiry: '2001-01-01', token: csrf })).body.error), { code: 'ipb_expiry_old', info: 'Expiry time is in the past.' });
      const m = client(wiki);
      await login(m, 'Mallory', 'mallorypass123456');
      const info = await userinfo(m);
      assert.equal(info.blockid, blocked.body.block.id);
      assert.equal(info.blockedby, 'Admin');
      assert.equal(info.blockreason, 'vandalism');
      assert.equal(info.blocknocreate, true);
      // Refused account creation reports the block in the same blockinfo shape as userinfo.
      const { createaccounttoken } = await tokens(m, 'createaccount');
      const refused = await post(m, {
        action: 'createaccount',
        username: 'Sockpuppet',
        password: 'sockpass987654',
        retype: 'sockpass987654',
        createreturnurl: 'http://x/',
        createtoken: createaccounttoken!,
        formatversion: '2',
      });
      assert.equal(refused.body.error.code, 'blocked');
      const { blockinfo } = refused.body.error;
      for (const key of [
        'blockid',
        'blockedby',
        'blockedbyid',
        'blockreason',
        'blockedtimestamp',
        'blockexpiry',
        'blockpartial',
        'blocknocreate',
        'blockanononly',
        'blockedtimestampformatted',
        'blockexpiryformatted',
      ]) {
        assert.deepEqual(blockinfo[key], info[key], key);
      }
      assert.equal(blockinfo.nocreate, undefined, 'not the raw BlockInfo');
      const list = (await bot.api({ action: 'query', list: 'blocks', formatversion: '2' })).json().query.blocks;
      assert.deepEqual(
        list.map((b: { user: string }) => b.user),
        ['Mallory'],
      );
      const ipBlock = await post(bot, { action: 'block', user: '192.0.2.7', expiry: 'infinite', anononly: '1', token: csrf, formatversion: '2' });
      assert.equal(ipBlock.body.block.userID, 0);
      assert.equal(ipBlock.body.block.expiry, 'infinite');
      const reader = client(wiki);
      await login(reader, 'Alice@reader', readOnlyBotPassword);
      const readerCsrf = (await tokens(reader, 'csrf')).csrftoken!;
      assert.equal((await post(reader, { action: 'block', user: 'Bob builder', token: readerCsrf })).body.error.code, 'permissiondenied');
      const un = await post(bot, { action: 'unblock', user: 'Mallory', reason: 'ok', token: csrf, formatversion: '2' });
      assert.equal(un.body.unblock.user, 'Mallory');
      assert.equal((await userinfo(m)).blockid, undefined);
      assert.equal((await post(bot, { action: 'unblock', id: String(ipBlock.body.block.id), token: csrf })).body.unblock.userid, 0);
      assert.equal((await post(bot, { action: 'unblock', user: 'Mallory', token: csrf })).body.error.code, 'cantunblock');
      assert.equal((await post(bot, { action: 'unblock', token: csrf })).body.error.code, 'missingparam');
    });

    test('list=users, list=allusers and siteinfo statistics', async () => {
      const c = client(wiki);
      const users = (
        await c.api({ action: 'query', list: 'users', ususers: 'Admin|nobody_at_all|Bad@x|127.0.0.1', usprop: 'groups|editcount|registration|emailable|gender', formatversion: '2' })
      ).json().query.users;
      assert.equal(users[0].name, 'Admin');
      assert.ok(users[0].groups.includes('sysop'));
      assert.equal(users[0].editcount, 0);
      assert.match(users[0].registration, /^\d{4}-/);
      assert.equal(users[0].gender, 'unknown');
      assert.deepEqual(users[1], { name: 'Nobody at all', missing: true });
      assert.deepEqual(users[3], { name: '127.0.0.1', invalid: true });
      const page1 = (await c.api({ action: 'query', list: 'allusers', aulimit: '2' })).json();
      assert.deepEqual(
        page1.query.allusers.map((u: { name: string }) => u.name),
        ['Admin', 'Alice'],
      );
      assert.ok(page1.continue.aufrom);
      const sysops = (await c.api({ action: 'query', list: 'allusers', augroup: 'sysop', auprop: 'groups', formatversion: '2' })).json().query.allusers;
      assert.deepEqual(
        sysops.map((u: { name: string }) => u.name),
        ['Admin'],
      );
      const prefixed = (await c.api({ action: 'query', list: 'allusers', auprefix: 'Bo', formatversion: '2' })).json().query.allusers;
      assert.deepEqual(
        prefixed.map((u: { name: string }) => u.name),
        ['Bob builder'],
      );
      const stats = (await c.api({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).json().query.statistics;
      assert.ok(stats.users >= 4, `users ${stats.users}`);
      assert.equal(stats.admins, 1);
    });

    test('bad input: extra parameters are reported, wrong token type refused', async () => {
      const c = client(wiki);
      const r = await post(c, { action: 'checktoken', type: 'csrf', token: '+\\', bogus: '1' });
      assert.equal(r.body.checktoken.result, 'valid');
      assert.match(r.body.warnings.main['*'], /Unrecognized parameter: bogus/);
      assert.equal((await post(c, { action: 'checktoken', type: 'nonsense', token: 'x' })).body.error.code, 'badvalue');
      assert.equal((await post(c, { action: 'checktoken', type: 'csrf' })).body.error.code, 'missingparam');
    });
  });

  describe(`auth throttles, on by default (${backend})`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend, { AUTH_ACCOUNT_CREATION_THROTTLE: '2/86400' });
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, () => undefined);
    });
    after(() => wiki.close());

    test('login attempts: the 6th in 5 minutes is refused, even with the right password', async () => {
      const c = client(wiki);
      for (let i = 0; i < 5; i++) assert.equal((await login(c, 'Alice', 'wrong')).body.login.reason, 'Incorrect username or password entered. Please try again.');
      const throttled = await login(c, 'Alice', 'alicepass123456');
      assert.deepEqual(throttled.body.login, { result: 'Failed', reason: 'You have made too many recent login attempts. Please wait 5 minutes before trying again.' });
      // Throttler keys the pair (IP, user name): the same address still logs in to other accounts.
      await runAdmin(['createAndPromote', 'Bob', 'bobpass123456789'], wiki.testEnv.env, () => undefined);
      assert.equal((await login(client(wiki), 'Bob', 'bobpass123456789')).body.login.result, 'Success');
    });

    test('a bot logging in many times from one address is never locked out (success clears the count)', async () => {
      for (let i = 0; i < 12; i++) assert.equal((await login(client(wiki), 'Bob', 'bobpass123456789')).body.login.result, 'Success', `login ${i + 1}`);
    });

    test('ten bot sessions logging in at the same moment with the right bot password all succeed; wrong ones are still throttled', async () => {
      const lines: string[] = [];
      await runAdmin(['createBotPassword', 'Bob', 'fleet2', '--grants', 'basic'], wiki.testEnv.env, (l) => lines.push(l));
      const password = lines.at(-1)!;
      assert.match(password, /^[a-z2-7]{32}$/);
      const results = await Promise.all(Array.from({ length: 10 }, () => login(client(wiki), 'Bob@fleet2', password!)));
      assert.deepEqual(
        results.map((r) => r.body.login.result),
        Array(10).fill('Success'),
      );
      const wrong = await Promise.all(Array.from({ length: 5 }, () => login(client(wiki), 'Bob@fleet2', 'not-the-password')));
      assert.ok(wrong.every((r) => r.body.login.result === 'Failed'));
      const after = await login(client(wiki), 'Bob@fleet2', password!);
      assert.equal(after.body.login.reason, 'You have made too many recent login attempts. Please wait 5 minutes before trying again.');
    });

    test('account creations per IP', async () => {
      const c = client(wiki);
      const { createaccounttoken } = await tokens(c, 'createaccount');
      const create = (username: string) => post(c, { action: 'createaccount', username, password: `${username}-pass-93817`, createreturnurl: 'http://x/', createtoken: createaccounttoken! });
      assert.equal((await create('One')).body.createaccount.status, 'PASS');
      const c2 = client(wiki);
      const t2 = (await tokens(c2, 'createaccount')).createaccounttoken!;
      assert.equal((await post(c2, { action: 'createaccount', username: 'Two', password: 'two-pass-93817', createreturnurl: 'http://x/', createtoken: t2 })).body.createaccount.status, 'PASS');
      const c3 = client(wiki);
      const t3 = (await tokens(c3, 'createaccount')).createaccounttoken!;
      const third = await post(c3, { action: 'createaccount', username: 'Three', password: 'three-pass-93817', createreturnurl: 'http://x/', createtoken: t3 });
      assert.equal(third.body.createaccount.status, 'FAIL');
      assert.equal(third.body.createaccount.messagecode, 'acct_creation_throttle_hit');
    });
  });

  describe(`account creation is unlimited by default, as $wgAccountCreationThrottle's count 0 (${backend})`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend);
    });
    after(() => wiki.close());

    test('ten accounts from one address', async () => {
      for (let i = 0; i < 10; i++) {
        const c = client(wiki);
        const t = (await tokens(c, 'createaccount')).createaccounttoken!;
        const r = await post(c, { action: 'createaccount', username: `Many${i}`, password: `many-pass-93817-${i}`, createreturnurl: 'http://x/', createtoken: t });
        assert.equal(r.body.createaccount.status, 'PASS', `account ${i + 1}`);
      }
    });
  });
}
