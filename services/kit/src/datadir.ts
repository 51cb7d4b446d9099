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
 * When a process started (Linux: /proc/<pid>/stat's starttime, clock ticks since boot), or
 * undefined where that cannot be read. A pid alone is reused: a container's wiki is pid 1 at
 * every start, so a lock left by a killed one would name the new process itself.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/** Whether another process's lock (its pid and, when recorded, its start) names a process that still runs. */
function ownerRuns(pid: number, start: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return false;
  if (start === undefined) return true;
  const now = processStart(pid);
  return now === undefined || now === start;
}

/**
 * Takes the data folder's owner lock (a file created with O_EXCL holding the owner's pid and
 * start time). A lock left by a process that is gone (or whose pid now names another process)
 * is taken over; one held by a live process fails with DataDirLockedError.
 * Returns a release function.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'owner.lock');
  const self = [String(process.pid), processStart(process.pid)].filter((x) => x !== undefined).join(' ');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, self);
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === self) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const content = fs.readFileSync(lockPath, 'utf8').trim();
      const [pidText, start] = content.split(/\s+/);
      const pid = Number(pidText);
      // This process's own pid is its lock only if this process wrote it (a lock of an earlier
      // version, a pid alone, left by a killed container's pid 1 is not).
      if (pid === process.pid ? content === self : ownerRuns(pid, start)) throw new DataDirLockedError(dir, pid);
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
  // Written aside and linked into place: processes and threads starting side by side on a new
  // folder (npm start's gateway thread and services) all end up with the one key that won.
  const key = crypto.randomBytes(32).toString('hex');
  const aside = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(aside, `${key}\n`, { mode: 0o600 });
  try {
    fs.linkSync(aside, file);
    return key;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const won = fs.readFileSync(file, 'utf8').trim();
    if (won.length >= 32) return won;
    fs.renameSync(aside, file); // a damaged key file (too short to be ours) is replaced
    return key;
  } finally {
    fs.rmSync(aside, { force: true });
  }
}
