/*
 * action=help (MediaWiki's ApiHelp): an HTML page generated from the module declarations.
 * Without `wrap` the page is the whole response (text/html, api-help.html); with `wrap` it is
 * returned inside a normal API result.
 */
import { SCRIPT_PATH } from '../config.js';
import { escapeHtml } from './errors.js';
import { allowsAll } from './params.js';
import { moduleInfo, resolveModulePath, sortedEnum, submodulesOf } from './paraminfo.js';
import type { ModuleDecl, ModuleLookup, ParamDecl } from './types.js';
import { defineModule } from './define.js';

interface HelpEntry {
  module: ModuleDecl;
  path: string;
  level: number;
}

function typeDescription(decl: ParamDecl, registry: ModuleLookup): string {
  if (Array.isArray(decl.type)) {
    const values = sortedEnum(decl, registry).map((v) => `<span dir="ltr" lang="en">${escapeHtml(v)}</span>`);
    return `${decl.multi ? 'Values (separate with <kbd>|</kbd> or alternative)' : 'One of the following values'}: ${values.join(', ')}`;
  }
  const t = decl.type as string;
  const base = decl.multi ? `Type: list of ${t} values (separate with <kbd>|</kbd> or alternative)` : `Type: ${t}`;
  const range: string[] = [];
  if (decl.min !== undefined) range.push(`no less than ${decl.min}`);
  if (decl.max !== undefined) range.push(`no more than ${decl.max}${decl.highMax !== undefined && decl.highMax > decl.max ? ` (${decl.highMax} for bots)` : ''}`);
  return range.length ? `${base}; ${range.join(', ')}` : base;
}

function moduleSection(entry: HelpEntry, registry: ModuleLookup, scriptUrl: string): string {
  const { module, path, level } = entry;
  const h = Math.min(level + 2, 6);
  const info = moduleInfo(module, path, registry, 'none', '');
  const flags: string[] = [];
  if (module.flags.deprecated) flags.push('This module is deprecated.');
  if (module.flags.internal) flags.push('This module is internal or unstable, and its operation may change without notice.');
  if (info.readrights) flags.push('This module requires read rights.');
  if (module.flags.writeMode) flags.push('This module requires write rights.');
  if (module.flags.mustBePosted) flags.push('This module only accepts POST requests.');
  if (module.flags.generator) flags.push('This module can be used as a generator.');
  let out = `<div class="apihelp-block"><h${h} id="${escapeHtml(path)}"><span class="mw-headline">${escapeHtml(path === 'main' ? 'Main module' : `${module.group}=${module.name}`)} (${escapeHtml(path)})</span></h${h}>\n`;
  out += `<p class="apihelp-summary">${escapeHtml(module.summary)}</p>\n`;
  if (flags.length) out += `<ul class="apihelp-flags">${flags.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>\n`;
  const params = Object.entries(module.params);
  if (params.length) {
    out += `<div class="apihelp-parameters"><h${Math.min(h + 1, 6)}>Parameters</h${Math.min(h + 1, 6)}>\n<dl>\n`;
    for (const [name, decl] of params) {
      const full = module.prefix + name;
      out += `<dt id="${escapeHtml(`${path}:${full}`)}">${escapeHtml(full)}</dt>\n<dd class="description">${escapeHtml(decl.help)}</dd>\n`;
      if (decl.required) out += '<dd class="info">This parameter is required.</dd>\n';
      if (decl.deprecated) out += '<dd class="info">This parameter is deprecated.</dd>\n';
      if (name === 'token' && module.flags.needsToken) {
        out += `<dd class="info">A "${escapeHtml(module.flags.needsToken)}" token retrieved from <kbd>action=query&amp;meta=tokens</kbd></dd>\n`;
      }
      out += `<dd class="info">${typeDescription(decl, registry)}</dd>\n`;
      if (allowsAll(decl)) out += '<dd class="info">To specify all values, use <kbd>*</kbd>.</dd>\n';
      if (decl.default !== undefined && decl.type !== 'boolean') {
        out += `<dd class="info">Default: ${decl.default === '' ? '<span class="apihelp-empty">(empty)</span>' : escapeHtml(String(decl.default))}</dd>\n`;
      }
    }
    out += '</dl></div>\n';
  }
  const examples = Object.entries(module.examples ?? {});
  if (examples.length) {
    out += `<div class="apihelp-examples"><h${Math.min(h + 1, 6)}>Examples</h${Math.min(h + 1, 6)}>\n<dl>\n`;
    for (const [query, text] of examples) {
      out += `<dt>${escapeHtml(text)}</dt>\n<dd><a href="${escapeHtml(`${scriptUrl}?${query}`)}"><bdi dir="ltr">api.php?${escapeHtml(query)}</bdi></a></dd>\n`;
    }
    out += '</dl></div>\n';
  }
  return `${out}</div>\n`;
}

