import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filerepoinfoModule } from './filerepoinfo.js';
import { EMPTY_PAGE_SET } from './pageset.js';
import { QueryContinuation } from './continuation.js';
import { fakeContext, NAMESPACES, stripMeta } from './testing.js';
import type { QueryRun } from './run.js';

async function run(prop: string[]) {
  const { ctx } = fakeContext(filerepoinfoModule, { prop }, { namespaces: NAMESPACES });
  const q: QueryRun = { pageSet: EMPTY_PAGE_SET, pages: new Map(), data: {}, continuation: new QueryContinuation(undefined, ['filerepoinfo'], []), resolveRedirects: false };
  await filerepoinfoModule.execute(ctx, q);
  return q.data.repos as Record<string, unknown>[];
}

test('filerepoinfo: the local repository as the reference wiki describes its own', async () => {
  const all = filerepoinfoModule.params.prop!.default as string;
  const repos = await run(all.split('|'));
  assert.deepEqual(stripMeta(repos), [
    {
      name: 'local',
      displayname: 'AnchorWiki',
      rootUrl: '/w/images',
      local: true,
      url: '/w/images',
      thumbUrl: '/w/images/thumb',
      initialCapital: true,
      scriptDirUrl: '/w',
      favicon: 'http://127.0.0.1:8080/favicon.ico',
      canUpload: true,
    },
  ]);
  assert.equal((repos as unknown as { _element: string })._element, 'repo');
  assert.deepEqual(stripMeta(await run(['url', 'name'])), [{ name: 'local', url: '/w/images' }]);
});
