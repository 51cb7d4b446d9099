import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generalInfo, interwikiMapInfo, languageVariantsInfo, magicWordsInfo, namespaceAliasesInfo, namespacesInfo, parserListsInfo, QUIRE_GENERATOR, statisticsInfo } from './siteinfo.js';
import {
  dbReplLagInfo,
  defaultOptionsInfo,
  extensionsInfo,
  fileExtensionsInfo,
  librariesInfo,
  protocolsInfo,
  restrictionsInfo,
  rightsInfo,
  showHooksInfo,
  skinsInfo,
  specialPageAliasesInfo,
  uploadDialogInfo,
  userGroupsInfo,
} from './siteinfo-props.js';
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

test('rightsinfo, restrictions, protocols, uploaddialog, skins, dbrepllag, showhooks as MediaWiki 1.39 gives them for Quire', () => {
  assert.deepEqual(stripMeta(rightsInfo()), { url: '', text: '' });
  assert.deepEqual(stripMeta(restrictionsInfo()), {
    types: ['create', 'edit', 'move', 'upload'],
    levels: ['', 'autoconfirmed', 'sysop'],
    cascadinglevels: ['sysop'],
    semiprotectedlevels: ['autoconfirmed'],
  });
  const protocols = protocolsInfo();
  assert.equal(protocols.length, 29);
  assert.deepEqual([protocols[0], protocols[7], protocols[28]], ['bitcoin:', 'https://', '//']);
  assert.deepEqual(stripMeta(uploadDialogInfo()), {
    fields: { description: true, date: false, categories: false },
    licensemessages: { local: 'generic-local', foreign: 'generic-foreign' },
    comment: { local: '', foreign: '' },
    format: { filepage: '$DESCRIPTION', description: '$TEXT', ownwork: '', license: '', uncategorized: '' },
  });
  assert.deepEqual(stripMeta(skinsInfo()), [
    { code: 'minerva', name: 'MinervaNeue' },
    { code: 'monobook', name: 'MonoBook' },
    { code: 'timeless', name: 'Timeless' },
    { code: 'vector-2022', name: 'Vector (2022)' },
    { code: 'vector', name: 'Vector legacy (2010)', default: true },
    { code: 'fallback', name: 'Fallback', unusable: true },
    { code: 'apioutput', name: 'ApiOutput', unusable: true },
  ]);
  assert.deepEqual(stripMeta(dbReplLagInfo({ lagSeconds: -1, host: 'db-replica-1' })), [{ host: '', lag: -1 }]);
  assert.deepEqual(stripMeta(showHooksInfo()), []);
  assert.deepEqual(stripMeta(fileExtensionsInfo(['png', 'svg'])), [{ ext: 'png' }, { ext: 'svg' }]);
});

