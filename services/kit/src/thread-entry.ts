import fs from 'node:fs';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running module `name` (no extension) beside `callerUrl` (the caller's
 * import.meta.url): its compiled `.js` (or the build's `.bundle.mjs` of it), or for TypeScript sources its `.ts` through
 * thread-entry.mjs, which registers tsx first (worker threads do not inherit `--import tsx`).
 * The sources' entry gets `tsxEntry` added to an object `workerData`.
 */
export function threadWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) {
    // The build's bundle of the thread's modules (scripts/bundle.mjs) when there is one.
    const bundle = new URL(`./${name}.bundle.mjs`, callerUrl);
    return new Worker(fs.existsSync(bundle) ? bundle : new URL(`./${name}.js`, callerUrl), options);
  }
  const tsxEntry = new URL(`./${name}.ts`, callerUrl).href;
  // kit itself may run compiled beside a caller's sources: the entry is always kit's source file.
  const entry = new URL(import.meta.url.endsWith('.ts') ? './thread-entry.mjs' : '../src/thread-entry.mjs', import.meta.url);
  const data: unknown = options.workerData ?? {};
  return new Worker(entry, { ...options, workerData: { ...(data as object), tsxEntry } });
}
