/*
 * A ready embedded database cluster: what PGlite's initdb makes plus every service's schema
 * migrations (services/<name>/migrations, schema <name>), without the template databases, made
 * once per checkout by `npm install` / `npm start` (scripts/build.mjs --embedded-template) in the
 * repository's .cache/, and copied into
 * a new data folder instead of running initdb and the migrations there. initdb in WASM takes
 * seconds and leaves a second PostgreSQL instance's memory (some 500 MB) in the thread; the
 * migrations were another second of a first start (first start to first answer ≤ 2 s,
 * memory ≤ 350 MB). A copy of a cleanly stopped cluster is a cluster (PostgreSQL's
 * file-system-level backup), and the services' migrations at start find their versions applied.
 *
 * The template is keyed by the PGlite version and the migrations' names and contents: a new or
 * changed migration, or another PGlite, makes it unusable (the thread runs initdb then, and the
 * next `npm start` makes a new one). Without a template (container images, a checkout that never
 * ran the build) nothing changes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository, from src/ and dist/ alike. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const TEMPLATE_DIR = path.join(ROOT, '.cache', 'pglite-template');
const KEY_FILE = 'QUIRE_TEMPLATE_KEY';

/** The installed PGlite's version. */
function pgliteVersion(): string {
  const pkg = new URL('../package.json', import.meta.resolve('@electric-sql/pglite'));
  return (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** Every service's migrations folder (services/<name>/migrations), the schema being the service's name. */
export function serviceMigrations(root = ROOT): { schema: string; dir: string }[] {
  const services = path.join(root, 'services');
  let names: string[] = [];
  try {
    names = fs.readdirSync(services).sort();
  } catch {
    return [];
  }
  return names.map((schema) => ({ schema, dir: path.join(services, schema, 'migrations') })).filter((m) => fs.existsSync(m.dir));
}

/** What the template must have been made from: the PGlite version and every migration file. */
export function templateKey(root = ROOT): string {
  // What createTemplate does beyond initdb and the migrations is versioned here.
  const h = crypto.createHash('sha256').update(`pglite ${pgliteVersion()}\nwithout template0 and template1\n`);
  for (const { schema, dir } of serviceMigrations(root)) {
    for (const f of fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.sql'))
      .sort()) {
      h.update(`${schema}/${f}\n`).update(fs.readFileSync(path.join(dir, f)));
    }
  }
  return h.digest('hex');
}

export function templateReady(dir = TEMPLATE_DIR, root = ROOT): boolean {
  try {
    return fs.readFileSync(path.join(dir, KEY_FILE), 'utf8').trim() === templateKey(root);
  } catch {
    return false;
  }
}

/**
 * Makes the template at `dir`: a data folder beside it is opened as the services open it (initdb,
 * then each service's migrations in its schema), closed, and its cluster renamed into place, so a
 * template is whole or absent.
 */
export async function createTemplate(dir = TEMPLATE_DIR, root = ROOT): Promise<void> {
  const { dropTemplateDatabases, openDb } = await import('./db.js');
  const { createLogger } = await import('./log.js');
  const key = templateKey(root);
  const work = `${dir}.${process.pid}.tmp`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    const log = createLogger('template', 'warn');
    // One at a time: the embedded database is shared by every Db of the data folder.
    for (const { schema, dir: migrationsDir } of serviceMigrations(root)) {
      const db = await openDb({ dataDir: work, schema, migrationsDir, log, poolSize: 1 });
      await db.close();
    }
    // The embedded cluster holds the wiki's one database: template0 and template1 (CREATE
    // DATABASE's templates; nothing here creates databases) were two thirds of its files, copied
    // into every new data folder on the way to its first answer.
    const db = await openDb({ dataDir: work, schema: 'public', log, poolSize: 1 });
    try {
      await dropTemplateDatabases(db);
    } finally {
      await db.close();
    }
    const cluster = path.join(work, 'pgdata');
    fs.writeFileSync(path.join(cluster, KEY_FILE), `${key}\n`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(cluster, dir);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function copyTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true, mode: fs.statSync(from).mode & 0o777 });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (e.isDirectory()) copyTree(a, b);
    // A copy-on-write clone where the file system has them, else a copy.
    else if (e.isFile() && e.name !== KEY_FILE) fs.copyFileSync(a, b, fs.constants.COPYFILE_FICLONE);
  }
}

/**
 * Puts a copy of the template at `pgDir` when `pgDir` holds nothing yet and the template is
 * current; returns whether it did. The copy is made beside `pgDir` and renamed, so an
 * interrupted copy leaves no half cluster.
 */
export function seedFromTemplate(pgDir: string, dir = TEMPLATE_DIR, root = ROOT): boolean {
  if (fs.existsSync(pgDir) && fs.readdirSync(pgDir).length > 0) return false;
  if (!templateReady(dir, root)) return false;
  const tmp = `${pgDir}.seeding`;
  fs.rmSync(tmp, { recursive: true, force: true });
  copyTree(dir, tmp);
  fs.rmSync(pgDir, { recursive: true, force: true });
  fs.renameSync(tmp, pgDir);
  return true;
}
