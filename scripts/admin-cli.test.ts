/*
 * The admin CLI as a newcomer meets it: --help prints the usage, and a data folder with no wiki
 * is refused (it used to make an empty ./data beside a wiki that runs elsewhere) unless --create.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function admin(args: string[], env: NodeJS.ProcessEnv) {
  const { PATH, HOME } = process.env;
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/admin.ts'), ...args], {
    cwd: root,
    env: { PATH, HOME, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('admin --help prints the usage and exits 0', () => {
  for (const args of [['--help'], ['help'], []]) {
    const r = admin(args, { DATA_DIR: '/nonexistent-quire-data' });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stdout, /^Usage: npm run admin -- <command>/);
    assert.match(r.stdout, /createAndPromote <name> <password>/);
  }
});

test('a data folder with no wiki is refused and left as it was; --create makes a wiki there', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-admin-'));
  try {
    const refused = admin(['createAndPromote', 'Newcomer', 'newcomerpass12345'], { DATA_DIR: dir });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, new RegExp(`There is no wiki in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(DATA_DIR\\)`));
    assert.deepEqual(fs.readdirSync(dir), []);
    const created = admin(['createAndPromote', 'Newcomer', 'newcomerpass12345', '--create'], { DATA_DIR: dir });
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, /Created account Newcomer/);
    assert.ok(fs.existsSync(path.join(dir, 'pgdata')));
    // Now there is a wiki: no --create needed.
    const again = admin(['changePassword', 'Newcomer', 'anotherpass12345'], { DATA_DIR: dir });
    assert.equal(again.status, 0, again.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
