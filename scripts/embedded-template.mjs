// Makes the embedded database's template (services/kit/src/pglite-template.ts), run by
// scripts/build.mjs --embedded-template in a process of its own (initdb's memory goes with it):
// node --conditions=quire-dist scripts/embedded-template.mjs
import { createTemplate } from '../services/kit/dist/pglite-template.js';

await createTemplate();
