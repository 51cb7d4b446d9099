/*
 * The meta=siteinfo props beyond general/namespaces/statistics (ApiQuerySiteinfo::append*Info),
 * each with values that hold for Quire: its restrictions, URL protocols, skins accepted as the
 * `skin` preference, default options, the npm libraries it runs on, and Quire itself as the one
 * installed extension (no PHP hooks: `showhooks` is empty).
 */
import { readFileSync } from 'node:fs';
import { RESTRICTION_LEVELS, RESTRICTION_TYPES } from '../modules/protect.js';
import type { ListGroupPermissionsResponse } from '../../clients/types.js';
import { SPECIAL_PAGES, type SpecialPageName } from '../../pages/paths.js';
import { setIndexedTagName, type ResultObject } from '../types.js';
import { URL_PROTOCOL_PREFIXES } from './linktables.js';

/** The skins MediaWiki 1.39 ships, by code, with their names; the `skin` preference takes these. */
export const SKINS: Readonly<Record<string, string>> = {
  minerva: 'MinervaNeue',
  monobook: 'MonoBook',
  timeless: 'Timeless',
  'vector-2022': 'Vector (2022)',
  vector: 'Vector legacy (2010)',
  fallback: 'Fallback',
  apioutput: 'ApiOutput',
};
const DEFAULT_SKIN = 'vector';
/** Skins that exist but cannot be chosen ($wgSkipSkins plus the internal ones). */
const UNUSABLE_SKINS = new Set(['fallback', 'apioutput']);

/** $wgRightsUrl / $wgRightsText: no licence is configured (REST's `license` is empty too). */
export function rightsInfo(): ResultObject {
  return { url: '', text: '' };
}

/** $wgRestrictionTypes, $wgRestrictionLevels, $wgCascadingRestrictionLevels, $wgSemiprotectedRestrictionLevels. */
export function restrictionsInfo(): ResultObject {
  return {
    types: setIndexedTagName([...RESTRICTION_TYPES], 'type'),
    levels: setIndexedTagName(
      RESTRICTION_LEVELS.map((l) => (l === 'all' ? '' : l)),
      'level',
    ),
    cascadinglevels: setIndexedTagName(['sysop'], 'level'),
    semiprotectedlevels: setIndexedTagName(['autoconfirmed'], 'level'),
  };
}

export function protocolsInfo(): string[] {
  return setIndexedTagName([...URL_PROTOCOL_PREFIXES], 'p');
}

export function fileExtensionsInfo(extensions: readonly string[]): ResultObject[] {
  return setIndexedTagName(
    extensions.map((ext) => ({ ext })),
    'fe',
  );
}

/** $wgUploadDialog's default (the upload dialog's configuration, which MediaWiki exposes as is). */
export function uploadDialogInfo(): ResultObject {
  return {
    fields: { description: true, date: false, categories: false },
    licensemessages: { local: 'generic-local', foreign: 'generic-foreign' },
    comment: { local: '', foreign: '' },
    format: { filepage: '$DESCRIPTION', description: '$TEXT', ownwork: '', license: '', uncategorized: '' },
  };
}

export function skinsInfo(): ResultObject[] {
  const list = Object.entries(SKINS).map(([code, name]) => {
    const skin: ResultObject = { code, name };
    if (code === DEFAULT_SKIN) skin.default = true;
    if (UNUSABLE_SKINS.has(code)) skin.unusable = true;
    return skin;
  });
  // MediaWiki lists the usable skins first.
  return setIndexedTagName([...list.filter((s) => !s.unusable), ...list.filter((s) => s.unusable)], 'skin');
}

/** The host is hidden ($wgShowHostnames is false); -1 without a replica. */
export function dbReplLagInfo(lag: { lagSeconds: number; host: string }): ResultObject[] {
  return setIndexedTagName([{ host: '', lag: lag.lagSeconds }], 'db');
}

export { defaultOptionsInfo } from './userinfo.js';

interface PackageLock {
  packages?: Record<string, { version?: string; dependencies?: Record<string, string>; dev?: boolean }>;
}
interface PackageJson {
  version?: string;
  description?: string;
}

