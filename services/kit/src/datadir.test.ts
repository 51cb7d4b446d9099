import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirLockedError, lockDataDir, resolveSecretKey } from './datadir.js';

test('a data folder has one owner; a stale lock is taken over', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-lock-'));
  const release = lockDataDir(dir);
  assert.throws(() => lockDataDir(dir), DataDirLockedError);
  release();
  // A lock left by a process that no longer exists does not block the next owner.
  fs.writeFileSync(path.join(dir, 'owner.lock'), '999999999');
  const release2 = lockDataDir(dir);
  assert.equal(fs.readFileSync(path.join(dir, 'owner.lock'), 'utf8'), String(process.pid));
  release2();
  assert.equal(fs.existsSync(path.join(dir, 'owner.lock')), false);
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
