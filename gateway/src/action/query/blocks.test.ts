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
  await assert.rejects(run({ show: ['ip', '!ip'] }), (e: unknown) => e instanceof ApiUsageError && e.code === 'show' && e.info === 'Incorrect parameter - mutually exclusive values may not be supplied.');
});
