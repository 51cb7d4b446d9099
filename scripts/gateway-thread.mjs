// Worker entry in plain JS: worker threads do not inherit the `--import tsx` hooks of the main
// thread, so this entry registers them before importing the TypeScript gateway thread.
import { register } from 'tsx/esm/api';

register();
await import('./gateway-thread.ts');
