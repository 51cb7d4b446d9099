/*
 * Deleting a File: page takes the file with it; its versions move to filearchive in the
 * deletion's transaction, so the file is missing, a new upload under the name warns
 * `was-deleted`, and undeletion brings back the file and its whole history. And the watchlist
 * parameter of every lifecycle module (delete, undelete, protect, move, rollback).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, type TestWiki } from './harness.js';
import { loggedIn, png, upload } from './files-helpers.js';

const quiet = () => undefined;

for (const backend of testBackends()) {
  describe(`deleting and undeleting files (${backend})`, () => {
    let wiki: TestWiki;
    let sysop: Awaited<ReturnType<typeof loggedIn>>;
    const post = async (params: Record<string, string>) => (await sysop.post('/w/api.php', { format: 'json', formatversion: '2', token: sysop.csrf, ...params })).json();
    const imageinfo = async (title: string) =>
      (await wiki.api({ action: 'query', titles: title, prop: 'imageinfo', iiprop: 'timestamp|sha1|size', iilimit: 'max', formatversion: '2' })).json().query.pages[0];

    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Sysop', 'sysoppass123456', '--groups', 'sysop'], wiki.testEnv.env, quiet);
      sysop = await loggedIn(wiki, 'Sysop', 'sysoppass123456');
    });
    after(() => wiki?.close());

    test('delete archives every file version; re-upload warns was-deleted; undelete restores file and history', async () => {
      const first = await upload(sysop, { filename: 'Gone.png', text: 'A file to delete.', ignorewarnings: '1' }, png(4, 4, 3), 'image/png');
      assert.equal(first.upload.result, 'Success', JSON.stringify(first));
      const second = await upload(sysop, { filename: 'Gone.png', comment: 'second version', ignorewarnings: '1' }, png(5, 5, 9), 'image/png');
      assert.equal(second.upload.result, 'Success', JSON.stringify(second));
      const history = (await imageinfo('File:Gone.png')).imageinfo as { sha1: string; size: number }[];
      assert.equal(history.length, 2);

      const deleted = await post({ action: 'delete', title: 'File:Gone.png', reason: 'cleanup' });
      assert.equal(deleted.delete?.title, 'File:Gone.png', JSON.stringify(deleted));
      const gone = await imageinfo('File:Gone.png');
      assert.deepEqual([gone.missing, gone.imagerepository, gone.imageinfo], [true, '', undefined]);
      const allimages = (await wiki.api({ action: 'query', list: 'allimages', formatversion: '2' })).json().query.allimages as { name: string }[];
      assert.ok(!allimages.some((i) => i.name === 'Gone.png'));
      assert.equal((await wiki.rest('/v1/file/File:Gone.png')).status, 404);

      const again = await upload(sysop, { filename: 'Gone.png' }, png(6, 6, 13), 'image/png');
      assert.equal(again.upload.result, 'Warning', JSON.stringify(again));
      assert.equal(again.upload.warnings['was-deleted'], 'Gone.png');

      const restored = await post({ action: 'undelete', title: 'File:Gone.png', reason: 'oops' });
      // Two description revisions: the first upload's page and the re-upload's null revision.
      assert.equal(restored.undelete?.revisions, 2, JSON.stringify(restored));
      const back = await imageinfo('File:Gone.png');
      assert.equal(back.missing, undefined);
      assert.deepEqual(
        (back.imageinfo as { sha1: string; size: number }[]).map((v) => [v.sha1, v.size]),
        history.map((v) => [v.sha1, v.size]),
        'the whole file history is back, newest first',
      );
      const served = await fetch((await wiki.api({ action: 'query', titles: 'File:Gone.png', prop: 'imageinfo', iiprop: 'url', formatversion: '2' })).json().query.pages[0].imageinfo[0].url);
      assert.equal(served.status, 200);
      const log = (await wiki.api({ action: 'query', list: 'logevents', letype: 'delete', formatversion: '2' })).json().query.logevents as Record<string, any>[];
      assert.deepEqual([log[0]!.action, log[0]!.params.count], ['restore', { revisions: 2, files: 2 }]);
      // With the file back, an upload of the name is an overwrite again, not a was-deleted one.
      const over = await upload(sysop, { filename: 'Gone.png' }, png(6, 6, 13), 'image/png');
      assert.equal(over.upload.warnings?.['was-deleted'], undefined);
      assert.equal(over.upload.warnings?.exists, 'Gone.png');
    });

    test('delete, undelete, protect, move and rollback apply watchlist and watchlistexpiry', async () => {
      const watched = async (title: string) => {
        const page = (await sysop.api({ action: 'query', titles: title, prop: 'info', inprop: 'watched', formatversion: '2' })).json().query.pages[0];
        return { watched: page.watched === true, expiry: page.watchlistexpiry as string | undefined };
      };
      const edit = async (title: string) => {
        const r = await post({ action: 'edit', title, text: `text of ${title}`, watchlist: 'nochange' });
        assert.equal(r.edit?.result, 'Success', JSON.stringify(r));
      };
      // Within $wgWatchlistExpiryMaxDuration (1 year): a later expiry would be cut to it.
      const inDays = (days: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + days * 86_400_000).toISOString().replace('.000Z', 'Z');
      const expiry = inDays(90);
      const moveExpiry = inDays(120);
      await edit('Watch delete');
      // watchlist=preferences (the default) follows watchdeletion, off by default.
      assert.ok((await post({ action: 'delete', title: 'Watch delete' })).delete);
      assert.deepEqual(await watched('Watch delete'), { watched: false, expiry: undefined });
      await edit('Watch delete');
      assert.ok((await post({ action: 'delete', title: 'Watch delete', watchlist: 'watch', watchlistexpiry: expiry })).delete);
      assert.deepEqual(await watched('Watch delete'), { watched: true, expiry });
      assert.deepEqual(await watched('Talk:Watch delete'), { watched: true, expiry }, 'the talk page is watched with it');

      assert.ok((await post({ action: 'undelete', title: 'Watch delete', watchlist: 'unwatch' })).undelete);
      assert.deepEqual(await watched('Watch delete'), { watched: false, expiry: undefined });

      assert.ok((await post({ action: 'protect', title: 'Watch delete', protections: 'edit=sysop', watchlist: 'watch' })).protect);
      assert.deepEqual(await watched('Watch delete'), { watched: true, expiry: undefined });

      assert.ok((await post({ action: 'move', from: 'Watch delete', to: 'Watch moved', watchlist: 'unwatch' })).move);
      assert.deepEqual([(await watched('Watch delete')).watched, (await watched('Watch moved')).watched], [false, false]);
      assert.ok((await post({ action: 'move', from: 'Watch moved', to: 'Watch moved again', watchlist: 'watch', watchlistexpiry: moveExpiry })).move);
      assert.deepEqual(await watched('Watch moved'), { watched: true, expiry: moveExpiry });
      assert.deepEqual(await watched('Watch moved again'), { watched: true, expiry: moveExpiry });

      await edit('Watch rollback');
      const anon = (await wiki.post('/w/api.php', { action: 'edit', format: 'json', token: '+\\', title: 'Watch rollback', text: 'vandalism' })).json();
      assert.equal(anon.edit?.result, 'Success', JSON.stringify(anon));
      const rollbackToken = (await sysop.api({ action: 'query', meta: 'tokens', type: 'rollback' })).json().query.tokens.rollbacktoken as string;
      const vandal = (await wiki.api({ action: 'query', revids: String(anon.edit.newrevid), prop: 'revisions', rvprop: 'user', formatversion: '2' })).json().query.pages[0].revisions[0].user as string;
      const rolled = await post({ action: 'rollback', title: 'Watch rollback', user: vandal, watchlist: 'watch', token: rollbackToken });
      assert.ok(rolled.rollback, JSON.stringify(rolled));
      assert.deepEqual(await watched('Watch rollback'), { watched: true, expiry: undefined });
      // nochange leaves the watch alone.
      assert.ok((await post({ action: 'protect', title: 'Watch rollback', protections: 'edit=sysop', watchlist: 'nochange' })).protect);
      assert.equal((await watched('Watch rollback')).watched, true);
    });
  });
}
