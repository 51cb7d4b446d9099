/*
 * The embedded database's template: made from initdb and every service's migrations,
 * copied into a new data folder (whose migrations then find their versions applied), and not
 * used once a migration changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from './db.js';
import { createLogger } from './log.js';
import { createTemplate, seedFromTemplate, templateReady } from './pglite-template.js';

const log = createLogger('test', 'silent');

test('a template of initdb and the migrations seeds a new data folder, and is stale once a migration changes', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-template-'));
  try {
    // A repository with one service, "demo", and its migrations.
    const root = path.join(tmp, 'repo');
    const migrations = path.join(root, 'services', 'demo', 'migrations');
    fs.mkdirSync(migrations, { recursive: true });
    fs.writeFileSync(path.join(migrations, '001_t.sql'), "CREATE TABLE ${schema}.t (v text); INSERT INTO ${schema}.t VALUES ('once');");
    const template = path.join(tmp, 'template');
    assert.equal(templateReady(template, root), false);
    await createTemplate(template, root);
    assert.equal(templateReady(template, root), true);

    const dataDir = path.join(tmp, 'data');
    const pgDir = path.join(dataDir, 'pgdata');
    assert.equal(seedFromTemplate(pgDir, template, root), true);
    assert.ok(fs.existsSync(path.join(pgDir, 'PG_VERSION')));
    assert.equal(seedFromTemplate(pgDir, template, root), false, 'a data folder with a cluster is left alone');
    const db = await openDb({ dataDir, schema: 'demo', migrationsDir: migrations, log });
    try {
      assert.deepEqual((await db.query('SELECT v FROM demo.t')).rows, [{ v: 'once' }], 'the migration ran once, in the template');
      assert.deepEqual((await db.query('SELECT version FROM demo.schema_migrations')).rows, [{ version: '001_t.sql' }]);
      // The wiki's database only: no template databases to copy.
      assert.deepEqual((await db.query('SELECT datname FROM pg_database ORDER BY datname')).rows, [{ datname: 'postgres' }]);
    } finally {
      await db.close();
    }

    fs.writeFileSync(path.join(migrations, '002_u.sql'), 'CREATE TABLE ${schema}.u (v text);');
    assert.equal(templateReady(template, root), false);
    assert.equal(seedFromTemplate(path.join(tmp, 'other', 'pgdata'), template, root), false);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
