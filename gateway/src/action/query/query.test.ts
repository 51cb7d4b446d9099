import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PageRecord, Revision, ResolvePagesResponse } from '../../clients/types.js';
import { ApiUsageError, type Params } from '../types.js';
import { queryModule } from './index.js';
import { DEPRECATION_HELP_TEXT, SINGLEPAGE_TEXT } from './revisions.js';
import { fakeContext, stripMeta, type FakeContent } from './testing.js';

function page(id: number, title: string): PageRecord {
  return {
    id,
    ns: 0,
    title,
    dbkey: title.replace(/ /g, '_'),
    missing: false,
    special: false,
    latestRevId: id * 10,
    latestTimestamp: '2026-11-21T06:17:00Z',
    touched: '2026-11-21T06:17:00Z',
    length: 5,
    redirect: false,
    isNew: true,
    contentModel: 'wikitext',
    pageLanguage: 'en',
    redirectTarget: '',
  };
}

function resolved(pages: PageRecord[], extra: Partial<ResolvePagesResponse> = {}): ResolvePagesResponse {
  return { normalized: [], redirects: [], invalid: [], pages, missingPageIds: [], badRevIds: [], revisionPages: [], ...extra };
}

function revision(id: number, pageId: number, minute: number): Revision {
  return {
    id,
    pageId,
    parentId: id - 1,
    timestamp: `2026-11-21T06:${String(minute).padStart(2, '0')}:00Z`,
    userId: 1,
    userText: 'Admin',
    comment: `r${id}`,
    minor: false,
    sha1: '',
    size: 5,
    contentModel: 'wikitext',
    contentFormat: 'text/x-wiki',
    content: `text ${id}`,
    deleted: 0,
    tags: [],
    parentSize: -1,
  };
}

async function runQuery(params: Params, fake: FakeContent, opts: Parameters<typeof fakeContext>[3] = {}) {
  const run = fakeContext(queryModule, params, fake, opts);
  await queryModule.execute(run.ctx);
  return run;
}

test('meta=tokens: anonymous csrf token, batchcomplete first', async () => {
  const { ctx, calls } = await runQuery({ meta: ['tokens'] }, { tokens: (_s, types) => Object.fromEntries(types.map((t) => [t, '+\\'])) }, { subParams: { tokens: { type: ['csrf'] } } });
  assert.deepEqual(stripMeta(ctx.result), { batchcomplete: true, query: { tokens: { csrftoken: '+\\' } } });
  assert.deepEqual(Object.keys(ctx.result), ['batchcomplete', 'query']);
  assert.deepEqual(
    calls.map((c) => c.method),
    ['getTokens'],
  );
});

test('meta=tokens under origin=*: a warning and no query at all', async () => {
  const { ctx, warnings, calls } = await runQuery({ meta: ['tokens'] }, {}, { raw: { origin: '*' }, subParams: { tokens: { type: ['csrf'] } } });
  assert.deepEqual(ctx.result, { batchcomplete: true });
  assert.deepEqual(
    warnings.map((w) => [w.module, w.msg.code, w.msg.key, w.msg.text]),
    [['query+tokens', 'tokens-origin', 'apiwarn-tokens-origin', 'Tokens may not be obtained when the same-origin policy is not applied.']],
  );
  assert.equal(calls.length, 0);
});

test('meta=userinfo for an anonymous caller', async () => {
  const { ctx } = await runQuery({ meta: ['userinfo'] }, {}, { subParams: { userinfo: { prop: ['groups'] } } });
  assert.deepEqual(stripMeta(ctx.result.query), { userinfo: { id: 0, name: '127.0.0.1', anon: true, groups: ['*'] } });
});

test('titles with pageids is multisource', async () => {
  await assert.rejects(runQuery({ titles: ['A'], pageids: [1] }, {}), (e: unknown) => {
    assert.ok(e instanceof ApiUsageError);
    assert.equal(e.code, 'multisource');
    assert.equal(e.info, 'The "pageids" parameter cannot be used with "titles".');
    return true;
  });
});