test('libraries: the npm packages Quire runs on, sorted, with their installed versions', () => {
  const libs = librariesInfo() as { name: string; version: string }[];
  assert.ok(libs.length > 5);
  assert.deepEqual(
    libs.map((l) => l.name),
    [...libs.map((l) => l.name)].sort(),
  );
  const express = libs.find((l) => l.name === 'express');
  const installed = JSON.parse(readFileSync(new URL('../../../../node_modules/express/package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(express?.version, installed.version);
  assert.ok(!libs.some((l) => l.name.startsWith('@quire/') || l.name === 'typescript'), 'workspaces and dev tools are not libraries');
});

test('extensions name Quire (not generator), with its package version', () => {
  const [quire, ...rest] = extensionsInfo();
  assert.deepEqual(rest, []);
  assert.equal(quire?.type, 'other');
  assert.equal(quire?.name, 'Quire');
  const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(quire?.version, pkg.version);
});

test('defaultoptions are the defaults every account starts with, variants and searched namespaces included', () => {
  const defaults = stripMeta(defaultOptionsInfo([-2, -1, 0, 1, 2, 14], ['sr'])) as Record<string, unknown>;
  assert.equal(defaults.skin, 'vector');
  assert.equal(defaults.watchdefault, 1);
  assert.equal(defaults['search-match-redirect'], true);
  const keys = Object.keys(defaults);
  // MediaWiki's order: …, language, variant, variant-<lang>…, searchNs<id>… (namespaces from 0).
  assert.deepEqual(keys.slice(keys.indexOf('variant')), ['variant', 'variant-sr', 'searchNs0', 'searchNs1', 'searchNs2', 'searchNs14']);
  assert.deepEqual([defaults['variant-sr'], defaults.searchNs0, defaults.searchNs1, defaults.searchNs14], ['sr', 1, 0, 0]);
});

test('magicwords, extensiontags, functionhooks and variables from the content service answer', () => {
  const info = {
    extensionTags: ['pre', 'ref'],
    functionHooks: ['if'],
    variables: ['pagename'],
    magicWords: [
      { name: 'pagename', aliases: ['PAGENAME'], caseSensitive: true },
      { name: 'notoc', aliases: ['__NOTOC__'], caseSensitive: false },
    ],
    fileExtensions: [],
    interwikis: [
      { prefix: 'de', url: 'https://de.wikipedia.org/wiki/$1', language: 'Deutsch' },
      { prefix: 'rel', url: '//example.org/$1', language: '' },
    ],
    languageVariants: [
      {
        language: 'sr',
        variants: [
          { variant: 'sr', fallbacks: ['sr-ec'] },
          { variant: 'sr-el', fallbacks: ['sr'] },
        ],
      },
    ],
  };
  assert.deepEqual(stripMeta(magicWordsInfo(info)), [
    { name: 'pagename', aliases: ['PAGENAME'], 'case-sensitive': true },
    { name: 'notoc', aliases: ['__NOTOC__'], 'case-sensitive': false },
  ]);
  assert.deepEqual(stripMeta(parserListsInfo(info)), { extensiontags: ['<pre>', '<ref>'], functionhooks: ['if'], variables: ['pagename'] });
  const variants = languageVariantsInfo(info);
  assert.deepEqual(stripMeta(variants), { sr: { sr: { fallbacks: ['sr-ec'] }, 'sr-el': { fallbacks: ['sr'] } } });
  assert.deepEqual([variants._type, variants._kvpkeyname], ['kvp', 'code']);
  assert.deepEqual(stripMeta(interwikiMapInfo(info, undefined)), [
    { prefix: 'de', language: 'Deutsch', url: 'https://de.wikipedia.org/wiki/$1', protorel: false },
    { prefix: 'rel', url: '//example.org/$1', protorel: true },
  ]);
  assert.deepEqual(stripMeta(interwikiMapInfo(info, 'local')), []);
  assert.equal(interwikiMapInfo(info, '!local').length, 2);
});

test('usergroups: rights per group; with numberingroup a size except for "*" and autoconfirmed, after the rights', () => {
  const perms = {
    groups: [
      { name: '*', rights: ['read'], members: 0 },
      { name: 'user', rights: ['move'], members: 3 },
      { name: 'autoconfirmed', rights: ['autoconfirmed'], members: 0 },
      { name: 'sysop', rights: ['delete'], members: 1 },
    ],
  };
  assert.deepEqual(stripMeta(userGroupsInfo(perms, false)), [
    { name: '*', rights: ['read'] },
    { name: 'user', rights: ['move'] },
    { name: 'autoconfirmed', rights: ['autoconfirmed'] },
    { name: 'sysop', rights: ['delete'] },
  ]);
  const counted = stripMeta(userGroupsInfo(perms, true)) as Record<string, unknown>[];
  assert.deepEqual(
    counted.map((g) => g.number),
    [undefined, 3, undefined, 1],
  );
  assert.deepEqual(Object.keys(counted[1]!), ['name', 'rights', 'number']);
});

test("specialpagealiases: the special pages the gateway serves, under MediaWiki's internal names", () => {
  assert.deepEqual(stripMeta(specialPageAliasesInfo()), [
    { realname: 'Userlogin', aliases: ['UserLogin'] },
    { realname: 'Userlogout', aliases: ['UserLogout'] },
    { realname: 'BotPasswords', aliases: ['BotPasswords'] },
    { realname: 'RunJobs', aliases: ['RunJobs'] },
    { realname: 'CreateAccount', aliases: ['CreateAccount'] },
    { realname: 'Search', aliases: ['Search'] },
    { realname: 'Recentchanges', aliases: ['RecentChanges'] },
    { realname: 'Contributions', aliases: ['Contributions'] },
    { realname: 'Log', aliases: ['Log'] },
    { realname: 'Allpages', aliases: ['AllPages'] },
    { realname: 'Specialpages', aliases: ['SpecialPages'] },
    { realname: 'Version', aliases: ['Version'] },
    { realname: 'Randompage', aliases: ['Random'] },
    { realname: 'Watchlist', aliases: ['Watchlist'] },
    { realname: 'Upload', aliases: ['Upload'] },
    { realname: 'Categories', aliases: ['Categories'] },
    { realname: 'Preferences', aliases: ['Preferences'] },
    { realname: 'ChangePassword', aliases: ['ChangePassword'] },
    { realname: 'ChangeEmail', aliases: ['ChangeEmail'] },
    { realname: 'Movepage', aliases: ['MovePage'] },
    { realname: 'Undelete', aliases: ['Undelete'] },
    { realname: 'Block', aliases: ['Block'] },
    { realname: 'Export', aliases: ['Export'] },
    { realname: 'Import', aliases: ['Import'] },
    { realname: 'Whatlinkshere', aliases: ['WhatLinksHere'] },
    { realname: 'Recentchangeslinked', aliases: ['RecentChangesLinked'] },
  ]);
});
