import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authmanagerinfoModule } from './authmanagerinfo.js';
import { EMPTY_PAGE_SET } from './pageset.js';
import { QueryContinuation } from './continuation.js';
import { fakeContext, stripMeta } from './testing.js';
import type { Params } from '../types.js';
import type { QueryRun } from './run.js';
import type { User } from '../../clients/types.js';

const ALICE: User = { id: 3, name: 'Alice', anonymous: false, groups: ['*', 'user'], rights: ['read'] };

async function run(params: Params, user?: User, session = { userId: 3, secondsSinceAuthentication: 10, canReauthenticate: true }) {
  const { ctx } = fakeContext(authmanagerinfoModule, { mergerequestfields: false, messageformat: 'wikitext', ...params }, {}, { user });
  (ctx.deps.clients as unknown as Record<string, unknown>).account = { getSessionAuthentication: async () => session };
  const q: QueryRun = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['authmanagerinfo'], []), resolveRedirects: false };
  await authmanagerinfoModule.execute(ctx, q);
  return q.data.authmanagerinfo as Record<string, unknown>;
}

test('requestsfor=login lists the password and remember-me requests as MediaWiki 1.39 (golden values)', async () => {
  const r = stripMeta(await run({ requestsfor: 'login' }));
  assert.deepEqual(r, {
    canauthenticatenow: true,
    cancreateaccounts: true,
    canlinkaccounts: false,
    haspreservedstate: false,
    hasprimarypreservedstate: false,
    preservedusername: '',
    requests: [
      {
        id: 'MediaWiki\\Auth\\PasswordAuthenticationRequest',
        metadata: {},
        required: 'primary-required',
        provider: 'Password-based authentication',
        account: '',
        fields: {
          username: { type: 'string', label: 'Username', help: 'Username for authentication.', optional: false, sensitive: false },
          password: { type: 'password', label: 'Password', help: 'Password for authentication.', optional: false, sensitive: true },
        },
      },
      {
        id: 'MediaWiki\\Auth\\RememberMeAuthenticationRequest',
        metadata: {},
        required: 'optional',
        provider: 'MediaWiki\\Auth\\RememberMeAuthenticationRequest',
        account: 'MediaWiki\\Auth\\RememberMeAuthenticationRequest',
        fields: {
          rememberMe: { type: 'checkbox', label: 'Keep me logged in', help: 'Whether the password should be remembered for longer than the length of the session.', optional: true, sensitive: false },
        },
      },
    ],
  });
});

test('merged fields, raw messages with the user as account, none, and empty flows', async () => {
  const merged = stripMeta(await run({ requestsfor: 'create', mergerequestfields: true })) as { requests: Record<string, unknown>[]; fields: Record<string, Record<string, unknown>> };
  assert.deepEqual(Object.keys(merged.fields), ['username', 'password', 'retype', 'email', 'realname']);
  assert.deepEqual(merged.fields.username, { type: 'string', label: 'Username', help: 'Username for authentication.', optional: false, sensitive: false });
  assert.deepEqual(merged.fields.retype, { type: 'password', label: 'Retype password:', help: 'Password again to confirm.', optional: false, sensitive: true });
  assert.equal(merged.fields.email!.optional, true);
  assert.equal(
    merged.requests.every((q) => !('fields' in q)),
    true,
  );
  const raw = stripMeta(await run({ requestsfor: 'change', messageformat: 'raw' }, ALICE)) as { requests: Record<string, unknown>[] };
  assert.deepEqual(raw.requests[0]!.account, { key: '$1', params: ['Alice'] });
  assert.deepEqual((raw.requests[0]!.fields as Record<string, unknown>).password, {
    type: 'password',
    label: { key: 'newpassword', params: [] },
    help: { key: 'authmanager-password-help', params: [] },
    optional: false,
    sensitive: true,
  });
  const none = stripMeta(await run({ requestsfor: 'remove', messageformat: 'none' })) as { requests: Record<string, unknown>[] };
  assert.deepEqual(none.requests, [
    { id: 'MediaWiki\\Auth\\TemporaryPasswordAuthenticationRequest', metadata: {}, required: 'primary-required', fields: { mailpassword: { type: 'checkbox', optional: false, sensitive: false } } },
  ]);
  for (const action of ['login-continue', 'create-continue', 'link', 'link-continue', 'unlink']) {
    assert.deepEqual((await run({ requestsfor: action })).requests, [], action);
  }
});

test('securitysensitiveoperation: reauth when anonymous or after 5 minutes, ok otherwise and for bot passwords', async () => {
  assert.equal((await run({ securitysensitiveoperation: 'x' })).securitysensitiveoperationstatus, 'reauth');
  assert.equal((await run({ securitysensitiveoperation: 'x' }, ALICE)).securitysensitiveoperationstatus, 'ok');
  assert.equal((await run({ securitysensitiveoperation: 'x' }, ALICE, { userId: 3, secondsSinceAuthentication: 301, canReauthenticate: true })).securitysensitiveoperationstatus, 'reauth');
  assert.equal((await run({ securitysensitiveoperation: 'x' }, ALICE, { userId: 3, secondsSinceAuthentication: 9999, canReauthenticate: false })).securitysensitiveoperationstatus, 'ok');
  assert.equal('securitysensitiveoperationstatus' in (await run({})), false);
});
