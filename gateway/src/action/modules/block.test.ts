import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BlockInfo, User } from '../../clients/types.js';
import { blockModule } from './block.js';
import { partialBlockOf } from './writes.js';
import { blockAppliesTo, blockedError } from '../blockinfo.js';
import { fakeContext } from '../query/testing.js';
import { ApiUsageError, type Params } from '../types.js';
import type { Caller } from '../../context.js';

const ADMIN: User = { id: 2, name: 'Admin', anonymous: false, groups: ['*', 'user', 'sysop'], rights: ['read', 'block'] };
const PAGES: Record<string, { id: number; ns: number; title: string; missing: boolean; special: boolean }> = {
  FeedA: { id: 2, ns: 0, title: 'FeedA', missing: false, special: false },
  'Template:T': { id: 8, ns: 10, title: 'Template:T', missing: false, special: false },
  Gone: { id: 0, ns: 0, title: 'Gone', missing: true, special: false },
};

function setup(params: Params) {
  const { ctx } = fakeContext(
    blockModule,
    {
      expiry: 'never',
      reason: '',
      anononly: false,
      nocreate: false,
      autoblock: false,
      noemail: false,
      hidename: false,
      allowusertalk: true,
      reblock: false,
      watchuser: false,
      partial: false,
      ...params,
    },
    {},
    { user: ADMIN },
  );
  const sent: Record<string, unknown>[] = [];
  const clients = ctx.deps.clients as unknown as Record<string, Record<string, unknown>>;
  clients.content!.resolvePages = async (req: { titles: string[] }) => ({
    pages: req.titles.filter((t) => PAGES[t]).map((t) => PAGES[t]),
    invalid: req.titles.filter((t) => t.includes('|')).map((title) => ({ title })),
  });
  clients.auth!.block = async (req: Record<string, unknown>) => (
    sent.push(req), { block: { id: 1, expiry: 'infinite', reason: '', anononly: false, nocreate: false, noemail: false, allowusertalk: true, partial: req.partial }, user: 'Blockee', userId: 3 }
  );
  return { ctx, sent };
}

test('action=block partial: the pages (which must exist) and namespaces go to the auth service, and are echoed', async () => {
  const s = setup({ user: 'Blockee', partial: true, pagerestrictions: ['FeedA', 'Template:T'], namespacerestrictions: [1] });
  await blockModule.execute(s.ctx);
  assert.deepEqual(
    [s.sent[0]!.partial, s.sent[0]!.pages, s.sent[0]!.namespaces],
    [
      true,
      [
        { id: 2, ns: 0, title: 'FeedA' },
        { id: 8, ns: 10, title: 'Template:T' },
      ],
      [1],
    ],
  );
  const res = s.ctx.result.block as Record<string, unknown>;
  assert.deepEqual([res.partial, res.pagerestrictions, res.namespacerestrictions], [true, ['FeedA', 'Template:T'], [1]]);
  // Not partial: restrictions are echoed but not kept.
  const sitewide = setup({ user: 'Blockee', pagerestrictions: ['FeedA'] });
  await blockModule.execute(sitewide.ctx);
  assert.deepEqual([sitewide.sent[0]!.partial, sitewide.sent[0]!.pages], [false, []]);
  assert.deepEqual((sitewide.ctx.result.block as Record<string, unknown>).namespacerestrictions, null);
  const missing = setup({ user: 'Blockee', partial: true, pagerestrictions: ['Gone'] });
  await assert.rejects(
    blockModule.execute(missing.ctx),
    (e) => e instanceof ApiUsageError && e.code === 'missingtitle' && e.info === 'Invalid value "Gone" for title parameter "pagerestrictions": the page does not exist.',
  );
  assert.equal(missing.sent.length, 0);
});

test('a partial block applies to its pages and namespaces only, with its own message', async () => {
  const block: BlockInfo = {
    id: 4,
    by: 'Admin',
    byId: 2,
    reason: 'r',
    timestamp: '2026-11-27T00:00:00Z',
    expiry: 'infinite',
    partial: true,
    nocreate: false,
    anononly: false,
    noemail: false,
    allowusertalk: true,
    pages: [{ id: 2, ns: 0, title: 'FeedA' }],
    namespaces: [10],
  };
  assert.equal(blockAppliesTo(block, { id: 2, ns: 0 }), true);
  assert.equal(blockAppliesTo(block, { id: 0, ns: 10 }), true, 'a page to be created in a blocked namespace');
  assert.equal(blockAppliesTo(block, { id: 3, ns: 0 }), false);
  assert.equal(blockAppliesTo({ ...block, partial: false }, { id: 3, ns: 0 }), true);
  assert.equal(blockedError(block).info, 'You have been blocked from editing this page.');
  assert.equal(blockedError({ ...block, partial: false }).info, 'You have been blocked from editing.');
  const { ctx } = setup({});
  const caller = { ...ctx.caller, user: { ...ADMIN, block } } as unknown as Caller;
  assert.equal(await partialBlockOf(ctx.deps, caller, { title: 'FeedA' }), block);
  assert.equal(await partialBlockOf(ctx.deps, caller, { title: 'Template:T' }), block);
  assert.equal(await partialBlockOf(ctx.deps, caller, { title: 'Gone' }), undefined);
});
