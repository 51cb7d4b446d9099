import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DumpWriter, type DumpRevision, type DumpSiteInfo } from './writer.js';
import { decompressed, DumpError, readDump, sha1Base36, type DumpItem, type DumpPageIn } from './reader.js';
import { importDump, logItemOrigin, type ImportDeps, type ImportedLogEntry } from './importer.js';
import { logParamsFromDump, phpUnserialize } from './log-params.js';
import { ascendingRuns, exportXml } from './export.js';
import type { DumpsClient } from '../clients/dumps.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

const SITE: DumpSiteInfo = {
  sitename: 'Quire',
  dbname: 'quire',
  base: 'http://wiki.test/wiki/Main_Page',
  generator: 'MediaWiki 1.39.17',
  case: 'first-letter',
  namespaces: [
    { key: 0, case: 'first-letter', name: '' },
    { key: 1, case: 'first-letter', name: 'Talk' },
  ],
  lang: 'en',
};

function rev(over: Partial<DumpRevision>): DumpRevision {
  const text = over.text ?? 'hello';
  return {
    id: 5,
    parentId: 0,
    timestamp: '2024-01-02T03:04:05Z',
    userId: 3,
    userName: 'Alice',
    deleted: 0,
    minor: false,
    comment: '',
    model: 'wikitext',
    format: 'text/x-wiki',
    text,
    size: Buffer.byteLength(text),
    sha1: sha1Base36(text),
    origin: over.id ?? 5,
    ...over,
  };
}

async function collect(xml: string | Buffer, chunk = 7): Promise<DumpItem[]> {
  const buf = Buffer.isBuffer(xml) ? xml : Buffer.from(xml);
  // Small chunks: multi-byte characters and elements split across writes.
  const pieces: Buffer[] = [];
  for (let i = 0; i < buf.length; i += chunk) pieces.push(buf.subarray(i, i + chunk));
  const out: DumpItem[] = [];
  for await (const item of readDump(decompressed(Readable.from(pieces)))) out.push(item);
  return out;
}

const pagesOf = (items: DumpItem[]) => items.filter((i): i is Extract<DumpItem, { kind: 'page' }> => i.kind === 'page').map((i) => i.page);

function doc(pages: string, version = '0.11'): string {
  const w = new DumpWriter(version as '0.11');
  return (
    w
      .open(SITE)
      .replace(/export-0\.11/g, `export-${version}`)
      .replace('version="0.11"', `version="${version}"`) +
    pages +
    w.close()
  );
}

