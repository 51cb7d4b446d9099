import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `the data folder ${dir} is already owned by process ${pid}. ` +
        `Embedded PGlite can be opened by exactly one process: stop that process, ` +
        `use another DATA_DIR, or set DATABASE_URL to a PostgreSQL server.`,
    );
    this.name = 'DataDirLockedError';
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data folder's owner lock (a pid file created with O_EXCL). A lock left by a dead
 * process is taken over; one held by a live process fails with DataDirLockedError.
 * Returns a release function.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'owner.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid)) throw new DataDirLockedError(dir, pid);
      if (pid === process.pid) throw new DataDirLockedError(dir, pid);
      fs.rmSync(lockPath, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`could not lock ${dir}`);
}

/**
 * The wiki's secret (token and cookie signing): SECRET_KEY when set, else a random key generated
 * once and kept in the data folder so that sessions survive a restart.
 */
export function resolveSecretKey(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'secret.key');
  try {
    const k = fs.readFileSync(file, 'utf8').trim();
    if (k.length >= 32) return k;
  } catch {
    /* first start */
  }
  const key = crypto.randomBytes(32).toString('hex');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
