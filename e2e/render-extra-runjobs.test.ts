/*
 * Special:RunJobs over HTTP: MediaWiki's signed asynchronous job runner entry.
 * The background runner is off (CONTENT_JOB_POLL_MS=0), so a template edit's re-render of the
 * pages that transclude it happens only when a signed POST runs the jobs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runJobsSignature } from '../gateway/src/pages/runjobs.js';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';

async function edit(wiki: TestWiki, title: string, text: string): Promise<number> {
  const r = await wiki.post('/w/api.php', { action: 'edit', title, text, token: ANON_TOKEN, format: 'json', formatversion: '2' });
  const body = r.json<{ edit?: { result: string; newrevid: number } }>();
  assert.equal(body.edit?.result, 'Success', r.text);
  return body.edit.newrevid;
}

interface RunStats {
  jobs: { type: string; status: string; error: string | null; time: number }[];
  reached: string;
  backoffs: unknown[];
  elapsed: number;
}

for (const backend of testBackends()) {
  describe(`Special:RunJobs on ${backend}`, () => {
    let wiki: TestWiki;
    let secret = '';

    /** A signed runner request as MediaWiki's JobQueueEventBus/HTTP runner builds it. */
    function signed(query: Record<string, string>, key = secret): Record<string, string> {
      return { ...query, signature: runJobsSignature(query, key) };
    }
    const future = () => String(Math.floor(Date.now() / 1000) + 60);
    /** MediaWiki::triggerAsyncJobs POSTs to the canonical URL with every parameter in the query string. */
    const postQuery = (query: Record<string, string>) => wiki.post(`/w/index.php?${new URLSearchParams(query)}`, {});

    async function runAll(): Promise<RunStats> {
      const r = await postQuery(signed({ title: 'Special:RunJobs', tasks: 'jobs', maxjobs: '100', async: '0', stats: '1', sigexpiry: future() }));
      assert.equal(r.status, 200, r.text);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      return r.json<RunStats>();
    }

    before(async () => {
      wiki = await startWiki(backend, { CONTENT_JOB_POLL_MS: '0' });
      secret = wiki.testEnv.env.SECRET_KEY!;
    });
    after(() => wiki?.close());

    test('a template edit re-renders the transcluding page only when RunJobs runs its jobs', async () => {
      await edit(wiki, 'Template:Greeting', 'Hello from version one');
      await edit(wiki, 'Greeted page', 'Before {{Greeting}} after');
      const first = await runAll();
      assert.equal(first.reached, 'none-ready');
      assert.ok(first.jobs.length >= 2, JSON.stringify(first));
      for (const j of first.jobs) assert.deepEqual({ type: j.type, status: j.status, error: j.error }, { type: 'refreshLinks', status: 'ok', error: null });
      assert.deepEqual(first.backoffs, []);
      assert.equal(typeof first.elapsed, 'number');

      const before = await wiki.rest('/v1/page/Greeted_page/html');
      assert.match(before.text, /Hello from version one/);
      // The page transcludes the template (what makes its refresh follow the template's).
      const parsed = await wiki.api({ action: 'parse', page: 'Greeted page', prop: 'templates', formatversion: '2' });
      assert.deepEqual(parsed.json().parse.templates, [{ ns: 10, title: 'Template:Greeting', exists: true }]);

      await edit(wiki, 'Template:Greeting', 'Hello from version two');
      // Nothing runs the jobs yet: the page's cached rendering is the old one.
      assert.match((await wiki.rest('/v1/page/Greeted_page/html')).text, /Hello from version one/);

      // maxjobs=1 runs exactly one job (the template's own refresh) and reports the job limit;
      // the parameters may also be posted as form fields.
      const one = await wiki.post('/w/index.php?title=Special:RunJobs', signed({ title: 'Special:RunJobs', tasks: 'jobs', maxjobs: '1', async: '0', stats: '1', sigexpiry: future() }));
      const oneStats = one.json<RunStats>();
      assert.equal(oneStats.reached, 'job-limit');
      assert.equal(oneStats.jobs.length, 1);

      const rest = await runAll();
      assert.equal(rest.reached, 'none-ready');
      assert.deepEqual(
        rest.jobs.map((j) => [j.type, j.status]),
        [['refreshLinks', 'ok']],
      );
      const after = await wiki.rest('/v1/page/Greeted_page/html');
      assert.match(after.text, /Hello from version two/);
      assert.doesNotMatch(after.text, /version one/);
      // Nothing left to run.
      assert.deepEqual((await runAll()).jobs, []);
    });

    test('async (the default) answers 202 at once and runs the jobs after the response', async () => {
      await edit(wiki, 'Template:Later', 'later one');
      await edit(wiki, 'Uses later', '{{Later}}');
      await runAll();
      await edit(wiki, 'Template:Later', 'later two');
      const r = await wiki.post('/wiki/Special:RunJobs', signed({ title: 'Special:RunJobs', tasks: 'jobs', maxjobs: '10', sigexpiry: future() }));
      assert.equal(r.status, 202);
      assert.equal(r.text, '');
      const until = Date.now() + 10_000;
      while (!/later two/.test((await wiki.rest('/v1/page/Uses_later/html')).text)) {
        assert.ok(Date.now() < until, 'the jobs ran after the 202');
        await new Promise((res) => setTimeout(res, 100));
      }
    });

    test('without stats the answer is "Done"; an unknown job type runs nothing', async () => {
      const done = await postQuery(signed({ title: 'Special:RunJobs', tasks: 'jobs', async: '0', sigexpiry: future() }));
      assert.equal(done.status, 200);
      assert.equal(done.text, 'Done\n');
      await edit(wiki, 'Pending job page', 'x');
      const none = await postQuery(signed({ title: 'Special:RunJobs', tasks: 'jobs', async: '0', stats: '1', type: 'nosuchjob', sigexpiry: future() }));
      assert.deepEqual(none.json(), { jobs: [], reached: 'none-possible', backoffs: [], elapsed: 0 });
      assert.equal((await runAll()).jobs.length, 1);
    });

    test('refuses GET, missing parameters, a wrong key, a tampered query and an expired signature', async () => {
      const get = await wiki.get('/w/index.php?title=Special:RunJobs');
      assert.equal(get.status, 400);
      assert.equal(get.text, '<!DOCTYPE html><html><head><title>Bad Request</title></head><body><h1>Bad Request</h1><p>Request must be POSTed.</p></body></html>');

      const missing = await wiki.post('/w/index.php?title=Special:RunJobs', { tasks: 'jobs' });
      assert.equal(missing.status, 400);
      assert.match(missing.text, /<p>Missing parameters: signature, sigexpiry<\/p>/);

      await edit(wiki, 'Unrun page', 'y');
      const base = { title: 'Special:RunJobs', tasks: 'jobs', async: '0', stats: '1', maxjobs: '5' };
      const wrongKey = await postQuery(signed({ ...base, sigexpiry: future() }, 'not-the-secret'));
      const tampered = await postQuery({ ...signed({ ...base, sigexpiry: future() }), maxjobs: '6' });
      const expired = await postQuery(signed({ ...base, sigexpiry: String(Math.floor(Date.now() / 1000) - 5) }));
      for (const r of [wrongKey, tampered, expired]) {
        assert.equal(r.status, 400);
        assert.match(r.text, /<p>Invalid or stale signature provided\.<\/p>/);
      }
      // None of them ran the pending job.
      assert.equal((await runAll()).jobs.length, 1);
    });
  });
}