test('writer: XmlDumpWriter layout, escaping, contributors and deletion flags', () => {
  const w = new DumpWriter('0.11');
  const head = w.open(SITE);
  assert.ok(
    head.startsWith(
      '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.11/ http://www.mediawiki.org/xml/export-0.11.xsd" version="0.11" xml:lang="en">\n  <siteinfo>\n    <sitename>Quire</sitename>\n',
    ),
  );
  assert.match(head, /\n {6}<namespace key="0" case="first-letter" \/>\n {6}<namespace key="1" case="first-letter">Talk<\/namespace>\n {4}<\/namespaces>\n {2}<\/siteinfo>\n$/);
  assert.equal(
    w.openPage({ pageId: 7, ns: 0, title: 'A & B', redirectTitle: 'C "D"' }),
    '  <page>\n    <title>A &amp; B</title>\n    <ns>0</ns>\n    <id>7</id>\n    <redirect title="C &quot;D&quot;" />\n',
  );
  const r = w.revision(rev({ parentId: 4, minor: true, comment: '<b> & "q"', text: 'x < y & z' }));
  assert.equal(
    r,
    [
      '    <revision>',
      '      <id>5</id>',
      '      <parentid>4</parentid>',
      '      <timestamp>2024-01-02T03:04:05Z</timestamp>',
      '      <contributor>',
      '        <username>Alice</username>',
      '        <id>3</id>',
      '      </contributor>',
      '      <minor/>',
      '      <comment>&lt;b&gt; &amp; "q"</comment>',
      '      <origin>5</origin>',
      '      <model>wikitext</model>',
      '      <format>text/x-wiki</format>',
      `      <text bytes="9" sha1="${sha1Base36('x < y & z')}" xml:space="preserve">x &lt; y &amp; z</text>`,
      `      <sha1>${sha1Base36('x < y & z')}</sha1>`,
      '    </revision>',
      '',
    ].join('\n'),
  );
  const anon = w.revision(rev({ userId: 0, userName: '192.0.2.1' }));
  assert.match(anon, /<contributor>\n {8}<ip>192\.0\.2\.1<\/ip>\n {6}<\/contributor>/);
  const hidden = w.revision(rev({ deleted: 7, comment: 'secret' }));
  assert.match(hidden, /<contributor deleted="deleted" \/>/);
  assert.match(hidden, /<comment deleted="deleted" \/>/);
  assert.match(hidden, /<text bytes="5" sha1="[0-9a-z]{31}" deleted="deleted" \/>\n {6}<sha1\/>/);
  assert.doesNotMatch(hidden, /hello|secret|Alice/);
  // Schema 0.10 has no <origin> and no sha1 attribute; an empty text is a short tag.
  const old = new DumpWriter('0.10').revision(rev({ text: '' }));
  assert.doesNotMatch(old, /<origin>|sha1="/);
  assert.match(old, /<text bytes="0" xml:space="preserve" \/>/);
});

test('reader: what the writer writes reads back (0.10 and 0.11), split anywhere', async () => {
  for (const version of ['0.10', '0.11'] as const) {
    const w = new DumpWriter(version);
    const text = 'Ünïcödé — 日本語 🙂 & <tag>\n\n  spaced  ';
    const xml = doc(
      w.openPage({ pageId: 7, ns: 1, title: 'Talk:Foo', redirectTitle: '' }) +
        w.revision(rev({ id: 10, text: 'one' })) +
        w.revision(rev({ id: 11, parentId: 10, text, minor: true, comment: 'c & d', userId: 0, userName: '2001:db8::1' })) +
        w.closePage(),
      version,
    );
    const items = await collect(xml, 3);
    assert.deepEqual(items[0], { kind: 'start', schema: version });
    const site = items.find((i) => i.kind === 'siteinfo');
    assert.ok(site && site.kind === 'siteinfo');
    assert.equal(site.siteinfo.sitename, 'Quire');
    assert.deepEqual(site.siteinfo.namespaces[1], { key: 1, case: 'first-letter', name: 'Talk' });
    const [page] = pagesOf(items);
    assert.equal(page!.title, 'Talk:Foo');
    assert.equal(page!.ns, 1);
    assert.equal(page!.id, 7);
    assert.equal(page!.revisions.length, 2);
    const r = page!.revisions[1]!;
    assert.equal(r.text, text);
    assert.equal(r.minor, true);
    assert.equal(r.comment, 'c & d');
    assert.deepEqual(r.contributor, { ip: '2001:db8::1', deleted: false });
    assert.equal(r.parentId, 10);
    assert.equal(page!.revisions[0]!.contributor.username, 'Alice');
    assert.equal(page!.revisions[0]!.contributor.id, 3);
  }
});

test('reader: the reference wiki dump, plain, gzip and bzip2 alike', async () => {
  const plain = pagesOf(await collect(fs.readFileSync(path.join(FIXTURES, 'reference-full.xml')), 4096));
  assert.equal(plain.length, 7);
  assert.equal(
    plain.reduce((n, p) => n + p.revisions.length, 0),
    10,
  );
  const alpha = plain.find((p) => p.title === 'Dumps fixture/Alpha')!;
  assert.deepEqual(
    alpha.revisions.map((r) => r.contributor.username ?? r.contributor.ip),
    ['Admin', 'Alice', '127.0.0.1', 'Admin'],
  );
  assert.equal(plain.find((p) => p.title === 'Dumps fixture/Redirect')!.redirect, 'Dumps fixture/Alpha');
  for (const ext of ['gz', 'bz2']) {
    const other = pagesOf(await collect(fs.readFileSync(path.join(FIXTURES, `reference-full.xml.${ext}`)), 512));
    assert.deepEqual(other, plain, ext);
  }
});

async function failure(xml: string): Promise<DumpError> {
  const pages: DumpPageIn[] = [];
  try {
    for await (const item of readDump(decompressed(Readable.from([Buffer.from(xml)])))) if (item.kind === 'page') pages.push(item.page);
  } catch (e) {
    assert.ok(e instanceof DumpError, String(e));
    return Object.assign(e, { pages });
  }
  assert.fail('no error');
}

test('reader: bad input is a DumpError with its line, raised before the page is handed out', async () => {
  const w = new DumpWriter('0.11');
  const good = w.openPage({ pageId: 1, ns: 0, title: 'Good', redirectTitle: '' }) + w.revision(rev({ id: 1 })) + w.closePage();
  const goodLines = doc('').split('\n').length - 2 + good.split('\n').length - 1;

  const malformed = await failure(doc(`${good}  <page>\n    <title>Bad</title>\n    <ns>0</ns oops>\n  </page>\n`));
  assert.match(malformed.message, /^line \d+: malformed XML/);
  assert.equal(malformed.line, goodLines + 3);

  const truncated = await failure(doc(good).slice(0, -'</mediawiki>\n'.length));
  assert.match(truncated.message, /truncated/);
  assert.deepEqual(
    (truncated as unknown as { pages: DumpPageIn[] }).pages.map((p) => p.title),
    ['Good'],
  );

  const version = await failure(doc(good, '0.9'));
  assert.equal(version.line, 1);
  assert.match(version.message, /schema version "0\.9" is not supported/);

  const badSha = rev({ id: 2, text: 'changed' });
  const sha = await failure(doc(good + w.openPage({ pageId: 2, ns: 0, title: 'Bad sha', redirectTitle: '' }) + w.revision({ ...badSha, sha1: sha1Base36('original') }) + w.closePage()));
  assert.match(sha.message, /revision 2 of "Bad sha": the SHA-1 of its text is/);
  assert.equal(sha.line, goodLines + 5);
  assert.deepEqual(
    (sha as unknown as { pages: DumpPageIn[] }).pages.map((p) => p.title),
    ['Good'],
  );

  const dupRev = await failure(doc(good + w.openPage({ pageId: 2, ns: 0, title: 'Dup', redirectTitle: '' }) + w.revision(rev({ id: 1 })) + w.closePage()));
  assert.match(dupRev.message, /revision id 1 appears twice/);
  const dupPage = await failure(doc(good + w.openPage({ pageId: 1, ns: 0, title: 'Dup', redirectTitle: '' }) + w.closePage()));
  assert.match(dupPage.message, /page id 1 appears twice/);

  assert.match((await failure('<html><body/></html>')).message, /not a MediaWiki dump/);
  // Corrupt compressed bytes are the input's fault too.
  const gz = fs.readFileSync(path.join(FIXTURES, 'reference-full.xml.gz'));
  const bz = fs.readFileSync(path.join(FIXTURES, 'reference-full.xml.bz2'));
  for (const bad of [gz.subarray(0, gz.length / 2), Buffer.concat([bz.subarray(0, 40), Buffer.alloc(200, 7)])]) {
    let error: unknown;
    try {
      for await (const item of readDump(decompressed(Readable.from([bad])))) void item;
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof DumpError, String(error));
  }
  assert.match((await failure('')).message, /empty/);
});

test("log params: PHP-serialized (byte lengths), the formatters' typed keys, the legacy one-a-line form", () => {
  assert.deepEqual(phpUnserialize('a:3:{s:9:"4::target";s:7:"Zürich";i:0;b:1;s:1:"n";N;}'), { '4::target': 'Zürich', 0: true, n: null });
  assert.equal(phpUnserialize('a:1:{s:9:"4::target";s:6:"Zürich";}'), undefined, 'a wrong byte length is not PHP');
  assert.equal(phpUnserialize('O:8:"stdClass":0:{}'), undefined);
  assert.deepEqual(logParamsFromDump('a:1:{s:17:"associated_rev_id";i:1;}', 'create').params, { associated_rev_id: 1 });
  assert.deepEqual(logParamsFromDump('a:1:{s:9:"4::userid";i:3;}', 'newusers').params, { userid: 3 });
  const move = logParamsFromDump('a:2:{s:9:"4::target";s:9:"Talk:Next";s:10:"5::noredir";s:1:"1";}', 'move');
  assert.deepEqual(move.params, { target_title: 'Talk:Next', suppressredirect: true });
  assert.deepEqual(move.titles, [{ key: 'target', title: 'Talk:Next' }]);
  assert.deepEqual(logParamsFromDump('a:2:{s:8:"img_sha1";s:3:"abc";s:13:"img_timestamp";s:14:"20240102030405";}', 'upload').params, { img_sha1: 'abc', img_timestamp: '20240102030405' });
  assert.deepEqual(logParamsFromDump('a:1:{s:14:"5:timestamp:ts";s:14:"20240102030405";}').params, { ts: '2024-01-02T03:04:05Z' });
  assert.deepEqual(logParamsFromDump('Old target\n1', 'move').params, { 0: 'Old target', 1: '1' });
  assert.deepEqual(logParamsFromDump('').params, {});
});

test("reader and importer: the reference wiki's log items are read and logged once, by the importer's sink, with mapped users", async () => {
  const items = await collect(fs.readFileSync(path.join(FIXTURES, 'reference-logs.xml')));
  const logs = items.filter((i): i is Extract<DumpItem, { kind: 'logitem' }> => i.kind === 'logitem').map((i) => i.item);
  assert.equal(logs.length, 13);
  assert.deepEqual(
    { ...logs[1]!, line: 0 },
    {
      id: 2,
      timestamp: '2026-11-27T16:49:52Z',
      contributor: { deleted: false, username: 'Alice', id: 3 },
      comment: '',
      commentDeleted: false,
      type: 'newusers',
      action: 'autocreate',
      logtitle: 'User:Alice',
      params: 'a:1:{s:9:"4::userid";i:3;}',
      actionDeleted: false,
      line: 0,
    },
  );
  const recorded = new Map<string, ImportedLogEntry>();
  const deps: ImportDeps = {
    dumps: { importPages: async () => ({ pages: [] }) } as unknown as ImportDeps['dumps'],
    localUsers: async (names) => new Map(names.filter((n) => n === 'Admin').map((n) => [n, 1])),
    logs: {
      resolveTitles: async (titles) =>
        new Map(titles.filter((t) => !t.includes('#')).map((t) => [t, t.startsWith('User:') ? { ns: 2, dbkey: t.slice(5).replaceAll(' ', '_') } : { ns: 0, dbkey: t.replaceAll(' ', '_') }])),
      record: async (entries) => {
        let n = 0;
        for (const e of entries) if (!recorded.has(e.origin)) recorded.set(e.origin, e), n++;
        return n;
      },
    },
  };
  const first = await importDump(items, deps, { usernamePrefix: 'ref', assignKnownUsers: true });
  assert.equal(first.logItemsImported, 13);
  assert.equal(first.logItemsIgnored, 0);
  const alice = [...recorded.values()].find((e) => e.type === 'newusers')!;
  assert.deepEqual(
    { ...alice, origin: '' },
    { origin: '', type: 'newusers', action: 'autocreate', timestamp: '2026-11-27T16:49:52Z', userId: 0, userName: 'ref>Alice', ns: 2, dbkey: 'Alice', comment: '', paramsJson: '{"userid":3}' },
  );
  assert.ok(
    [...recorded.values()].some((e) => e.userName === 'Admin' && e.userId === 1 && e.comment === 'bench'),
    'a local account keeps the edit (assignKnownUsers)',
  );
  const again = await importDump(items, deps, { usernamePrefix: 'ref', assignKnownUsers: true });
  assert.equal(again.logItemsImported, 0, 'the same items again: nothing new');
  const dry = await importDump(items, { ...deps, logs: undefined }, { usernamePrefix: 'ref', assignKnownUsers: false });
  assert.equal(dry.logItemsIgnored, 13, 'without a sink they are counted as ignored');
  // An item whose target is not a valid title is skipped (WikiRevision::importLogItem).
  const bad = await collect(
    doc(
      '  <logitem>\n    <id>9</id>\n    <timestamp>2024-01-01T00:00:00Z</timestamp>\n    <contributor><ip>10.0.0.1</ip></contributor>\n    <type>delete</type>\n    <action>delete</action>\n    <logtitle>Bad#title</logtitle>\n    <params xml:space="preserve"></params>\n  </logitem>\n',
    ),
  );
  const skipped = await importDump(bad, deps, { usernamePrefix: 'ref', assignKnownUsers: false });
  assert.equal(skipped.logItemsImported, 0);
  assert.equal(skipped.invalid, 1);
  assert.equal(logItemOrigin({ type: 'a', action: 'b', timestamp: 't', params: '' }, 0, 'X'), logItemOrigin({ type: 'a', action: 'b', timestamp: 't', params: '' }, 0, 'X'));
  assert.notEqual(logItemOrigin({ type: 'a', action: 'b', timestamp: 't', params: '' }, 0, 'X'), logItemOrigin({ type: 'a', action: 'b', timestamp: 't', params: 'p' }, 0, 'X'));
});

test("reader: a file page's <upload>s (XmlDumpWriter::writeUpload, with contents) are counted and skipped; its revisions read as usual", async () => {
  const w = new DumpWriter('0.11');
  const upload =
    '    <upload>\n      <timestamp>2024-01-02T03:04:05Z</timestamp>\n      <contributor>\n        <username>Alice</username>\n        <id>3</id>\n      </contributor>\n      <comment>a dot</comment>\n      <filename>Dot.png</filename>\n      <src>http://wiki.test/images/a/ab/Dot.png</src>\n      <size>3</size>\n      <sha1base36>abc</sha1base36>\n      <rel>a/ab/Dot.png</rel>\n      <contents encoding="base64">AAEC\n</contents>\n    </upload>\n';
  const page = w.openPage({ pageId: 7, ns: 6, title: 'File:Dot.png', redirectTitle: '' }) + w.revision(rev({ id: 70, text: 'A dot.' })) + upload + w.closePage();
  const [read] = pagesOf(await collect(doc(page)));
  assert.equal(read!.title, 'File:Dot.png');
  assert.equal(read!.uploads, 1);
  assert.deepEqual(
    read!.revisions.map((r) => [r.id, r.text, r.contributor.username]),
    [[70, 'A dot.', 'Alice']],
  );
  const progress = await importDump(
    await collect(doc(page)),
    {
      dumps: { importPages: async () => ({ pages: [{ title: 'File:Dot.png', ns: 6, pageId: 7, revisions: 1, skipped: 0, invalid: false, error: '' }] }) } as unknown as ImportDeps['dumps'],
      localUsers: async () => new Map(),
    },
    { usernamePrefix: 'x', assignKnownUsers: false },
  );
  assert.equal(progress.uploadsIgnored, 1);
  assert.equal(progress.revisionsImported, 1);
});

test('export: a listed selection is written in its order (one ExportPages call per run of increasing ids), else by id', async () => {
  assert.deepEqual(ascendingRuns([7, 3, 4, 9, 2, 2]), [[7], [3, 4, 9], [2], [2]]);
  const calls: number[][] = [];
  const dumps = {
    async *exportPages(req: { pageIds: number[] }) {
      calls.push(req.pageIds);
      for (const id of [...req.pageIds].sort((a, b) => a - b)) yield { $case: 'page' as const, value: { pageId: id, ns: 0, title: `P${id}`, redirectTitle: '' } };
    },
  } as unknown as DumpsClient;
  const titles = async (listed: boolean) => {
    let xml = '';
    for await (const piece of exportXml(dumps, SITE, { pageIds: [5, 2, 3], listed, currentOnly: true })) xml += piece;
    return [...xml.matchAll(/<title>(\w+)<\/title>/g)].map((m) => m[1]);
  };
  assert.deepEqual(await titles(true), ['P5', 'P2', 'P3']);
  assert.deepEqual(calls, [[5], [2, 3]]);
  calls.length = 0;
  assert.deepEqual(await titles(false), ['P2', 'P3', 'P5']);
  assert.deepEqual(calls, [[5, 2, 3]]);
});

/** A dump of one page whose one revision has `text`, as MediaWiki writes it. */
function onePageDump(text: string, revId = 7): string {
  return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11"><page><title>Big</title><ns>0</ns><id>1</id><revision><id>${revId}</id><timestamp>2024-01-02T03:04:05Z</timestamp><contributor><ip>127.0.0.1</ip></contributor><model>wikitext</model><format>text/x-wiki</format><text bytes="${Buffer.byteLength(text)}" xml:space="preserve">${text}</text></revision></page></mediawiki>`;
}

test("a revision over $wgMaxArticleSize is refused with WikiImporter's message; one at the limit is read", async () => {
  const atLimit = 'a'.repeat(4 * 1024);
  const read = pagesOf(await collectWith(onePageDump(atLimit), { maxRevisionKb: 4 }));
  assert.equal(read[0]!.revisions[0]!.text, atLimit);
  // Bytes, as PHP's strlen: 2 KiB of two-byte characters is 4 KiB.
  await assert.rejects(collectWith(onePageDump(`${'é'.repeat(2 * 1024)}x`), { maxRevisionKb: 4 }), (e: unknown) => {
    assert.ok(e instanceof DumpError);
    assert.equal(e.message, 'line 1: The text of the revision with ID 7 exceeds the maximum allowable size (4 KiB)');
    return true;
  });
});

test('a gzip bomb (one 200 MB text in 200 KB) is refused after reading a few megabytes, quickly', async () => {
  const zlib = await import('node:zlib');
  const head = Buffer.from(onePageDump('SPLIT').split('SPLIT')[0]!);
  const tail = Buffer.from(onePageDump('SPLIT').split('SPLIT')[1]!);
  // 200 MB of one letter, compressed as a stream without building it.
  const gz = zlib.createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gz.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((r) => gz.on('end', r));
  gz.write(head);
  const mb = Buffer.alloc(1024 * 1024, 0x61);
  for (let i = 0; i < 200; i++) gz.write(mb);
  gz.end(tail);
  await done;
  const bomb = Buffer.concat(parts);
  assert.ok(bomb.length < 400 * 1024, `${bomb.length} bytes`);
  let decompressedBytes = 0;
  const counting = async function* () {
    for await (const chunk of decompressed(Readable.from([bomb]))) {
      decompressedBytes += chunk.length;
      yield chunk;
    }
  };
  const started = performance.now();
  await assert.rejects(
    (async () => {
      for await (const item of readDump(counting())) void item;
    })(),
    /exceeds the maximum allowable size \(2048 KiB\)/,
  );
  assert.ok(performance.now() - started < 5000, `${Math.round(performance.now() - started)} ms`);
  assert.ok(decompressedBytes < 32 * 1024 * 1024, `${decompressedBytes} bytes decompressed`);
});

test('decompressed: more than maxBytes once decompressed is a DumpError', async () => {
  const zlib = await import('node:zlib');
  const gz = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x61));
  await assert.rejects(
    (async () => {
      for await (const chunk of decompressed(Readable.from([gz]), { maxBytes: 1024 * 1024 })) void chunk;
    })(),
    (e: unknown) => e instanceof DumpError && /larger than 1 MiB once decompressed/.test(e.message),
  );
});

async function collectWith(xml: string, opts: { maxRevisionKb: number }): Promise<DumpItem[]> {
  const out: DumpItem[] = [];
  for await (const item of readDump(decompressed(Readable.from([Buffer.from(xml)])), opts)) out.push(item);
  return out;
}
