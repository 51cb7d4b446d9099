/*
 * The supervisor of `npm start` (scripts/start.ts), as real processes started by package.json's
 * start script: the wiki child is killed and started again, a crash loop ends the supervisor with
 * exit code 1, SIGTERM is passed on and stops the wiki gracefully, a wiki that cannot start is not
 * restarted, and both processes run the compiled JavaScript.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Supervisor {
  proc: ChildProcess;
  dataDir: string;
  port: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when `pattern` has appeared `times` times in the output. */
  waitFor(pattern: RegExp, times?: number, timeoutMs?: number): Promise<void>;
  /** The pid of the wiki process (from DATA_DIR/run/services.json). */
  wikiPid(): number;
}

/** package.json's start script (`node …`) as arguments for this node. */
function npmStartArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [cmd, ...args] = pkg.scripts.start.trim().split(/\s+/);
  assert.equal(cmd, 'node');
  return args;
}

async function startSupervisor(env: NodeJS.ProcessEnv = {}): Promise<Supervisor> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-supervisor-'));
  const port = await freePort();
  const proc = spawn(process.execPath, npmStartArgs(), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    proc,
    dataDir,
    port,
    output: () => out,
    exited,
    async waitFor(pattern, times = 1, timeoutMs = 180_000) {
      const deadline = Date.now() + timeoutMs;
      const count = () => (out.match(new RegExp(pattern.source, 'g')) ?? []).length;
      while (count() < times) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} x${times}; output:\n${out}`);
        if (proc.exitCode !== null) throw new Error(`the supervisor exited (${proc.exitCode}) before ${pattern} x${times}; output:\n${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    wikiPid() {
      return (JSON.parse(fs.readFileSync(path.join(dataDir, 'run', 'services.json'), 'utf8')) as { pid: number }).pid;
    },
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function siteName(port: number): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${port}/w/api.php?action=query&meta=siteinfo&format=json&formatversion=2`);
  assert.equal(r.status, 200);
  return ((await r.json()) as { query: { general: { sitename: string } } }).query.general.sitename;
}

const READY = /Quire is ready/;

test('a killed wiki is restarted and says so; a second crash within the window is a crash loop: exit code 1', async () => {
  const sup = await startSupervisor({ SUPERVISOR_MAX_RESTARTS: '1' });
  try {
    await sup.waitFor(READY);
    const first = sup.wikiPid();
    assert.notEqual(first, sup.proc.pid, 'the wiki runs in a child process');
    assert.equal(await siteName(sup.port), 'Quire');

    process.kill(first, 'SIGKILL');
    await sup.waitFor(/wiki stopped unexpectedly \(signal SIGKILL\); restarting in 1 s/);
    await sup.waitFor(READY, 2);
    const second = sup.wikiPid();
    assert.notEqual(second, first);
    assert.equal(await siteName(sup.port), 'Quire', 'the restarted wiki serves, on its data');

    process.kill(second, 'SIGKILL');
    const { code } = await sup.exited;
    assert.equal(code, 1);
    assert.match(sup.output(), /crash loop, giving up/);
  } finally {
    sup.proc.kill('SIGKILL');
    fs.rmSync(sup.dataDir, { recursive: true, force: true });
  }
});

test('npm start runs the compiled JavaScript (scripts/dist, the quire-dist condition, bundled), not the TypeScript under tsx', async () => {
  const sup = await startSupervisor();
  try {
    await sup.waitFor(READY);
    const cmdline = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const supervisor = cmdline(sup.proc.pid!);
    const wiki = cmdline(sup.wikiPid());
    for (const argv of [supervisor, wiki]) {
      assert.ok(argv.includes('--conditions=quire-dist'), argv.join(' '));
      assert.ok(!argv.some((a) => /tsx/.test(a)), `no tsx: ${argv.join(' ')}`);
    }
    // The build's bundle of the wiki's modules (scripts/bundle.mjs), and one for the gateway's thread.
    assert.ok(
      wiki.some((a) => a.endsWith(path.join('scripts', 'dist', 'serve.bundle.mjs'))),
      wiki.join(' '),
    );
    assert.ok(fs.existsSync(path.join(ROOT, 'scripts', 'dist', 'gateway-thread.bundle.mjs')));
    assert.equal(await siteName(sup.port), 'Quire');
  } finally {
    sup.proc.kill('SIGKILL');
    fs.rmSync(sup.dataDir, { recursive: true, force: true });
  }
});

test('SIGTERM to the supervisor is passed on: the wiki stops gracefully and the supervisor exits 0', async () => {
  const sup = await startSupervisor();
  try {
    await sup.waitFor(READY);
    const wiki = sup.wikiPid();
    sup.proc.kill('SIGTERM');
    const { code } = await sup.exited;
    assert.equal(code, 0);
    assert.match(sup.output(), /SIGTERM: stopping/);
    assert.equal(alive(wiki), false, 'the wiki process is gone');
    assert.equal(fs.existsSync(path.join(sup.dataDir, 'run', 'services.json')), false, 'it stopped cleanly (its service registry removed)');
    assert.doesNotMatch(sup.output(), /restarting/);
  } finally {
    sup.proc.kill('SIGKILL');
    fs.rmSync(sup.dataDir, { recursive: true, force: true });
  }
});

test('a wiki that cannot start (bad configuration) is not restarted: its message and exit code 1', async () => {
  const sup = await startSupervisor({ REST_MAX_AGE: 'soon' });
  try {
    const { code } = await sup.exited;
    assert.equal(code, 1);
    assert.match(sup.output(), /REST_MAX_AGE="soon" is not an integer/);
    assert.match(sup.output(), /failed to start .*not restarting/);
    assert.doesNotMatch(sup.output(), /restarting in/);
  } finally {
    sup.proc.kill('SIGKILL');
    fs.rmSync(sup.dataDir, { recursive: true, force: true });
  }
});
