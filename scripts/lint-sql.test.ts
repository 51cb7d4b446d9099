/*
 * scripts/lint-sql.mjs (run by npm run lint:deps): SQL literals outside a store/ folder are found
 * with their file and line, statements in comments, store/ folders and tests are not; and the
 * repository itself has none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module script without type declarations
import { sqlOutsideStore } from './lint-sql.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('finds SQL literals outside store/, not in comments, store/ or tests', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-sql-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  write(
    'services/svc/src/rpc/pages.ts',
    [
      '// SELECT page_id FROM page is only a comment here',
      'const s = "content";',
      'export const q = `SELECT page_id FROM ${s}.page WHERE page_id = $1`;',
      "export const w = 'DELETE FROM watchlist WHERE wl_user = $1';",
      "export const label = 'Select a page from the list';",
    ].join('\n'),
  );
  write('services/svc/src/store/pages.ts', 'export const q = `SELECT 1 FROM page`;\n');
  write('services/svc/src/oauth/store/tokens.ts', 'export const q = `UPDATE tokens SET used = true`;\n');
  write('services/svc/src/rpc/pages.test.ts', 'export const q = `INSERT INTO page (x) VALUES (1)`;\n');
  try {
    const sites: string[] = sqlOutsideStore(dir, ['services/svc/src']);
    assert.deepEqual(sites, ['services/svc/src/rpc/pages.ts:3: SELECT page_id FROM ${}.page WHERE page_id = $1', 'services/svc/src/rpc/pages.ts:4: DELETE FROM watchlist WHERE wl_user = $1']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the services and the gateway write SQL only in store/', () => {
  assert.deepEqual(sqlOutsideStore(root), []);
});
