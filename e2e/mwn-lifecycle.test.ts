/* mwn's move, delete, undelete, rollback and purge, unchanged, against the whole wiki. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Mwn } from 'mwn';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, type TestWiki } from './harness.js';

for (const backend of testBackends()) {
  describe(`mwn page lifecycle (${backend})`, () => {
    let wiki: TestWiki;
    let bot: Mwn;
    let other: Mwn;

    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,bureaucrat,bot'], wiki.testEnv.env, () => undefined);
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, () => undefined);
      bot = new Mwn({ apiUrl: `${wiki.baseUrl}/w/api.php`, username: 'Admin', password: 'adminpass123456', silent: true, maxRetries: 0 });
      await bot.login();
      other = new Mwn({ apiUrl: `${wiki.baseUrl}/w/api.php`, username: 'Alice', password: 'alicepass123456', silent: true, maxRetries: 0 });
      await other.login();
    });
    after(() => wiki.close());

    test('move, delete, undelete, rollback, purge', async () => {
      await bot.create('Mwn page', 'first [[Link]]', 'create');
      const moved = await bot.move('Mwn page', 'Mwn page moved', 'renaming');
      assert.equal(moved.from, 'Mwn page');
      assert.equal(moved.to, 'Mwn page moved');
      assert.equal(moved.redirectcreated, true);
      assert.equal((await bot.read('Mwn page moved')).revisions?.[0]?.content, 'first [[Link]]');

      const deleted = await bot.delete('Mwn page moved', 'cleanup');
      assert.equal(deleted.title, 'Mwn page moved');
      assert.equal(deleted.reason, 'cleanup');
      assert.equal((await bot.read('Mwn page moved')).missing, true);
      const restored = await bot.undelete('Mwn page moved', 'oops');
      assert.equal(restored.revisions, 2);
      assert.equal((await bot.read('Mwn page moved')).revisions?.[0]?.content, 'first [[Link]]');

      await other.edit('Mwn page moved', () => ({ text: 'vandalism', summary: 'bad' }));
      await bot.getTokens();
      const rb = await bot.rollback('Mwn page moved', 'Alice');
      assert.equal(rb.title, 'Mwn page moved');
      assert.equal((await bot.read('Mwn page moved')).revisions?.[0]?.content, 'first [[Link]]');

      const purged = await bot.purge(['Mwn page moved', 'Nowhere at all']);
      assert.deepEqual(
        purged.map((p: { title: string; purged?: boolean; missing?: boolean }) => [p.title, p.purged ?? false, p.missing ?? false]),
        [
          ['Nowhere at all', false, true],
          ['Mwn page moved', true, false],
        ],
      );
    });
  });
}