const ROOT = new URL('../../../../', import.meta.url);

function readJson<T>(name: string): T | undefined {
  try {
    return JSON.parse(readFileSync(new URL(name, ROOT), 'utf8')) as T;
  } catch {
    // A deployment without the lock file (or package.json) lists nothing rather than failing.
    return undefined;
  }
}

let libraries: ResultObject[] | undefined;

/**
 * The runtime npm dependencies of Quire's workspaces with their installed versions (MediaWiki
 * lists its Composer libraries), read once from package-lock.json.
 */
export function librariesInfo(): ResultObject[] {
  if (!libraries) {
    const packages = readJson<PackageLock>('package-lock.json')?.packages ?? {};
    const names = new Set<string>();
    for (const [path, pkg] of Object.entries(packages)) {
      // Workspace entries ("gateway", "services/content"…): their production dependencies.
      if (path === '' || path.startsWith('node_modules/')) continue;
      for (const dep of Object.keys(pkg.dependencies ?? {})) if (!dep.startsWith('@quire/')) names.add(dep);
    }
    libraries = [...names].sort().flatMap((name) => {
      const version = packages[`node_modules/${name}`]?.version;
      return version ? [{ name, version }] : [];
    });
  }
  return setIndexedTagName([...libraries], 'library');
}

/** Quire is what is installed: one extension entry naming it (the `generator` stays MediaWiki's). */
export function extensionsInfo(): ResultObject[] {
  const pkg = readJson<PackageJson>('package.json') ?? {};
  const quire: ResultObject = { type: 'other', name: 'Quire' };
  if (pkg.description) quire.description = pkg.description;
  if (pkg.version) quire.version = pkg.version;
  return setIndexedTagName([quire], 'ext');
}

/** No PHP hooks run in Quire. */
export function showHooksInfo(): ResultObject[] {
  return setIndexedTagName([], 'hook');
}

/** Groups without a size in `number`: everyone, and the automatic ones ($wgAutopromote). */
const UNCOUNTED_GROUPS = new Set(['*', 'autoconfirmed']);

/** ApiQuerySiteinfo::appendUserGroups: each group's rights ($wgAddGroups etc. are empty: no add/remove keys). */
export function userGroupsInfo(perms: ListGroupPermissionsResponse, numberInGroup: boolean): ResultObject[] {
  return setIndexedTagName(
    perms.groups.map((g) => {
      const group: ResultObject = { name: g.name, rights: setIndexedTagName([...g.rights], 'permission') };
      if (numberInGroup && !UNCOUNTED_GROUPS.has(g.name)) group.number = g.members;
      return group;
    }),
    'group',
  );
}

/** MediaWiki's internal names of the special pages the gateway serves. */
const SPECIAL_PAGE_REAL_NAMES: Readonly<Record<SpecialPageName, string>> = {
  UserLogin: 'Userlogin',
  UserLogout: 'Userlogout',
  BotPasswords: 'BotPasswords',
  RunJobs: 'RunJobs',
  CreateAccount: 'CreateAccount',
  Search: 'Search',
  RecentChanges: 'Recentchanges',
  Contributions: 'Contributions',
  Log: 'Log',
  AllPages: 'Allpages',
  SpecialPages: 'Specialpages',
  Version: 'Version',
  Random: 'Randompage',
  Watchlist: 'Watchlist',
  Upload: 'Upload',
  Categories: 'Categories',
  Preferences: 'Preferences',
  ChangePassword: 'ChangePassword',
  ChangeEmail: 'ChangeEmail',
  MovePage: 'Movepage',
  Undelete: 'Undelete',
  Block: 'Block',
  Export: 'Export',
  Import: 'Import',
  WhatLinksHere: 'Whatlinkshere',
  RecentChangesLinked: 'Recentchangeslinked',
};

/** The special pages Quire serves, each with the one name it answers to (case-insensitively). */
export function specialPageAliasesInfo(): ResultObject[] {
  return setIndexedTagName(
    SPECIAL_PAGES.map((name) => ({ realname: SPECIAL_PAGE_REAL_NAMES[name], aliases: setIndexedTagName([name], 'alias') })),
    'specialpage',
  );
}
