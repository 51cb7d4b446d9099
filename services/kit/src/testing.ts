import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/*
 * Test environments. Every suite that touches storage runs once on the embedded defaults
 * (PGlite + in-process store) and, when DATABASE_URL / REDIS_URL are set (as .ci/run sets them),
 * once more on the real servers. Set-but-unreachable is a failure, not a skip.
 */
export type Backend = 'embedded' | 'servers';

export function testBackends(): Backend[] {
  return process.env.DATABASE_URL || process.env.REDIS_URL ? ['embedded', 'servers'] : ['embedded'];
}

export interface TestEnv {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  cleanup(): Promise<void>;
}

/** A fresh, isolated environment: its own data folder, database and key prefix. */
export async function makeTestEnv(backend: Backend, extra: NodeJS.ProcessEnv = {}): Promise<TestEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-test-'));
  const id = crypto.randomBytes(5).toString('hex');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    KV_PREFIX: `quire-test-${id}:`,
    SECRET_KEY: `test-secret-${id}-0123456789abcdef0123456789abcdef`,
    ...extra,
  };
  let dropDb: (() => Promise<void>) | undefined;
  if (backend === 'servers') {
    const base = process.env.DATABASE_URL;
    if (base) {
      const dbName = `quire_t_${id}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      const u = new URL(base);
      u.pathname = `/${dbName}`;
      env.DATABASE_URL = u.toString();
      dropDb = async () => {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await c.end();
      };
    }
    if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  }
  return {
    env,
    dataDir,
    async cleanup() {
      await dropDb?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The golden responses recorded from MediaWiki 1.39 and the shape-compare tool, copied into the
 * repository from the team's shared folder so the tests need nothing beside the clone.
 */
export const FIXTURES_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../conformance/golden');
export const GOLDEN_DIR = path.join(FIXTURES_DIR, 'mediawiki-1.39');
