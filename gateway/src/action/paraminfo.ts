/*
 * action=paraminfo (MediaWiki's ApiParamInfo): module and parameter metadata, generated from the
 * declarations in the shape MediaWiki 1.39 returns.
 */
import { escapeHtml, message } from './errors.js';
import { allowsAll, multiLimits } from './params.js';
import { DEFAULT_USER_TYPES, setIndexedTagName, type ApiMessage, type ModuleDecl, type ModuleGroup, type ModuleLookup, type ParamDecl, type ResultObject } from './types.js';
import { defineModule } from './define.js';
import { EXTENSION_SOURCES, MEDIAWIKI_CLASS_NAMES } from './class-names.js';
import { querySubmodules } from './query/index.js';
import { formatModules } from './format.js';

type HelpFormat = 'html' | 'wikitext' | 'raw' | 'none';

const PAGESET_PARAMS = ['titles', 'pageids', 'revids', 'generator', 'redirects', 'converttitles'];

function ucfirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** PHP class name MediaWiki reports for the module (derived for a module MediaWiki does not have). */
function className(module: ModuleDecl, path: string): string {
  if (path === 'main') return 'ApiMain';
  const known = MEDIAWIKI_CLASS_NAMES[path];
  if (known !== undefined) return known;
  if (module.group === 'format') return `ApiFormat${ucfirst(module.name.replace(/fm$/, ''))}`;
  if (module.group === 'action') return `Api${ucfirst(module.name)}`;
  return `ApiQuery${ucfirst(module.name)}`;
}

