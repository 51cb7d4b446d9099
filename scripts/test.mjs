#!/usr/bin/env node
// The one test command (npm test): typecheck, then every *.test.ts in the workspaces with node's
// test runner. With DATABASE_URL / REDIS_URL set (as .ci/run sets them) storage suites also run
// against those real servers.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const roots = ['proto', 'services', 'gateway', 'e2e', 'scripts'];
const skip = new Set(['node_modules', 'gen', 'data']);

function findTests(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(e.name) || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findTests(p, out);
    else if (e.name.endsWith('.test.ts')) out.push(path.relative(root, p));
  }
  return out;
}

const filter = process.argv.slice(2);
let files = roots.flatMap((r) => (fs.existsSync(path.join(root, r)) ? findTests(path.join(root, r), []) : [])).sort();
if (filter.length) files = files.filter((f) => filter.some((x) => f.includes(x)));

console.log('typecheck: tsc --noEmit');
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) {
  console.error('typecheck failed');
  process.exit(1);
}

console.log(`running ${files.length} test files${process.env.DATABASE_URL ? ' (also against DATABASE_URL/REDIS_URL)' : ''}`);
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
});
process.exit(r.status ?? 1);
