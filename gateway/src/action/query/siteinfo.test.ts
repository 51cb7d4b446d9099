import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generalInfo, namespaceAliasesInfo, namespacesInfo, QUIRE_GENERATOR, statisticsInfo } from './siteinfo.js';
import { goldenBody, NAMESPACES, stripMeta, TEST_CONFIG } from './testing.js';

const golden = (goldenBody('action_siteinfo_fv2_all.http').query ?? {}) as Record<string, Record<string, unknown>>;

function plain(map: Map<number | string, unknown>): Record<string, unknown> {
  return Object.fromEntries([...map].filter(([k]) => !String(k).startsWith('_')).map(([k, v]) => [String(k), stripMeta(v)]));
}

test('general has every key of MediaWiki 1.39 with the same types', () => {
  const ours = stripMeta(generalInfo(TEST_CONFIG, NAMESPACES, new Date('2026-11-21T05:13:13.123Z'))) as Record<string, unknown>;
  const theirs = golden.general ?? {};
  assert.deepEqual(Object.keys(ours), Object.keys(theirs));
  for (const [k, v] of Object.entries(theirs)) {
    // fv2 prints BCassoc lists (thumblimits, imagelimits) as objects keyed "0".."5".
    const expected = Array.isArray(v) ? 'array' : typeof v;
    const actual = Array.isArray(ours[k]) && !['thumblimits', 'imagelimits'].includes(k) ? 'array' : typeof ours[k];
    assert.equal(actual, expected, k);
  }
  assert.equal(ours.generator, QUIRE_GENERATOR);
  assert.match(String(ours.generator), /^MediaWiki 1\.39\.\d+$/, 'clients parse the version from generator');
  assert.equal(ours.time, '2026-11-21T05:13:13Z');
  assert.equal(ours.base, 'http://127.0.0.1:8080/wiki/Main_Page');
  assert.equal(ours.servername, '127.0.0.1');
  assert.equal(ours.maxarticlesize, 2097152);
  for (const k of ['sitename', 'mainpage', 'articlepath', 'scriptpath', 'legaltitlechars', 'linktrail', 'wikiid', 'case', 'lang']) {
    assert.equal(ours[k], theirs[k], k);
  }
});

test('namespaces match the golden fv2 sample, content value in "name"', () => {
  const ns = namespacesInfo(NAMESPACES);
  assert.deepEqual(plain(ns), golden.namespaces);
  assert.deepEqual([...ns.keys()].slice(0, 3), [-2, -1, 0]);
  assert.equal((ns.get(1) as Record<string, unknown>)._content, 'name');
  assert.equal(ns.get('_type'), 'assoc');
});

test('namespace aliases: sorted, without the namespace names themselves', () => {
  assert.deepEqual(stripMeta(namespaceAliasesInfo(NAMESPACES)), golden.namespacealiases);
});

test('statistics keep all eight MediaWiki keys', () => {
  const stats = statisticsInfo({ pages: 1, articles: 0, edits: 1, images: 0, jobs: 0 }, { users: 0, activeusers: 0, admins: 1 });
  assert.deepEqual(stats, golden.statistics);
});
