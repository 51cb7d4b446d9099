import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allusersModule, effectiveRightsOrder } from './users.js';
import { EMPTY_PAGE_SET } from './pageset.js';
import { QueryContinuation } from './continuation.js';
import { fakeContext } from './testing.js';
import type { Params } from '../types.js';

const PERMISSIONS = {
  groups: [
    { name: '*', rights: ['read'] },
    { name: 'user', rights: ['read', 'edit'] },
    { name: 'sysop', rights: ['block', 'delete'] },
    { name: 'bureaucrat', rights: ['userrights'] },
    { name: 'bot', rights: ['bot'] },
  ],
};

async function run(params: Params) {
  const { ctx } = fakeContext(allusersModule, { dir: 'ascending', limit: 10, witheditsonly: false, ...params }, {});
  const calls: Record<string, unknown>[] = [];
  const auth = ctx.deps.clients.auth as unknown as Record<string, unknown>;
  auth.listGroupPermissions = async () => PERMISSIONS;
  auth.listUsers = async (req: Record<string, unknown>) => (calls.push(req), { users: [], continueFrom: '' });
  const q = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {} as Record<string, unknown>, continuation: new QueryContinuation(undefined, ['allusers'], []), resolveRedirects: false };
  await allusersModule.execute(ctx, q);
  return { calls, list: q.data.allusers };
}

test('aurights: the explicit groups granting the rights join augroup; rights only implicit groups have match nobody', async () => {
  assert.deepEqual((await run({ rights: ['block', 'userrights'] })).calls[0]!.groups, ['sysop', 'bureaucrat']);
  assert.deepEqual((await run({ rights: ['block'], group: ['bot'] })).calls[0]!.groups, ['bot', 'sysop']);
  const none = await run({ rights: ['read'] });
  assert.equal(none.calls.length, 0);
  assert.deepEqual([...(none.list as unknown[])], []);
});

test("auactiveusers: each user's recent actions of the last 30 days (newusers entries aside), users without any left out", async () => {
  const { ctx } = fakeContext(allusersModule, { dir: 'ascending', limit: 10, witheditsonly: false, activeusers: true, prop: ['editcount', 'groups'] }, {});
  const auth = ctx.deps.clients.auth as unknown as Record<string, unknown>;
  const details = (id: number, name: string) => ({ user: { id, name, anonymous: false, groups: ['*', 'user'], rights: [] }, editcount: id, registration: '', memberships: [] });
  auth.listUsers = async () => ({ users: [details(1, 'Ann'), details(2, 'Bob')], continueFrom: 'Cy' });
  const asked: Record<string, unknown>[] = [];
  (ctx.deps.clients.content as unknown as Record<string, unknown>).listRecentChanges = async (req: Record<string, unknown>) => {
    asked.push(req);
    return { changes: req.user === 'Ann' ? [{ logType: '' }, { logType: 'newusers' }, { logType: 'block' }] : [{ logType: 'newusers' }] };
  };
  const q = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {} as Record<string, unknown>, continuation: new QueryContinuation(undefined, ['allusers'], []), resolveRedirects: false };
  await allusersModule.execute(ctx, q);
  assert.deepEqual(JSON.parse(JSON.stringify(q.data.allusers)), [{ userid: 1, name: 'Ann', editcount: 1, recentactions: 2, groups: ['*', 'user'] }]);
  assert.ok(Math.abs(Date.parse(asked[0]!.end as string) - (Date.now() - 30 * 86400_000)) < 5000);
});

test('list=users rights: in the effective order of the groups (explicit first, as the reference answers: "userrights" of bureaucrat first), then any others', () => {
  const perms = [
    { name: '*', rights: ['createaccount', 'read', 'edit'] },
    { name: 'user', rights: ['move', 'read', 'edit'] },
    { name: 'bureaucrat', rights: ['userrights', 'noratelimit'] },
    { name: 'sysop', rights: ['block', 'noratelimit', 'edit'] },
  ];
  const rights = ['createaccount', 'read', 'edit', 'move', 'userrights', 'noratelimit', 'block', 'oauth-extra'];
  assert.deepEqual(effectiveRightsOrder(['*', 'user', 'bureaucrat', 'sysop'], rights, perms), ['userrights', 'noratelimit', 'block', 'edit', 'createaccount', 'read', 'move', 'oauth-extra']);
});