/** EnumDef::sortEnumValues: sorted, deprecated values last. */
export function sortedEnum(decl: ParamDecl, registry?: ModuleLookup): string[] {
  const values = [...(decl.type as readonly string[])];
  const deprecated = new Set(decl.deprecatedValues ?? []);
  const internal = new Set<string>();
  // SubmoduleDef::sortEnumValues: deprecated submodules after the others, internal ones last.
  if (decl.submoduleGroup && registry) {
    const groups: readonly ModuleGroup[] = typeof decl.submoduleGroup === 'string' ? [decl.submoduleGroup] : decl.submoduleGroup;
    for (const v of values) {
      const sub = groups.map((g) => registry.get(g, v)).find((m) => m !== undefined);
      if (sub?.flags.deprecated) deprecated.add(v);
      if (sub?.flags.internal) internal.add(v);
    }
  }
  const rank = (v: string) => (deprecated.has(v) ? 1 : 0) | (internal.has(v) ? 2 : 0);
  return values.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** ParamValidator::getParamInfo plus ApiParamInfo's additions, without index/name/description. */
/** `highLimits`: the caller has apihighlimits, so `limit` is the high one (ParamValidator::getParamInfo). */
export function paramInfo(module: ModuleDecl, name: string, decl: ParamDecl, registry: ModuleLookup, highLimits = false): ResultObject {
  const info: ResultObject = {};
  const isEnum = Array.isArray(decl.type);
  info.type = isEnum ? setIndexedTagName(sortedEnum(decl, registry), 't') : decl.type;
  info.required = !!decl.required;
  if (decl.deprecated) info.deprecated = true;
  if (decl.sensitive) info.sensitive = true;
  if (decl.default !== undefined && decl.type !== 'boolean') info.default = decl.default;
  info.multi = !!decl.multi;
  if (decl.multi) {
    const { low, high } = multiLimits(decl);
    info.lowlimit = low;
    info.highlimit = high;
    info.limit = highLimits && high > low ? high : low;
    if (decl.allowDuplicates) info.allowsduplicates = true;
    if (allowsAll(decl)) info.allspecifier = '*';
  }
  if (decl.type === 'integer' || decl.type === 'limit') {
    if (decl.min !== undefined) info.min = decl.min;
    if (decl.max !== undefined) info.max = decl.max;
    if (decl.max !== undefined && decl.highMax !== undefined && decl.highMax > decl.max) info.highmax = decl.highMax;
  }
  // SubmoduleDef::getParamInfo: deprecated and internal submodules are named as such.
  const deprecatedValues = isEnum ? (decl.deprecatedValues ?? []).filter((v) => (decl.type as readonly string[]).includes(v)) : [];
  const internalValues: string[] = [];
  if (decl.submoduleGroup) {
    const subs: ResultObject = {};
    const groups: readonly ModuleGroup[] = typeof decl.submoduleGroup === 'string' ? [decl.submoduleGroup] : decl.submoduleGroup;
    for (const v of sortedEnum(decl)) {
      const sub = groups.map((g) => registry.get(g, v)).find((m) => m !== undefined);
      if (!sub) continue;
      subs[v] = registry.pathOf(sub);
      if (sub.flags.deprecated && !deprecatedValues.includes(v)) deprecatedValues.push(v);
      if (sub.flags.internal) internalValues.push(v);
    }
    info.submodules = subs;
    if (name === 'generator') info.submoduleparamprefix = 'g';
  }
  if (deprecatedValues.length) info.deprecatedvalues = deprecatedValues.sort();
  if (internalValues.length) info.internalvalues = internalValues.sort();
  if (decl.type === 'user') info.subtypes = setIndexedTagName([...(decl.userTypes ?? DEFAULT_USER_TYPES)], 't');
  if (decl.type === 'title') info.mustExist = false;
  if (name === 'token' && module.flags.needsToken) info.tokentype = module.flags.needsToken;
  if (decl.type === 'namespace' && decl.extraNamespaces?.length) info.extranamespaces = setIndexedTagName([...decl.extraNamespaces], 'ns');
  return info;
}

function helpText(format: HelpFormat, key: string, text: string): unknown {
  switch (format) {
    case 'wikitext':
      return text;
    case 'html':
      return escapeHtml(text);
    case 'raw':
      return setIndexedTagName([{ key, params: setIndexedTagName([], 'param') }], 'msg');
    default:
      return undefined;
  }
}

export function moduleInfo(module: ModuleDecl, path: string, registry: ModuleLookup, helpFormat: HelpFormat, serverUrl: string, highLimits = false): ResultObject {
  const ret: ResultObject = { name: module.name, classname: className(module, path), path };
  if (path !== 'main') ret.group = module.group;
  ret.prefix = module.prefix;
  const source = EXTENSION_SOURCES[path] ?? { name: 'MediaWiki', licensetag: 'GPL-2.0-or-later' };
  ret.source = source.name;
  ret.sourcename = source.name;
  ret.licensetag = source.licensetag;
  ret.licenselink = `${serverUrl}/wiki/Special:Version/License/${source.name}`;
  const description = helpText(helpFormat, `apihelp-${path}-summary`, module.summary);
  if (description !== undefined) ret.description = description;
  const f = module.flags;
  if (f.deprecated) ret.deprecated = true;
  if (f.internal) ret.internal = true;
  if (path !== 'main' && f.readRights !== false) ret.readrights = true;
  if (f.writeMode) ret.writerights = true;
  if (f.mustBePosted) ret.mustbeposted = true;
  if (f.generator) ret.generator = true;
  ret.helpurls = setIndexedTagName([], 'helpurl');
  if (helpFormat !== 'none') {
    ret.examples = setIndexedTagName(
      Object.entries(module.examples ?? {}).map(([query, text], i) => ({
        query,
        description: helpText(helpFormat, `apihelp-${path}-example-${i + 1}`, text),
      })),
      'example',
    );
  }
  ret.parameters = setIndexedTagName(
    Object.entries(module.params).map(([name, decl], i) => {
      const item: ResultObject = { index: i + 1, name };
      const d = helpText(helpFormat, `apihelp-${path}-param-${name}`, decl.help);
      if (d !== undefined) item.description = d;
      return Object.assign(item, paramInfo(module, name, decl, registry, highLimits));
    }),
    'param',
  );
  ret.templatedparameters = setIndexedTagName([], 'param');
  return ret;
}

/** Expands `x+*` / `x+**` (all submodules, recursively) into sorted module paths. */
function listSubmodules(registry: ModuleLookup, path: string, recursive: boolean): string[] {
  const subs = submodulesOf(registry, path).map((m) => registry.pathOf(m));
  const names = [...new Set(subs)].sort((a, b) => (a.split('+').pop()! < b.split('+').pop()! ? -1 : 1));
  return names.flatMap((p) => (recursive ? [p, ...listSubmodules(registry, p, true)] : [p]));
}

/** Direct submodules of a path: actions and formats of "main", prop/list/meta of "query". */
export function submodulesOf(registry: ModuleLookup, path: string): readonly ModuleDecl[] {
  if (path === 'main') return [...registry.modules('action'), ...registry.modules('format')];
  if (path === 'query') return (['prop', 'list', 'meta'] as const).flatMap((g) => [...registry.modules(g)]);
  return [];
}

/** ApiBase::getModuleFromPath, with its errors as messages. */
const phpTruthy = (v: string | undefined) => v !== undefined && v !== '' && v !== '0';

export function resolveModulePath(registry: ModuleLookup, rawPath: string): { module: ModuleDecl; path: string } | { error: ApiMessage } {
  if (rawPath === 'main') return { module: registry.main, path: 'main' };
  const path = rawPath.includes('+') ? rawPath : rawPath.replace(/ /g, '+');
  let current = 'main';
  for (const part of path.split('+')) {
    if (submodulesOf(registry, current).length === 0) return { error: message('badmodule', 'apierror-badmodule-nosubmodules', [current]) };
    const next = current === 'main' ? part : `${current}+${part}`;
    if (!registry.byPath(next)) return { error: message('badmodule', 'apierror-badmodule-badsubmodule', [current, part]) };
    current = next;
  }
  return { module: registry.byPath(current)!, path: current };
}

export const paraminfoModule = defineModule({
  name: 'paraminfo',
  group: 'action',
  prefix: '',
  summary: 'Obtain information about API modules.',
  params: {
    modules: {
      type: 'string',
      multi: true,
      help: 'List of module names (values of the action and format parameters, or main). Can specify submodules with a +, or all submodules with +*, or all submodules recursively with +**.',
    },
    helpformat: { type: ['html', 'wikitext', 'raw', 'none'], default: 'none', help: 'Format of help strings.' },
    // ApiParamInfo::getAllowedParams: plain enums of the query and format module names.
    querymodules: {
      type: querySubmodules.map((m) => m.name).sort(),
      multi: true,
      deprecated: true,
      help: 'List of query module names (value of prop, meta or list parameter). Use modules=query+foo instead of querymodules=foo.',
    },
    mainmodule: { type: 'string', deprecated: true, help: 'Get information about the main (top-level) module as well. Use modules=main instead.' },
    pagesetmodule: { type: 'string', deprecated: true, help: 'Get information about the pageset module (providing titles= and friends) as well.' },
    formatmodules: {
      type: formatModules.map((m) => m.name).sort(),
      multi: true,
      deprecated: true,
      help: 'List of format module names (value of format parameter). Use modules instead.',
    },
  },
  flags: { readRights: false },
  examples: {
    'action=paraminfo&modules=query%2Binfo|jsonfm': 'Show info for action=query&prop=info and format=jsonfm.',
    'action=paraminfo&modules=query%2B*': 'Show info for all submodules of action=query.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const registry = ctx.registry;
    const helpFormat: HelpFormat = p.helpformat;
    const server = ctx.deps.config.server;
    const warn = (msg: ApiMessage) => ctx.addWarning('paraminfo', msg);

    const paths: { path: string; key: 'modules' | 'querymodules' | 'formatmodules' }[] = [];
    for (const raw of p.modules ?? []) {
      // dotAll: a module name with a line break is an unknown module, not a failed match.
      const m = /^(.*?)(?:[+ ](\*\*?))?$/s.exec(raw === '*' || raw === '**' ? `main+${raw}` : raw)!;
      const [, base = '', star] = m;
      if (!star) {
        paths.push({ path: base, key: 'modules' });
        continue;
      }
      const resolved = resolveModulePath(registry, base);
      if ('error' in resolved) {
        warn(resolved.error);
        continue;
      }
      const subs = listSubmodules(registry, resolved.path, star === '**');
      if (subs.length === 0) warn(message('badmodule', 'apierror-badmodule-nosubmodules', [resolved.path]));
      for (const s of subs) paths.push({ path: s, key: 'modules' });
    }
    for (const q of p.querymodules ?? []) paths.push({ path: `query+${q}`, key: 'querymodules' });
    for (const f of p.formatmodules ?? []) paths.push({ path: f, key: 'formatmodules' });

    const res: ResultObject = { helpformat: helpFormat };
    const seen = new Set<string>();
    for (const { path, key } of paths) {
      if (seen.has(path)) continue;
      seen.add(path);
      const resolved = resolveModulePath(registry, path);
      if ('error' in resolved) {
        warn(resolved.error);
        continue;
      }
      const item = moduleInfo(resolved.module, resolved.path, registry, helpFormat, server, ctx.highLimits);
      if (key === 'querymodules') item.querytype = item.group;
      const list = (res[key] ??= setIndexedTagName([], 'module')) as unknown[];
      list.push(item);
    }
    // Strings in ApiParamInfo (no type declared), tested as PHP does: "" and "0" are false.
    if (phpTruthy(p.mainmodule)) res.mainmodule = moduleInfo(registry.main, 'main', registry, helpFormat, server, ctx.highLimits);
    if (phpTruthy(p.pagesetmodule)) {
      const query = registry.get('action', 'query');
      const params = Object.fromEntries(Object.entries(query?.params ?? {}).filter(([n]) => PAGESET_PARAMS.includes(n)));
      const pageset: ModuleDecl = { name: 'pageset', group: 'action', prefix: '', summary: 'The pages to work on.', params, flags: {}, execute: async () => {} };
      const info = moduleInfo(pageset, 'pageset', registry, helpFormat, server, ctx.highLimits);
      delete info.name;
      delete info.path;
      delete info.group;
      info.classname = 'ApiPageSet';
      res.pagesetmodule = info;
    }
    ctx.result.paraminfo = res;
  },
});
