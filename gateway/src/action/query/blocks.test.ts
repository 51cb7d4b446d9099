import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blocksModule } from './users.js';
import { EMPTY_PAGE_SET } from './pageset.js';
import { QueryContinuation } from './continuation.js';
import { fakeContext } from './testing.js';
import { ApiUsageError, type Params } from '../types.js';

async function run(params: Params) {
  const { ctx } = fakeContext(blocksModule, { dir: 'older', limit: 10, prop: ['user'], ...params }, {});
  const calls: Record<string, unknown>[] = [];
  (ctx.deps.clients.auth as unknown as Record<string, unknown>).listBlocks = async (req: Record<string, unknown>) => (calls.push(req), { blocks: [], continueId: 0 });
  const q = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['blocks'], []), resolveRedirects: false };
  await blocksModule.execute(ctx, q);
  return calls[0]!;
}

test('list=blocks passes bkstart/bkend (ISO) and bkshow; contradictory show values are refused', async () => {
  const req = await run({ start: '20261125000000', end: '20200101000000', show: ['account', '!temp'] });
  assert.deepEqual([req.start, req.end, req.show, req.descending], ['2026-11-25T00:00:00Z', '2020-01-01T00:00:00Z', ['account', '!temp'], true]);
  assert.deepEqual([(await run({})).start, (await run({})).show], ['', []]);
  await assert.rejects(
    run({ show: ['ip', '!ip'] }),
    (e: unknown) => e instanceof ApiUsageError && e.code === 'show' && e.info === 'Incorrect parameter - mutually exclusive values may not be supplied.',
  );
});

test("list=blocks restrictions: [] for a sitewide block; a partial block's pages with their current titles, then namespaces", async () => {
  const { ctx } = fakeContext(blocksModule, { dir: 'older', limit: 10, prop: ['id', 'restrictions'] }, {});
  const info = { by: 'Admin', byId: 1, reason: '', timestamp: '2026-11-27T00:00:00Z', expiry: 'infinite', nocreate: false, anononly: false, noemail: false, allowusertalk: true };
  const blocks = [
    {
      block: {
        ...info,
        id: 2,
        partial: true,
        pages: [
          { id: 5, ns: 0, title: 'Old name' },
          { id: 9, ns: 0, title: 'Deleted' },
        ],
        namespaces: [1, 10],
      },
      user: 'A',
      userId: 3,
    },
    { block: { ...info, id: 1, partial: false, pages: [], namespaces: [] }, user: 'B', userId: 4 },
  ];
  (ctx.deps.clients.auth as unknown as Record<string, unknown>).listBlocks = async () => ({ blocks, continueId: 0 });
  const asked: unknown[] = [];
  (ctx.deps.clients.content as unknown as Record<string, unknown>).resolvePages = async (req: { pageIds: number[] }) => (
    asked.push(req.pageIds), { pages: [{ id: 5, ns: 0, title: 'New name' }], invalid: [] }
  );
  const q = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {} as Record<string, unknown>, continuation: new QueryContinuation(undefined, ['blocks'], []), resolveRedirects: false };
  await blocksModule.execute(ctx, q);
  assert.deepEqual(asked, [[5, 9]]);
  assert.deepEqual(JSON.parse(JSON.stringify(q.data.blocks)), [
    { id: 2, restrictions: { pages: [{ id: 5, ns: 0, title: 'New name' }, { id: 9 }], namespaces: [1, 10] } },
    { id: 1, restrictions: [] },
  ]);
});
