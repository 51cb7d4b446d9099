import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oathModule } from './oath.js';
import { oathvalidateModule } from '../modules/oathvalidate.js';
import { EMPTY_PAGE_SET } from './pageset.js';
import { QueryContinuation } from './continuation.js';
import { fakeContext } from './testing.js';
import { ApiUsageError, type Params } from '../types.js';
import type { QueryRun } from './run.js';
import type { User } from '../../clients/types.js';

const user = (rights: string[]): User => ({ id: 2, name: 'Admin', anonymous: false, groups: ['*', 'user', 'sysop'], rights });

function withAccount(params: Params, u: User, module = oathModule) {
  const { ctx } = fakeContext(module, params, {}, { user: u });
  const calls: unknown[] = [];
  (ctx.deps.clients as unknown as Record<string, unknown>).account = {
    getTwoFactorStatus: async (req: unknown) => (calls.push(req), { registered: true, enabled: true }),
    verifyTwoFactor: async (name: string, data: string) => (calls.push({ name, data }), { enabled: true, valid: data.includes('123456'), module: 'totp' }),
  };
  return { ctx, calls };
}

async function oath(params: Params, u: User) {
  const { ctx, calls } = withAccount(params, u);
  const q: QueryRun = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['oath'], []), resolveRedirects: false };
  await oathModule.execute(ctx, q);
  return { oath: q.data.oath as Record<string, unknown>, calls };
}

const fails = (code: string, info: string, modulePath?: string) => (e: unknown) => {
  assert.ok(e instanceof ApiUsageError);
  assert.equal(e.code, code);
  assert.equal(e.info, info);
  if (modulePath) assert.equal(e.modulePath, modulePath);
  return true;
};

test('meta=oath: rights, the reason verify-user callers need, the status and the logged check', async () => {
  await assert.rejects(oath({}, user(['read'])), fails('permissiondenied', "You don't have permission to check OATH status.", 'query+oath'));
  await assert.rejects(oath({}, user(['read', 'oathauth-verify-user'])), fails('missingparam', 'The "reason" parameter must be set.', 'query+oath'));
  const checked = await oath({ user: 'Alice', reason: 'audit' }, user(['oathauth-verify-user']));
  assert.equal(checked.oath.enabled, true);
  assert.deepEqual(checked.oath._BC_bools, ['enabled'], 'false stays false in formatversion 1');
  assert.deepEqual(checked.calls, [{ userName: 'Alice', logVerify: true, performerId: 2, performerName: 'Admin', reason: 'audit' }]);
  const apiAll = await oath({}, user(['oathauth-api-all']));
  assert.deepEqual(
    apiAll.calls,
    [{ userName: 'Admin', logVerify: false, performerId: 2, performerName: 'Admin', reason: '' }],
    'api-all without a reason is not logged; the default user is the caller',
  );
});

test('action=oathvalidate: totp or data, the api-all right, the legacy totp parameter as TOTP data', async () => {
  const run = async (params: Params, rights: string[]) => {
    const { ctx, calls } = withAccount(params, user(rights), oathvalidateModule);
    await oathvalidateModule.execute(ctx);
    return { result: ctx.result.oathvalidate as Record<string, unknown>, calls };
  };
  await assert.rejects(run({}, ['oathauth-api-all']), fails('missingparam', 'At least one of the parameters "totp" and "data" is required.'));
  await assert.rejects(run({ data: '{}' }, ['read']), fails('permissiondenied', "You don't have permission to check OATH status."));
  const legacy = await run({ totp: '123456' }, ['oathauth-api-all']);
  assert.deepEqual(legacy.calls, [{ name: 'Admin', data: '{"token":"123456"}' }]);
  assert.equal(legacy.result.valid, true);
  assert.deepEqual(legacy.result._BC_bools, ['enabled', 'valid']);
  const other = await run({ user: 'Alice', data: '{"token":"999999"}' }, ['oathauth-api-all']);
  assert.deepEqual(other.calls, [{ name: 'Alice', data: '{"token":"999999"}' }]);
  assert.deepEqual({ ...other.result, _BC_bools: undefined }, { enabled: true, valid: false, module: 'totp', _BC_bools: undefined });
});
