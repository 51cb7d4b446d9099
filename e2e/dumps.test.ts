/*
 * MediaWiki XML dumps in and out: a dump written by the reference MediaWiki 1.39's
 * dumpBackup.php --full (gateway/src/dump/fixtures/reference-full.xml) imports with
 * `admin importDump` and every page's history, text, contributors and timestamps match; a second
 * import and a resumed one double nothing; action=import answers as the reference wiki did
 * (its answers are written below); action=query&export and `admin dumpBackup` write what reads
 * back the same.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runAdmin } from '../scripts/admin.js';
import { decompressed, readDump, type DumpPageIn } from '../gateway/src/dump/reader.js';
import { ROOT, startWiki, testBackends, type TestWiki } from './harness.js';
import { loggedIn } from './files-helpers.js';

const FIXTURE = path.join(ROOT, 'gateway/src/dump/fixtures/reference-full.xml');

async function pagesOf(xml: Buffer | string): Promise<DumpPageIn[]> {
  const out: DumpPageIn[] = [];
  for await (const item of readDump(decompressed(Readable.from([Buffer.from(xml)])))) if (item.kind === 'page') out.push(item.page);
  return out;
}

/** A logged-in client that posts action=import with the dump as a multipart upload. */
async function importer(wiki: TestWiki, name: string, password: string) {
  const c = await loggedIn(wiki, name, password);
  return {
    importXml: async (xml: string | Buffer, fields: Record<string, string> = {}) =>
      (await c.postMultipart('/w/api.php', { action: 'import', format: 'json', formatversion: '2', token: c.csrf, ...fields, xml: new Blob([xml], { type: 'text/xml' }) })).json(),
  };
}

interface Rev {
  timestamp: string;
  user: string;
  comment: string;
  size: number;
  sha1: string;
  minor: boolean;
  content: string;
}

