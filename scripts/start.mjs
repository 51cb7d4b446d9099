#!/usr/bin/env node
// `npm start` (node --conditions=quire-dist scripts/start.mjs): runs the supervisor
// (scripts/start.ts) compiled to JavaScript, not under tsx: no TypeScript transform at run time
// in the supervisor, the wiki process and its threads (start-up time and memory).
// `npm install` compiles once (`prepare`); here the build runs again only when a source changed
// since (scripts/build.mjs --if-stale), keeping what tsc emitted even with type errors, as tsx ran
// code that did not typecheck. The quire-dist condition makes the workspace packages resolve to
// their dist/; the supervisor passes this process's flags on to the wiki process and its threads.
import { build, ensureEmbeddedTemplate } from './build.mjs';

if (!import.meta.resolve('@quire/kit').endsWith('/dist/index.js')) {
  console.error('scripts/start.mjs runs with node --conditions=quire-dist (npm start)');
  process.exit(2);
}
const log = (m) => console.error(m);
if (!build({ ifStale: true, allowTypeErrors: true, log })) process.exit(1);
// A new data folder's database is a copy of this, not a run of initdb (first start to first answer).
if (!process.env.DATABASE_URL) await ensureEmbeddedTemplate({ log });
await import('./dist/start.js');
