/*
 * The whole-wiki list modules over a fake ListService: what each asks the content service for
 * (namespaces, DB keys, filters), the result shapes and continuation they build from its answer,
 * and the errors MediaWiki gives before any lookup. e2e/wiki-lists.test.ts runs them on a wiki.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ListsClient } from '../../clients/lists.js';
import { ApiUsageError, type Params } from '../types.js';
import { queryModule } from './index.js';
import { fakeContext, NAMESPACES, stripMeta, type FakeRun } from './testing.js';

type Calls = { method: string; req: unknown }[];

/** action=query over fake services, the ListService answering from `lists`. */
async function runQuery(params: Params, lists: Partial<Record<keyof ListsClient, (req: never) => unknown>>, subParams: Record<string, Params>, user?: FakeRun['ctx']['caller']['user']) {
  const run = fakeContext(
    queryModule,
    params,
    { namespaces: NAMESPACES, resolvePages: () => ({ normalized: [], redirects: [], invalid: [], pages: [], missingPageIds: [], badRevIds: [], revisionPages: [] }) },
    { subParams, ...(user ? { user } : {}) },
  );
  const calls: Calls = [];
  const client = Object.fromEntries(Object.entries(lists).map(([name, answer]) => [name, (req: never) => (calls.push({ method: name, req }), Promise.resolve(answer(req)))]));
  (run.ctx.deps.clients as unknown as Record<string, unknown>).lists = client;
  await queryModule.execute(run.ctx);
  return { ...run, listCalls: calls };
}

async function rejects(promise: Promise<unknown>, code: string, info?: string) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof ApiUsageError, 'an API error');
    assert.equal(e.code, code);
    if (info !== undefined) assert.equal(e.info, info);
    return true;
  });
}

test('list=alltransclusions: Template namespace by default, titles as DB keys, fromid|title rows, alcontinue', async () => {
  const { ctx, listCalls } = await runQuery(
    { list: ['alltransclusions'] },
    { listAllLinks: () => ({ links: [{ fromPageId: 7, ns: 10, title: 'Template:Box', fragment: '', interwiki: '' }], continue: 'Box|9' }) },
    { alltransclusions: { prop: ['ids', 'title'], from: 'box one', limit: 1, dir: 'ascending', unique: false } },
  );
  assert.deepEqual(listCalls[0]?.req, { table: 2, namespace: 10, from: 'Box_one', to: '', prefix: '', unique: false, descending: false, limit: 1, continue: '' });
  assert.deepEqual(stripMeta(ctx.result), {
    batchcomplete: true,
    continue: { atcontinue: 'Box|9', continue: '-||' },
    query: { alltransclusions: [{ fromid: 7, ns: 10, title: 'Template:Box' }] },
  });
});

test('list=allredirects: fragment and interwiki only when set; unique with prop=ids is invalidparammix', async () => {
  const { ctx } = await runQuery(
    { list: ['allredirects'] },
    {
      listAllLinks: () => ({
        links: [
          { fromPageId: 3, ns: 0, title: 'A', fragment: 'Sec', interwiki: '' },
          { fromPageId: 4, ns: 0, title: 'B', fragment: '', interwiki: '' },
        ],
        continue: '',
      }),
    },
    { allredirects: { prop: ['title', 'fragment', 'interwiki'], limit: 10, dir: 'ascending', namespace: 0, unique: false } },
  );
  assert.deepEqual(stripMeta((ctx.result.query as Record<string, unknown>).allredirects), [
    { ns: 0, title: 'A', fragment: 'Sec' },
    { ns: 0, title: 'B' },
  ]);
  assert.equal(ctx.result.batchcomplete, true);
  await rejects(
    runQuery({ list: ['allredirects'] }, {}, { allredirects: { prop: ['ids', 'fragment'], unique: true, limit: 10, dir: 'ascending', namespace: 0 } }),
    'invalidparammix',
    'The "arprop=ids|fragment" parameter cannot be used with "arunique".',
  );
});

test('generator=alllinks: linking pages by id, or (unique) the targets by title', async () => {
  const links = { links: [{ fromPageId: 5, ns: 0, title: 'Target', fragment: '', interwiki: '' }], continue: 'Target|6' };
  const byId = await runQuery({ generator: 'alllinks' }, { listAllLinks: () => links }, { alllinks: { prop: ['title'], limit: 1, dir: 'ascending', namespace: 0, unique: false } });
  const resolved = (run: typeof byId) => run.calls.find((c) => c.method === 'resolvePages')?.req as { pageIds?: number[]; titles?: string[] };
  assert.deepEqual(resolved(byId).pageIds, [5]);
  assert.deepEqual(byId.ctx.result.continue, { galcontinue: 'Target|6', continue: 'galcontinue||' });
  const unique = await runQuery({ generator: 'alllinks' }, { listAllLinks: () => links }, { alllinks: { prop: ['title'], limit: 1, dir: 'ascending', namespace: 0, unique: true } });
  assert.deepEqual(resolved(unique).titles, ['Target']);
});