test('revids with redirects warns and does not resolve redirects', async () => {
  const { warnings, calls, ctx } = await runQuery(
    { revids: [10, 777], redirects: true },
    { resolvePages: () => resolved([page(1, 'Main Page')], { badRevIds: [777], revisionPages: [{ revId: 10, pageId: 1 }] }) },
  );
  assert.equal(warnings[0]?.module, 'query');
  assert.equal(warnings[0]?.msg.code, 'redirectsandrevids');
  assert.equal((calls[0]!.req as { resolveRedirects: boolean }).resolveRedirects, false);
  const query = ctx.result.query as Record<string, unknown>;
  assert.deepEqual((query.badrevids as Map<number, unknown>).get(777), { revid: 777, missing: true });
});

test('prop=revisions without rvslots: legacy content and both deprecation warnings', async () => {
  const { ctx, warnings } = await runQuery(
    { titles: ['Main_Page'], prop: ['revisions'] },
    {
      resolvePages: () => resolved([page(1, 'Main Page')], { normalized: [{ from: 'Main_Page', to: 'Main Page' }] }),
      getRevisions: () => ({ revisions: [revision(10, 1, 17)], nextId: 0 }),
    },
    { subParams: { revisions: { prop: ['content'], dir: 'older' } } },
  );
  assert.deepEqual(
    warnings.map((w) => [w.module, w.msg.code]),
    [
      ['query+revisions', 'deprecation'],
      ['main', 'deprecation-help'],
    ],
  );
  assert.equal(warnings[1]?.msg.text, DEPRECATION_HELP_TEXT);
  const pages = (ctx.result.query as Record<string, unknown>).pages as Map<number, unknown>;
  assert.deepEqual(stripMeta(pages.get(1)), {
    pageid: 1,
    ns: 0,
    title: 'Main Page',
    revisions: [{ contentformat: 'text/x-wiki', contentmodel: 'wikitext', content: 'text 10' }],
  });
  assert.equal(ctx.result.batchcomplete, true);
});

const history = [revision(3, 1, 19), revision(2, 1, 18), revision(1, 1, 17)];
const onePage: FakeContent = {
  resolvePages: () => resolved([page(1, 'Main Page')]),
  getRevisions: (req) => ({ revisions: history.filter((r) => !req.startId || r.id <= req.startId).slice(0, req.limit), nextId: 0 }),
};

test('rvlimit on one page: continue with a timestamp|id rvcontinue and no batchcomplete', async () => {
  const { ctx } = await runQuery({ titles: ['Main Page'], prop: ['revisions'] }, onePage, {
    subParams: { revisions: { prop: ['ids'], limit: 2, dir: 'older' } },
    raw: { rvlimit: '2' },
  });
  assert.deepEqual(ctx.result.continue, { rvcontinue: '20261121061700|1', continue: '||' });
  assert.equal('batchcomplete' in ctx.result, false);
  assert.deepEqual(Object.keys(ctx.result), ['continue', 'query']);
  const pages = (ctx.result.query as Record<string, unknown>).pages as Map<number, unknown>;
  assert.deepEqual(stripMeta(pages.get(1)), {
    pageid: 1,
    ns: 0,
    title: 'Main Page',
    revisions: [
      { revid: 3, parentid: 2 },
      { revid: 2, parentid: 1 },
    ],
  });

  const next = await runQuery({ titles: ['Main Page'], prop: ['revisions'], continue: '||' }, onePage, {
    subParams: { revisions: { prop: ['ids'], limit: 2, dir: 'older', continue: '20261121061700|1' } },
  });
  assert.equal(next.ctx.result.batchcomplete, true);
  const nextPages = (next.ctx.result.query as Record<string, unknown>).pages as Map<number, unknown>;
  assert.deepEqual(stripMeta(nextPages.get(1)), { pageid: 1, ns: 0, title: 'Main Page', revisions: [{ revid: 1, parentid: 0 }] });
});

