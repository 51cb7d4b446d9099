/*
 * npm run fuzz -- [--requests N] [--seed S] [--concurrency C] [--replay i,j,…] [--trace FILE] [--url URL --user NAME --password PW]
 *
 * The long run of the fuzzer (e2e/fuzz.ts). Without --url it starts the wiki as `npm start` does
 * (scripts/start.mjs, the compiled supervisor) on a fresh data folder and a free port, creates a sysop for
 * the logged-in half of the requests, and watches the process: any restart the supervisor reports
 * counts as a crash. It prints the figures (requests, statuses, 5xx, crashes, max latency) and
 * every failure with the command that replays it; the exit code is 1 when anything failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAdmin } from './admin.js';
import { freePort } from './free-port.js';
import { formatFigures, loginIdentity, runFuzz, type FuzzFigures } from '../e2e/fuzz.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Options {
  requests: number;
  seed: number;
  concurrency: number;
  replay?: number[];
  url?: string;
  user: string;
  password: string;
  trace?: string;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { requests: 20_000, seed: Date.now() % 1_000_000, concurrency: 4, user: 'Fuzzer', password: 'fuzzerpass123456' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    const int = () => {
      if (!/^\d+$/.test(value)) throw new Error(`${flag} needs a whole number, got ${JSON.stringify(value)}`);
      return Number(value);
    };
    if (flag === '--requests') o.requests = int();
    else if (flag === '--seed') o.seed = int();
    else if (flag === '--concurrency') o.concurrency = Math.max(1, int());
    else if (flag === '--replay') o.replay = value.split(',').map((x) => Number(x));
    else if (flag === '--url') o.url = value.replace(/\/$/, '');
    else if (flag === '--user') o.user = value;
    else if (flag === '--password') o.password = value;
    else if (flag === '--trace') o.trace = value;
    else throw new Error(`unknown option ${flag}`);
  }
  if (o.replay?.some((x) => !Number.isInteger(x) || x < 0)) throw new Error('--replay takes request numbers, e.g. --replay 12,40');
  return o;
}

interface StartedWiki {
  url: string;
  env: NodeJS.ProcessEnv;
  process: ChildProcess;
  /** Lines of the supervisor saying the wiki stopped unexpectedly. */
  restarts: string[];
  stop(): Promise<void>;
}

/** Starts `npm start`'s entry point on a fresh DATA_DIR and a free port; resolves when it is ready. */
async function startWikiProcess(): Promise<StartedWiki> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fuzz-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  const child = spawn(process.execPath, ['--conditions=quire-dist', path.join(ROOT, 'scripts/start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const restarts: string[] = [];
  const logFile = path.join(dataDir, 'wiki.log');
  const log = fs.createWriteStream(logFile);
  let ready: () => void;
  const readyPromise = new Promise<void>((resolve) => (ready = resolve));
  const onLine = (line: string) => {
    log.write(`${line}\n`);
    if (line.includes('Quire is ready')) ready();
    if (/stopped unexpectedly|restarting/i.test(line)) restarts.push(line);
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    let buf = '';
    stream.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([readyPromise, exited.then(() => Promise.reject(new Error(`the wiki did not start; see ${logFile}`)))]);
  process.stdout.write(`wiki started on port ${port} (data ${dataDir}, log ${logFile})\n`);
  return {
    url: `http://127.0.0.1:${port}`,
    env,
    process: child,
    restarts,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      log.end();
    },
  };
}

async function main(): Promise<void> {
  let o: Options;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  const wiki = o.url ? undefined : await startWikiProcess();
  // Interrupted: stop the wiki this run started (the last figures were printed with the progress).
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      process.stdout.write(`${sig}: stopping the wiki\n`);
      void (wiki?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
    });
  }
  const baseUrl = o.url ?? wiki!.url;
  let figures: FuzzFigures;
  try {
    if (wiki) await runAdmin(['createAndPromote', o.user, o.password, '--groups', 'sysop,bureaucrat'], wiki.env, () => undefined);
    let seenRestarts = 0;
    // One line per request start and end with the time: after a stall, the requests with a start and no end were in flight.
    const trace = o.trace ? fs.createWriteStream(o.trace) : undefined;
    figures = await runFuzz({
      baseUrl,
      seed: o.seed,
      requests: o.requests,
      concurrency: o.concurrency,
      ...(o.replay ? { only: o.replay } : {}),
      ...(trace
        ? {
            onRequest: (event: string, index: number, target: string, status?: number | string) =>
              trace.write(`${new Date().toISOString()} ${event} #${index} ${target}${status === undefined ? '' : ` ${status}`}\n`),
          }
        : {}),
      login: () => loginIdentity(baseUrl, o.user, o.password),
      alive: () => {
        if (!wiki) return true;
        // A restart by the supervisor is a crash even though the wiki answers again.
        const fresh = wiki.restarts.length > seenRestarts;
        seenRestarts = wiki.restarts.length;
        return wiki.process.exitCode === null && !fresh;
      },
      // Each snapshot's figures (failures listed once, at the end), so a run stopped early still reports.
      onProgress: (f) =>
        process.stdout.write(
          `${formatFigures({ ...f, failures: [] })
            .split('\n')
            .slice(0, 3)
            .map((l) => `  ${l}`)
            .join('\n')}\n  failures so far: ${f.failures.length}\n`,
        ),
    });
  } finally {
    await wiki?.stop();
  }
  process.stdout.write(`${formatFigures(figures)}\n`);
  if (wiki?.restarts.length) process.stdout.write(`supervisor restarts:\n  ${wiki.restarts.join('\n  ')}\n`);
  process.exit(figures.failures.length === 0 ? 0 : 1);
}

await main();
