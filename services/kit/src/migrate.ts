/*
 * `node <service>/dist/migrate.js` (or `npm run migrate --workspace services/<name>`): applies the
 * service's schema migrations to its database and exits, for the Kubernetes migration Job that
 * runs before a rollout. Services also migrate at start (serialized by an advisory lock), so this
 * is an ordering aid, never a requirement: a rollout whose new pods start first is still correct.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { openDb } from './db.js';
import { createLogger } from './log.js';
import { serviceConfigSpec, type ServiceModule } from './service.js';

export async function migrateOnly(mod: ServiceModule, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const cfg = loadConfig(serviceConfigSpec(mod.name), env);
  const log = createLogger(mod.name, env.LOG_LEVEL ?? 'info');
  if (!cfg.databaseUrl) throw new ConfigError([`${mod.name.toUpperCase()}_DATABASE_URL or DATABASE_URL must be set: the embedded database migrates when the service starts`]);
  const t0 = Date.now();
  const db = await openDb({ url: cfg.databaseUrl, dataDir: path.resolve(cfg.dataDir), schema: mod.name, migrationsDir: mod.migrationsDir, log, poolSize: 1 });
  await db.close();
  log.info({ ms: Date.now() - t0 }, `${mod.name}: schema up to date`);
}
