// Worker entry for TypeScript sources (kit's threadWorker): worker threads do not inherit the main
// thread's `--import tsx` hooks, so this registers them, then loads the thread's own module. A
// compiled build starts the thread's .js directly and never comes here.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.tsxEntry);
