/*
 * Kit's crash policy in a real process: an unhandled rejection is logged with its request id and
 * the process serves on; an uncaught exception is logged with its request id, the process stops
 * gracefully and exits 1 (so that a supervisor starts it again).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const KIT = path.dirname(fileURLToPath(import.meta.url));

function runScript(body: string): Promise<{ code: number | null; lines: Record<string, unknown>[]; stdout: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-crash-policy-'));
  const file = path.join(dir, 'main.ts');
  fs.writeFileSync(
    file,
    `import { createLogger, installCrashPolicy, runWithRequestId } from ${JSON.stringify(path.join(KIT, 'index.ts'))};\n` +
      `const log = createLogger('policy-test', 'info');\n` +
      `installCrashPolicy({ log, stop: async () => { process.stdout.write('stopped gracefully\\n'); } });\n` +
      body,
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('exit', (code) => {
      fs.rmSync(dir, { recursive: true, force: true });
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, lines, stdout });
    });
  });
}

test('an unhandled rejection is logged with its request id and the process serves on', async () => {
  const r = await runScript(`
runWithRequestId('req-rejected', () => { void Promise.reject(new Error('nobody awaited me')); });
setTimeout(() => { process.stdout.write('still serving\\n'); process.exit(0); }, 300);
`);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /still serving/);
  const logged = r.lines.find((l) => l.msg === 'unhandled promise rejection; serving on');
  assert.ok(logged, r.stdout);
  assert.equal(logged.requestId, 'req-rejected');
  assert.equal((logged.err as { message: string }).message, 'nobody awaited me');
});

test('an uncaught exception is logged with its request id, then the process stops gracefully and exits 1', async () => {
  const r = await runScript(`
runWithRequestId('req-thrown', () => { setTimeout(() => { throw new TypeError('thrown from a callback'); }, 10); });
setTimeout(() => { process.stdout.write('must not be reached\\n'); }, 5000);
`);
  assert.equal(r.code, 1);
  const logged = r.lines.find((l) => l.level === 60);
  assert.ok(logged, r.stdout);
  assert.equal(logged.requestId, 'req-thrown');
  assert.equal((logged.err as { message: string }).message, 'thrown from a callback');
  assert.match(r.stdout, /stopped gracefully/);
  assert.doesNotMatch(r.stdout, /must not be reached/);
});