test('rawcontinue gives query-continue instead', async () => {
  const { ctx } = await runQuery({ titles: ['Main Page'], prop: ['revisions'], rawcontinue: true }, onePage, {
    subParams: { revisions: { prop: ['ids'], limit: 1, dir: 'older' } },
  });
  assert.deepEqual(ctx.result['query-continue'], { revisions: { rvcontinue: '20261121061800|2' } });
  assert.equal('batchcomplete' in ctx.result, false);
});

test('rvlimit=max reports the content-aware limit; out-of-range values are clamped with a warning', async () => {
  const max = await runQuery({ titles: ['Main Page'], prop: ['revisions'] }, onePage, {
    subParams: { revisions: { prop: ['content'], slots: ['main'], limit: 500, dir: 'older' } },
    raw: { rvlimit: 'max' },
  });
  assert.deepEqual(max.ctx.result.limits, { revisions: 50 });
  const big = await runQuery({ titles: ['Main Page'], prop: ['revisions'] }, onePage, {
    subParams: { revisions: { prop: ['content'], slots: ['main'], limit: 100, dir: 'older' } },
    raw: { rvlimit: '100' },
  });
  // The validator's own warning (as the reference wiki: key paramvalidator-outofrange-minmax).
  const msg = big.warnings[0]?.msg;
  assert.deepEqual(
    { code: msg?.code, key: msg?.key, params: msg?.params, text: msg?.text, data: msg?.data },
    {
      code: 'outofrange',
      key: 'paramvalidator-outofrange-minmax',
      params: ['rvlimit', '100', 1, 50],
      text: 'The value "100" for parameter "rvlimit" must be between 1 and 50.',
      data: { min: 1, curmax: 50, max: 50, highmax: 500 },
    },
  );
});

test('enumeration options on several pages are refused', async () => {
  await assert.rejects(
    runQuery({ titles: ['A', 'B'], prop: ['revisions'] }, { resolvePages: () => resolved([page(1, 'A'), page(2, 'B')]) }, { subParams: { revisions: { prop: ['ids'], dir: 'newer' } } }),
    (e: unknown) => e instanceof ApiUsageError && e.code === 'invalidparammix' && e.info === SINGLEPAGE_TEXT,
  );
});

test('latest revisions of several pages continue by page|revision', async () => {
  const pages = Array.from({ length: 51 }, (_, i) => page(i + 1, `P${i + 1}`));
  const { ctx, calls } = await runQuery(
    { titles: pages.map((p) => p.title), prop: ['revisions'] },
    {
      resolvePages: () => resolved(pages),
      getRevisions: (req) => ({ revisions: (req.pageIds ?? []).map((id) => revision(id * 10, id, 1)), nextId: 0 }),
    },
    { subParams: { revisions: { prop: ['ids', 'content'], slots: ['main'], dir: 'older' } } },
  );
  assert.deepEqual(ctx.result.continue, { rvcontinue: '51|510', continue: '||' });
  assert.equal((calls[1]!.req as { pageIds: number[] }).pageIds.length, 50);
});

test('a finished page set ("-||…") runs only the remaining modules', async () => {
  const { ctx, calls } = await runQuery({ titles: ['Main Page'], prop: ['revisions'], meta: ['userinfo'], continue: '-||' }, {}, { subParams: { userinfo: {} } });
  assert.equal(calls.length, 0);
  assert.deepEqual(stripMeta(ctx.result), { batchcomplete: true, query: { userinfo: { id: 0, name: '127.0.0.1', anon: true } } });
});

test('a malformed continue is badcontinue', async () => {
  await assert.rejects(runQuery({ meta: ['userinfo'], continue: 'abc' }, {}), (e: unknown) => e instanceof ApiUsageError && e.code === 'badcontinue');
});
