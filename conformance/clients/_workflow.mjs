/*
 * What the JavaScript client workflows share: the wiki from the environment, the step table the
 * runner reads (`PASS <step>` / `FAIL <step> — <why>`), and test data (unique names, a PNG).
 * The runner skips files whose name starts with `_`.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';

export const wiki = {
  url: (process.env.WIKI_URL ?? '').replace(/\/+$/, ''),
  user: process.env.WIKI_USER ?? '',
  password: process.env.WIKI_PASSWORD ?? '',
  botUser: process.env.WIKI_BOT_USER ?? '',
  botPassword: process.env.WIKI_BOT_PASSWORD ?? '',
};
for (const [k, v] of Object.entries(wiki)) if (!v) throw new Error(`missing environment for ${k} (WIKI_URL, WIKI_USER, WIKI_PASSWORD, WIKI_BOT_USER, WIKI_BOT_PASSWORD)`);
export const apiUrl = `${wiki.url}/w/api.php`;
export const restUrl = `${wiki.url}/w/rest.php`;

/** A run id, so that workflows can run again against the same wiki. */
export const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;

/** The pages the list-continuation step lists: more than one batch of 500. */
export const BULK_PREFIX = 'Conformance bulk/';
export const BULK_COUNT = 520;
export const bulkTitle = (i) => `${BULK_PREFIX}${String(i).padStart(4, '0')}`;

export class StepFailure extends Error {}

export function check(condition, message) {
  if (!condition) throw new StepFailure(message);
}

export function equal(actual, expected, what) {
  if (actual !== expected) throw new StepFailure(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Runs the steps in order; a failing step does not stop the others. Exits 1 when one failed. */
export async function runSteps(client, steps) {
  console.log(`${client} against ${wiki.url} (run ${runId})`);
  let failed = 0;
  for (const [name, fn] of steps) {
    const started = Date.now();
    try {
      const detail = await fn();
      console.log(`PASS ${name}`);
      console.log(`       ${detail ? `${detail}, ` : ''}${Date.now() - started} ms`);
    } catch (e) {
      failed++;
      const why = (e instanceof StepFailure ? e.message : (e?.stack ?? String(e)).split('\n').slice(0, 3).join(' | ')).replace(/\s+/g, ' ');
      console.log(`FAIL ${name} — ${why}`);
    }
  }
  console.log(`${client}: ${steps.length - failed}/${steps.length} steps passed`);
  process.exitCode = failed ? 1 : 0;
}

/** Waits for a condition that the wiki reaches asynchronously (the search index). */
export async function eventually(fn, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() > deadline) throw new StepFailure(`${what} (waited ${timeoutMs / 1000} s)`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` over `items` with at most `width` calls in flight. */
export async function inParallel(items, width, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** A valid 1×1 PNG that no earlier run uploaded (a random colour and a text chunk with the run id). */
export function uniquePng() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const pixel = Buffer.concat([Buffer.from([0]), crypto.randomBytes(3)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('tEXt', Buffer.from(`Comment\0quire conformance ${runId}`, 'latin1')),
    chunk('IDAT', zlib.deflateSync(pixel)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
