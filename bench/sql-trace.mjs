// Benchmark instrumentation, loaded with `node --import ./bench/sql-trace.mjs` by
// bench/edit-cost.ts when SQL_TRACE names a file: counts every SQL text sent through pg (BEGIN and
// COMMIT included) and writes [text, count] pairs there twice a second.
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import pg from 'pg';

const file = process.env.SQL_TRACE;
// The services' thread only: worker threads inherit the flag and would overwrite the file.
if (file && isMainThread) {
  const counts = new Map();
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    const text = typeof config === 'string' ? config : config?.text;
    if (typeof text === 'string') counts.set(text, (counts.get(text) ?? 0) + 1);
    return query.call(this, config, ...rest);
  };
  setInterval(() => {
    fs.writeFileSync(`${file}.tmp`, JSON.stringify([...counts]));
    fs.renameSync(`${file}.tmp`, file);
  }, 500).unref();
}