for (const backend of testBackends()) {
  describe(`XML dumps in and out (${backend})`, () => {
    let wiki: TestWiki;
    let tmp: string;
    let fixture: DumpPageIn[];
    const lines: string[] = [];
    const admin = (args: string[]) => runAdmin(args, wiki.testEnv.env, (l) => lines.push(l));
    const history = async (title: string): Promise<Rev[]> => {
      const r = (
        await wiki.api({
          action: 'query',
          formatversion: '2',
          prop: 'revisions',
          titles: title,
          rvlimit: '50',
          rvdir: 'newer',
          rvprop: 'timestamp|user|comment|size|sha1|flags|content',
          rvslots: 'main',
        })
      ).json();
      return (r.query.pages[0].revisions ?? []).map((v: any) => ({
        timestamp: v.timestamp,
        user: v.user,
        comment: v.comment,
        size: v.size,
        sha1: v.sha1,
        minor: v.minor,
        content: v.slots.main.content,
      }));
    };
    // Read with a session, never from the gateway's anonymous read cache: importDump writes
    // through the content service, and the gateway hears of those page changes only from the
    // change feed (polled every 200 ms), so an anonymous siteinfo read kept before the import may
    // still be answered right after it returns (a stale count, as seen once in CI).
    let reader: Awaited<ReturnType<typeof loggedIn>>;
    const pageCount = async () => Number((await reader.api({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).json().query.statistics.pages);

    before(async () => {
      wiki = await startWiki(backend);
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-dumps-'));
      fixture = await pagesOf(fs.readFileSync(FIXTURE));
      const quiet = () => undefined;
      await runAdmin(['createAndPromote', 'Sysop', 'sysoppass123456', '--groups', 'sysop'], wiki.testEnv.env, quiet);
      // A local account named as one of the dump's users: importDump assigns its edits to it.
      await runAdmin(['createAndPromote', 'Alice', 'alicepass123456'], wiki.testEnv.env, quiet);
      reader = await loggedIn(wiki, 'Alice', 'alicepass123456');
    });
    after(async () => {
      fs.rmSync(tmp, { recursive: true, force: true });
      await wiki?.close();
    });

    test('importDump --dry-run reads and checks, and writes nothing', async () => {
      const before = await pageCount();
      lines.length = 0;
      await admin(['importDump', FIXTURE, '--dry-run']);
      assert.match(lines.join('\n'), /Dry run: 7 pages, 10 revisions read and checked .* nothing written/);
      assert.equal(await pageCount(), before);
      assert.equal((await history('Dumps fixture/Alpha')).length, 0);
    });

    test('importDump: the reference dump imports with every history, text, contributor and timestamp', async () => {
      lines.length = 0;
      await admin(['importDump', FIXTURE]);
      assert.match(lines.join('\n'), /Done: 7 pages, 10 revisions imported \(0 already present\)/);
      for (const page of fixture) {
        const ours = await history(page.title);
        assert.equal(ours.length, page.revisions.length, page.title);
        page.revisions.forEach((r, i) => {
          const o = ours[i]!;
          assert.equal(o.timestamp, r.timestamp, `${page.title} #${i}`);
          assert.equal(o.content, r.text);
          assert.equal(o.comment, r.comment);
          assert.equal(o.minor, r.minor);
          assert.equal(o.size, Buffer.byteLength(r.text));
          // ExternalUserNames: IPs stay, local accounts keep their edits, the others are imported actors.
          const c = r.contributor;
          const expected = c.ip ?? (c.username === 'Alice' ? 'Alice' : `imported>${c.username}`);
          assert.equal(o.user, expected);
        });
      }
      // The redirect and the JSON page keep what they are.
      const info = (await wiki.api({ action: 'query', formatversion: '2', prop: 'info', titles: 'Dumps fixture/Redirect|User:Admin/dumps-fixture.json' })).json();
      const byTitle = Object.fromEntries(info.query.pages.map((p: any) => [p.title, p]));
      assert.equal(byTitle['Dumps fixture/Redirect'].redirect, true);
      assert.equal(byTitle['User:Admin/dumps-fixture.json'].contentmodel, 'json');
      // Fresh revision ids, as MediaWiki's importer gives them (the dump's name another wiki's rows), in time order.
      const ids = (await wiki.api({ action: 'query', formatversion: '2', prop: 'revisions', titles: 'Dumps fixture/Alpha', rvlimit: '10', rvdir: 'newer', rvprop: 'ids' })).json();
      const revids: number[] = ids.query.pages[0].revisions.map((r: any) => r.revid);
      assert.equal(revids.length, fixture[0]!.revisions.length);
      assert.deepEqual(
        revids,
        [...revids].sort((a, b) => a - b),
      );
      assert.notDeepEqual(
        revids,
        fixture[0]!.revisions.map((r) => r.id),
      );
    });

    test('importDump again: nothing is doubled', async () => {
      const before = await pageCount();
      lines.length = 0;
      await admin(['importDump', FIXTURE]);
      assert.match(lines.join('\n'), /Done: 7 pages, 0 revisions imported \(10 already present\)/);
      assert.equal(await pageCount(), before);
      assert.equal((await history('Dumps fixture/Alpha')).length, 4);
      // --namespaces: only the talk page is read into the import.
      lines.length = 0;
      await admin(['importDump', FIXTURE, '--namespaces', '1']);
      assert.match(lines.join('\n'), /Done: 1 pages, 0 revisions imported \(1 already present\)/);
    });

    test('a killed import resumes from its checkpoint, and a bad file stops with its line', async () => {
      // The same dump under other titles (titles only: the texts and their SHA-1s stay).
      const xml = fs
        .readFileSync(FIXTURE, 'utf8')
        .replace(/<title>(Talk:|User:Admin\/)?Dumps fixture/g, '<title>$1Resume fixture')
        .replace('<title>User:Admin/dumps-fixture.json', '<title>User:Admin/resume-fixture.json');
      const file = path.join(tmp, 'resume.xml');
      // Cut inside the fourth page: the first three are written, the fourth is not.
      const cut = xml.indexOf('<page>', xml.indexOf('Resume fixture/Redirect') - 200);
      fs.writeFileSync(file, xml.slice(0, xml.indexOf('</revision>', cut)));
      lines.length = 0;
      await assert.rejects(admin(['importDump', file]), /resume\.xml, line \d+: the input ends inside <revision> \(truncated\?\); nothing of that page was written/);
      assert.equal((await history('Resume fixture/Alpha')).length, 4);
      assert.equal((await history('Resume fixture/Template')).length, 1);
      assert.equal((await history('Resume fixture/Redirect')).length, 0);
      const checkpoint = JSON.parse(fs.readFileSync(`${file}.import-checkpoint.json`, 'utf8'));
      assert.equal(checkpoint.pagesRead, 3);

      // The whole file now, as if the import had been killed after page 3: it resumes there.
      fs.writeFileSync(file, xml);
      const stat = fs.statSync(file);
      fs.writeFileSync(`${file}.import-checkpoint.json`, JSON.stringify({ ...checkpoint, size: stat.size, mtimeMs: stat.mtimeMs }));
      lines.length = 0;
      await admin(['importDump', file]);
      const out = lines.join('\n');
      assert.match(out, /Resuming after page 3/);
      assert.match(out, /Done: 4 pages, 4 revisions imported \(0 already present\)/);
      assert.equal((await history('Resume fixture/Redirect')).length, 1);
      assert.equal((await history('Resume fixture/Alpha')).length, 4);
      assert.equal(fs.existsSync(`${file}.import-checkpoint.json`), false, 'a finished import removes its checkpoint');
    });

    test('bad dumps: SHA-1 mismatch, duplicate ids, wrong schema — a message with the line, that page not written', async () => {
      const xml = fs.readFileSync(FIXTURE, 'utf8');
      const cases: [string, string, RegExp][] = [
        ['sha1', xml.replace('Beta page {{Dumps fixture/Template}}', 'Beta page changed'), /line 107: revision 11 of "Bad-sha1 Beta": the SHA-1 of its text is/],
        ['dup', xml.replace('<id>12</id>', '<id>11</id>'), /line 126: revision id 11 appears twice/],
        ['schema', xml.replace('version="0.11"', 'version="0.3"'), /line 1: export schema version "0\.3" is not supported/],
      ];
      for (const [name, content, message] of cases) {
        const file = path.join(tmp, `${name}.xml`);
        fs.writeFileSync(file, content.replace(/Dumps fixture\/(Alpha|Beta|Template)<\/title>/g, `Bad-${name} $1</title>`));
        await assert.rejects(admin(['importDump', file]), message, name);
      }
      // The pages before the faulty one are in, the faulty one is not.
      assert.equal((await history('Bad-sha1 Alpha')).length, 4);
      assert.equal((await history('Bad-sha1 Beta')).length, 0);
      assert.equal((await history('Bad-dup Beta')).length, 1);
      assert.equal((await history('Bad-dup Template')).length, 0);
      assert.equal((await history('Bad-schema Alpha')).length, 0);
    });

    test('action=import: rights, errors and the answer of the reference wiki', async () => {
      const alice = await importer(wiki, 'Alice', 'alicepass123456');
      assert.equal((await alice.importXml(fs.readFileSync(FIXTURE), { interwikiprefix: 'src' })).error.code, 'cantimport-upload');
      const sysop = await importer(wiki, 'Sysop', 'sysoppass123456');
      const xml = fs.readFileSync(FIXTURE);
      assert.equal((await sysop.importXml(xml)).error.code, 'nointerwikiprefix');
      assert.equal((await sysop.importXml(xml, { interwikiprefix: 'src', rootpage: 'Dumps import test' })).error.code, 'import-rootpage-nosubpage');
      assert.equal((await sysop.importXml(xml, { interwikiprefix: 'src', namespace: '4', rootpage: 'User:X' })).error.code, 'invalidparammix');
      const before = await pageCount();
      const bad = await sysop.importXml(xml.toString('utf8').replace('</page>\n  <page>\n    <title>Dumps fixture/Template', '</page>\n  <page>\n    <title>Dumps fixture/Template</nope>'), {
        interwikiprefix: 'src',
        rootpage: 'User:Sysop/Imported',
      });
      assert.equal(bad.error.code, 'import-unknownerror');
      assert.match(bad.error.info, /^Unknown error on import: XML error at line 12\d: malformed XML/);
      assert.equal(await pageCount(), before, 'a malformed upload writes nothing');

      const r = await sysop.importXml(xml, { interwikiprefix: 'src', rootpage: 'User:Sysop/Imported', summary: 'because' });
      // As the reference wiki answered the same request (with User:Admin as root page).
      assert.deepEqual(r, {
        import: [
          { ns: 2, title: 'User:Sysop/Imported/Dumps fixture/Alpha', revisions: 4 },
          { ns: 2, title: 'User:Sysop/Imported/Dumps fixture/Beta', revisions: 1 },
          { ns: 2, title: 'User:Sysop/Imported/Dumps fixture/Template', revisions: 1 },
          { ns: 2, title: 'User:Sysop/Imported/Dumps fixture/Redirect', revisions: 1 },
          { ns: 2, title: 'User:Sysop/Imported/Dumps fixture/Empty lines', revisions: 1 },
          { ns: 2, title: 'User:Sysop/Imported/Talk:Dumps fixture/Alpha', revisions: 1 },
          { ns: 2, title: 'User:Sysop/Imported/User:Admin/dumps-fixture.json', revisions: 1 },
        ],
      });
      const revs = await history('User:Sysop/Imported/Dumps fixture/Alpha');
      assert.deepEqual(
        revs.map((v) => [v.user, v.comment, v.minor]),
        [
          ['src>Admin', 'create <alpha> & "quotes"', false],
          ['src>Alice', 'Alice: unicode', false],
          ['127.0.0.1', '', false],
          ['src>Admin', 'categorise', true],
          ['Sysop', '4 revisions imported: because', true],
        ],
      );
      const log = (await wiki.api({ action: 'query', formatversion: '2', list: 'logevents', letype: 'import', letitle: 'User:Sysop/Imported/Dumps fixture/Beta' })).json();
      const e = log.query.logevents[0];
      assert.deepEqual([e.type, e.action, e.user, e.comment, e.params], ['import', 'upload', 'Sysop', 'because', { count: 1 }]);
      // Again: every revision is there already, so no new revisions and no log entry.
      const again = await sysop.importXml(xml, { interwikiprefix: 'src', rootpage: 'User:Sysop/Imported' });
      assert.deepEqual(
        again.import.map((p: any) => p.revisions),
        [0, 0, 0, 0, 0, 0, 0],
      );
      assert.equal((await history('User:Sysop/Imported/Dumps fixture/Alpha')).length, 5);
    });

    test("action=import: a dump's huge ids are not kept (later edits and recent changes work), a revision over $wgMaxArticleSize is refused", async () => {
      const sysop = await importer(wiki, 'Sysop', 'sysoppass123456');
      const dump = (title: string, id: string, text: string) =>
        `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11"><page><title>${title}</title><ns>0</ns><id>${id}</id><revision><id>${id}</id><timestamp>2024-01-02T03:04:05Z</timestamp><contributor><ip>127.0.0.1</ip></contributor><model>wikitext</model><format>text/x-wiki</format><text xml:space="preserve">${text}</text></revision></page></mediawiki>`;
      const r = await sysop.importXml(dump('Huge ids', '9007199254740989', 'imported text'), { interwikiprefix: 'src' });
      assert.deepEqual(r.import, [{ ns: 0, title: 'Huge ids', revisions: 1 }]);
      const page = (await wiki.api({ action: 'query', formatversion: '2', prop: 'revisions', titles: 'Huge ids', rvprop: 'ids' })).json().query.pages[0];
      assert.ok(page.pageid < 1e6 && page.revisions[0].revid < 1e6, JSON.stringify(page));
      const c = await loggedIn(wiki, 'Sysop', 'sysoppass123456');
      const edit = (await c.post('/w/api.php', { action: 'edit', format: 'json', title: 'After huge ids', text: 'works', token: c.csrf })).json();
      assert.equal(edit.edit?.result, 'Success', JSON.stringify(edit));
      const rc = (await wiki.api({ action: 'query', formatversion: '2', list: 'recentchanges', rclimit: '5' })).json();
      assert.ok(Array.isArray(rc.query?.recentchanges), JSON.stringify(rc));
      // WikiImporter::makeContent: over $wgMaxArticleSize (2048 KiB) the import fails, and nothing is written.
      const before = await pageCount();
      const big = await sysop.importXml(dump('Too big', '12', 'a'.repeat(2048 * 1024 + 1)), { interwikiprefix: 'src' });
      assert.equal(big.error?.code, 'import-unknownerror');
      assert.match(big.error.info, /The text of the revision with ID 12 exceeds the maximum allowable size \(2048 KiB\)/);
      assert.equal(await pageCount(), before);
    });

    test('action=import: a page the importer may not edit is skipped (import-error-edit), the others imported', async () => {
      const sysop = await importer(wiki, 'Sysop', 'sysoppass123456');
      const page = (title: string, model: string, text: string, id: number) =>
        `<page><title>${title}</title><ns>${title.startsWith('MediaWiki:') ? 8 : title.startsWith('User:') ? 2 : 0}</ns><id>${id}</id><revision><id>${id}</id><timestamp>2024-01-02T03:04:05Z</timestamp><contributor><ip>127.0.0.1</ip></contributor><model>${model}</model><format>${model === 'javascript' ? 'text/javascript' : 'text/x-wiki'}</format><text xml:space="preserve">${text}</text></revision></page>`;
      const xml = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">${page('MediaWiki:Common.js', 'javascript', 'alert(1)', 1)}${page('User:Alice/common.js', 'javascript', 'alert(2)', 2)}${page('Import permission fine', 'wikitext', 'ok', 3)}</mediawiki>`;
      const r = await sysop.importXml(xml, { interwikiprefix: 'src' });
      assert.equal(r.error, undefined, JSON.stringify(r.error));
      // A sysop has neither editsitejs nor edituserjs: WikiImporter leaves both out (a notice, not listed by ApiImport).
      assert.deepEqual(r.import, [{ ns: 0, title: 'Import permission fine', revisions: 1 }]);
      const pages = (await wiki.api({ action: 'query', formatversion: '2', titles: 'MediaWiki:Common.js|User:Alice/common.js|Import permission fine' })).json().query.pages;
      const missing = Object.fromEntries(pages.map((p: { title: string; missing?: boolean }) => [p.title, p.missing === true]));
      assert.deepEqual(missing, { 'MediaWiki:Common.js': true, 'User:Alice/common.js': true, 'Import permission fine': false });
    });

    test("importDump: the reference wiki's log items (dumpBackup --logs) are logged once, without recent changes; namespaces by name", async () => {
      const logs = path.join(ROOT, 'gateway/src/dump/fixtures/reference-logs.xml');
      // A move with its typed parameters, as MediaWiki 1.39 writes one, besides the reference's create and newusers items.
      const move =
        '  <logitem>\n    <id>99</id>\n    <timestamp>2026-11-27T16:55:00Z</timestamp>\n    <contributor>\n      <username>Admin</username>\n      <id>1</id>\n    </contributor>\n    <comment>tidy</comment>\n    <type>move</type>\n    <action>move</action>\n    <logtitle>Dumps fixture/Old name</logtitle>\n    <params xml:space="preserve">a:2:{s:9:"4::target";s:22:"Talk:Dumps fixture/New";s:10:"5::noredir";s:1:"1";}</params>\n  </logitem>\n';
      const file = path.join(tmp, 'logs.xml');
      fs.writeFileSync(file, fs.readFileSync(logs, 'utf8').replace('</mediawiki>', `${move}</mediawiki>`));
      lines.length = 0;
      await admin(['importDump', file]);
      assert.match(lines.join('\n'), /14 log items imported/);
      const events = async (type: string) => (await wiki.api({ action: 'query', list: 'logevents', letype: type, lelimit: '50', formatversion: '2' })).json().query.logevents as any[];
      const autocreate = (await events('newusers')).find((e) => e.title === 'User:Alice' && e.timestamp === '2026-11-27T16:49:52Z');
      assert.ok(autocreate, "the reference wiki's autocreate entry");
      assert.equal(autocreate.user, 'Alice', 'a local account keeps its entries');
      assert.deepEqual(autocreate.params, { userid: 3 });
      const moved = (await events('move')).find((e) => e.title === 'Dumps fixture/Old name');
      assert.ok(moved);
      assert.equal(moved.user, 'imported>Admin');
      assert.equal(moved.comment, 'tidy');
      assert.deepEqual(moved.params, { target_title: 'Talk:Dumps fixture/New', suppressredirect: true, target_ns: 1 });
      const rc = (await wiki.api({ action: 'query', list: 'recentchanges', rctype: 'log', rclimit: '500', rcprop: 'title|timestamp', formatversion: '2' })).json().query.recentchanges as any[];
      assert.ok(!rc.some((c) => c.title === 'Dumps fixture/Old name'), 'imported log items make no recent change (importLogItem)');
      const creates = (await events('create')).length;
      lines.length = 0;
      await admin(['importDump', file]);
      assert.doesNotMatch(lines.join('\n'), /log items imported/);
      assert.equal((await events('create')).length, creates, 'nothing doubled');

      // --namespaces by name (importDump.php's getNsIndex) and by number; an unknown one is refused.
      lines.length = 0;
      await admin(['importDump', FIXTURE, '--namespaces', 'talk']);
      assert.match(lines.join('\n'), /Done: 1 pages, 0 revisions imported \(1 already present\)/);
      await assert.rejects(admin(['importDump', FIXTURE, '--namespaces', 'Nowhere']), /Unknown namespace text \/ index specified: Nowhere/);
      const out = path.join(tmp, 'talk.xml');
      lines.length = 0;
      await admin(['dumpBackup', '--current', '--namespaces', 'Talk|user', '--output', out]);
      const dumped = await pagesOf(fs.readFileSync(out));
      assert.ok(dumped.length > 0);
      assert.ok(
        dumped.every((p) => p.ns === 1 || p.ns === 2),
        dumped.map((p) => p.title).join(', '),
      );
      await assert.rejects(admin(['dumpBackup', '--current', '--namespaces', '0,999']), /Unknown namespace text \/ index specified: 999/);
    });

    test('export: action=query&export(nowrap) and dumpBackup read back as what was imported', async () => {
      const raw = await wiki.api({ action: 'query', titles: 'Dumps fixture/Alpha|Missing page', export: '1', exportnowrap: '1' });
      assert.equal(raw.status, 200);
      assert.match(raw.headers.get('content-type') ?? '', /^text\/xml/);
      assert.ok(raw.text.startsWith('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/"'));
      const current = await pagesOf(raw.text);
      assert.deepEqual(
        current.map((p) => [p.title, p.revisions.length]),
        [['Dumps fixture/Alpha', 1]],
      );
      assert.equal(current[0]!.revisions[0]!.text, fixture[0]!.revisions[3]!.text);

      const wrapped = (await wiki.api({ action: 'query', formatversion: '2', titles: 'Main Page', export: '1', exportschema: '0.10' })).json();
      assert.match(wrapped.query.export, /^<mediawiki xmlns="http:\/\/www\.mediawiki\.org\/xml\/export-0\.10\/"/);
      assert.doesNotMatch(wrapped.query.export, /<origin>/);

      const out = path.join(tmp, 'full.xml.gz');
      lines.length = 0;
      await admin(['dumpBackup', '--full', '--namespaces', '0,1,2', '--output', out]);
      assert.match(lines.join('\n'), /pages .* revs /);
      const dumped = await pagesOf(fs.readFileSync(out));
      for (const page of fixture) {
        const ours = dumped.find((p) => p.title === page.title);
        assert.ok(ours, page.title);
        assert.deepEqual(
          ours.revisions.map((r) => [r.timestamp, r.text, r.sha1, r.comment, r.minor, r.model, r.format]),
          page.revisions.map((r) => [r.timestamp, r.text, r.sha1, r.comment, r.minor, r.model, r.format]),
          page.title,
        );
        assert.equal(ours.redirect, page.redirect);
      }
      // Imported actors are written with their prefix and no id, as MediaWiki writes them.
      const alpha = dumped.find((p) => p.title === 'Dumps fixture/Alpha')!;
      assert.deepEqual(alpha.revisions[0]!.contributor, { username: 'imported>Admin', id: 0, deleted: false });
      assert.deepEqual(alpha.revisions[2]!.contributor, { ip: '127.0.0.1', deleted: false });
    });
  });
}
