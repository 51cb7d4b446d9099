#!/usr/bin/env node
// No SQL outside a service's store/ layer (ARCHITECTURE.md, "Layers and dependency rules").
// dependency-cruiser sees imports, not query text, so this reads every string and template literal
// of each service's source (parsed with swc, so comments and identifiers never count) and reports
// the literals that are SQL statements. Tests may set up or inspect rows directly, so *.test.ts and
// testing helpers are not checked; kit's db.ts is the database driver (migrations, locks, notify),
// the one place below every store.
// Usage: node scripts/lint-sql.mjs [--list]   (--list prints every site, exit 0)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import swc from '@swc/core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SOURCE_FOLDERS = ['services/auth/src', 'services/content/src', 'services/search/src', 'services/kit/src', 'gateway/src'];
const EXEMPT = [/\.test\.ts$/, /(^|\/)testing\.ts$/, /^services\/kit\/src\/db\.ts$/];
const IN_STORE = /^services\/[^/]+\/src\/(?:[^/]+\/)?store\//;

// Statement shapes, upper case as every query here is written; a literal is SQL when it has one.
const SQL =
  /\b(?:SELECT\b[\s\S]*\bFROM\b|INSERT\s+INTO\b|UPDATE\s+[\w."${}]+\s+SET\b|DELETE\s+FROM\b|FOR\s+UPDATE\b|pg_notify\b|pg_advisory\w*|CREATE\s+(?:TABLE|INDEX)\b|ALTER\s+TABLE\b|TRUNCATE\b|WITH\s+\w+\s+AS\s*\()/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) yield path;
  }
}

function literals(node, out) {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) literals(n, out);
    return out;
  }
  if (node.type === 'StringLiteral') out.push({ text: node.value, start: node.span.start });
  else if (node.type === 'TemplateLiteral' || node.type === 'Tpl') out.push({ text: node.quasis.map((q) => q.cooked ?? q.raw).join('${}'), start: node.span.start });
  for (const key of Object.keys(node)) if (key !== 'span') literals(node[key], out);
  return out;
}

/** "file:line: statement" for each SQL literal outside a store/ folder under `folders` of `root`. */
export function sqlOutsideStore(root, folders = SOURCE_FOLDERS) {
  const sites = [];
  for (const base of folders) {
    for (const abs of files(join(root, base))) {
      const file = relative(root, abs);
      if (EXEMPT.some((re) => re.test(file)) || IN_STORE.test(file)) continue;
      const source = readFileSync(abs, 'utf8');
      if (!SQL.test(source)) continue;
      // swc spans may be offsets into a source map shared by every parse, and a module's span starts
      // at its first token: a leading ";" puts that token at offset 0 of the file, so spans rebase
      // on the module's start.
      const module = swc.parseSync(`;${source}`, { syntax: 'typescript', target: 'es2022' });
      const base0 = module.span.start + 1;
      for (const lit of literals(module.body, [])) {
        if (!SQL.test(lit.text)) continue;
        const line = source.slice(0, Math.max(0, lit.start - base0)).split('\n').length;
        sites.push(`${file}:${line}: ${lit.text.replace(/\s+/g, ' ').slice(0, 90)}`);
      }
    }
  }
  return sites;
}

function main() {
  const list = process.argv.includes('--list');
  const sites = sqlOutsideStore(ROOT);
  for (const site of sites) console.log(site);
  if (list) {
    console.log(`${sites.length} SQL literal(s) outside store/`);
  } else if (sites.length > 0) {
    console.error(`\nlint:sql: ${sites.length} SQL statement(s) outside a store/ folder; move them into the service's store/.`);
    process.exit(1);
  } else {
    console.log('lint:sql: no SQL outside store/');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
