import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PageRecord, type ResolvePagesRequest, type CompleteTitlesRequest, type TitleMatch } from '../../clients/types.js';
import { serveRest, testDeps, type TestServer } from '../testing.js';

/** The index's suggestions per prefix, in title order as the engine returns them (redirects unresolved). */
const SUGGESTIONS: Record<string, TitleMatch[]> = {
  // The reference wiki's case: "Zqxw redir" redirects to "Zqxwhelper" and sorts before it.
  Zqxw: [
    { pageId: 5, namespace: 0, title: 'Zqxw redir', redirectFrom: '' },
    { pageId: 3, namespace: 0, title: 'Zqxwhelper', redirectFrom: '' },
  ],
  // The page first, its redirect after: the page as itself, no matched_title.
  Abc: [
    { pageId: 7, namespace: 0, title: 'Abc', redirectFrom: '' },
    { pageId: 8, namespace: 0, title: 'Abc alias', redirectFrom: '' },
  ],
  Only: [{ pageId: 9, namespace: 0, title: 'Only redirect', redirectFrom: '' }],
  Broken: [{ pageId: 10, namespace: 0, title: 'Broken redirect', redirectFrom: '' }],
  Virtual: [{ pageId: 11, namespace: 0, title: 'Virtual redirect', redirectFrom: '' }],
};

/** Redirects and the pages they point to, as content's ResolvePages answers. */
const REDIRECTS: Record<string, PageRecord> = {
  'Zqxw redir': PageRecord.fromPartial({ id: 3, title: 'Zqxwhelper', dbkey: 'Zqxwhelper' }),
  'Abc alias': PageRecord.fromPartial({ id: 7, title: 'Abc', dbkey: 'Abc' }),
  'Only redirect': PageRecord.fromPartial({ id: 12, title: 'Target page', dbkey: 'Target_page' }),
  'Broken redirect': PageRecord.fromPartial({ id: 0, title: 'Nowhere', dbkey: 'Nowhere', missing: true }),
  'Virtual redirect': PageRecord.fromPartial({ id: 0, ns: -1, title: 'Special:Random', dbkey: 'Special:Random', special: true }),
};

const completions: Partial<CompleteTitlesRequest>[] = [];
let server: TestServer;

before(async () => {
  server = await serveRest(
    testDeps({
      search: {
        async completeTitles(req) {
          completions.push(req);
          return { matches: (SUGGESTIONS[req.prefix ?? ''] ?? []).slice(0, req.limit), hasMore: false };
        },
      },
      content: {
        async resolvePages(req: Partial<ResolvePagesRequest>) {
          const titles = req.titles ?? [];
          assert.equal(req.resolveRedirects, true);
          return {
            normalized: [],
            invalid: [],
            missingPageIds: [],
            badRevIds: [],
            revisionPages: [],
            redirects: titles.filter((t) => REDIRECTS[t]).map((t) => ({ from: t, to: REDIRECTS[t]!.title, tofragment: '' })),
            pages: titles.map(
              (t) =>
                REDIRECTS[t] ??
                PageRecord.fromPartial({
                  id: Object.values(SUGGESTIONS)
                    .flat()
                    .find((m) => m.title === t)?.pageId,
                  title: t,
                }),
            ),
          };
        },
      },
    }),
  );
});
after(() => server.close());

async function titleSearch(q: string, limit?: number) {
  const res = await fetch(`${server.rest}/v1/search/title?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`);
  assert.equal(res.status, 200);
  const { pages } = (await res.json()) as { pages: { id: number; key: string; title: string; excerpt: string | null; matched_title: string | null }[] };
  return pages.map((p) => [p.id, p.key, p.title, p.excerpt, p.matched_title]);
}

describe('GET /v1/search/title: suggestions merged as SearchHandler::buildPageObjects', () => {
  test('a redirect suggested before its target: the target once, text of the later suggestion, matched_title of the redirect (as the reference wiki)', async () => {
    assert.deepEqual(await titleSearch('Zqxw'), [[3, 'Zqxwhelper', 'Zqxwhelper', 'Zqxwhelper', 'Zqxw redir']]);
    assert.deepEqual(completions.at(-1), { prefix: 'Zqxw', limit: 50, resolveRedirects: false });
  });

  test('a page suggested before its redirect: the page as itself', async () => {
    assert.deepEqual(await titleSearch('Abc'), [[7, 'Abc', 'Abc', 'Abc', null]]);
  });

  test('only the redirect: its target, the redirect title as excerpt and matched_title', async () => {
    assert.deepEqual(await titleSearch('Only'), [[12, 'Target_page', 'Target page', 'Only redirect', 'Only redirect']]);
  });

  test('a redirect to a missing page is its target with id 0; one into a virtual namespace is suggested as itself', async () => {
    assert.deepEqual(await titleSearch('Broken'), [[0, 'Nowhere', 'Nowhere', 'Broken redirect', 'Broken redirect']]);
    assert.deepEqual(await titleSearch('Virtual'), [[11, 'Virtual_redirect', 'Virtual redirect', 'Virtual redirect', null]]);
  });

  test('no suggestions: no page lookup, an empty list; limit reaches the engine', async () => {
    assert.deepEqual(await titleSearch('Nothing'), []);
    assert.deepEqual(await titleSearch('Zqxw', 1), [[3, 'Zqxwhelper', 'Zqxwhelper', 'Zqxw redir', 'Zqxw redir']]);
    assert.equal(completions.at(-1)?.limit, 1);
  });
});
