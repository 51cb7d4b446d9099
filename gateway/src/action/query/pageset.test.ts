import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvePagesResponse } from '../../clients/types.js';
import { buildPageSet, interwikiTitle, pageSetOutput } from './pageset.js';
import { page, stripMeta } from './testing.js';

function response(r: Partial<ResolvePagesResponse>): ResolvePagesResponse {
  return { normalized: [], redirects: [], invalid: [], pages: [], missingPageIds: [], badRevIds: [], revisionPages: [], ...r };
}

// titles=Main_Page|Nope|Foo[bar|Special:Foo|Special:Search|Talk:x against MediaWiki 1.39.
const mixed = response({
  normalized: [
    { from: 'Main_Page', to: 'Main Page' },
    { from: 'Talk:x', to: 'Talk:X' },
  ],
  invalid: [{ title: 'Foo[bar', reasonCode: 'title-invalid-characters', reason: 'The requested page title contains invalid characters: "[".' }],
  pages: [
    page({ id: 1, ns: 0, title: 'Main Page', latestRevId: 1 }),
    page({ ns: 0, title: 'Nope', missing: true }),
    page({ ns: -1, title: 'Special:Foo', special: true, missing: true }),
    // The content service marks every virtual page missing; an existing special page is known.
    page({ ns: -1, title: 'Special:Search', special: true, missing: true }),
    page({ ns: 1, title: 'Talk:X', missing: true }),
  ],
});
const mixedTitles = ['Main_Page', 'Nope', 'Foo[bar', 'Special:Foo', 'Special:Search', 'Talk:x'];

test('fake ids and pageids follow ApiPageSet: invalid, special, then missing by namespace', () => {
  const ps = buildPageSet(mixed, { source: 'titles', titles: mixedTitles, resolveRedirects: false });
  const out = pageSetOutput(ps, { indexPageIds: true });
  assert.deepEqual(stripMeta(out.query.pageids), ['-4', '-5', '-1', '-2', '-3', '1']);
  const pages = out.query.pages as Map<number | string, unknown>;
  assert.deepEqual(
    [...pages.entries()].filter(([k]) => typeof k === 'number'),
    [
      [-4, { ns: 0, title: 'Nope', missing: true }],
      [-5, { ns: 1, title: 'Talk:X', missing: true }],
      [-1, { title: 'Foo[bar', invalidreason: 'The requested page title contains invalid characters: "[".', invalid: true }],
      [-2, { ns: -1, title: 'Special:Foo', special: true, missing: true }],
      [-3, { ns: -1, title: 'Special:Search', special: true }],
      [1, { pageid: 1, ns: 0, title: 'Main Page' }],
    ],
  );
  assert.equal(pages.get('_type'), 'BCarray');
  assert.deepEqual(stripMeta(out.query.normalized), [
    { fromencoded: false, from: 'Main_Page', to: 'Main Page' },
    { fromencoded: false, from: 'Talk:x', to: 'Talk:X' },
  ]);
});

test('input that is not NFC gets a percent-encoded normalized entry first', () => {
  const resp = response({ normalized: [{ from: 'é́', to: 'É́' }], pages: [page({ ns: 0, title: 'É́', missing: true }), page({ ns: 0, title: 'Å', missing: true })] });
  const ps = buildPageSet(resp, { source: 'titles', titles: ['é́', 'Å'], rawTitles: ['é́', 'A\u030a'], resolveRedirects: false });
  assert.deepEqual(ps.normalized, [
    { fromencoded: true, from: 'A%CC%8A', to: 'Å' },
    { fromencoded: false, from: 'é́', to: 'É́' },
  ]);
  assert.deepEqual(
    ps.missing.map((m) => [m.id, m.page.title]),
    [
      [-1, 'É́'],
      [-2, 'Å'],
    ],
  );
});

test('missing page ids, bad revision ids and redirects', () => {
  const ps = buildPageSet(
    response({
      pages: [page({ id: 1, ns: 0, title: 'Main Page' })],
      missingPageIds: [9999],
      badRevIds: [777],
      redirects: [
        { from: 'MP', to: 'Main Page', tofragment: '' },
        { from: 'X', to: 'Main Page', tofragment: 'Sec' },
      ],
    }),
    { source: 'pageids', titles: [], resolveRedirects: true },
  );
  const out = pageSetOutput(ps, { indexPageIds: true });
  assert.deepEqual(stripMeta(out.query.redirects), [
    { from: 'MP', to: 'Main Page' },
    { from: 'X', to: 'Main Page', tofragment: 'Sec' },
  ]);
  const bad = out.query.badrevids as Map<number | string, unknown>;
  assert.deepEqual(bad.get(777), { revid: 777, missing: true });
  assert.deepEqual(stripMeta(out.query.pageids), ['9999', '1']);
  assert.deepEqual(out.pages.get(9999), { pageid: 9999, missing: true });
});

test('revids turn redirect resolution off and record revision pages', () => {
  const ps = buildPageSet(response({ pages: [page({ id: 1, ns: 0, title: 'Main Page' })], revisionPages: [{ revId: 3, pageId: 1 }] }), {
    source: 'revids',
    titles: [],
    resolveRedirects: true,
  });
  assert.equal(ps.resolvingRedirects, false);
  assert.equal(ps.revisionPages.get(3), 1);
});

test('an empty page set outputs nothing', () => {
  const ps = buildPageSet(response({}), { source: 'titles', titles: [], resolveRedirects: false });
  assert.deepEqual(pageSetOutput(ps, { indexPageIds: true }).query, {});
});

test('interwiki titles: a prefix of the interwiki map that names no namespace is another wiki, listed under `interwiki` (titles=fr:Cartographie)', () => {
  const prefixes = new Set(['fr', 'wikipedia']);
  const isNamespace = (n: string) => ['talk', 'project'].includes(n.toLowerCase());
  assert.deepEqual(interwikiTitle('fr:Cartographie', prefixes, isNamespace), { title: 'fr:Cartographie', iw: 'fr' });
  assert.deepEqual(interwikiTitle('Wikipedia:Some_page', prefixes, isNamespace), { title: 'wikipedia:Some page', iw: 'wikipedia' });
  assert.equal(interwikiTitle('Talk:Fr', prefixes, isNamespace), undefined);
  assert.equal(interwikiTitle('Nope:X', prefixes, isNamespace), undefined);
  assert.equal(interwikiTitle('Plain', prefixes, isNamespace), undefined);
  const ps = buildPageSet(response({}), { source: 'titles', titles: [], resolveRedirects: false });
  ps.interwiki = [{ title: 'fr:Cartographie', iw: 'fr' }];
  assert.deepEqual(stripMeta(pageSetOutput(ps, { indexPageIds: false }).query), { interwiki: [{ title: 'fr:Cartographie', iw: 'fr' }] });
});

test('a Media: title is known (no `missing`) when its file exists (Title::isKnown)', () => {
  const ps = buildPageSet(response({ pages: [page({ ns: -2, title: 'Media:Here.png', special: true, missing: true }), page({ ns: -2, title: 'Media:Gone.png', special: true, missing: true })] }), {
    source: 'titles',
    titles: ['Media:Here.png', 'Media:Gone.png'],
    resolveRedirects: false,
  });
  ps.special[0]!.page = { ...ps.special[0]!.page, missing: false };
  const pages = stripMeta([...pageSetOutput(ps, { indexPageIds: false }).pages.values()]);
  assert.deepEqual(pages, [
    { ns: -2, title: 'Media:Here.png', special: true },
    { ns: -2, title: 'Media:Gone.png', special: true, missing: true },
  ]);
});
