/*
 * The dependency rules of npm run lint:deps (.dependency-cruiser.cjs), on a small tree that breaks
 * each of them once and keeps to them elsewhere: each rule reports exactly its own breach.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('each dependency rule reports its breach, and only that', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dep-rules-'));
  const files: Record<string, string> = {
    'tsconfig.json': '{"compilerOptions":{"module":"nodenext"}}',
    // Allowed: rpc → domain → store → library; a service's own test → the gateway.
    'services/content/src/rpc/pages.ts': "import { page } from '../domain/pages.js';\nexport const rpc = page;\n",
    'services/content/src/domain/pages.ts': "import { row } from '../store/pages.js';\nexport const page = row;\n",
    'services/content/src/store/pages.ts': "import { parse } from '../title/codec.js';\nexport const row = parse;\n",
    'services/content/src/title/codec.ts': 'export const parse = 1;\n',
    'services/content/src/server.test.ts': "import { client } from '../../../gateway/src/clients/index.js';\nexport const t = client;\n",
    'gateway/src/clients/index.ts': "import { clock } from '../../../services/kit/src/clock.js';\nexport const client = clock;\n",
    'services/kit/src/clock.ts': 'export const clock = 1;\n',
    // Breaches, one per rule.
    'services/content/src/store/upward.ts': "import { rpc } from '../rpc/pages.js';\nexport const up = rpc;\n",
    'services/content/src/domain/wire.ts': "import { rpc } from '../rpc/pages.js';\nexport const wire = rpc;\n",
    'services/content/src/diff/engine.ts': "import { row } from '../store/pages.js';\nexport const diff = row;\n",
    'services/content/src/render/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
    'services/content/src/render/b.ts': "import { a } from './a.js';\nexport const b = a;\n",
    'services/search/src/indexer.ts': "import { client } from '../../../gateway/src/clients/index.js';\nimport { parse } from '../../content/src/title/codec.js';\nexport const i = [client, parse];\n",
    'gateway/src/pages.ts': "import { row } from '../../services/content/src/store/pages.js';\nexport const p = row;\n",
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  try {
    const run = spawnSync(path.join(root, 'node_modules/.bin/depcruise'), ['--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'json', 'services', 'gateway'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const violations = (JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } }).summary.violations
      .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
      .sort();
    assert.deepEqual(violations, [
      'content-libs-import-no-layer: services/content/src/diff/engine.ts -> services/content/src/store/pages.ts',
      'domain-imports-no-rpc: services/content/src/domain/wire.ts -> services/content/src/rpc/pages.ts',
      'gateway-imports-no-service: gateway/src/pages.ts -> services/content/src/store/pages.ts',
      'no-circular: services/content/src/render/a.ts -> services/content/src/render/b.ts',
      'services-import-no-other-service: services/search/src/indexer.ts -> services/content/src/title/codec.ts',
      'services-never-import-gateway: services/search/src/indexer.ts -> gateway/src/clients/index.ts',
      'store-imports-no-upper-layer: services/content/src/store/upward.ts -> services/content/src/rpc/pages.ts',
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
