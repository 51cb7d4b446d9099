import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { User } from '../../clients/types.js';
import { changeauthenticationdataModule, linkaccountModule, removeauthenticationdataModule, unlinkaccountModule } from './authdata.js';
import { emailuserModule, resetpasswordModule } from './accountmail.js';
import { fakeContext } from '../query/testing.js';
import { ApiUsageError, type ModuleDecl, type Params } from '../types.js';

const ALICE: User = { id: 3, name: 'Alice', anonymous: false, groups: ['*', 'user'], rights: ['read'] };
const ANON: User = { id: 0, name: '10.0.0.1', anonymous: true, groups: ['*'], rights: ['read'] };
const PASSWORD_REQ = 'MediaWiki\\Auth\\PasswordAuthenticationRequest';

interface Fakes {
  session?: { userId: number; secondsSinceAuthentication: number; canReauthenticate: boolean };
  policy?: { key: string; text: string; params: string[] }[];
  users?: Record<string, unknown>[];
}

async function run(module: ModuleDecl, params: Params, user: User, raw: Record<string, string> = {}, fakes: Fakes = {}) {
  const { ctx } = fakeContext(module, params, {}, { user, raw });
  const calls: unknown[] = [];
  const clients = ctx.deps.clients as unknown as Record<string, Record<string, unknown>>;
  clients.account = { getSessionAuthentication: async () => fakes.session ?? { userId: user.id, secondsSinceAuthentication: 5, canReauthenticate: true } };
  clients.auth!.validatePassword = async (req: unknown) => (calls.push(['validate', req]), { validity: fakes.policy?.length ? 'Invalid' : 'Good', messages: fakes.policy ?? [] });
  clients.auth!.changePassword = async (req: unknown) => (calls.push(['change', req]), {});
  clients.auth!.getUsers = async () => ({ users: fakes.users ?? [], invalidNames: [], missingNames: [], missingIds: [] });
  await module.execute(ctx);
  return { result: ctx.result, calls };
}

const fails = (code: string, info?: string) => (e: unknown) => {
  assert.ok(e instanceof ApiUsageError, String(e));
  assert.equal(e.code, code);
  if (info !== undefined) assert.equal(e.info, info);
  return true;
};

test('linkaccount: logged in only, continue or returnurl, an absolute URL, then FAIL (no provider links accounts)', async () => {
  await assert.rejects(run(linkaccountModule, { returnurl: 'http://x/' }, ANON), fails('notloggedin', 'You must be logged in to link accounts.'));
  await assert.rejects(run(linkaccountModule, {}, ALICE), fails('missingparam', 'At least one of the parameters "linkcontinue" and "linkreturnurl" is required.'));
  await assert.rejects(run(linkaccountModule, { returnurl: 'nourl' }, ALICE), fails('badurl_linkreturnurl', 'Invalid value "nourl" for URL parameter "linkreturnurl".'));
  await assert.rejects(
    run(linkaccountModule, { returnurl: 'http://x/' }, ALICE, {}, { session: { userId: 3, secondsSinceAuthentication: 900, canReauthenticate: true } }),
    fails('reauthenticate', 'You have not authenticated recently in this session, please reauthenticate.'),
  );
  const { result } = await run(linkaccountModule, { returnurl: 'http://x/', messageformat: 'wikitext' }, ALICE);
  assert.deepEqual(result.linkaccount, { status: 'FAIL', message: '⧼userlogin-cannot-link⧽', messagecode: 'userlogin-cannot-link' });
});

test('unlinkaccount and removeauthenticationdata: only the temporary password can be removed', async () => {
  await assert.rejects(run(unlinkaccountModule, { request: 'x' }, ANON), fails('notloggedin', 'You must be logged in to remove authentication data.'));
  await assert.rejects(run(unlinkaccountModule, { request: 'MediaWiki\\Auth\\TemporaryPasswordAuthenticationRequest' }, ALICE), fails('badrequest', 'Failed to create change request.'));
  await assert.rejects(run(removeauthenticationdataModule, { request: PASSWORD_REQ }, ALICE), fails('badrequest'));
  const { result } = await run(removeauthenticationdataModule, { request: 'MediaWiki\\Auth\\TemporaryPasswordAuthenticationRequest' }, ALICE);
  assert.deepEqual(result.removeauthenticationdata, { status: 'success' });
});

test('changeauthenticationdata: retype, the password policy, then the new password is stored', async () => {
  await assert.rejects(run(changeauthenticationdataModule, { request: PASSWORD_REQ }, ANON), fails('notloggedin', '⧼apierror-mustbeloggedin-changeauthenticationdata⧽'));
  await assert.rejects(run(changeauthenticationdataModule, { request: 'x' }, ALICE), fails('badrequest'));
  await assert.rejects(run(changeauthenticationdataModule, { request: PASSWORD_REQ }, ALICE, { password: 'a', retype: 'b' }), fails('badretype', 'The passwords you entered do not match.'));
  await assert.rejects(
    run(changeauthenticationdataModule, { request: PASSWORD_REQ }, ALICE, { password: 'Alice', retype: 'Alice' }, { policy: [{ key: 'password-name-match', text: '', params: [] }] }),
    fails('password-name-match', 'Your password must be different from your username.'),
  );
  const { result, calls } = await run(changeauthenticationdataModule, { request: PASSWORD_REQ }, ALICE, { password: 'newalicepass987', retype: 'newalicepass987' });
  assert.deepEqual(result.changeauthenticationdata, { status: 'success' });
  assert.deepEqual(calls.at(-1), ['change', { username: 'Alice', password: 'newalicepass987' }]);
});

test("resetpassword and emailuser answer as a wiki with email disabled, after emailuser's target checks", async () => {
  await assert.rejects(run(resetpasswordModule, { user: 'Alice' }, ANON), fails('passwordreset-emaildisabled', 'Email features have been disabled on this wiki.'));
  const send = (users: Record<string, unknown>[]) => run(emailuserModule, { target: 'Alice', subject: 's', text: 't', ccme: false }, ALICE, {}, { users });
  await assert.rejects(send([]), fails('notarget', 'You have not specified a valid target for this action.'));
  const alice = { user: ALICE, email: '', emailAuthenticated: '', optionsJson: '{}' };
  await assert.rejects(send([alice]), fails('noemail', 'There is no email address recorded for user "Alice".'));
  await assert.rejects(
    send([{ ...alice, email: 'a@example.org', emailAuthenticated: '2026-01-01T00:00:00Z', optionsJson: '{"disablemail":1}' }]),
    fails('nowikiemail', 'This user has chosen not to receive email from other users.'),
  );
  await assert.rejects(send([{ ...alice, email: 'a@example.org', emailAuthenticated: '2026-01-01T00:00:00Z' }]), fails('usermaildisabled', 'User email disabled'));
});
