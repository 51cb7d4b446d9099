/*
 * A bounded, seeded run of the fuzzer (e2e/fuzz.ts) over both APIs, anonymous and as a logged-in
 * sysop with tokens: no 5xx but the documented overload answer, no internal_api_error, every
 * error in its API's shape, every answer within 5 s, no request slowing a small parse beside it
 * by more than a second (the probe), and the wiki serves on afterwards. The long
 * run is `npm run fuzz -- --requests 100000`. Runs on the embedded backend only: it fuzzes the
 * HTTP surface, which is the same on every storage backend.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, type TestWiki } from './harness.js';
import { formatFigures, loginIdentity, runFuzz } from './fuzz.js';

const SEED = Number(process.env.FUZZ_SEED ?? 1201);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 400);

let wiki: TestWiki;

before(async () => {
  wiki = await startWiki('embedded');
  await runAdmin(['createAndPromote', 'Fuzzer', 'fuzzerpass123456', '--groups', 'sysop,bureaucrat'], wiki.testEnv.env, () => undefined);
});
after(() => wiki.close());

test(`fuzz: ${REQUESTS} hostile requests (seed ${SEED}) over every action module and REST route keep the API's contract`, async (t) => {
  const figures = await runFuzz({
    baseUrl: wiki.baseUrl,
    seed: SEED,
    requests: REQUESTS,
    concurrency: 2,
    login: () => loginIdentity(wiki.baseUrl, 'Fuzzer', 'fuzzerpass123456'),
    // The wiki runs in this process: if a request ended it, this test would end with it.
    alive: () => true,
  });
  t.diagnostic(formatFigures(figures));
  assert.equal(figures.requests, REQUESTS);
  assert.deepEqual(figures.failures, [], formatFigures(figures));
  // Both APIs answer normally after the run.
  const siteinfo = await wiki.api({ action: 'query', meta: 'siteinfo', formatversion: '2' });
  assert.equal(siteinfo.status, 200);
  assert.equal(siteinfo.json().query.general.sitename, 'Quire');
  const health = await wiki.get('/healthz');
  assert.equal(health.status, 200);
});
