#!/usr/bin/env node
// `npm run build`: compiles the runnable workspaces to JavaScript (tsconfig.build.json) so the
// container images run `node` with no tsx. `npm start` and `npm test` keep running the TypeScript.
//
// tsc emits one tree under .build/; each workspace's part moves to <workspace>/dist/, mirroring
// src/ (gen/ for proto) file for file, so paths relative to import.meta.url (migrations, data
// files, the repository root) resolve the same from dist/ as from src/. The data files that code
// reads at run time (*.json beside the sources) are copied along. Package exports choose dist/
// under the `quire-dist` condition: `node --conditions=quire-dist <ws>/dist/main.js`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.build');
/** [source folder, destination] for each compiled part. */
export const PARTS = [
  ['proto/gen', 'proto/dist'],
  ['services/kit/src', 'services/kit/dist'],
  ['services/auth/src', 'services/auth/dist'],
  ['services/content/src', 'services/content/dist'],
  ['services/search/src', 'services/search/dist'],
  ['gateway/src', 'gateway/dist'],
  ['scripts', 'scripts/dist'],
];

fs.rmSync(out, { recursive: true, force: true });
const started = Date.now();
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) {
  console.error('build: tsc failed');
  process.exit(1);
}

/** Copies the run-time data files (not TypeScript, not tests) of src into dest. */
function copyData(src, dest) {
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') copyData(from, path.join(dest, e.name));
    } else if (e.name.endsWith('.json')) {
      fs.mkdirSync(dest, { recursive: true });
      fs.copyFileSync(from, path.join(dest, e.name));
    }
  }
}

let files = 0;
for (const [src, dest] of PARTS) {
  const emitted = path.join(out, src);
  const target = path.join(root, dest);
  fs.rmSync(target, { recursive: true, force: true });
  if (!fs.existsSync(emitted)) continue;
  fs.renameSync(emitted, target);
  // scripts/ holds only its own files, not those of dist/ itself.
  if (src !== 'scripts') copyData(path.join(root, src), target);
  files += fs.readdirSync(target, { recursive: true }).filter((f) => String(f).endsWith('.js')).length;
}
fs.rmSync(out, { recursive: true, force: true });
console.log(`build: ${files} JavaScript files in ${PARTS.map(([, d]) => d).join(', ')} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
