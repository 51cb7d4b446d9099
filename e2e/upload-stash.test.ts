/*
 * The upload stash and chunked uploads: action=upload with stash, filekey (and the
 * deprecated sessionkey), chunk/offset/filesize, checkstatus, url; list=mystashedfiles and
 * prop=stashimageinfo — each answer's shape and values as the reference wiki gave them, the
 * rights (a stash is its owner's), and the state left behind (published files, emptied stash).
 * mwclient's own chunked upload drives the whole flow once. And action=filerevert, which makes an
 * old version current again, list=filearchive, the versions of deleted files, and
 * action=imagerotate, which answers as MediaWiki without a rotating media handler.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type TestWiki } from './harness.js';
import { loggedIn, noisyPng, png } from './files-helpers.js';

const quiet = () => undefined;
const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest('hex');
const KEY = /^[0-9a-z]+\.[0-9a-z]+\.\d+\.png$/;
const PYTHON = '/usr/bin/python3';
const hasMwclient = spawnSync(PYTHON, ['-c', 'import mwclient'], { stdio: 'ignore' }).status === 0;

type Client = Awaited<ReturnType<typeof loggedIn>>;

/** POST action=upload as multipart, with the file under `file` or `chunk`. */
async function post(c: Client, fields: Record<string, string>, bytes?: Buffer, field: 'file' | 'chunk' = 'file') {
  const r = await c.postMultipart('/w/api.php', {
    action: 'upload',
    format: 'json',
    ...fields,
    ...(bytes ? { [field]: new File([new Uint8Array(bytes)], field === 'chunk' ? 'blob' : (fields.filename ?? 'f'), { type: 'application/octet-stream' }) } : {}),
    token: c.csrf,
  });
  assert.equal(r.status, 200);
  return r.json<Record<string, any>>();
}

