import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p, base) : [path.relative(base, p)];
  });
}

test('the committed generated code is what `npm run proto` produces', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-proto-'));
  const r = spawnSync(process.execPath, [path.join(here, 'gen.mjs'), '--out', out], { encoding: 'utf8' });
  assert.equal(r.status, 0, `generation failed: ${r.stderr}`);
  const committed = path.join(here, 'gen');
  const fresh = listFiles(out).sort();
  assert.deepEqual(listFiles(committed).sort(), fresh, 'generated file list differs: run `npm run proto` and commit');
  for (const f of fresh) {
    assert.equal(fs.readFileSync(path.join(committed, f), 'utf8'), fs.readFileSync(path.join(out, f), 'utf8'), `${f} is stale: run \`npm run proto\` and commit`);
  }
  fs.rmSync(out, { recursive: true, force: true });
});