function collect(registry: ModuleLookup, path: string, module: ModuleDecl, level: number, depth: number, out: HelpEntry[]): void {
  out.push({ module, path, level });
  if (depth === 0) return;
  for (const sub of submodulesOf(registry, path)) collect(registry, registry.pathOf(sub), sub, level + 1, depth - 1, out);
}

function helpPage(entries: HelpEntry[], registry: ModuleLookup, sitename: string, scriptUrl: string, toc: boolean): string {
  const tocHtml = toc
    ? `<div id="toc" class="toc"><h2>Contents</h2><ul>${entries.map((e) => `<li class="toclevel-${e.level + 1}"><a href="#${escapeHtml(e.path)}">${escapeHtml(e.path)}</a></li>`).join('')}</ul></div>\n`
    : '';
  const body = entries.map((e) => moduleSection(e, registry, scriptUrl)).join('');
  return (
    '<!DOCTYPE html>\n<html lang="en" dir="ltr">\n<head>\n<meta charset="UTF-8"/>\n' +
    `<title>MediaWiki API help - ${escapeHtml(sitename)}</title>\n<meta name="robots" content="noindex,nofollow"/>\n</head>\n` +
    '<body class="mediawiki ltr sitedir-ltr ns--1 ns-special mw-special-ApiHelp page-Special_ApiHelp skin-apioutput action-view"><div class="mw-body" role="main">\n' +
    `\t<h1 id="firstHeading">MediaWiki API help</h1>\n\t<div class="mw-body-content">${tocHtml}${body}</div>\n</div>\n</body>\n</html>`
  );
}

export const helpModule = defineModule({
  name: 'help',
  group: 'action',
  prefix: '',
  summary: 'Display help for the specified modules.',
  params: {
    modules: {
      type: 'string',
      multi: true,
      default: 'main',
      help: 'Modules to display help for (values of the action and format parameters, or main). Can specify submodules with a +.',
    },
    submodules: { type: 'boolean', help: 'Include help for submodules of the named module.' },
    recursivesubmodules: { type: 'boolean', help: 'Include help for submodules recursively.' },
    wrap: { type: 'boolean', help: 'Wrap the output in a standard API response structure.' },
    toc: { type: 'boolean', help: 'Include a table of contents in the HTML output.' },
  },
  flags: { readRights: false },
  examples: {
    'action=help': 'Help for the main module.',
    'action=help&modules=query&submodules=1': 'Help for action=query and all its submodules.',
    'action=help&recursivesubmodules=1': 'All help in one page.',
    'action=help&modules=help': 'Help for the help module itself.',
    'action=help&modules=query+info|query+revisions': 'Help for two query submodules.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const depth = p.recursivesubmodules ? Infinity : p.submodules ? 1 : 0;
    const entries: HelpEntry[] = [];
    for (const raw of p.modules) {
      const resolved = resolveModulePath(ctx.registry, raw);
      if ('error' in resolved) {
        ctx.addWarning('help', resolved.error);
        continue;
      }
      collect(ctx.registry, resolved.path, resolved.module, 0, depth, entries);
    }
    const scriptUrl = `${ctx.deps.config.server}${SCRIPT_PATH}/api.php`;
    const html = helpPage(entries, ctx.registry, ctx.deps.config.sitename, scriptUrl, !!p.toc || (depth > 0 && entries.length > 1));
    if (p.wrap) {
      ctx.result.help = { mime: 'text/html', filename: 'api-help.html', help: html };
    } else {
      ctx.setRawOutput({ contentType: 'text/html', filename: 'api-help.html', body: ctx.warningsComment() + html });
    }
  },
});
