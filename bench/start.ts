/*
 * Start-up and memory: `npm run bench -- --start [--runs N]` starts the wiki N times (3)
 * exactly as `npm start` does (package.json's start script, default settings, a fresh data folder
 * each time, port BENCH_PORT) and prints, per run, the time from spawning it to its first answer
 * (`action=query&meta=siteinfo`) and the memory of the whole process tree a second later.
 *
 * Memory is the sum of VmRSS over the supervisor, the wiki process and any other descendant
 * (/proc/<pid>/task/<tid>/children, all threads included): the figure the target is about. RSS
 * counts the pages processes share (node's own code, mapped by the supervisor and the wiki
 * alike) once per process, so the sum over-counts; the proportional set size (PSS, from
 * /proc/<pid>/smaps_rollup, shared pages divided among their users) is printed beside it as the
 * memory the tree really holds.
 *
 * The build (`npm install`'s prepare; scripts/build.mjs --if-stale --embedded-template) runs
 * first, outside the timing, as on an installed checkout.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** package.json's start script as argv for this node (`node …` with the same flags). */
export function npmStartArgs(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [cmd, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (cmd !== 'node') throw new Error(`npm start is not a node command: ${pkg.scripts.start}`);
  return args;
}

/** What `npm install` did (prepare): compiled JavaScript and the embedded database's template. */
export function ensureBuilt(): void {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--allow-type-errors', '--embedded-template'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('the build failed');
}

export interface TreeMemory {
  rssMb: number;
  pssMb: number;
  processes: { pid: number; rssMb: number; pssMb: number; threads: number; cmd: string }[];
}

/** Resident memory of a process and all its descendants (Linux /proc). */
export function treeMemory(pid: number): TreeMemory {
  const processes: TreeMemory['processes'] = [];
  const pending = [pid];
  while (pending.length) {
    const p = pending.pop()!;
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = (re: RegExp, text: string) => Number(re.exec(text)?.[1] ?? 0);
      let pss = 0;
      try {
        pss = kb(/^Pss:\s+(\d+)/m, fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      } catch {
        // no smaps_rollup (old kernel): PSS unknown
      }
      processes.push({
        pid: p,
        rssMb: kb(/VmRSS:\s+(\d+)/, status) / 1024,
        pssMb: pss / 1024,
        threads: kb(/Threads:\s+(\d+)/, status),
        cmd: fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').trim(),
      });
      for (const t of fs.readdirSync(`/proc/${p}/task`)) {
        const children = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // gone meanwhile
    }
  }
  return { rssMb: processes.reduce((a, p) => a + p.rssMb, 0), pssMb: processes.reduce((a, p) => a + p.pssMb, 0), processes };
}

/** Spawns the wiki as `npm start` does; resolves at its first answer. */
export async function startAsNpmStart(env: NodeJS.ProcessEnv, port: string, stdio: 'ignore' | 'inherit' = 'ignore'): Promise<{ child: ChildProcess; startSeconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, npmStartArgs(), { cwd: root, env: { ...process.env, PORT: port, ...env }, stdio: ['ignore', stdio, 'inherit'] });
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error('the wiki exited before it answered');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/w/api.php?action=query&meta=siteinfo&format=json`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return { child, startSeconds: (performance.now() - started) / 1000 };
}

export async function runStartBench(argv: string[]): Promise<number> {
  const i = argv.indexOf('--runs');
  const runs = i >= 0 ? Number(argv[i + 1]) : 3;
  const port = process.env.BENCH_PORT ?? '8106';
  ensureBuilt();
  console.log(
    `${os.availableParallelism()} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; node ${npmStartArgs().join(' ')}`,
  );
  const results: { s: number; rss: number; pss: number }[] = [];
  for (let r = 0; r < runs; r++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-start-'));
    const { child, startSeconds } = await startAsNpmStart({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, port);
    await new Promise((res) => setTimeout(res, 1000));
    const mem = treeMemory(child.pid!);
    results.push({ s: startSeconds, rss: mem.rssMb, pss: mem.pssMb });
    console.log(`run ${r + 1}: first answer after ${startSeconds.toFixed(2)} s; resident memory ${mem.rssMb.toFixed(0)} MB (PSS ${mem.pssMb.toFixed(0)} MB)`);
    for (const p of mem.processes) console.log(`    pid ${p.pid}: ${p.rssMb.toFixed(0)} MB RSS, ${p.pssMb.toFixed(0)} MB PSS, ${p.threads} threads  ${p.cmd.slice(0, 90)}`);
    const exited = new Promise((res) => child.once('exit', res));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `median of ${runs}: start to first answer ${median(results.map((x) => x.s)).toFixed(2)} s (target ≤ 2 s), ` +
      `resident memory ${median(results.map((x) => x.rss)).toFixed(0)} MB (target ≤ 350 MB; PSS ${median(results.map((x) => x.pss)).toFixed(0)} MB)`,
  );
  return 0;
}
