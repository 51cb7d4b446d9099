/*
 * A delete or a move that fails halfway leaves nothing half-done. The failure is real, not a code
 * path of the product: the test installs a trigger in its own database that makes the log entry
 * insert — the last write of both operations, after the page, revisions, archive and redirect
 * have been written — raise an error. Everything before it must roll back with it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '@quire/kit';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';

for (const backend of testBackends()) {
  describe(`atomic delete and move (${backend})`, () => {
    let wiki: TestWiki;
    let sysop: WikiClient;
    let csrf: string;
    let db: Db;

    const snapshot = async () => ({
      pages: (await db.query<{ page_namespace: number; page_title: string; page_latest: number }>('SELECT page_namespace, page_title, page_latest FROM content.page ORDER BY page_id')).rows,
      revisions: Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content.revision')).rows[0]!.n),
      archived: Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content.archive')).rows[0]!.n),
      redirects: Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content.redirect')).rows[0]!.n),
      logs: Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content.logging')).rows[0]!.n),
    });

    before(async () => {
      wiki = await startWiki(backend);
      db = wiki.stack.services.find((s) => s.name === 'content')!.runtime.db;
      await runAdmin(['createAndPromote', 'Sysop', 'sysoppass123456', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
      sysop = new WikiClient(wiki.baseUrl);
      const { logintoken } = (await sysop.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens;
      const login = (await sysop.post('/w/api.php', { action: 'login', lgname: 'Sysop', lgpassword: 'sysoppass123456', lgtoken: logintoken, format: 'json' })).json();
      assert.equal(login.login.result, 'Success');
      csrf = (await sysop.api({ action: 'query', meta: 'tokens' })).json().query.tokens.csrftoken;
      for (const [title, text] of [
        ['Atomic page', 'first'],
        ['Atomic page', 'second'],
        ['Atomic other', 'other'],
      ] as const) {
        const r = (await sysop.post('/w/api.php', { action: 'edit', title, text, token: csrf, format: 'json' })).json();
        assert.equal(r.edit.result, 'Success');
      }
      await db.query(`CREATE FUNCTION content.injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
      await db.query('CREATE TRIGGER injected_failure BEFORE INSERT ON content.logging FOR EACH ROW EXECUTE FUNCTION content.injected_failure()');
    });
    after(() => wiki?.close());

    test('a move that fails at its last write changes nothing', async () => {
      const before = await snapshot();
      const r = (await sysop.post('/w/api.php', { action: 'move', from: 'Atomic page', to: 'Atomic moved', reason: 'x', token: csrf, format: 'json' })).json();
      assert.match(r.error.code, /^internal_api_error/);
      assert.deepEqual(await snapshot(), before);
      assert.equal((await wiki.rest('/v1/page/Atomic_page')).status, 200);
      assert.equal((await wiki.rest('/v1/page/Atomic_moved')).status, 404);
    });

    test('a delete that fails at its last write changes nothing', async () => {
      const before = await snapshot();
      const r = (await sysop.post('/w/api.php', { action: 'delete', title: 'Atomic page', reason: 'x', token: csrf, format: 'json' })).json();
      assert.match(r.error.code, /^internal_api_error/);
      assert.deepEqual(await snapshot(), before);
      const history = (await wiki.rest('/v1/page/Atomic_page/history')).json();
      assert.equal(history.revisions.length, 2);
    });

    test('without the injected failure, the same move and delete go through', async () => {
      await db.query('DROP TRIGGER injected_failure ON content.logging');
      const before = await snapshot();
      const moved = (await sysop.post('/w/api.php', { action: 'move', from: 'Atomic page', to: 'Atomic moved', reason: 'x', token: csrf, format: 'json' })).json();
      assert.equal(moved.move.to, 'Atomic moved');
      assert.equal((await wiki.rest('/v1/page/Atomic_moved')).status, 200);
      const deleted = (await sysop.post('/w/api.php', { action: 'delete', title: 'Atomic other', reason: 'x', token: csrf, format: 'json' })).json();
      assert.equal(deleted.delete.title, 'Atomic other');
      const after = await snapshot();
      assert.equal(after.logs, before.logs + 2);
      assert.ok(after.archived > before.archived);
    });
  });
}
