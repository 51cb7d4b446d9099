import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DataDirLockedError, lockDataDir, processStart, resolveSecretKey } from './datadir.js';

test('a data folder has one owner; a stale lock is taken over', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-lock-'));
  const release = lockDataDir(dir);
  assert.throws(() => lockDataDir(dir), DataDirLockedError);
  release();
  // A lock left by a process that no longer exists does not block the next owner.
  fs.writeFileSync(path.join(dir, 'owner.lock'), '999999999');
  const release2 = lockDataDir(dir);
  assert.equal(fs.readFileSync(path.join(dir, 'owner.lock'), 'utf8'), `${process.pid} ${processStart(process.pid)}`);
  release2();
  assert.equal(fs.existsSync(path.join(dir, 'owner.lock')), false);
  fs.rmSync(dir, { recursive: true });
});

test("a lock whose pid now names another process (a container's pid 1 after a kill) is taken over; a live owner's is not, nor one written without a start", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-lock-'));
  const lock = path.join(dir, 'owner.lock');
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const start = processStart(child.pid!);
    assert.match(start ?? '', /^\d+$/, 'Linux: /proc/<pid>/stat has the start time');
    // The dead owner had this process's pid (or the child's) but started at another time, or wrote its pid alone (an earlier version).
    for (const content of [`${process.pid} ${Number(start) - 1}`, `${child.pid} ${Number(start) - 1}`, String(process.pid)]) {
      fs.writeFileSync(lock, content);
      lockDataDir(dir)();
      assert.equal(fs.existsSync(lock), false, `"${content}": taken over and released`);
    }
    fs.writeFileSync(lock, `${child.pid} ${start}`);
    assert.throws(() => lockDataDir(dir), DataDirLockedError);
    fs.writeFileSync(lock, String(child.pid));
    assert.throws(() => lockDataDir(dir), DataDirLockedError);
  } finally {
    child.kill();
    await once(child, 'exit');
  }
  // Its owner gone, the same lock is stale.
  lockDataDir(dir)();
  fs.rmSync(dir, { recursive: true });
});

test('the generated secret key is kept in the data folder; SECRET_KEY wins', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-secret-'));
  const k1 = resolveSecretKey(dir);
  assert.match(k1, /^[0-9a-f]{64}$/);
  assert.equal(resolveSecretKey(dir), k1);
  assert.equal(resolveSecretKey(dir, 'from-env'), 'from-env');
  fs.rmSync(dir, { recursive: true });
});