test('list=allcategories: the name as content value (fv1 "*"), counts and hidden with acprop', async () => {
  const { ctx, listCalls } = await runQuery(
    { list: ['allcategories'] },
    { listAllCategories: () => ({ categories: [{ name: 'Big cats', size: 3, pages: 1, files: 1, subcats: 1, hidden: true }], continue: 'Dogs' }) },
    { allcategories: { prop: ['size', 'hidden'], min: 2, limit: 1, dir: 'descending', prefix: 'big' } },
  );
  assert.deepEqual(listCalls[0]?.req, { from: '', to: '', prefix: 'Big', descending: true, min: 2, limit: 1, continue: '' });
  const list = (ctx.result.query as Record<string, unknown>).allcategories as Record<string, unknown>[];
  assert.equal(list[0]?._content, 'category', 'the name is the content value');
  assert.deepEqual(stripMeta(list), [{ category: 'Big cats', size: 3, pages: 1, files: 1, subcats: 1, hidden: true }]);
  assert.deepEqual(ctx.result.continue, { accontinue: 'Dogs', continue: '-||' });
});

test('list=random: redirect flag only with rnfilterredir=all; rnredirect clashes with a given rnfilterredir', async () => {
  const pages = { pages: [{ id: 2, ns: 0, title: 'R', redirect: true }], continue: '0.5|0.7|2|0', current: '0.5|0.5|0|0' };
  const all = await runQuery({ list: ['random'] }, { listRandomPages: () => pages }, { random: { filterredir: 'all', redirect: false, limit: 1 } });
  assert.deepEqual(stripMeta((all.ctx.result.query as Record<string, unknown>).random), [{ id: 2, ns: 0, title: 'R', redirect: true }]);
  assert.deepEqual(all.ctx.result.continue, { rncontinue: '0.5|0.7|2|0', continue: '-||' });
  const redirects = await runQuery({ list: ['random'] }, { listRandomPages: () => pages }, { random: { filterredir: 'nonredirects', redirect: true, limit: 1 } });
  assert.equal((redirects.listCalls[0]!.req as { filterRedirects: number }).filterRedirects, 1, 'rnredirect lists redirects');
  assert.deepEqual(stripMeta((redirects.ctx.result.query as Record<string, unknown>).random), [{ id: 2, ns: 0, title: 'R' }]);
  const clash = fakeContext(queryModule, { list: ['random'] }, { namespaces: NAMESPACES }, { subParams: { random: { filterredir: 'all', redirect: true, limit: 1 } }, raw: { rnfilterredir: 'all' } });
  await rejects(queryModule.execute(clash.ctx), 'invalidparammix', 'The parameters "rnfilterredir" and "rnredirect" can not be used together.');
});

test('generator=random: the batch position is the non-continue value even on the first request', async () => {
  const { ctx } = await runQuery(
    { generator: 'random', prop: ['info'] },
    { listRandomPages: () => ({ pages: [], continue: '0.5|0.7|2|0', current: '0.5|0.5|0|0' }) },
    { random: { filterredir: 'nonredirects', redirect: false, limit: 1 }, info: {} },
  );
  assert.deepEqual(ctx.result.continue, { grncontinue: '0.5|0.7|2|0', continue: 'grncontinue||' });
});

test('list=protectedtitles: infinite expiry is "infinity"; user implies userid', async () => {
  const { ctx } = await runQuery(
    { list: ['protectedtitles'] },
    {
      listProtectedTitles: () => ({
        titles: [{ ns: 0, title: 'Locked', timestamp: '2026-11-25T15:00:00Z', user: 'Sysop', userId: 2, comment: 'c', expiry: '', level: 'sysop' }],
        continue: '',
      }),
    },
    { protectedtitles: { prop: ['user', 'expiry', 'level'], limit: 10, dir: 'older' } },
  );
  assert.deepEqual(stripMeta((ctx.result.query as Record<string, unknown>).protectedtitles), [{ ns: 0, title: 'Locked', user: 'Sysop', userid: 2, expiry: 'infinity', level: 'sysop' }]);
});

test('list=querypage: databaseResult from the service, qpoffset continuation, Unwatchedpages needs its right', async () => {
  const { ctx } = await runQuery(
    { list: ['querypage'] },
    {
      runQueryPage: () => ({
        rows: [{ ns: 0, title: 'R', value: '', hasValue: false, timestamp: '', databaseResultJson: '{"rd_namespace":"0","redirid":null}' }],
        more: true,
      }),
    },
    { querypage: { page: 'Listredirects', offset: 10, limit: 1 } },
  );
  assert.deepEqual(stripMeta((ctx.result.query as Record<string, unknown>).querypage), {
    name: 'Listredirects',
    results: [{ ns: 0, title: 'R', databaseResult: { rd_namespace: '0', redirid: null } }],
  });
  assert.deepEqual(ctx.result.continue, { qpoffset: 11, continue: '-||' });
  await rejects(
    runQuery({ list: ['querypage'] }, {}, { querypage: { page: 'Unwatchedpages', offset: 0, limit: 10 } }),
    'specialpage-cantexecute',
    "You don't have permission to view the results of this special page.",
  );
});

test('prop=contributors: at most one of the four filters', async () => {
  await rejects(
    runQuery({ titles: ['A'], prop: ['contributors'] }, {}, { contributors: { group: ['sysop'], excluderights: ['block'], limit: 10 } }),
    'invalidparammix',
    'The parameters "pcgroup" and "pcexcluderights" can not be used together.',
  );
});
