#!/usr/bin/env node
// `npm run build`: compiles the runnable workspaces to JavaScript (tsconfig.build.json). The
// container images run `node` on it with no tsx, and so does `npm start` (scripts/start.mjs builds
// first when the sources changed since the last build; `npm install` builds through `prepare`).
// `npm test` keeps running the TypeScript (tsx).
//
// tsc emits one tree under .build/; each workspace's part moves to <workspace>/dist/, mirroring
// src/ (gen/ for proto) file for file, so paths relative to import.meta.url (migrations, data
// files, the repository root) resolve the same from dist/ as from src/. The data files that code
// reads at run time (*.json beside the sources) are copied along. Package exports choose dist/
// under the `quire-dist` condition: `node --conditions=quire-dist <ws>/dist/main.js`.
//
// Options: --if-stale builds only when the inputs (sources, data files, tsconfigs) differ from
// those of the last build (their paths, sizes and modification times, kept in scripts/dist/);
// --allow-type-errors keeps what tsc emitted despite type errors (with a warning), as running the
// sources under tsx did; the images' build keeps failing on them. --embedded-template also makes
// the embedded database's pristine cluster in .cache/ if missing (services/kit/src/pglite-template.ts).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.build');
const lockDir = path.join(root, '.build.lock');
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
/** Written last by a build: the signature of its inputs. */
export const STAMP = path.join(root, 'scripts/dist/.build-inputs');

/** The build's inputs: every non-test .ts and .json under the parts' sources, the tsconfigs and the bundler's script. */
function inputFiles() {
  const files = ['tsconfig.base.json', 'tsconfig.build.json', 'scripts/bundle.mjs'].map((f) => path.join(root, f));
  const walk = (dir, top) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        // scripts/ is walked one level only (its dist/ is the output).
        if (!top && e.name !== 'node_modules' && e.name !== 'dist' && !e.name.startsWith('.')) walk(p, false);
      } else if ((e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) || e.name.endsWith('.json')) files.push(p);
    }
  };
  for (const [src] of PARTS) walk(path.join(root, src), src === 'scripts');
  return files.sort();
}

/** A hash of the inputs' paths, sizes and modification times: any edit, addition or removal changes it. */
export function inputSignature() {
  const h = crypto.createHash('sha256');
  for (const f of inputFiles()) {
    try {
      const s = fs.statSync(f);
      h.update(`${path.relative(root, f)}\0${s.size}\0${s.mtimeMs}\n`);
    } catch {
      // removed meanwhile
    }
  }
  return h.digest('hex');
}

export function isStale() {
  try {
    return fs.readFileSync(STAMP, 'utf8').trim() !== inputSignature();
  } catch {
    return true;
  }
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

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * One build at a time in this tree (two `npm start`s, or a test beside a start): a lock folder
 * holding the builder's pid; a lock whose process is gone is taken over.
 */
function withLock(fn) {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let pid = 0;
      try {
        pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      } catch {
        // being written, or left by a builder killed before it wrote it
      }
      let alive = false;
      try {
        if (pid > 0) process.kill(pid, 0);
        alive = pid > 0;
      } catch {
        alive = false;
      }
      const age = (() => {
        try {
          return Date.now() - fs.statSync(lockDir).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if (!alive && (pid > 0 || age > 10_000)) fs.rmSync(lockDir, { recursive: true, force: true });
      else sleep(200);
    }
  }
  try {
    fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
    return fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Compiles (when `ifStale`, only if the inputs changed since the last build). Returns false when
 * tsc failed (type errors are a failure unless `allowTypeErrors`, then a warning).
 */
export function build({ ifStale = false, allowTypeErrors = false, log = console.log } = {}) {
  if (ifStale && !isStale()) return true;
  return withLock(() => {
    // Another process may have built while this one waited for the lock.
    if (ifStale && !isStale()) return true;
    const signature = inputSignature();
    fs.rmSync(out, { recursive: true, force: true });
    const started = Date.now();
    log('build: compiling the TypeScript (tsc -p tsconfig.build.json)');
    const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
    const emitted = fs.existsSync(out);
    if (tsc.status !== 0) {
      process.stderr.write(tsc.stdout ?? '');
      if (!allowTypeErrors || !emitted) {
        console.error('build: tsc failed');
        fs.rmSync(out, { recursive: true, force: true });
        return false;
      }
      console.error('build: tsc reported the type errors above; running what it emitted (npm run typecheck)');
    }
    let files = 0;
    for (const [src, dest] of PARTS) {
      const from = path.join(out, src);
      const target = path.join(root, dest);
      fs.rmSync(target, { recursive: true, force: true });
      if (!fs.existsSync(from)) continue;
      fs.renameSync(from, target);
      // scripts/ holds only its own files, not those of dist/ itself.
      if (src !== 'scripts') copyData(path.join(root, src), target);
      files += fs.readdirSync(target, { recursive: true }).filter((f) => String(f).endsWith('.js')).length;
    }
    fs.rmSync(out, { recursive: true, force: true });
    // npm start's bundles (scripts/bundle.mjs); without them it runs the modules, as before.
    const bundled = spawnSync(process.execPath, [path.join(root, 'scripts/bundle.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    if (bundled.status !== 0) console.error('build: bundling failed; npm start runs the modules unbundled');
    // Type errors too are a function of the inputs: compiling the same inputs again would not help.
    fs.mkdirSync(path.dirname(STAMP), { recursive: true });
    fs.writeFileSync(STAMP, `${signature}\n`);
    log(`build: ${files} JavaScript files in ${PARTS.map(([, d]) => d).join(', ')}${bundled.status === 0 ? ', and bundled for npm start' : ''} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  });
}

/**
 * Makes the embedded database's template cluster (services/kit/src/pglite-template.ts) unless one
 * for the installed PGlite exists, in a process of its own: initdb's memory goes with it.
 */
export async function ensureEmbeddedTemplate({ log = console.log } = {}) {
  const mod = pathToFileURL(path.join(root, 'services/kit/dist/pglite-template.js')).href;
  const { templateReady } = await import(mod);
  const ready = () => templateReady();
  if (ready()) return true;
  return withLock(() => {
    if (ready()) return true;
    const started = Date.now();
    log('build: making the embedded database template (initdb, once)');
    const r = spawnSync(process.execPath, ['--conditions=quire-dist', path.join(root, 'scripts/embedded-template.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) {
      console.error('build: could not make the embedded database template; new data folders run initdb');
      return false;
    }
    log(`build: embedded database template (initdb and migrations) in .cache/pglite-template (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const known = ['--if-stale', '--allow-type-errors', '--embedded-template'];
  const unknown = args.filter((a) => !known.includes(a));
  if (unknown.length) {
    console.error(`usage: node scripts/build.mjs [--if-stale] [--allow-type-errors] [--embedded-template] (unknown: ${unknown.join(' ')})`);
    process.exit(2);
  }
  if (!build({ ifStale: args.includes('--if-stale'), allowTypeErrors: args.includes('--allow-type-errors') })) process.exit(1);
  if (args.includes('--embedded-template')) await ensureEmbeddedTemplate();
}
