// Worker entry in plain JS for the TypeScript sources (as scripts/gateway-thread.mjs): worker
// threads do not inherit the `--import tsx` hooks of the main thread. Compiled builds (dist/)
// start pglite-thread.js directly.
import { register } from 'tsx/esm/api';

register();
await import('./pglite-thread.ts');
