/*
 * user_editcount counts what MediaWiki counts (measured on the reference MediaWiki 1.39): each
 * saved edit, a move's null revision and the redirect it leaves, a new file's description page;
 * not a protection, a deletion, an undeletion or a new version of a file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, type TestWiki } from './harness.js';
import { loggedIn, png, upload } from './files-helpers.js';

for (const backend of testBackends()) {
  describe(`edit counts (${backend})`, () => {
    let wiki: TestWiki;
    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Counter', 'counterpass12345', '--groups', 'sysop'], wiki.testEnv.env, () => undefined);
    });
    after(() => wiki?.close());

    test('edits, moves with and without a redirect, uploads; not protections, deletions or new file versions', async () => {
      const c = await loggedIn(wiki, 'Counter', 'counterpass12345');
      const post = async (form: Record<string, string>) => (await c.post('/w/api.php', { format: 'json', formatversion: '2', token: c.csrf, ...form })).json();
      // The gateway collects counts for a moment before it sends them.
      const countIs = async (expected: number, after: string) => {
        let seen = -1;
        for (let i = 0; i < 50 && seen !== expected; i++) {
          await new Promise((r) => setTimeout(r, 100));
          seen = (await c.api({ action: 'query', meta: 'userinfo', uiprop: 'editcount', formatversion: '2' })).json().query.userinfo.editcount;
        }
        assert.equal(seen, expected, after);
      };
      assert.ok((await post({ action: 'edit', title: 'Count A', text: 'x' })).edit);
      await countIs(1, 'an edit');
      assert.ok((await post({ action: 'move', from: 'Count A', to: 'Count B' })).move?.redirectcreated);
      await countIs(3, 'a move: its null revision and the redirect');
      assert.ok((await post({ action: 'move', from: 'Count B', to: 'Count C', noredirect: '1' })).move);
      await countIs(4, 'a move without a redirect');
      assert.ok((await post({ action: 'protect', title: 'Count C', protections: 'edit=sysop' })).protect);
      assert.ok((await post({ action: 'delete', title: 'Count C' })).delete);
      assert.ok((await post({ action: 'undelete', title: 'Count C' })).undelete);
      await countIs(4, 'protect, delete and undelete');
      const first = await upload(c, { filename: 'Count.png', ignorewarnings: '1' }, png(3, 4, 7), 'image/png');
      assert.equal(first.upload?.result, 'Success', JSON.stringify(first));
      await countIs(5, "a new file's description page");
      const again = await upload(c, { filename: 'Count.png', ignorewarnings: '1' }, png(5, 4, 9), 'image/png');
      assert.equal(again.upload?.result, 'Success', JSON.stringify(again));
      await countIs(5, 'a new version of the file');
    });
  });
}
