import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDefaultRegistry } from './registry.js';
import { parseQueryString } from './request.js';
import type { ModuleDecl, ModuleGroup, ParamDecl } from './types.js';

/* Walks every registered module (main, actions, formats, query submodules) and checks its declaration. */

const registry = createDefaultRegistry();
const modules = registry.all();
const SCALAR_TYPES = ['string', 'text', 'integer', 'limit', 'boolean', 'timestamp', 'namespace', 'title', 'user', 'password', 'upload', 'expiry', 'raw'];
const SUBMODULE_GROUPS: readonly ModuleGroup[] = ['prop', 'list', 'meta'];

function checkParam(where: string, decl: ParamDecl): void {
  assert.ok(decl.help.trim().length > 0, `${where}: help text`);
  if (Array.isArray(decl.type)) {
    const values = decl.type as readonly string[];
    // A submodule selector (query's list=…) may have no modules registered yet; action=import's
    // interwikisource lists $wgImportSources, empty by default (paraminfo shows "type": [] too).
    assert.ok(values.length > 0 || decl.submoduleGroup !== undefined || where === 'import:interwikisource', `${where}: enum has values`);
    assert.equal(new Set(values).size, values.length, `${where}: enum values are unique`);
    if (decl.default !== undefined && decl.default !== '') {
      const defaults = decl.multi ? String(decl.default).split('|') : [String(decl.default)];
      for (const d of defaults) assert.ok(values.includes(d), `${where}: default ${d} is an allowed value`);
    }
    for (const d of decl.deprecatedValues ?? []) assert.ok(values.includes(d), `${where}: deprecated value ${d} exists`);
  } else {
    assert.ok(SCALAR_TYPES.includes(decl.type as string), `${where}: type ${String(decl.type)} is valid`);
  }
  if (decl.type === 'integer' || decl.type === 'limit') {
    if (decl.default !== undefined) {
      assert.equal(typeof decl.default, 'number', `${where}: integer default is a number`);
      const d = decl.default as number;
      assert.ok(Number.isInteger(d), `${where}: integer default`);
      if (decl.min !== undefined) assert.ok(d >= decl.min, `${where}: default >= min`);
      if (decl.max !== undefined) assert.ok(d <= decl.max, `${where}: default <= max`);
    }
    if (decl.min !== undefined && decl.max !== undefined) assert.ok(decl.min <= decl.max, `${where}: min <= max`);
  }
  if (decl.type === 'limit') {
    assert.ok(decl.max !== undefined, `${where}: limit has max`);
    assert.ok(decl.highMax !== undefined && decl.highMax >= decl.max!, `${where}: highMax >= max`);
  }
  if (decl.type === 'boolean') assert.ok(decl.default === undefined || decl.default === false, `${where}: booleans default to false`);
  if (decl.required) assert.equal(decl.default, undefined, `${where}: required params have no default`);
  if (decl.allowAll) assert.ok(decl.multi && (Array.isArray(decl.type) || decl.type === 'namespace'), `${where}: * only for multi enums`);
  if (decl.multiLimit1 !== undefined || decl.multiLimit2 !== undefined) assert.ok(decl.multi, `${where}: multi limits only for multi`);
}

function checkExamples(path: string, m: ModuleDecl): void {
  for (const [query, text] of Object.entries(m.examples ?? {})) {
    assert.ok(text.trim().length > 0, `${path}: example description`);
    const params = new Map(parseQueryString(query));
    const action = params.get('action');
    assert.ok(action !== undefined && registry.get('action', action), `${path}: example ${query} names an existing action`);
    const format = params.get('format');
    if (format !== undefined) assert.ok(registry.format(format), `${path}: example ${query} names an existing format`);
  }
}

test('module names are unique per group and paths resolve', () => {
  for (const group of ['action', 'format', 'prop', 'list', 'meta'] as const) {
    const names = registry.modules(group).map((m) => m.name);
    assert.equal(new Set(names).size, names.length, `unique names in ${group}`);
  }
  for (const { path, module } of modules) assert.equal(registry.byPath(path), module, `${path} resolves`);
});

test('action modules: the implemented ones are registered (all of MediaWiki 1.39 core now)', () => {
  for (const name of [
    'query',
    'help',
    'paraminfo',
    'login',
    'logout',
    'clientlogin',
    'createaccount',
    'block',
    'unblock',
    'upload',
    'watch',
    'options',
    'tag',
    'managetags',
    'revisiondelete',
    'import',
  ]) {
    assert.ok(registry.get('action', name), name);
  }
  assert.deepEqual(
    registry.modules('format').map((m) => m.name),
    ['json', 'jsonfm', 'none', 'php', 'phpfm', 'rawfm', 'xml', 'xmlfm'],
  );
});

const ACTION_PREFIXES: Record<string, string> = { login: 'lg', clientlogin: 'login', createaccount: 'create', linkaccount: 'link', changeauthenticationdata: 'changeauth' };
/** Submodules with prefixes longer than three letters: OATHAuth's meta=oath, core's list=iwbacklinks. */
const LONG_PREFIXES = new Set(['oath', 'iwbl']);

test('prefixes: none for actions and formats, unique short ones for query submodules', () => {
  const prefixes = new Map<string, string>();
  // Unprefixed meta modules (MediaWiki's meta=tokens takes `type`) must not clash with other names.
  const unprefixedNames = new Map(Object.keys(registry.get('action', 'query')?.params ?? {}).map((n) => [n, 'query']));
  for (const { path, module } of modules) {
    if (!SUBMODULE_GROUPS.includes(module.group)) {
      // MediaWiki's action modules are unprefixed except the login/account ones.
      assert.equal(module.prefix, ACTION_PREFIXES[module.name] ?? '', `${path}: prefix`);
      continue;
    }
    if (module.prefix === '' && module.group === 'meta') {
      for (const name of Object.keys(module.params)) {
        assert.equal(unprefixedNames.get(name), undefined, `${path}: unprefixed param ${name} clashes`);
        unprefixedNames.set(name, path);
      }
      continue;
    }
    if (!LONG_PREFIXES.has(module.prefix)) assert.match(module.prefix, /^[a-z]{1,3}$/, `${path}: prefix`);
    const other = prefixes.get(module.prefix);
    assert.equal(other, undefined, `${path}: prefix ${module.prefix} also used by ${other}`);
    prefixes.set(module.prefix, path);
  }
});

test('every declaration is consistent', () => {
  for (const { path, module } of modules) {
    assert.ok(module.summary.trim().length > 0, `${path}: summary`);
    assert.ok(/^[a-z0-9]+$/.test(module.name), `${path}: name`);
    if (module.flags.needsToken) {
      assert.ok(module.flags.mustBePosted, `${path}: modules needing a token must be POSTed`);
      assert.equal(module.params.token?.required, true, `${path}: token parameter added`);
    }
    for (const [name, decl] of Object.entries(module.params)) {
      assert.match(name, /^[a-z0-9_-]+$/, `${path}: param name ${name}`);
      checkParam(`${path}:${module.prefix}${name}`, decl);
    }
    checkExamples(path, module);
  }
});