for (const backend of testBackends()) {
  describe(`upload stash and chunks (${backend})`, () => {
    let wiki: TestWiki;
    let admin: Client;
    let alice: Client;

    before(async () => {
      wiki = await startWiki(backend);
      await runAdmin(['createAndPromote', 'Admin', 'adminpass123456', '--groups', 'sysop,bureaucrat'], wiki.testEnv.env, quiet);
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, quiet);
      admin = await loggedIn(wiki, 'Admin', 'adminpass123456');
      alice = await loggedIn(wiki, 'Alice', 'alicepass123456');
    });
    after(() => wiki?.close());

    test('stash=1 keeps the file for its owner only; filekey= publishes it and empties the stash', async () => {
      const bytes = png(8, 6, 3);
      const r = await post(admin, { filename: 'Stashed.png', stash: '1' }, bytes);
      assert.equal(r.upload.result, 'Success', JSON.stringify(r));
      assert.match(r.upload.filekey, KEY);
      assert.equal(r.upload.sessionkey, r.upload.filekey);
      assert.equal(r.upload.filename, undefined);
      const key: string = r.upload.filekey;
      const ii = r.upload.imageinfo;
      assert.deepEqual(Object.keys(ii), ['timestamp', 'size', 'width', 'height', 'canonicaltitle', 'url', 'descriptionurl', 'sha1', 'metadata', 'commonmetadata', 'extmetadata', 'mime', 'bitdepth']);
      assert.deepEqual([ii.size, ii.width, ii.height, ii.sha1, ii.mime, ii.bitdepth], [bytes.length, 8, 6, sha1(bytes), 'image/png', 8]);
      assert.match(ii.canonicaltitle, /^File:\d{14}!php\w+\.png$/);
      assert.equal(ii.url, `${wiki.baseUrl}/wiki/Special:UploadStash/file/${key}`);
      // Nothing is published yet.
      const before = (await admin.api({ action: 'query', titles: 'File:Stashed.png', prop: 'imageinfo', formatversion: '2' })).json<any>();
      assert.equal(before.query.pages[0].missing, true);

      const mine = (await admin.api({ action: 'query', list: 'mystashedfiles', msfprop: 'size|type', formatversion: '2' })).json<any>();
      assert.deepEqual(mine.query.mystashedfiles, [{ filekey: key, status: 'finished', size: bytes.length, width: 8, height: 6, bits: 8, mimetype: 'image/png', mediatype: 'BITMAP' }]);
      const fv1 = (await admin.api({ action: 'query', list: 'mystashedfiles' })).json<any>();
      assert.deepEqual(fv1.query.mystashedfiles, [{ filekey: key, status: 'finished' }]);
      const info = (await admin.api({ action: 'query', prop: 'stashimageinfo', siifilekey: key, siiprop: 'size|sha1', formatversion: '2' })).json<any>();
      assert.deepEqual(info.query.stashimageinfo, [{ size: bytes.length, width: 8, height: 6, sha1: sha1(bytes) }]);

      // Another user neither sees nor publishes it.
      assert.deepEqual((await alice.api({ action: 'query', list: 'mystashedfiles', formatversion: '2' })).json<any>().query.mystashedfiles, []);
      assert.equal((await alice.api({ action: 'query', prop: 'stashimageinfo', siifilekey: key })).json<any>().error.code, 'uploadstash-file-not-found');
      assert.equal((await post(alice, { filename: 'Stashed.png', filekey: key })).error.code, 'uploadstash-file-not-found');
      assert.equal((await admin.api({ action: 'query', prop: 'stashimageinfo', siifilekey: '!!' })).json<any>().error.code, 'uploadstash-bad-path-bad-format');
      const anon = new WikiClient(wiki.baseUrl);
      assert.equal((await anon.api({ action: 'query', list: 'mystashedfiles' })).json<any>().error.code, 'stashnotloggedin');
      assert.equal((await admin.api({ action: 'query', list: 'mystashedfiles', msfcontinue: 'x' })).json<any>().error.code, 'badcontinue');

      const pub = await post(admin, { filename: 'Stashed.png', filekey: key, comment: 'from the stash' });
      assert.equal(pub.upload.result, 'Success', JSON.stringify(pub));
      assert.equal(pub.upload.filename, 'Stashed.png');
      assert.equal(pub.upload.imageinfo.comment, 'from the stash');
      assert.equal(pub.upload.imageinfo.sha1, sha1(bytes));
      const after = (await admin.api({ action: 'query', titles: 'File:Stashed.png', prop: 'imageinfo', iiprop: 'sha1|size', formatversion: '2' })).json<any>();
      assert.deepEqual(after.query.pages[0].imageinfo, [{ size: bytes.length, width: 8, height: 6, sha1: sha1(bytes) }]);
      assert.deepEqual((await admin.api({ action: 'query', list: 'mystashedfiles', formatversion: '2' })).json<any>().query.mystashedfiles, []);
      assert.equal((await post(admin, { filename: 'Stashed.png', filekey: key })).error.code, 'uploadstash-file-not-found');
    });

    test('an upload stopped by warnings is stashed; its filekey (or sessionkey) publishes it with ignorewarnings', async () => {
      const first = png(4, 4, 5);
      const second = png(4, 4, 9);
      assert.equal((await post(admin, { filename: 'Warned.png' }, first)).upload.result, 'Success');
      const w = await post(admin, { filename: 'Warned.png' }, second);
      assert.equal(w.upload.result, 'Warning');
      assert.deepEqual(w.upload.warnings, { exists: 'Warned.png' });
      assert.match(w.upload.filekey, KEY);
      assert.equal(w.upload.sessionkey, w.upload.filekey);
      // Without ignorewarnings the warning stands, and the same key is answered again.
      const again = await post(admin, { filename: 'Warned.png', sessionkey: w.upload.filekey });
      assert.equal(again.upload.result, 'Warning');
      assert.equal(again.upload.filekey, w.upload.filekey);
      const pub = await post(admin, { filename: 'Warned.png', filekey: w.upload.filekey, ignorewarnings: '1' });
      assert.equal(pub.upload.result, 'Success', JSON.stringify(pub));
      const hist = (await admin.api({ action: 'query', titles: 'File:Warned.png', prop: 'imageinfo', iiprop: 'sha1', iilimit: '5', formatversion: '2' })).json<any>();
      assert.deepEqual(
        hist.query.pages[0].imageinfo.map((v: { sha1: string }) => v.sha1),
        [sha1(second), sha1(first)],
      );
    });

    test('chunks: Continue with the offset, the last one stashes the assembled file; errors as MediaWiki', async () => {
      const bytes = noisyPng(80, 60);
      const size = bytes.length;
      const cut = [0, 4096, 8192, size];
      assert.ok(size > 8192 + 1024);
      let filekey: string | undefined;
      let last: Record<string, any> = {};
      for (let i = 0; i < 3; i++) {
        const fields: Record<string, string> = { filename: 'Chunked.png', filesize: String(size), offset: String(cut[i]), stash: '1', ...(filekey ? { filekey } : {}) };
        last = await post(admin, fields, bytes.subarray(cut[i], cut[i + 1]), 'chunk');
        if (i < 2) {
          assert.deepEqual(Object.keys(last.upload), ['result', 'offset', 'filekey']);
          assert.equal(last.upload.result, 'Continue');
          assert.equal(last.upload.offset, cut[i + 1]);
          if (filekey) assert.equal(last.upload.filekey, filekey);
          filekey = last.upload.filekey;
          // While chunks arrive, checkstatus tells where the upload stands.
          const st = await post(admin, { filekey: filekey!, checkstatus: '1' });
          assert.deepEqual(st.upload, { result: 'Continue', stage: 'uploading', offset: cut[i + 1] });
          if (i === 0) {
            const wrong = await post(admin, { filename: 'Chunked.png', filesize: String(size), offset: '1', filekey: filekey! }, bytes.subarray(1, 2000), 'chunk');
            assert.equal(wrong.error.code, 'stashfailed');
            assert.equal(wrong.error.info, 'Invalid chunk offset');
          }
        }
      }
      assert.equal(last.upload.result, 'Success', JSON.stringify(last));
      assert.notEqual(last.upload.filekey, filekey);
      assert.equal(last.upload.imageinfo.sha1, sha1(bytes));
      assert.match(last.upload.imageinfo.canonicaltitle, /^File:\d{14}!chunkedupload [0-9a-f]{12}\.png$/);
      // The chunks' key is gone; the assembled file is the one stashed file.
      const stash = (await admin.api({ action: 'query', list: 'mystashedfiles', msfprop: 'size', formatversion: '2' })).json<any>().query.mystashedfiles;
      assert.deepEqual(
        stash.map((f: { filekey: string; size: number }) => [f.filekey, f.size]),
        [[last.upload.filekey, size]],
      );
      assert.equal((await post(admin, { filekey: filekey!, checkstatus: '1' })).error.code, 'missingresult');
      const late = await post(admin, { filename: 'Chunked.png', filesize: String(size), offset: String(cut[1]), filekey: filekey! }, bytes.subarray(cut[1], cut[2]), 'chunk');
      assert.equal(late.error.code, 'stashfailed');
      const pub = await post(admin, { filename: 'Chunked.png', filekey: last.upload.filekey, comment: 'in chunks' });
      assert.equal(pub.upload.result, 'Success', JSON.stringify(pub));
      const bytesServed = Buffer.from(await (await fetch(pub.upload.imageinfo.url)).arrayBuffer());
      assert.equal(sha1(bytesServed), sha1(bytes));

      const chunk = bytes.subarray(0, 2000);
      const err = async (fields: Record<string, string>, part = chunk) => (await post(admin, { filename: 'Other.png', ...fields }, part, 'chunk')).error?.code;
      assert.equal(await err({ filesize: String(size), offset: '0' }, bytes.subarray(0, 10)), 'chunk-too-small');
      assert.equal(await err({ filesize: '100', offset: '0' }), 'invalid-chunk');
      assert.equal(await err({ filesize: String(size), offset: '5' }), 'filekeyneeded');
      assert.equal(await err({ filesize: String(size), offset: '0', filekey: 'a.b.1.png' }), 'filekeynotallowed');
      assert.equal(await err({ filesize: String(200 * 1024 * 1024), offset: '0' }), 'file-too-large');
    });

    test('the other sources: url is disabled, exactly one of filekey/file/url, invalid keys', async () => {
      const code = async (fields: Record<string, string>, bytes?: Buffer) => (await post(admin, fields, bytes)).error?.code;
      assert.equal(await code({ filename: 'U.png', url: 'http://example.org/a.png' }), 'copyuploaddisabled');
      assert.equal(await code({ filename: 'U.png' }), 'missingparam');
      assert.equal(await code({ filename: 'U.png', url: 'http://example.org/a.png', filekey: 'a.b.1.png' }), 'invalidparammix');
      assert.equal(await code({ filename: 'U.png', filekey: '!!' }), 'invalid-file-key');
      assert.equal(await code({ filekey: 'zz.yy.1.png', checkstatus: '1' }), 'missingresult');
      // async is ignored without asynchronous uploads ($wgEnableAsyncUploads = false).
      assert.equal((await post(admin, { filename: 'Async.png', async: '1' }, png(3, 3, 2))).upload.result, 'Success');
    });

    test('filerevert makes an old version current again: a new version, its log entry, its errors', async () => {
      const v1 = png(5, 5, 21);
      const v2 = png(5, 5, 23);
      assert.equal((await post(admin, { filename: 'Reverted.png', comment: 'v1' }, v1)).upload.result, 'Success');
      await new Promise((r) => setTimeout(r, 1100));
      assert.equal((await post(admin, { filename: 'Reverted.png', comment: 'v2', ignorewarnings: '1' }, v2)).upload.result, 'Success');
      const hist = async () =>
        (await admin.api({ action: 'query', titles: 'File:Reverted.png', prop: 'imageinfo', iiprop: 'sha1|comment|user|archivename', iilimit: '10', formatversion: '2' })).json<any>().query.pages[0]
          .imageinfo;
      const archivename: string = (await hist())[1].archivename;
      await new Promise((r) => setTimeout(r, 1100));
      const revert = (c: Client, fields: Record<string, string>) => c.post('/w/api.php', { action: 'filerevert', format: 'json', token: c.csrf, ...fields }).then((r) => r.json<any>());
      // Alice did not upload it; users may re-upload others' files (reupload).
      assert.deepEqual(await revert(alice, { filename: 'Reverted.png', archivename, comment: 'back to v1' }), { filerevert: { result: 'Success' } });
      const after = await hist();
      assert.equal(after.length, 3);
      assert.deepEqual(
        after.map((v: { sha1: string; comment: string; user: string }) => [v.sha1, v.comment, v.user]),
        [
          [sha1(v1), 'back to v1', 'Alice'],
          [sha1(v2), 'v2', 'Admin'],
          [sha1(v1), 'v1', 'Admin'],
        ],
      );
      const log = (await admin.api({ action: 'query', list: 'logevents', letitle: 'File:Reverted.png', letype: 'upload', leprop: 'type|user|comment', formatversion: '2' })).json<any>();
      assert.deepEqual(log.query.logevents[0], { type: 'upload', action: 'overwrite', user: 'Alice', comment: 'back to v1' });
      const h = crypto.createHash('md5').update('Reverted.png').digest('hex');
      const bytes = Buffer.from(await (await fetch(`${wiki.baseUrl}/w/images/${h[0]}/${h.slice(0, 2)}/Reverted.png`)).arrayBuffer());
      assert.equal(sha1(bytes), sha1(v1));

      assert.equal((await revert(admin, { filename: 'Reverted.png', archivename: '20000101000000!Reverted.png' })).error.code, 'filerevert-badversion');
      assert.equal((await revert(admin, { filename: 'Never uploaded.png', archivename: 'x' })).error.code, 'missingtitle');
      assert.equal((await revert(admin, { filename: 'a|b', archivename: 'x' })).error.code, 'invalidtitle');
      assert.equal((await revert(admin, { archivename: 'x' })).error.code, 'missingparam');
      const anon = new WikiClient(wiki.baseUrl);
      const denied = (await anon.post('/w/api.php', { action: 'filerevert', format: 'json', filename: 'Reverted.png', archivename, token: '+\\' })).json<any>();
      assert.equal(denied.error.code, 'permissiondenied');
      assert.equal((await hist()).length, 3);
    });

    test('list=filearchive lists the versions of deleted files, with the rights MediaWiki asks for', async () => {
      const v1 = png(3, 2, 31);
      const v2 = png(3, 2, 37);
      await post(admin, { filename: 'Archived.png', comment: 'first' }, v1);
      await new Promise((r) => setTimeout(r, 1100));
      await post(admin, { filename: 'Archived.png', comment: 'second', ignorewarnings: '1' }, v2);
      const del = await admin.post('/w/api.php', { action: 'delete', title: 'File:Archived.png', reason: 'gone', format: 'json', token: admin.csrf });
      assert.ok(del.json<any>().delete, del.text);
      const list = async (c: WikiClient, params: Record<string, string>) => (await c.api({ action: 'query', list: 'filearchive', faprefix: 'Archived', formatversion: '2', ...params })).json<any>();
      const all = await list(admin, { faprop: 'sha1|user|size|description|mime|archivename|bitdepth' });
      const rows = all.query.filearchive;
      assert.equal(rows.length, 2);
      // By name, then upload time: the first version (archived) comes first.
      assert.deepEqual(
        rows.map((r: Record<string, unknown>) => [r.name, r.ns, r.title, r.description, r.user, r.sha1, r.size, r.width, r.height, r.mime, r.bitdepth, typeof r.archivename]),
        [
          ['Archived.png', 6, 'File:Archived.png', 'first', 'Admin', sha1(v1), String(v1.length), '3', '2', 'image/png', '8', 'string'],
          ['Archived.png', 6, 'File:Archived.png', 'second', 'Admin', sha1(v2), String(v2.length), '3', '2', 'image/png', '8', 'undefined'],
        ],
      );
      const page1 = await list(admin, { falimit: '1' });
      assert.equal(page1.query.filearchive.length, 1);
      assert.match(page1.continue.facontinue, /^Archived\.png\|\d{14}\|\d+$/);
      const page2 = await list(admin, { falimit: '1', facontinue: page1.continue.facontinue });
      assert.deepEqual(
        page2.query.filearchive.map((r: { id: number }) => r.id),
        [rows[1].id],
      );
      assert.equal(page2.continue, undefined);
      assert.deepEqual(
        (await list(admin, { fasha1: sha1(v2) })).query.filearchive.map((r: { id: number }) => r.id),
        [rows[1].id],
      );
      assert.equal((await list(admin, { fasha1: 'xyz' })).error.code, 'invalidsha1hash');
      assert.equal((await list(admin, { fasha1base36: 'xyz' })).error.code, 'invalidsha1base36hash');
      assert.equal((await list(admin, { facontinue: 'a|b' })).error.code, 'badcontinue');
      // Anyone may list names and times; descriptions need deletedhistory, metadata deletedtext.
      assert.equal((await list(alice, {})).query.filearchive.length, 2);
      assert.equal((await list(alice, { faprop: 'description' })).error.code, 'permissiondenied');
      assert.equal((await list(alice, { faprop: 'metadata' })).error.code, 'permissiondenied');
    });

    test('imagerotate: titles default to the File namespace; each file fails as without a rotating handler, nothing changes', async () => {
      await post(admin, { filename: 'Rotated.png' }, png(4, 3, 41));
      const rotate = async (fields: Record<string, string>) =>
        (await admin.post('/w/api.php', { action: 'imagerotate', format: 'json', formatversion: '2', token: admin.csrf, ...fields })).json<any>();
      const r = await rotate({ titles: 'Rotated.png|File:Absent.png', rotation: '90' });
      const cannot = { message: 'apierror-filetypecannotberotated', params: [], code: 'filetypecannotberotated', type: 'error' };
      const absent = { message: 'apierror-filedoesnotexist', params: [], code: 'filedoesnotexist', type: 'error' };
      assert.deepEqual(
        r.imagerotate.map((e: Record<string, unknown>) => ({ ...e, id: typeof e.id })),
        [
          { id: 'number', ns: 6, title: 'File:Rotated.png', result: 'Failure', errors: [cannot] },
          { id: 'number', ns: 6, title: 'File:Absent.png', missing: true, result: 'Failure', errors: [absent] },
        ],
      );
      assert.equal((await rotate({ titles: 'Rotated.png', rotation: '45' })).error.code, 'badvalue');
      assert.equal((await rotate({ titles: 'Rotated.png' })).error.code, 'missingparam');
      const ii = (await admin.api({ action: 'query', titles: 'File:Rotated.png', prop: 'imageinfo', iiprop: 'size', iilimit: '5', formatversion: '2' })).json<any>();
      assert.deepEqual(
        ii.query.pages[0].imageinfo.map((v: { width: number; height: number }) => [v.width, v.height]),
        [[4, 3]],
      );
    });

    test('imageinfo: badfile from MediaWiki:Bad image list (with its exceptions), extmetadatafilter', async () => {
      await post(admin, { filename: 'Listed bad.png' }, png(2, 2, 43));
      const edit = await admin.post('/w/api.php', {
        action: 'edit',
        title: 'MediaWiki:Bad image list',
        text: '* [[:File:Listed bad.png]] except on [[Main Page]]\n',
        format: 'json',
        token: admin.csrf,
      });
      assert.equal(edit.json<any>().edit.result, 'Success', edit.text);
      const bad = async (params: Record<string, string>) =>
        (await admin.api({ action: 'query', titles: 'File:Listed bad.png|File:Stashed.png|File:Absent.png', prop: 'imageinfo', iiprop: 'badfile', formatversion: '2', ...params })).json<any>();
      const flags = (r: any) => Object.fromEntries(r.query.pages.map((pg: { title: string; badfile: boolean }) => [pg.title, pg.badfile]));
      assert.deepEqual(flags(await bad({})), { 'File:Listed bad.png': true, 'File:Stashed.png': false, 'File:Absent.png': false });
      assert.deepEqual(flags(await bad({ iibadfilecontexttitle: 'Main Page' })), { 'File:Listed bad.png': false, 'File:Stashed.png': false, 'File:Absent.png': false });
      const r = await bad({});
      assert.deepEqual(
        r.query.pages.find((pg: { title: string }) => pg.title === 'File:Absent.png'),
        { ns: 6, title: 'File:Absent.png', missing: true, imagerepository: '', badfile: false, imageinfo: [{ filemissing: true }] },
      );
      assert.deepEqual(r.query.pages.find((pg: { title: string }) => pg.title === 'File:Listed bad.png').imageinfo, [{}]);
      assert.equal((await bad({ iibadfilecontexttitle: 'a|b' })).error.code, 'invalid-title');
      const ext = (await admin.api({ action: 'query', titles: 'File:Listed bad.png', prop: 'imageinfo', iiprop: 'extmetadata', iiextmetadatafilter: 'DateTime|Nope', formatversion: '2' })).json<any>();
      assert.deepEqual(Object.keys(ext.query.pages[0].imageinfo[0].extmetadata), ['DateTime']);
    });

    test('allimages: filterbots by the uploader being in a bot group, only with aisort=timestamp and without aiuser; prop=badfile prints nothing', async () => {
      await runAdmin(['createAndPromote', 'Botty', 'bottypass123456', '--groups', 'bot'], wiki.testEnv.env, quiet);
      const bot = await loggedIn(wiki, 'Botty', 'bottypass123456');
      assert.equal((await post(bot, { filename: 'By a bot.png' }, png(2, 3, 47))).upload.result, 'Success');
      const names = async (filterbots: string) =>
        (await admin.api({ action: 'query', list: 'allimages', aisort: 'timestamp', aifilterbots: filterbots, aiprop: 'user', ailimit: 'max', formatversion: '2' }))
          .json<any>()
          .query.allimages.map((f: { name: string; user: string }) => `${f.name}/${f.user}`);
      assert.deepEqual(await names('bots'), ['By_a_bot.png/Botty']);
      const nobots = await names('nobots');
      assert.ok(nobots.length > 0 && !nobots.includes('By_a_bot.png/Botty') && nobots.every((n: string) => !n.endsWith('/Botty')));
      assert.equal((await names('all')).length, nobots.length + 1);
      const err = async (params: Record<string, string>) => (await admin.api({ action: 'query', list: 'allimages', ...params })).json<any>().error?.code;
      assert.equal(await err({ aifilterbots: 'bots' }), 'invalidparammix');
      assert.equal(await err({ aifilterbots: 'bots', aisort: 'timestamp', aiuser: 'Botty' }), 'invalidparammix-cannotusewith');
      const bf = (await admin.api({ action: 'query', list: 'allimages', aiprop: 'badfile|size', aiprefix: 'By', formatversion: '2' })).json<any>();
      assert.deepEqual(Object.keys(bf.query.allimages[0]), ['name', 'size', 'width', 'height', 'ns', 'title']);
    });

    test('mwclient uploads in chunks and publishes by filekey', { skip: !hasMwclient && 'python3-mwclient is not installed' }, async () => {
      const bytes = noisyPng(50, 40);
      const script = `
import io, json, os, sys
import mwclient
from urllib.parse import urlparse
u = urlparse(os.environ['WIKI_URL'])
site = mwclient.Site(u.netloc, path='/w/', scheme=u.scheme)
site.login('Admin', 'adminpass123456')
site.chunk_size = 4096
data = sys.stdin.buffer.read()
print(json.dumps(site.upload(io.BytesIO(data), 'Mwclient chunks.png', 'Uploaded by mwclient in chunks', ignore=True)))
`;
      // Asynchronously: the wiki answers from this very process.
      const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(PYTHON, ['-c', script], { env: { ...process.env, WIKI_URL: wiki.baseUrl } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
        child.stdin.end(bytes);
      });
      assert.equal(run.status, 0, run.stderr);
      const out = JSON.parse(run.stdout.trim().split('\n').pop()!);
      assert.equal(out.upload.result, 'Success', run.stdout);
      assert.equal(out.upload.filename, 'Mwclient_chunks.png');
      const ii = (await admin.api({ action: 'query', titles: 'File:Mwclient chunks.png', prop: 'imageinfo', iiprop: 'sha1|size|comment', formatversion: '2' })).json<any>();
      assert.deepEqual(ii.query.pages[0].imageinfo, [{ size: bytes.length, width: 50, height: 40, comment: 'Uploaded by mwclient in chunks', sha1: sha1(bytes) }]);
    });
  });
}
